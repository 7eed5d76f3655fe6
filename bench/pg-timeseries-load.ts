/**
 * Loads a timeseries build's observations into PostgreSQL in the observation schema of a 52°North deployment,
 * for `npm run bench -- --only timeseries-postgres` (bench/pg-timeseries-server.ts answers from it):
 *
 *   dataset (dataset_id bigint primary key, identifier text unique)           -- the series, by the build's sid
 *   observation (fk_dataset_id bigint, sampling_time_start timestamptz, value_quantity double precision,
 *                primary key (fk_dataset_id, sampling_time_start))
 *
 * 52°North's own table (sensorweb-server-db-model) has more columns (observation_id, sampling_time_end,
 * result_time, is_deleted, value_type, ...; value_quantity numeric(20,10)) and a serial key beside the
 * (dataset, time) index: this trimmed table is PostgreSQL's best case, smaller and with one index. So is the
 * row order: loaded in (series, time) order, a series' rows are adjacent on disk, where a deployment inserting
 * as the values arrive interleaves the series.
 *
 * The observations go DuckDB (the build's `observations`) → CSV files of about CHUNK_ROWS rows, a range of
 * series each (COPY TO; one at a time, each removed once loaded, so the disk holds one chunk besides the
 * database) → server-side COPY FROM into the table created in the same transaction (FREEZE; with
 * `wal_level=minimal` nothing is written to the WAL). Then the keys (CREATE INDEX's sort), VACUUM ANALYZE and a
 * CHECKPOINT, each timed apart.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { all, openDuckDB, run, sqlString } from '../lib/duckdb.ts';

/** Rows per CSV chunk (about 35 bytes a row: a chunk of 2 × 10^7 is 0.7 GB). */
export const CHUNK_ROWS = 20_000_000;

export const OBSERVATION_TABLES = ['dataset', 'observation'];

export const OBSERVATION_INDEXES = ['ALTER TABLE dataset ADD PRIMARY KEY (dataset_id)', 'CREATE UNIQUE INDEX dataset_identifier ON dataset (identifier)', 'ALTER TABLE observation ADD PRIMARY KEY (fk_dataset_id, sampling_time_start)'];

export interface ObservationLoad {
  rows: number;
  series: number;
  chunks: number;
  /** DuckDB → CSV, summed over the chunks. */
  exportSeconds: number;
  /** CSV → PostgreSQL (COPY FROM), summed over the chunks. */
  copySeconds: number;
  indexSeconds: number;
  analyzeSeconds: number;
  checkpointSeconds: number;
  seconds: number;
  /** pg_table_size (the heap with its free-space and visibility maps) / pg_indexes_size / pg_total_relation_size of `observation`; pg_database_size. */
  heapBytes: number;
  indexBytes: number;
  totalBytes: number;
  databaseBytes: number;
  /** The largest CSV chunk written, bytes (the scratch disk the load needs besides the database). */
  largestChunkBytes: number;
}

/** Groups series (ascending sid, with their row counts) into ranges of about `target` rows: [first sid, last sid] each. */
export function chunkRanges(counts: { sid: number; n: number }[], target: number): [number, number][] {
  const out: [number, number][] = [];
  let first: number | undefined;
  let rows = 0;
  for (const { sid, n } of counts) {
    first ??= sid;
    rows += n;
    if (rows >= target) {
      out.push([first, sid]);
      first = undefined;
      rows = 0;
    }
  }
  if (first !== undefined) out.push([first, counts.at(-1)!.sid]);
  return out;
}

/**
 * Loads the build's timeseries database `duckPath` into PostgreSQL (`client`: a superuser, as server-side COPY
 * needs) through CSV chunks in `csvDir` (readable by the server; removed at the end).
 */
export async function loadObservations(opts: { client: pg.Client; duckPath: string; csvDir: string; chunkRows?: number; log: (line: string) => void }): Promise<ObservationLoad> {
  const { client, csvDir, log } = opts;
  const t0 = performance.now();
  mkdirSync(csvDir, { recursive: true, mode: 0o755 });
  const duck = await openDuckDB({ path: opts.duckPath, readOnly: true, threads: 2 });
  const conn = await duck.connect();
  let exportMs = 0;
  let copyMs = 0;
  let rows = 0;
  let largest = 0;
  let chunks = 0;
  let series = 0;
  let t1 = 0;
  // the CSV's timestamps have no zone: read as UTC
  await client.query("SET TimeZone = 'UTC'");
  await client.query('BEGIN');
  try {
    await client.query('DROP TABLE IF EXISTS observation');
    await client.query('DROP TABLE IF EXISTS dataset');
    await client.query('CREATE TABLE dataset (dataset_id bigint NOT NULL, identifier text NOT NULL)');
    await client.query('CREATE TABLE observation (fk_dataset_id bigint NOT NULL, sampling_time_start timestamptz NOT NULL, value_quantity double precision)');
    const datasets = join(csvDir, 'dataset.csv');
    await run(conn, `COPY (SELECT sid, id FROM timeseries ORDER BY sid) TO ${sqlString(datasets)} (FORMAT csv, HEADER false)`);
    series = (await client.query(`COPY dataset FROM ${sqlString(datasets)} WITH (FORMAT csv, FREEZE true)`)).rowCount ?? 0;
    rmSync(datasets, { force: true });
    const counts = (await all(conn, 'SELECT sid, count(*)::BIGINT AS n FROM observations GROUP BY sid ORDER BY sid')).map((r) => ({ sid: Number(r['sid']), n: Number(r['n']) }));
    const ranges = chunkRanges(counts, opts.chunkRows ?? CHUNK_ROWS);
    for (const [first, last] of ranges) {
      const csv = join(csvDir, `observation-${first}.csv`);
      const t = performance.now();
      // epoch_ms: the build's milliseconds as a TIMESTAMP, written `YYYY-MM-DD HH:MM:SS[.fff]`
      await run(conn, `COPY (SELECT sid, epoch_ms("timestamp"), "value" FROM observations WHERE sid BETWEEN ${first} AND ${last} ORDER BY sid, "timestamp") TO ${sqlString(csv)} (FORMAT csv, HEADER false)`);
      const exported = performance.now();
      largest = Math.max(largest, statSync(csv).size);
      const r = await client.query(`COPY observation FROM ${sqlString(csv)} WITH (FORMAT csv, FREEZE true)`);
      const copied = performance.now();
      rmSync(csv, { force: true });
      exportMs += exported - t;
      copyMs += copied - exported;
      rows += r.rowCount ?? 0;
      chunks++;
      log(`series ${first}-${last}: ${(r.rowCount ?? 0).toLocaleString('en')} rows, export ${((exported - t) / 1000).toFixed(1)} s, COPY ${((copied - exported) / 1000).toFixed(1)} s (${rows.toLocaleString('en')} in all)`);
    }
    t1 = performance.now();
    for (const sql of OBSERVATION_INDEXES) {
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
  for (const table of OBSERVATION_TABLES) await client.query(`VACUUM (ANALYZE) ${table}`);
  const t3 = performance.now();
  await client.query('CHECKPOINT');
  const t4 = performance.now();
  const size = (await client.query<{ heap: string; idx: string; total: string; db: string }>(
    "SELECT pg_table_size('observation') AS heap, pg_indexes_size('observation') AS idx, pg_total_relation_size('observation') AS total, pg_database_size(current_database()) AS db",
  )).rows[0]!;
  return {
    rows,
    series,
    chunks,
    exportSeconds: exportMs / 1000,
    copySeconds: copyMs / 1000,
    indexSeconds: (t2 - t1) / 1000,
    analyzeSeconds: (t3 - t2) / 1000,
    checkpointSeconds: (t4 - t3) / 1000,
    seconds: (t4 - t0) / 1000,
    heapBytes: Number(size.heap),
    indexBytes: Number(size.idx),
    totalBytes: Number(size.total),
    databaseBytes: Number(size.db),
    largestChunkBytes: largest,
  };
}
