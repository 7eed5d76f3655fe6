/**
 * Caching and security headers, set once per request before any handler answers:
 * - Every GET or HEAD answer is a function of the build and the request (path, query, `Accept`), so its ETag is
 *   a hash of those: `"<build tag>-<request hash>"`. A matching `If-None-Match` is 304 before any work.
 *   A new build (a new snapshot) changes every ETag. On the Timeseries API `Accept-Language` selects the labels'
 *   locale too, so it is part of the hash there (when sent).
 * - `Cache-Control: public, max-age=300` on answers (a CDN or browser may reuse them for five minutes, then
 *   revalidates with the ETag); errors are `no-store`. `Vary: Accept`, as `Accept` selects the representation
 *   (`Vary: Accept, Accept-Language` on the Timeseries API; compression.ts adds `Accept-Encoding`, and the
 *   coding's name to the ETag of a compressed answer: a 304 answers any coding's ETag of the current answer,
 *   with the ETag the client sent).
 * - CORS: `Access-Control-Allow-Origin: *` on everything, and the headers a script needs to read exposed
 *   (`Link` for paging, `ETag`, `Content-Disposition`).
 * - Security, on every answer (HTML pages of the docs site and of the radar API's `text/html` type included):
 *   `X-Content-Type-Options: nosniff`, a Content-Security-Policy allowing only this origin (plus inline
 *   styles and data: images), no framing, no referrer.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTimeseriesTarget } from '../core/timeseries/routes.ts';
import { etagsInAnyCoding } from '../core/http/content-coding.ts';
import { isQueryPath } from '../core/site/query-page.ts';
import { CACHE_CONTROL, SECURITY_HEADERS, cspFor } from '../core/http/response-headers.ts';

export { CACHE_CONTROL, SECURITY_HEADERS, QUERY_CSP, cspFor } from '../core/http/response-headers.ts';


/** What every answer carries, the ones written straight to a socket too (app.ts rawErrorResponse): CORS and security. */
export const BASE_HEADERS: Record<string, string> = { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff', ...SECURITY_HEADERS };

export function etagOf(buildTag: string, req: IncomingMessage): string {
  const language = isTimeseriesTarget(req.url) ? req.headers['accept-language'] : undefined;
  const key = `${req.url ?? '/'}\n${req.headers.accept ?? ''}${language ? `\n${language}` : ''}`;
  const memoKey = `${buildTag}\n${key}`;
  const known = etagMemo.get(memoKey);
  if (known !== undefined) return known;
  const etag = `"${buildTag}-${createHash('sha1').update(key).digest('base64url').slice(0, 16)}"`;
  if (memoKey.length <= ETAG_MEMO_KEY_MAX) {
    if (etagMemoChars + memoKey.length > ETAG_MEMO_CHARS) {
      etagMemo.clear();
      etagMemoChars = 0;
    }
    etagMemo.set(memoKey, etag);
    etagMemoChars += memoKey.length;
  }
  return etag;
}

/**
 * ETags made before, by build tag and request (etagOf's hash input): a repeated request (the static files, a
 * popular query) costs a lookup instead of a SHA-1 (issue 18, the small-file path). Bounded by the keys'
 * characters (ETAG_MEMO_CHARS, a few MB); when full it starts again empty. Keys longer than ETAG_MEMO_KEY_MAX (a
 * crawler's odd URLs) are hashed each time and not kept. A new build's tag makes new keys; the old build's go
 * at the next emptying.
 */
const etagMemo = new Map<string, string>();
let etagMemoChars = 0;
export const ETAG_MEMO_CHARS = 4 * 1024 * 1024;
export const ETAG_MEMO_KEY_MAX = 1024;

/**
 * The ETag an `If-None-Match` header matches (weak comparison): `etag` itself or `etag` in a content coding
 * (etagInCoding: every coding of one build's answer is current), `etag` for `*`; undefined when none matches.
 */
export function matchingEtag(header: string | undefined, etag: string): string | undefined {
  if (!header) return undefined;
  if (header.trim() === '*') return etag;
  const current = etagsInAnyCoding(etag);
  for (const t of header.split(',')) {
    const tag = t.trim().replace(/^W\//, '');
    if (current.includes(tag)) return tag;
  }
  return undefined;
}

/**
 * Sets the common headers; answers 304 and returns true when the client's copy is current.
 * Handlers' own writeHead headers are merged over these.
 */
export function applyCommonHeaders(req: IncomingMessage, res: ServerResponse, buildTag: string): boolean {
  applyBaseHeaders(res);
  const path = (req.url ?? '/').split('?')[0]!;
  if (isQueryPath(path)) res.setHeader('Content-Security-Policy', cspFor(path));
  res.setHeader('Vary', isTimeseriesTarget(req.url) ? 'Accept, Accept-Language' : 'Accept');
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const etag = etagOf(buildTag, req);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', CACHE_CONTROL);
  const matched = matchingEtag(req.headers['if-none-match'], etag);
  if (matched === undefined) return false;
  res.setHeader('ETag', matched);
  res.writeHead(304);
  res.end();
  return true;
}

/** CORS, security headers and `Vary`: what every answer carries, the uncached ones (/healthz, /metrics) too. */
export function applyBaseHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(BASE_HEADERS)) res.setHeader(k, v);
  res.setHeader('Access-Control-Expose-Headers', 'Link, ETag, Content-Disposition');
  res.setHeader('Vary', 'Accept');
}

/** An error must not be cached or revalidated as if it were the answer. */
export function forgetCaching(res: ServerResponse): void {
  res.removeHeader('ETag');
  res.setHeader('Cache-Control', 'no-store');
}
