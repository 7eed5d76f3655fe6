/**
 * Chart answers of the Timeseries API: PNG images and PDF reports rendered on demand by the process's warm
 * Chromium (lib/chart-renderer.ts), and the pre-rendered PNGs of the static tree.
 *
 * - `base64=true`: the same bytes base64-encoded, same Content-Type (DECISIONS.md).
 * - A chart that cannot be let in (too many waiting, or none free in time), a render that fails twice or runs past
 *   its time limit: 503 with the JSON error body and Retry-After.
 */
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { attachment } from '../core/http/download.ts';
import { HttpError, notFound } from '../core/http/errors.ts';
import { chartDocument } from '../core/timeseries/chart-document.ts';
import { readChartQuery, readRenderRequest, RENDER_EXAMPLE, type ChartKind, type ChartRequest } from '../core/timeseries/chart-request.ts';
import { chartFileName, MEDIA_TYPE, noPrerenderedChart, prerenderedFile, prerenderedFileName, PNG_TYPE } from '../core/timeseries/charts.ts';
import { MAX_POST_BYTES } from '../core/timeseries/data-request.ts';
import type { TimeseriesRoute } from '../core/timeseries/routes.ts';
import { PRERENDER_INTERVALS } from '../core/snapshot/timeseries-config.ts';
import { RendererBusy, RenderTimeout, type ChartRenderer } from '../lib/chart-renderer.ts';
import type { Admitted } from '../lib/admission.ts';
import { chartCost } from '../core/timeseries/chart-points.ts';
import { sendBytes, trySendFile } from './respond.ts';
import type { ServedBuild } from './served-build.ts';
import { parseJsonBody, readBody, type Timeseries } from './timeseries-data.ts';

/**
 * The 503 of a chart not let in, one per Retry-After, made once: under overload every chart client gets one again
 * and again, and an error object's stack trace is most of what making one costs (as lib/duckdb-pool.ts's refusals).
 */
const busyErrors = new Map<number, HttpError>();

function renderError(e: unknown): HttpError {
  if (e instanceof RendererBusy) {
    const s = e.retryAfterS;
    let err = busyErrors.get(s);
    if (!err) {
      err = new HttpError(503, 'Too many charts are being rendered just now', {
        hints: [`Try again in ${s} second${s === 1 ? '' : 's'}`, 'Pre-rendered charts: /api/v1/timeseries/{id}/lastWeek', 'Raw data as CSV: /api/v1/timeseries/{id}/getData.csv'],
        headers: { 'Retry-After': String(s) },
      });
      busyErrors.set(s, err);
    }
    return err;
  }
  if (e instanceof RenderTimeout) {
    return new HttpError(503, `Rendering the chart took longer than ${e.ms} ms`, {
      hints: ['Ask for a shorter timespan, or add generalize=true', 'Raw data is always available: /api/v1/timeseries/{id}/getData'],
      headers: { 'Retry-After': '5' },
    });
  }
  return new HttpError(503, 'The chart renderer is not available just now', {
    hints: ['Try again in a few seconds', 'Raw data is always available: /api/v1/timeseries/{id}/getData'],
    developerMessage: (e as Error)?.message,
    headers: { 'Retry-After': '5' },
  });
}

/**
 * A chart is let in by its cost (known from its series, their points in the span by the index, size and kind)
 * before any of its data is read; what does not fit waits its turn or is 503 with Retry-After
 * (lib/chart-renderer.ts). Its time limit runs from then.
 */
async function renderAndSend(req: IncomingMessage, res: ServerResponse, ts: Timeseries, renderer: ChartRenderer, request: ChartRequest): Promise<void> {
  const pointsAtMost = request.series.map(({ k }) => ts.series.countAtMost(ts.catalogue.timeseries[k]!, request.span));
  const cost = chartCost({ kind: request.kind, series: request.series.length, width: request.width, height: request.height, legend: request.legend, pointsAtMost });
  let admitted: Admitted;
  try {
    admitted = await renderer.admit(cost);
  } catch (e) {
    throw renderError(e);
  }
  let bytes: Buffer;
  try {
    const doc = await chartDocument(ts.catalogue, ts.series.source, request);
    try {
      bytes = await renderer.render(doc, admitted);
    } catch (e) {
      throw renderError(e);
    }
  } finally {
    admitted.release();
  }
  const body = request.base64 ? Buffer.from(bytes.toString('base64'), 'latin1') : bytes;
  sendBytes(req, res, MEDIA_TYPE[request.kind], body, 200, {
    'Content-Disposition': attachment(chartFileName(request.series.map((s) => ts.catalogue.timeseries[s.k]!.id), request.span, request.kind)),
  });
}

/** `GET /timeseries/{id}/getData` as PNG or PDF; `k` is the series' position. */
export function handleGetChart(req: IncomingMessage, res: ServerResponse, ts: Timeseries, renderer: ChartRenderer, kind: ChartKind, k: number, query: URLSearchParams): Promise<void> {
  const request = readChartQuery(kind, query, ts.catalogue, k);
  return renderAndSend(req, res, ts, renderer, request);
}

/** `POST /timeseries/getData` with a render request body, as PNG or PDF. */
export async function handlePostChart(req: IncomingMessage, res: ServerResponse, ts: Timeseries, renderer: ChartRenderer, kind: ChartKind, query: URLSearchParams): Promise<void> {
  const body = parseJsonBody(await readBody(req, MAX_POST_BYTES), RENDER_EXAMPLE);
  const request = readRenderRequest(kind, body, query, ts.catalogue);
  return renderAndSend(req, res, ts, renderer, request);
}

/** `GET /timeseries/{id}/{interval}`: the pre-rendered PNG from the static tree. */
export async function handlePrerendered(req: IncomingMessage, res: ServerResponse, build: ServedBuild, route: Extract<TimeseriesRoute, { kind: 'chart' }>, extension: string | undefined): Promise<void> {
  if (!route.interval) {
    throw notFound(`No chart interval '${route.name}' for timeseries '${route.id}'`, [
      `Pre-rendered intervals: ${PRERENDER_INTERVALS.join(', ')}, e.g. /api/v1/timeseries/${route.id}/lastWeek`,
      `Raw data: /api/v1/timeseries/${route.id}/getData`,
    ]);
  }
  if (extension !== undefined && extension !== 'png') {
    throw new HttpError(406, 'Pre-rendered charts are PNG images', { hints: [`A valid example: /api/v1/timeseries/${route.id}/${route.name}.png`, `A PDF report: /api/v1/timeseries/${route.id}/getData.pdf`] });
  }
  const download = { 'Content-Disposition': attachment(prerenderedFileName(route.id, route.interval, route.qualifier)) };
  if (await trySendFile(req, res, join(build.site, prerenderedFile(route.id, route.interval, route.qualifier)), PNG_TYPE, download)) return;
  throw noPrerenderedChart(route.id);
}
