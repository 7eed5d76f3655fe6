/**
 * How the endpoint's node runs (npm run serve, npm start, the benchmarks).
 *
 * V8 flags, chosen for latency, not for a memory figure: resident memory is held by admission (charts are let in
 * by their cost, lib/chart-renderer.ts; queries by the connection pool), not by a heap cap. A heap capped at
 * 192 MB with 2 MB semi-spaces bought a low resident figure with frequent collections, and four large PDFs at
 * once ran it out of memory and killed the process (issue 18). Now:
 * - `--max-semi-space-size=16`: the young generation V8 gives a large heap; a scavenge costs what survives, not
 *   the space's size, so 8 times fewer of them for the same garbage.
 * - `--max-old-space-size=1024`: a ceiling far above what admitted work holds (the chart budget is 192 MB, a
 *   streamed answer's chunks a few MB each), so V8 sizes the heap by its own heuristics and never thrashes
 *   near the cap; raise it for very large timeseries catalogues (their metadata is held in memory).
 * - `--expose-gc`: the endpoint collects the young garbage of streamed answers every 4 MB (young-garbage.ts):
 *   a DuckDB chunk's native memory is freed only when V8 collects its small JS wrapper.
 * Tried against these for the tail (issue 18, `npm run bench -- --only tail`, docs/scale-out.md "Where the tail
 * latency comes from"): `--single-threaded-gc`, `--min-semi-space-size=16`, 64 MB semi-spaces; none gave a better
 * p99 at 16 connections (a scavenge costs about 0.5 ms of CPU here; the tail is elsewhere).
 */
export const ENDPOINT_NODE_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=1024', '--expose-gc'];

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
