/**
 * How the endpoint's node runs (npm run serve, npm start, the benchmarks).
 *
 * V8 flags: a DuckDB chunk's native memory is freed only when V8 collects its small JS wrapper; an old space left
 * to grow freely collects rarely, and streaming all of a 372k-file /files grew the endpoint to 390 MB. Capped, it
 * stays under 200 MB (BENCHMARKS.md). Raise the old space for very large timeseries catalogues (its metadata is
 * held in memory).
 */
export const ENDPOINT_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=192'];

/**
 * Environment: node's compile cache, in the checkout's `.cache/`. Node strips the types of each .ts file it loads
 * with a WebAssembly compiler it loads for the purpose; from the cache it takes the stripped (and compiled) code
 * instead, and never loads that compiler. An endpoint process then starts at 134 instead of 163 MB resident,
 * and so stays lower all its life (BENCHMARKS.md). The first start after a change fills the cache.
 */
export const ENDPOINT_NODE_ENV = { NODE_COMPILE_CACHE: '.cache/node-compile' };

/** The command an npm script runs the endpoint's `entry` with (package.json start and serve). */
export function endpointScript(entry: string): string {
  const env = Object.entries(ENDPOINT_NODE_ENV).map(([k, v]) => `${k}=${v}`);
  return [...env, 'node', ...ENDPOINT_NODE_FLAGS, entry].join(' ');
}
