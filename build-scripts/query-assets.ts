/**
 * The DuckDB-WASM files the "Query in your browser" page runs (core/site/query-page.ts), copied into the tree
 * from the installed @duckdb/duckdb-wasm at every build (hard links where the file system allows), so the page
 * loads nothing from another host. Only the `eh` build (WebAssembly exceptions: every current browser) is
 * shipped, 18 MB; the `mvp` build for browsers without them would add as much for none of today's browsers.
 *
 * @duckdb/duckdb-wasm is pinned to 1.28.0: the last release with the Parquet reader linked into its binary.
 * From 1.29 on, Parquet is an extension DuckDB-WASM downloads from DuckDB's extension host at the first
 * read_parquet, which the page's CSP refuses (connect-src 'self') and which no npm package ships to self-host.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DUCKDB_WASM_FILE, DUCKDB_WORKER_FILE, QUERY_ASSETS } from '../core/site/query-page.ts';
import type { TreeWriter } from './lib/tree-writer.ts';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@duckdb', 'duckdb-wasm', 'dist');

export function writeQueryAssets(writer: TreeWriter): void {
  for (const name of [DUCKDB_WORKER_FILE, DUCKDB_WASM_FILE]) {
    const from = join(DIST, name);
    writer.linkFrom(from, `${QUERY_ASSETS.slice(1)}${name}`, statSync(from).size);
  }
}
