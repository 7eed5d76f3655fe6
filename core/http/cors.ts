/**
 * The CORS preflight (`OPTIONS`) of every path of both APIs and the site: 204 with the methods the path
 * answers, the request headers a script may send, and how long a browser may keep the answer
 * (DECISIONS.md "Real clients": "OPTIONS on any path answers the CORS preflight").
 *
 * - `Access-Control-Allow-Methods` (and `Allow`): the path's methods, OPTIONS included.
 * - `Access-Control-Allow-Headers`: a fixed list, the same for every request, so one cached preflight
 *   serves them all and no header needs echoing: the headers a client of a read-only API sends (`Accept`,
 *   `Accept-Language`, `Content-Type` of a POST body, revalidation, the legacy `X-Requested-With`).
 * - `Access-Control-Max-Age`: one day.
 */

/** Request headers a cross-origin script may send. */
export const CORS_ALLOWED_HEADERS = ['Accept', 'Accept-Language', 'Content-Language', 'Content-Type', 'Cache-Control', 'If-None-Match', 'If-Modified-Since', 'X-Requested-With'];

export const CORS_MAX_AGE_SECONDS = 86_400;

/** The methods of a path that has no method of its own: GET and HEAD (and the preflight). */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** The headers of the 204 preflight answer for a path that answers `methods`. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> {
  const allow = methods.join(', ');
  return {
    Allow: allow,
    'Access-Control-Allow-Methods': allow,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}
