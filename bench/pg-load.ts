/**
 * Loads the data a build serves into PostgreSQL, for the snapcat-against-PostgreSQL benchmark: the tables of
 * the build's DuckDB databases as they are (the radar catalogue's denormalised `*_x` tables, the timeseries
 * tables), so that neither side has a join the other has not. Each table goes DuckDB → CSV (COPY TO, in the
 * table's stored order, which is the answer order) → PostgreSQL (server-side COPY FROM into a table created
 * in the same transaction, FREEZE: no hint-bit writes on first read). All tables of a load and the indexes the
 * served queries need are one transaction (with `wal_level=minimal`, nothing of it is written to the WAL: the
 * files are synced at commit), then VACUUM ANALYZE.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { all, openDuckDB, run, sqlString } from '../lib/duckdb.ts';

/** DuckDB column types → PostgreSQL. */
const TYPES: Record<string, string> = {
  BIGINT: 'bigint',
  INTEGER: 'integer',
  SMALLINT: 'smallint',
  VARCHAR: 'text',
  TIMESTAMP: 'timestamp',
  DOUBLE: 'double precision',
  FLOAT: 'real',
  BOOLEAN: 'boolean',
};

const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;

export interface LoadFigures {
  seconds: number;
  /** Of which: DuckDB → CSV → COPY, indexes, VACUUM ANALYZE. */
  copySeconds: number;
  indexSeconds: number;
  analyzeSeconds: number;
  rows: Record<string, number>;
  /** The CREATE INDEX (and key) statements run. */
  indexes: string[];
}

/**
 * Copies `tables` of the DuckDB file `duckPath` into PostgreSQL (`client`, superuser: server-side COPY), through
 * CSV files in `csvDir` (which the server must be able to read; each is removed once loaded), then runs
 * `indexSql` and VACUUM ANALYZE.
 */
export async function loadFromDuckDB(opts: {
  client: pg.Client;
  duckPath: string;
  tables: string[];
  csvDir: string;
  indexSql: string[];
  log: (line: string) => void;
}): Promise<LoadFigures> {
  const { client, tables, csvDir, log } = opts;
  const t0 = performance.now();
  mkdirSync(csvDir, { recursive: true, mode: 0o755 });
  const duck = await openDuckDB({ path: opts.duckPath, readOnly: true, threads: 2 });
  const conn = await duck.connect();
  const rows: Record<string, number> = {};
  let t1 = 0;
  await client.query('BEGIN');
  try {
    for (const table of tables) {
      const t = performance.now();
      const cols = await all(conn, { sql: 'SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = $t AND NOT internal ORDER BY column_index', params: { t: table } });
      if (cols.length === 0) throw new Error(`${opts.duckPath} has no table ${table}`);
      const defs = cols.map((c) => {
        const type = TYPES[String(c['data_type'])];
        if (!type) throw new Error(`${table}.${String(c['column_name'])}: no PostgreSQL type for DuckDB's ${String(c['data_type'])}`);
        return `${q(String(c['column_name']))} ${type}`;
      });
      const csv = join(csvDir, `${table}.csv`);
      // NULL is an empty field, an empty string a quoted one: what PostgreSQL's CSV format reads back
      await run(conn, `COPY (SELECT * FROM ${q(table)}) TO ${sqlString(csv)} (FORMAT csv, HEADER false)`);
      const exported = performance.now();
      await client.query(`DROP TABLE IF EXISTS ${q(table)}`);
      await client.query(`CREATE TABLE ${q(table)} (${defs.join(', ')})`);
      const r = await client.query(`COPY ${q(table)} FROM ${sqlString(csv)} WITH (FORMAT csv, FREEZE true)`);
      rmSync(csv, { force: true });
      rows[table] = r.rowCount ?? 0;
      log(`${table}: ${rows[table]} rows, export ${((exported - t) / 1000).toFixed(1)} s, COPY ${((performance.now() - exported) / 1000).toFixed(1)} s`);
    }
    t1 = performance.now();
    for (const sql of opts.indexSql) {
      const t = performance.now();
      await client.query(sql);
      log(`${sql}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    conn.closeSync();
    duck.closeSync();
    rmSync(csvDir, { recursive: true, force: true });
  }
  const t2 = performance.now();
  for (const table of tables) await client.query(`VACUUM (ANALYZE) ${q(table)}`);
  const t3 = performance.now();
  return {
    seconds: (t3 - t0) / 1000,
    copySeconds: (t1 - t0) / 1000,
    indexSeconds: (t2 - t1) / 1000,
    analyzeSeconds: (t3 - t2) / 1000,
    rows,
    indexes: opts.indexSql,
  };
}

/** The radar catalogue tables the benchmarked queries read, and `facts` (the longest interval per resource). */
export const RADAR_TABLES = ['files_x', 'transferred_x', 'radars_x', 'facts'];

/**
 * Indexes a competent engineer gives these queries: the keys, the interval starts (`timespan` bounds the
 * start from below and above, as the overlap test allows once the longest interval is known), the radar code
 * with the answer order after it, and the radars' position.
 */
export const RADAR_INDEXES = [
  'ALTER TABLE files_x ADD PRIMARY KEY (id)',
  'CREATE INDEX files_x_start ON files_x (file_start_datetime)',
  'CREATE INDEX files_x_radar ON files_x (radar_code, id)',
  // instances of a file in answer order: (id, transfer start, transfer id)
  'CREATE INDEX transferred_x_order ON transferred_x (id, transfer_start_datetime, transfer_id)',
  'CREATE INDEX transferred_x_start ON transferred_x (file_start_datetime)',
  'CREATE INDEX transferred_x_radar ON transferred_x (radar_code, id, transfer_start_datetime, transfer_id)',
  'ALTER TABLE radars_x ADD PRIMARY KEY (id)',
  'CREATE INDEX radars_x_position ON radars_x (latitude, longitude)',
  'CREATE INDEX radars_x_earliest ON radars_x (earliest_data)',
];

export const TIMESERIES_TABLES = ['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries', 'reference_values', 'reference_value_observations', 'labels', 'observations'];

/**
 * Keys; observations by (series, time); the stations' positions as a GiST-indexed point, with their unit
 * vectors stored for the exact great-circle test of `near`; trigram indexes for the substring search on
 * labels (pg_trgm, in Debian's postgresql package).
 */
export const TIMESERIES_INDEXES = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  ...['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries', 'reference_values'].map((t) => `ALTER TABLE ${t} ADD PRIMARY KEY (id)`),
  'CREATE UNIQUE INDEX timeseries_sid ON timeseries (sid)',
  'ALTER TABLE observations ADD PRIMARY KEY (sid, "timestamp")',
  'CREATE INDEX reference_value_observations_key ON reference_value_observations (reference_value_id, "timestamp")',
  'CREATE INDEX labels_key ON labels (resource_id, locale)',
  `ALTER TABLE stations ADD COLUMN position point GENERATED ALWAYS AS (point(longitude, latitude)) STORED,
     ADD COLUMN ux double precision GENERATED ALWAYS AS (cos(radians(latitude)) * cos(radians(longitude))) STORED,
     ADD COLUMN uy double precision GENERATED ALWAYS AS (cos(radians(latitude)) * sin(radians(longitude))) STORED,
     ADD COLUMN uz double precision GENERATED ALWAYS AS (sin(radians(latitude))) STORED`,
  'CREATE INDEX stations_position ON stations USING gist (position)',
  ...['stations', 'timeseries', 'features', 'procedures', 'offerings', 'phenomena', 'categories'].map((t) => `CREATE INDEX ${t}_label_trgm ON ${t} USING gin (lower(label) gin_trgm_ops)`),
  'CREATE INDEX labels_label_trgm ON labels USING gin (lower(label) gin_trgm_ops)',
];
