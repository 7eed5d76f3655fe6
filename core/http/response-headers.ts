import { isQueryPath, withWasm } from '../site/query-page.ts';

/**
 * Headers every answer carries, whoever writes it: the endpoint (server/http-cache.ts) and the nginx
 * configuration the build writes (build-scripts/nginx-config.ts), so the two send the same.
 */

/** Cache-Control of an answer (errors are `no-store`): a CDN or browser may reuse it five minutes, then revalidates. */
export const CACHE_CONTROL = 'public, max-age=300';

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The policy of the "Query in your browser" page and its DuckDB-WASM worker (paths under /query/:
 * core/site/query-page.ts): the same, with 'wasm-unsafe-eval' in script-src, which compiling WebAssembly needs.
 */
export const QUERY_CSP = withWasm(SECURITY_HEADERS['Content-Security-Policy']!);

/** The Content-Security-Policy of an answer to a request path. */
export function cspFor(pathname: string): string {
  return isQueryPath(pathname) ? QUERY_CSP : SECURITY_HEADERS['Content-Security-Policy']!;
}
