/**
 * The endpoint: one node:http server. API paths go to their handler; everything else is a file of the
 * static tree (the docs site). Every error leaves as the one JSON error body.
 */
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { errorBody, HttpError, notFound, reasonPhrase } from '../core/http/errors.ts';
import { FILE_TYPES } from '../core/formats/files.ts';
import { contentTypeOf } from '../core/formats/media.ts';
import { RADAR_PREFIX, RADAR_PREFIXES, radarPrefixOf } from '../core/radar/routes.ts';
import { handleRadar } from './radar-handler.ts';
import { TIMESERIES_PREFIX } from '../core/timeseries/routes.ts';
import { preflightHeaders, READ_METHODS } from '../core/http/cors.ts';
import { handleTimeseries, timeseriesMethods, type TimeseriesOptions } from './timeseries-handler.ts';
import { ChartRenderer } from '../lib/chart-renderer.ts';
import { sendBytes, sendError, trySendFile } from './respond.ts';
import { buildHistory } from './changes-handler.ts';
import { applyBaseHeaders, applyCommonHeaders, BASE_HEADERS, etagOf, forgetCaching } from './http-cache.ts';
import { compressAnswers } from './compression.ts';
import { AnswerCache } from './answer-cache.ts';
import { SharedAnswers } from './shared-answers.ts';
import type { ServedBuild } from './served-build.ts';
import { EndpointMetrics } from './metrics.ts';
import { answerOps, noBuildOpen } from './ops-handler.ts';
import { reportToCluster } from '../lib/cluster-metrics.ts';
import { Spooler } from '../lib/spool.ts';

const SITE_TYPES: Record<string, string> = Object.fromEntries(Object.entries(FILE_TYPES).map(([ext, m]) => [`.${ext}`, contentTypeOf(m)]));

/**
 * The first segments of the APIs' paths (`/api`, `/radarnet`, `/superdarn`): a path under one that names nothing
 * is a JSON error, as the APIs answer; any other unknown path is a page of the site: its HTML 404 page.
 */
const API_ROOTS = [...new Set([TIMESERIES_PREFIX, ...RADAR_PREFIXES].map((p) => `/${p.split('/')[1]}`))];
export function isApiPath(pathname: string): boolean {
  return API_ROOTS.some((r) => pathname === r || pathname.startsWith(`${r}/`));
}

/** A file of the site for a request path, never outside it. */
async function siteFile(build: ServedBuild, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  if (rel.split(sep).includes('..')) return undefined;
  for (const candidate of [rel, join(rel, 'index.html'), `${rel}.html`]) {
    const path = join(build.site, candidate);
    if (!path.startsWith(build.site + sep) && path !== build.site) continue;
    const st = await stat(path).catch(() => undefined);
    if (st?.isFile()) return path;
  }
  return undefined;
}

/**
 * The request target as a URL. A target in origin form (`/path?query`) is a path even when it starts with `//`
 * (never a host); one that cannot be read is 400, not a crash.
 */
function requestUrl(target: string | undefined): URL {
  const t = target ?? '/';
  try {
    return t.startsWith('/') ? new URL(`http://localhost${t}`) : new URL(t, 'http://localhost');
  } catch {
    throw new HttpError(400, 'The request target is not a valid URL path', { hints: ['A valid example: /api/v1/stations'] });
  }
}

/**
 * An error written straight to a socket, where node:http wrote nothing or would write a bare status: the JSON
 * error body with the headers every answer has (CORS, nosniff, CSP, no framing, no referrer), not cached, and the
 * connection closed.
 */
export function rawErrorResponse(e: HttpError): string {
  const body = errorBody(e);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...BASE_HEADERS,
    'Cache-Control': 'no-store',
    ...e.headers,
    Connection: 'close',
  };
  return `HTTP/1.1 ${e.status} ${reasonPhrase(e.status)}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`;
}

/** Requests Node's HTTP parser refuses (too long, bad method, bad characters) still get the JSON error body. */
function answerClientError(err: NodeJS.ErrnoException & { code?: string }, socket: import('node:stream').Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' || err.code === 'HPE_URI_TOO_LONG' ? 431 : 400;
  socket.end(rawErrorResponse(new HttpError(status, status === 431 ? 'The request line or headers are too long' : 'The request could not be read as HTTP', { hints: ['A valid example: GET /api/v1/stations HTTP/1.1'] })));
}

/**
 * `CONNECT` (a proxy tunnel), which node:http hands to a 'connect' listener instead of the request handler and,
 * without one, closes unanswered: 405 like any other method the paths do not answer.
 */
function answerConnect(req: IncomingMessage, socket: import('node:stream').Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawErrorResponse(new HttpError(405, `Method ${req.method} is not allowed here`, { hints: ['This catalogue is read-only and no proxy: use GET'], headers: { Allow: READ_METHODS.join(', ') } })));
}

export interface AppOptions {
  /** Answer every API request by a query, never from the static tree (to check that both give the same bytes). */
  liveOnly?: boolean;
  /**
   * The chart renderer; by default one of the app's own, whose browser starts on the first chart request
   * and closes with the server.
   */
  renderer?: ChartRenderer;
  /** Hold recent answers in memory (answer-cache.ts); default true, never with `liveOnly`. */
  answerCache?: boolean;
  /**
   * Where streamed answers wait for slow clients (lib/spool.ts); by default one of the app's own, spilling to
   * the OS's temporary folder.
   */
  spooler?: Spooler;
}

/**
 * The endpoint over the build `getBuild` gives: undefined while it has none open yet (every request then 503,
 * /healthz included; /metrics answers). Its metrics (server/metrics.ts) are the server's `metrics`.
 */
export function createApp(getBuild: () => ServedBuild | undefined, options: AppOptions = {}): Server & { metrics: EndpointMetrics; answers: AnswerCache | undefined } {
  const own = options.renderer === undefined;
  const ts = { liveOnly: options.liveOnly ?? false, renderer: options.renderer ?? new ChartRenderer() };
  const spooler = options.spooler ?? new Spooler();
  // recent answers from memory (answer-cache.ts); never while every answer must come from a query
  const answers = options.liveOnly || options.answerCache === false ? undefined : new AnswerCache(undefined, undefined, undefined, SharedAnswers.fromEnv());
  const metrics = new EndpointMetrics({ getBuild, renderer: ts.renderer, spooler, answers: () => answers });
  if (cluster.isWorker) reportToCluster(metrics.registry);
  const server = createServer((req, res) => {
    metrics.observe(req, res);
    const build = getBuild();
    if (build && answers && replayHeld(req, res, build, answers)) return;
    compressAnswers(req, res);
    if (answerOps(req, res, build, metrics)) return;
    if (!build) {
      applyBaseHeaders(res);
      sendError(req, res, noBuildOpen());
      return;
    }
    if (applyCommonHeaders(req, res, build.tag)) return;
    const go = () => void handle(req, res, build, { ...options, spooler }, ts).catch((e: unknown) => sendError(req, res, e));
    // a Range request goes to the file (its 206 is of the file's bytes, server/respond.ts), never to the held answer
    if (answers && (req.method === 'GET' || req.method === 'HEAD') && req.headers.range === undefined) {
      const etag = res.getHeader('ETag') as string;
      // another request is making this answer: wait for it, then take it from memory (or make it, if not held)
      const making = answers.making(etag);
      if (making) {
        build.inFlight++;
        res.once('close', () => build.inFlight--);
        void making.then((made) => {
          if (!res.destroyed && !answers.answer(req, res, etag, { made })) go();
        });
        return;
      }
      if (answers.answer(req, res, etag)) return;
    }
    build.inFlight++;
    res.once('close', () => build.inFlight--);
    go();
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  if (own) server.on('close', () => void ts.renderer.close());
  server.on('close', () => metrics.close());
  return Object.assign(server, { metrics, answers });
}

/**
 * The fast path (issue 18, the small-file path): a GET or HEAD whose answer is held and went out before in the
 * same `Accept-Encoding` is sent again as it went (answer-cache.ts replay): one writeHead with every header
 * prebuilt, one end, before any header is set one by one or any wrapper is put on the response. `If-None-Match`
 * (a 304, with the ETag the client sent) and `Range` go the usual way. /healthz and /metrics are never held.
 */
function replayHeld(req: IncomingMessage, res: ServerResponse, build: ServedBuild, answers: AnswerCache): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const h = req.headers;
  if (h['if-none-match'] !== undefined || h.range !== undefined) return false;
  return answers.replay(res, etagOf(build.tag, req), h['accept-encoding']);
}

async function handle(req: IncomingMessage, res: ServerResponse, build: ServedBuild, options: AppOptions, ts: TimeseriesOptions): Promise<void> {
  const url = requestUrl(req.url);
  const timeseries = url.pathname === TIMESERIES_PREFIX || url.pathname.startsWith(`${TIMESERIES_PREFIX}/`);
  if (req.method === 'OPTIONS') {
    // the CORS preflight, on any path (core/http/cors.ts)
    res.writeHead(204, preflightHeaders(timeseries ? timeseriesMethods(url.pathname) : READ_METHODS));
    res.end();
    return;
  }
  // The Timeseries API checks methods itself: POST is allowed on /api/v1/timeseries/getData.
  if (timeseries) return handleTimeseries(req, res, url, build, ts);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError(405, `Method ${req.method} is not allowed here`, { hints: ['This catalogue is read-only: use GET'], headers: { Allow: READ_METHODS.join(', ') } });
  }
  const radarPrefix = radarPrefixOf(url.pathname);
  if (radarPrefix) return handleRadar(req, res, url, build, options.liveOnly ?? false, radarPrefix, options.spooler);
  // the snapshot history, in the tree too, but answered from the build's history/ so that a build without a tree has it
  if (url.pathname === '/snapshots.json') {
    const history = buildHistory(build);
    if (history) return sendBytes(req, res, 'application/json', history.bytes);
  }
  const file = await siteFile(build, url.pathname);
  // the site's files and the downloads answer byte ranges (core/http/range.ts)
  if (file && (await trySendFile(req, res, file, SITE_TYPES[extname(file)] ?? 'application/octet-stream', {}, 200, { ranges: true }))) return;
  if (!isApiPath(url.pathname)) {
    // the site's HTML 404 page, held in memory like any small file of the tree
    forgetCaching(res);
    if (await trySendFile(req, res, join(build.site, '404.html'), SITE_TYPES['.html']!, { 'Cache-Control': 'no-store' }, 404)) return;
  }
  throw notFound(`No such path: ${url.pathname}`, [`The radar catalogue starts at ${RADAR_PREFIX}/`]);
}
