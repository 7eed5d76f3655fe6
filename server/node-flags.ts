/**
 * How the endpoint's node runs (npm run serve, npm start, the benchmarks).
 *
 * V8 flags: a DuckDB chunk's native memory is freed only when V8 collects its small JS wrapper; an old space left
 * to grow freely collects rarely, and streaming all of a 372k-file /files grew the endpoint to 390 MB. Capped, it
 * stays under 200 MB (BENCHMARKS.md). Raise the old space for very large timeseries catalogues (its metadata is
 * held in memory). `--expose-gc` lets the endpoint collect the young garbage of streamed answers (young-garbage.ts).
 */
export const ENDPOINT_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=192', '--expose-gc'];

/**
 * Environment: node's compile cache, in the checkout's `.cache/`. Node strips the types of each .ts file it loads
 * with a WebAssembly compiler it loads for the purpose; from the cache it takes the stripped (and compiled) code
 * instead, and never loads that compiler. An endpoint process then starts at 134 instead of 163 MB resident,
 * and so stays lower all its life (BENCHMARKS.md). The first start after a change fills the cache.
 *
 * DuckDB's allocator (jemalloc, read as it starts, so set here and not in code) keeps one arena, not one per
 * thread. A query runs on whichever of node's four pool threads takes its next chunk, and each thread's arena kept
 * the pages its part of the query had freed: the same two one-year answers, three times over, left 328 MB resident
 * with an arena per thread and 294 MB with one, as fast.
 */
export const ENDPOINT_NODE_ENV = { NODE_COMPILE_CACHE: '.cache/node-compile', DUCKDB_JE_MALLOC_CONF: 'narenas:1' };

/** The command an npm script runs the endpoint's `entry` with (package.json start and serve). */
export function endpointScript(entry: string): string {
  const env = Object.entries(ENDPOINT_NODE_ENV).map(([k, v]) => `${k}=${v}`);
  return [...env, 'node', ...ENDPOINT_NODE_FLAGS, entry].join(' ');
}
