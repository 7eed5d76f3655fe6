/**
 * The timeseries database (`data/timeseries-v1.duckdb`, written by build-scripts/timeseries/timeseries-db.ts)
 * as the build and the endpoint read it: the metadata once, into a Catalogue, and observations per request,
 * as typed arrays.
 */
import type { DuckDBConnection, DuckDBVector } from '@duckdb/node-api';
import type { Catalogue, CatalogueRows, SeriesRec } from '../core/timeseries/catalogue.ts';
import { makeCatalogue } from '../core/timeseries/catalogue.ts';
import type { SeriesSource } from '../core/timeseries/data.ts';
import type { Points } from '../core/timeseries/data-body.ts';
import { lastValueBeforeQuery, firstValueAfterQuery, seriesRangeQuery } from '../core/timeseries/data-queries.ts';
import type { TimeseriesConfig } from '../core/snapshot/timeseries-config.ts';
import type { SqlFragment } from '../core/radar/filters.ts';
import { all } from './duckdb.ts';

export const TIMESERIES_DB_FILE = 'timeseries-v1.duckdb';

/** The metadata queries, one per table, each ordered as makeCatalogue needs. */
const METADATA_QUERIES: Record<keyof CatalogueRows, string> = {
  services: 'SELECT * FROM services ORDER BY id',
  categories: 'SELECT * FROM categories ORDER BY id',
  offerings: 'SELECT * FROM offerings ORDER BY id',
  features: 'SELECT * FROM features ORDER BY id',
  procedures: 'SELECT * FROM procedures ORDER BY id',
  phenomena: 'SELECT * FROM phenomena ORDER BY id',
  stations: 'SELECT * FROM stations ORDER BY id',
  timeseries: 'SELECT * FROM timeseries ORDER BY id',
  reference_values: 'SELECT * FROM reference_values ORDER BY id',
  reference_value_observations: 'SELECT * FROM reference_value_observations ORDER BY reference_value_id, "timestamp"',
  labels: 'SELECT resource_id, locale, label FROM labels ORDER BY resource_id, locale',
};

export async function readConfig(conn: DuckDBConnection): Promise<TimeseriesConfig> {
  const [row] = await all(conn, "SELECT value FROM meta WHERE key = 'config'");
  if (!row) throw new Error('timeseries database: no configuration (meta.config)');
  return JSON.parse(String(row['value'])) as TimeseriesConfig;
}

/** Loads every metadata table (one query each) into a Catalogue. */
export async function loadCatalogue(conn: DuckDBConnection, takenAt: number): Promise<Catalogue> {
  const rows = {} as CatalogueRows;
  for (const [table, sql] of Object.entries(METADATA_QUERIES) as [keyof CatalogueRows, string][]) rows[table] = await all(conn, sql);
  return makeCatalogue(rows, await readConfig(conn), takenAt);
}

/** The values of a DOUBLE column vector without nulls (coalesce them in SQL): DuckDB's own array where the vector exposes it. */
export function doubles(vector: DuckDBVector, count: number): Float64Array {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof Float64Array && items.length === count) return items;
  return Float64Array.from({ length: count }, (_, i) => {
    const x = vector.getItem(i);
    return x === null ? NaN : (x as number);
  });
}

/**
 * Runs a query of two DOUBLE columns (t, v) into typed arrays, in time order. The result is materialized, and
 * its chunks are read synchronously: no trip through node's thread pool per chunk.
 */
export async function readPoints(conn: DuckDBConnection, q: SqlFragment): Promise<Points> {
  const result = await conn.run(q.sql, q.params);
  const ts: Float64Array[] = [];
  const vs: Float64Array[] = [];
  let n = 0;
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    if (chunk.rowCount === 0) continue;
    ts.push(doubles(chunk.getColumnVector(0), chunk.rowCount));
    vs.push(doubles(chunk.getColumnVector(1), chunk.rowCount));
    n += chunk.rowCount;
  }
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  for (let i = 0, at = 0; i < ts.length; at += ts[i]!.length, i++) {
    t.set(ts[i]!, at);
    v.set(vs[i]!, at);
  }
  for (let i = 1; i < n; i++) if (t[i - 1]! > t[i]!) return sortByTime(t, v);
  return { t, v };
}

function sortByTime(t: Float64Array, v: Float64Array): Points {
  const order = Int32Array.from(t.keys()).sort((a, b) => t[a]! - t[b]!);
  return { t: Float64Array.from(order, (i) => t[i]!), v: Float64Array.from(order, (i) => v[i]!) };
}

/** Observations from one connection (borrowed for the life of one answer). */
export function duckSeriesSource(conn: DuckDBConnection): SeriesSource {
  return {
    read: (s: SeriesRec, span) => readPoints(conn, seriesRangeQuery(s.sid, span)),
    lastBefore: (s: SeriesRec, before) => readPoints(conn, lastValueBeforeQuery(s.sid, before)),
    firstAfter: (s: SeriesRec, after) => readPoints(conn, firstValueAfterQuery(s.sid, after)),
  };
}
