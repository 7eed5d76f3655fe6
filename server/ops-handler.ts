/**
 * The endpoint's paths for operators, answered before anything else and never from the static tree:
 * - `GET /healthz`: 200 `{"status": "ok", "name": …, "taken_at": …}` of the build served; 503 (the JSON error
 *   body, `Retry-After`) while no build is open.
 * - `GET /metrics`: the Prometheus text format (server/metrics.ts); with `--workers N` every worker's, summed.
 * Both are `Cache-Control: no-store` with no ETag: they describe this moment, not the build. Methods other than
 * GET and HEAD are 405, but OPTIONS, which the app answers as on any path.
 */
import cluster from 'node:cluster';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/http/errors.ts';
import { HEALTH_PATH, METRICS_PATH } from '../core/http/route-family.ts';
import { applyBaseHeaders } from './http-cache.ts';
import { sendError, sendText } from './respond.ts';
import { clusterMetricsText } from '../lib/cluster-metrics.ts';
import { PROMETHEUS_CONTENT_TYPE, type EndpointMetrics } from './metrics.ts';
import type { ServedBuild } from './served-build.ts';

/** 503 for every request while the endpoint has no build open (it is opening its first). */
export function noBuildOpen(): HttpError {
  return new HttpError(503, 'The endpoint is opening its build and answers nothing yet', { hints: ['Try again in a few seconds'], headers: { 'Retry-After': '5' } });
}

/** Answers /healthz or /metrics and returns true; false, with nothing sent, for any other path. */
export function answerOps(req: IncomingMessage, res: ServerResponse, build: ServedBuild | undefined, metrics: EndpointMetrics): boolean {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  // OPTIONS (the CORS preflight, answered alike on every path) is the app's
  if ((path !== HEALTH_PATH && path !== METRICS_PATH) || req.method === 'OPTIONS') return false;
  applyBaseHeaders(res);
  res.setHeader('Cache-Control', 'no-store');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(req, res, new HttpError(405, `Method ${req.method} is not allowed here`, { hints: [`Use GET ${path}`], headers: { Allow: 'GET, HEAD' } }));
    return true;
  }
  if (path === HEALTH_PATH) {
    if (!build) sendError(req, res, noBuildOpen());
    else sendText(req, res, 200, 'application/json', JSON.stringify({ status: 'ok', name: build.manifest.name, taken_at: build.manifest.taken_at }));
    return true;
  }
  (cluster.isWorker ? clusterMetricsText() : metrics.text()).then(
    (text) => sendText(req, res, 200, PROMETHEUS_CONTENT_TYPE, text),
    (e: unknown) => sendError(req, res, new HttpError(503, 'The metrics could not be collected just now', { hints: ['Try again in a few seconds'], developerMessage: (e as Error).message, headers: { 'Retry-After': '5' } })),
  );
  return true;
}
