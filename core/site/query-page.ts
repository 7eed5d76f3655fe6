/**
 * The "Query in your browser" page (/query/) and its DuckDB-WASM files: where they are in the tree, and the
 * Content-Security-Policy its paths answer with. Compiling WebAssembly needs 'wasm-unsafe-eval' in script-src
 * (of the page and, for the worker that compiles it, of the worker script's own answer); every other path keeps
 * the policy without it.
 */
export const QUERY_PAGE_PREFIX = '/query/';
/** The folder of the tree the DuckDB-WASM files are copied to, and their names (those of @duckdb/duckdb-wasm's dist/). */
export const QUERY_ASSETS = '/query/duckdb/';
export const DUCKDB_WORKER_FILE = 'duckdb-browser-eh.worker.js';
export const DUCKDB_WASM_FILE = 'duckdb-eh.wasm';

/** A Content-Security-Policy with 'wasm-unsafe-eval' added to its script-src. */
export function withWasm(csp: string): string {
  return csp.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");
}

/** True for the paths whose answers carry QUERY_CSP. */
export function isQueryPath(pathname: string): boolean {
  return pathname === '/query' || pathname.startsWith(QUERY_PAGE_PREFIX);
}
