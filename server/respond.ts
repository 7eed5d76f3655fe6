/** Writing responses: common headers, the JSON error body, static files, streamed bodies with back-pressure. */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, HttpError } from '../core/http/errors.ts';
import { JSON_TYPE as TIMESERIES_JSON_TYPE } from '../core/timeseries/charts.ts';
import { isTimeseriesTarget } from '../core/timeseries/routes.ts';
import { forgetCaching } from './http-cache.ts';
import { identityAnswer } from './compression.ts';
import { ifRangeAllows, rangeAnswer } from '../core/http/range.ts';
import { youngGarbage } from './young-garbage.ts';
import { heldWhateverType } from './answer-cache.ts';

export const API_HEADERS = { 'Access-Control-Allow-Origin': '*' };

export function sendText(req: IncomingMessage, res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  sendBytes(req, res, contentType, Buffer.from(body, 'utf8'), status, headers);
}

export function sendError(req: IncomingMessage, res: ServerResponse, e: unknown): void {
  const err = e instanceof HttpError ? e : new HttpError(500, 'The server could not answer this request.', { hints: ['Try again; if it persists, tell the operator of this catalogue.'] });
  if (!(e instanceof HttpError)) console.error(`${req.method} ${req.url}: ${(e as Error)?.stack ?? e}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  forgetCaching(res);
  const { body, heads } = errorAnswer(err);
  const type = jsonTypeFor(req);
  let head = heads.get(type);
  if (!head) heads.set(type, (head = { ...API_HEADERS, 'Content-Type': type, 'Content-Length': body.length, ...err.headers }));
  res.writeHead(err.status, head);
  res.end(body);
}

/**
 * An error's body as bytes and its heads by Content-Type, made once per error object. Most errors are made per
 * request and used once, but a refusal under overload (lib/duckdb-pool.ts, lib/admission.ts) is one object reused
 * for every 503 of its kind: each then costs a lookup here, not a JSON.stringify, a Buffer and a header object.
 * An HttpError is not changed once it is sent (its fields are read-only; the one mutated, a 404's hints, is
 * mutated before it is thrown), so neither are these.
 */
const errorAnswers = new WeakMap<HttpError, { body: Buffer; heads: Map<string, Record<string, string | number>> }>();
function errorAnswer(e: HttpError): { body: Buffer; heads: Map<string, Record<string, string | number>> } {
  let a = errorAnswers.get(e);
  if (!a) errorAnswers.set(e, (a = { body: Buffer.from(errorBody(e), 'utf8'), heads: new Map() }));
  return a;
}

/** The Content-Type of a JSON error or redirect body: the Timeseries API's own (with its charset) on its paths. */
function jsonTypeFor(req: IncomingMessage): string {
  return isTimeseriesTarget(req.url) ? TIMESERIES_JSON_TYPE : 'application/json';
}

export function redirect(req: IncomingMessage, res: ServerResponse, location: string): void {
  sendText(req, res, 301, jsonTypeFor(req), JSON.stringify({ location }), { Location: location });
}

/**
 * Small files of the static tree held in memory, least recently used first out. A build folder never changes
 * once built (a new build is a new folder), so a path's bytes never go stale; a replaced build's entries age out.
 */
const CACHE_FILE_MAX = 256 * 1024;
const CACHE_BUDGET = 32 * 1024 * 1024;
const fileCache = new Map<string, Buffer>();
let cachedBytes = 0;

function remember(path: string, bytes: Buffer): void {
  fileCache.set(path, bytes);
  cachedBytes += bytes.length;
  for (const [k, v] of fileCache) {
    if (cachedBytes <= CACHE_BUDGET) break;
    fileCache.delete(k);
    cachedBytes -= v.length;
  }
}

export function sendBytes(_req: IncomingMessage, res: ServerResponse, contentType: string, bytes: Buffer, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...API_HEADERS, 'Content-Type': contentType, 'Content-Length': bytes.length, ...headers });
  // HEAD too: node sends no body for HEAD, and the compressor (compression.ts) needs it for the Content-Length
  res.end(bytes);
}

/**
 * Sends a body made piece by piece: each piece is made into bytes in turn (never all one string), then the
 * length goes first and the body as one whole answer (compressed whole, with its length: compression.ts).
 */
export function sendPieces(req: IncomingMessage, res: ServerResponse, contentType: string, pieces: Iterable<string>, headers: Record<string, string> = {}): void {
  sendBytes(req, res, contentType, Buffer.concat(Array.from(pieces, (s) => Buffer.from(s, 'utf8'))), 200, headers);
}

/**
 * The file of the static tree a request path names by its own name (`/api/v1/index.json`), or undefined for a
 * path that cannot be decoded or holds a `..` segment or a NUL.
 */
export function treeFilePath(site: string, pathname: string): string | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    return undefined;
  }
  if (rel.includes('\0') || rel.split('/').includes('..')) return undefined;
  return join(site, rel);
}

/** How trySendFile answers. */
export interface SendFileOptions {
  /**
   * Answer `Range` requests (core/http/range.ts): the docs site's files and the downloads, never an API's files
   * (a live answer has no ranges, and the tree must answer what the endpoint answers). Sends `Accept-Ranges: bytes`;
   * a GET with a Range header is answered in identity (never compressed), whatever part of the file it gets.
   */
  ranges?: boolean;
}

/**
 * Sends a file of the static tree; false, with nothing sent, when there is no such file. The file is opened
 * before anything is answered, so a file removed meanwhile (an old build pruned) falls back to the caller's
 * next answer instead of failing half-way. Files up to 256 KB are kept in memory after their first read.
 */
export async function trySendFile(req: IncomingMessage, res: ServerResponse, path: string, contentType: string, headers: Record<string, string> = {}, status = 200, opts: SendFileOptions = {}): Promise<boolean> {
  const ranged = opts.ranges === true && status === 200;
  const hit = fileCache.get(path);
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  let size: number;
  if (hit) {
    fileCache.delete(path); // most recently used goes last
    fileCache.set(path, hit);
    size = hit.length;
  } else {
    fh = await open(path, 'r').catch(() => undefined);
    if (!fh) return false;
    const st = await fh.stat();
    if (!st.isFile()) {
      await fh.close();
      return false;
    }
    size = st.size;
  }
  let part: { start: number; end: number } | undefined;
  if (ranged) {
    headers = { ...headers, 'Accept-Ranges': 'bytes' };
    const range = req.method === 'GET' ? req.headers.range : undefined;
    if (range !== undefined) {
      identityAnswer(res);
      const etag = res.getHeader('ETag');
      const answer = ifRangeAllows(headerValue(req.headers['if-range']), typeof etag === 'string' ? etag : undefined) ? rangeAnswer(range, size) : { kind: 'whole' as const };
      if (answer.kind === 'unsatisfiable') {
        await fh?.close();
        sendError(req, res, new HttpError(416, `The range ${range} is not within the file's ${size} bytes`, {
          hints: ['Ask for bytes=0-99 (the first 100 bytes), bytes=100- (from byte 100 to the end) or bytes=-100 (the last 100 bytes)', `The file has ${size} bytes (Content-Range)`],
          headers: { 'Content-Range': `bytes */${size}` },
        }));
        return true;
      }
      if (answer.kind === 'partial') part = answer;
    }
  }
  if (part) {
    const length = part.end - part.start + 1;
    const partHeaders = { ...headers, 'Content-Range': `bytes ${part.start}-${part.end}/${size}` };
    if (hit) {
      sendBytes(req, res, contentType, hit.subarray(part.start, part.end + 1), 206, partHeaders);
      return true;
    }
    res.writeHead(206, { ...API_HEADERS, 'Content-Type': contentType, 'Content-Length': length, ...partHeaders });
    await pipeFile(res, fh!, part);
    return true;
  }
  if (hit) {
    heldWhateverType(res);
    sendBytes(req, res, contentType, hit, status, headers);
    return true;
  }
  if (size <= CACHE_FILE_MAX) {
    const bytes = await fh!.readFile().finally(() => fh!.close());
    remember(path, bytes);
    heldWhateverType(res);
    sendBytes(req, res, contentType, bytes, status, headers);
    return true;
  }
  res.writeHead(status, { ...API_HEADERS, 'Content-Type': contentType, 'Content-Length': size, ...headers });
  if (req.method === 'HEAD') {
    await fh!.close();
    res.end();
    return true;
  }
  await pipeFile(res, fh!);
  return true;
}

/** Pipes a file (or its bytes start to end, inclusive) to the response, closing it. */
async function pipeFile(res: ServerResponse, fh: Awaited<ReturnType<typeof open>>, part?: { start: number; end: number }): Promise<void> {
  const stream = fh.createReadStream(part ? { start: part.start, end: part.end } : {});
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
  await once(stream, 'close');
}

/** A client that takes nothing of a streamed answer for this long is disconnected, freeing its query. */
export const STALL_MS = 30_000;

/** A client that has taken nothing for this long is a slow one (WritePacing.onSlowClient). */
export const SLOW_CLIENT_MS = 1_000;

/** How writePieces waits for its client. */
export interface WritePacing {
  /** Disconnect a client that has taken nothing for this long (default STALL_MS). */
  stallMs?: number;
  /** Called once, the first time the client has taken nothing for `slowMs` (default SLOW_CLIENT_MS). */
  onSlowClient?: () => void;
  slowMs?: number;
  /**
   * Called with each piece once the socket is done with it (its write's callback): pieces lent from a pool
   * (frame-unpacker.ts) go back. Such pieces are not garbage, so they do not count towards young-garbage.ts.
   */
  written?: (piece: string | Uint8Array) => void;
}

/**
 * Resolves when the response can take more (drain) or is gone (close), leaving no listener behind. A client that
 * has not drained within `stallMs` is disconnected; `slow` is called once it has waited `slowMs`.
 */
function drained(res: ServerResponse, stallMs: number, slowMs: number, slow: (() => void) | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => res.destroy(), stallMs);
    const slowTimer = slow ? setTimeout(slow, slowMs) : undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(slowTimer);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes pieces as they come, waiting whenever the socket's buffer is full; stops when the client goes or stalls.
 * `pacing.onSlowClient` is called once, when the client first keeps the answer waiting `slowMs`.
 */
export async function writePieces(res: ServerResponse, pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, pacing: WritePacing = {}): Promise<void> {
  let slow = pacing.onSlowClient;
  const slowOnce = () => {
    const s = slow;
    slow = undefined;
    s?.();
  };
  const { written } = pacing;
  for await (const piece of pieces) {
    if (res.destroyed) return;
    if (piece.length === 0) continue;
    if (!written) youngGarbage.streamed(piece.length);
    if (!(written ? res.write(piece, () => written(piece)) : res.write(piece))) await drained(res, pacing.stallMs ?? STALL_MS, pacing.slowMs ?? SLOW_CLIENT_MS, slow ? slowOnce : undefined);
  }
  res.end();
}

/** A request header's value, the first when sent several times. */
function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
