/**
 * V8 flags the endpoint runs with (npm run serve, npm start, the benchmarks). A DuckDB chunk's native memory is
 * freed only when V8 collects its small JS wrapper; an old space left to grow freely collects rarely, and
 * streaming all of a 372k-file /files grew the endpoint to 390 MB. Capped, it stays under 200 MB (BENCHMARKS.md).
 * Raise the old space for very large timeseries catalogues (its metadata is held in memory).
 */
export const ENDPOINT_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=192'];
