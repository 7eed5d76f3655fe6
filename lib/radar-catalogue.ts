/**
 * The radar catalogue's database as the build writes it and the endpoint reads it: its file name in a build's
 * `data/` folder, and the facts the queries need, read from it (the build writes them, build-scripts/radar/
 * catalogue-db.ts; the endpoint reads them when it opens a build, server/served-build.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { CatalogueFacts } from '../core/radar/queries.ts';
import { SUBSET_TABLES } from '../core/radar/routes.ts';
import { all } from './duckdb.ts';

/** The radar catalogue database's file name in a build's `data/` folder. */
export const RADAR_DB_FILE = 'radarnet-mirror-v3.duckdb';

export async function readCatalogueFacts(conn: DuckDBConnection): Promise<CatalogueFacts> {
  // a database of an earlier snapcat may lack tables this one queries: refused as a whole, not a 500 per route
  const present = new Set((await all(conn, 'SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()')).map((r) => r['table_name'] as string));
  const missing = SUBSET_TABLES.map((s) => s.table).filter((t) => !present.has(t));
  if (missing.length > 0) throw new Error(`the radar catalogue database lacks the table ${missing.join(', ')}: it was built by an earlier version of snapcat; build the snapshot again`);
  const rows = await all(conn, 'SELECT resource, max_duration_ms FROM facts');
  // A partitioned build's big tables are views (writePartitioned).
  const [views] = await all(conn, "SELECT count(*) AS n FROM duckdb_views() WHERE database_name = current_database() AND view_name = 'files_x'");
  return {
    maxDurationMs: Object.fromEntries(rows.map((r) => [r['resource'] as string, Number(r['max_duration_ms'])])),
    partitioned: Number(views?.['n']) > 0,
  };
}
