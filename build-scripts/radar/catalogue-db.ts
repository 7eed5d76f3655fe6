/**
 * Builds the catalogue database the endpoint queries: the snapshot's Parquet tables joined into one
 * denormalized table per resource (`*_x`), plus the facts the queries need. Read-only at serving time; see
 * PERFORMANCE-NOTES.md for why a database file beats reading Parquet per request.
 *
 * Every table is stored in the order its records are answered (ascending id; instances of a file by transfer
 * start), so a query is a filtered scan that streams without sorting (DuckDB keeps insertion order unless told
 * otherwise): memory stays bounded however large the answer. Ids of a mirror grow with arrival time, so the
 * row groups of one day still lie together and a timespan filter skips the rest. "The most recent instance of a
 * file" is precomputed here as flags, for the same reason.
 *
 * A partitioned build (`build --partitioned`, for catalogues too large for one machine) writes the big tables as
 * hive-partitioned Parquet beside the database instead, each file in answer order, and the queries then order
 * explicitly (core/radar/partitions.ts).
 */
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { answerOrder, partitionedViewSql, partitionKeysSql } from '../../core/radar/partitions.ts';
import { RESOURCES, type Resource } from '../../core/radar/resources.ts';
import { SUBSET_TABLES } from '../../core/radar/routes.ts';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import { assertNoHiveKeys } from '../../lib/hive.ts';

/**
 * The catalogue tables in build order, as SQL: `p(name)` reads a snapshot table, `x(name)` a catalogue table
 * built before (its table columns only, without a partitioned table's partition columns).
 */
function tableSql(p: (name: string) => string, x: (name: string) => string): [string, string][] {
  const basename = (col: string) => `regexp_extract(${col}, '[^/]*$')`;
  return [
    ['countries_x', `SELECT id, country_name, country_iso_code FROM ${p('countries')} ORDER BY id`],
    [
      'institutes_x',
      `SELECT i.id, i.institute_name, c.country_name, c.country_iso_code FROM ${p('institutes')} i JOIN countries_x c ON c.id = i.country_id ORDER BY i.id`,
    ],
    [
      'radars_x',
      `SELECT r.id, r.radar_id, r.radar_name, r.radar_code, r.radar_short_code,
         CAST(json_object('type', 'Point', 'coordinates', json_array(r.longitude, r.latitude)) AS VARCHAR) AS geographic_position,
         r.field_of_view, i.country_name, i.country_iso_code, i.institute_name, r.hdw_checksum, r.hdw_file_path,
         ${basename('r.hdw_file_path')} AS hdw_filename, CAST(r.earliest_data AS TIMESTAMP) AS earliest_data,
         CAST(r.latest_data AS TIMESTAMP) AS latest_data, r.status_flag, r.longitude, r.latitude
       FROM ${p('radars')} r JOIN institutes_x i ON i.id = r.institute_id ORDER BY r.id`,
    ],
    ['file_types_x', `SELECT id, file_type, file_format FROM ${p('file_types')} ORDER BY id`],
    ['file_status_x', `SELECT id, status, description FROM ${p('file_status')} ORDER BY id`],
    ['radar_status_x', `SELECT id, status, description FROM ${p('radar_status')} ORDER BY id`],
    ['transferred_file_status_x', `SELECT id, status, description FROM ${p('transferred_file_status')} ORDER BY id`],
    ['coverage_types_x', `SELECT id, coverage_type, description FROM ${p('coverage_types')} ORDER BY id`],
    ['transfer_methods_x', `SELECT id, method, description FROM ${p('transfer_methods')} ORDER BY id`],
    [
      'transfer_logs_x',
      `SELECT l.id, l.file_path, l.checksum, ${basename('l.file_path')} AS filename, r.radar_code, r.radar_name, i.institute_name, r.longitude, r.latitude
       FROM ${p('transfer_logs')} l JOIN radars_x r ON r.id = l.radar_id JOIN institutes_x i ON i.id = l.institute_id ORDER BY l.id`,
    ],
    [
      'files_x',
      `SELECT f.id, f.filename, f.file_path, CAST(f.file_start_datetime AS TIMESTAMP) AS file_start_datetime,
         CAST(f.file_end_datetime AS TIMESTAMP) AS file_end_datetime, CAST(f.data_start_datetime AS TIMESTAMP) AS data_start_datetime,
         CAST(f.data_end_datetime AS TIMESTAMP) AS data_end_datetime, CAST(f.last_mod AS TIMESTAMP) AS last_mod, f.file_size,
         f.status_flag, f.checksum, f.include_in_file_coverage, f.include_in_data_coverage, CAST(f.last_updated AS TIMESTAMP) AS last_updated,
         r.radar_code, r.radar_short_code, r.radar_name, t.file_type, s.status AS file_status, r.longitude, r.latitude
       FROM ${p('files')} f JOIN radars_x r ON r.id = f.radar_id JOIN file_types_x t ON t.id = f.file_type_id JOIN file_status_x s ON s.id = f.status_flag
       ORDER BY f.id`,
    ],
    [
      'transfers_x',
      `SELECT t.id, l.file_path AS transfer_log_file_path, l.checksum AS transfer_log_checksum, l.filename AS transfer_log_filename, l.radar_code,
         CAST(t.start_datetime AS TIMESTAMP) AS start_datetime, CAST(t.end_datetime AS TIMESTAMP) AS end_datetime, t.duration, t.size, t.rate,
         m.method, t.is_error, t.is_error OR coalesce(a.alarms, 0) > 0 AS has_alarm, l.longitude, l.latitude
       FROM ${p('transfers')} t JOIN transfer_logs_x l ON l.id = t.transfer_log_id JOIN transfer_methods_x m ON m.id = t.method_id
       LEFT JOIN (SELECT transfer_id, count(*) AS alarms FROM ${p('transfer_instances')} WHERE status_id IS NOT NULL GROUP BY transfer_id) a ON a.transfer_id = t.id
       ORDER BY t.id`,
    ],
    [
      'transferred_x',
      `SELECT f.*, i.transfer_id, s.status AS transferred_file_status, t.start_datetime AS transfer_start_datetime, t.end_datetime AS transfer_end_datetime,
         row_number() OVER (PARTITION BY f.id ORDER BY t.start_datetime DESC, i.transfer_id DESC) = 1 AS latest,
         row_number() OVER (PARTITION BY f.id, s.status ORDER BY t.start_datetime DESC, i.transfer_id DESC) = 1 AS latest_of_status,
         s.status IS NOT NULL AND row_number() OVER (PARTITION BY f.id, s.status IS NULL ORDER BY t.start_datetime DESC, i.transfer_id DESC) = 1 AS latest_alarm
       FROM ${p('transfer_instances')} i JOIN ${x('files_x')} f ON f.id = i.file_id JOIN ${x('transfers_x')} t ON t.id = i.transfer_id
       LEFT JOIN transferred_file_status_x s ON s.id = i.status_id
       ORDER BY f.id, t.start_datetime, i.transfer_id`,
    ],
    [
      'coverage_x',
      `SELECT c.id, r.radar_code, t.file_type, ct.coverage_type, CAST(c.start_datetime AS TIMESTAMP) AS start_datetime,
         CAST(c.end_datetime AS TIMESTAMP) AS end_datetime, c.duration, c.status_flag, r.longitude, r.latitude
       FROM ${p('temporal_coverage')} c JOIN radars_x r ON r.id = c.radar_id JOIN file_types_x t ON t.id = c.file_type_id
       JOIN coverage_types_x ct ON ct.id = c.coverage_type_id ORDER BY c.id`,
    ],
  ];
}

const PARTITIONED_RESOURCES = new Map(Object.values(RESOURCES).filter((r) => r.partitioned).map((r) => [r.table, r]));

/**
 * Writes a big table as hive-partitioned Parquet, `<table>/year=YYYY/radar=CODE/data_0.parquet` below the
 * current folder of DuckDB's file search path (the database's folder), and a view over it in the database.
 * One thread, so each file keeps the rows in answer order (a parallel partitioned write interleaves them).
 * A table without rows, which would have no files to read, is an empty table in the database instead.
 */
async function writePartitioned(conn: DuckDBConnection, r: Resource, sql: string, folder: string): Promise<void> {
  const [threads] = await all(conn, "SELECT current_setting('threads') AS n");
  await run(conn, 'SET threads = 1');
  try {
    const rows = await all(
      conn,
      `COPY (SELECT *, ${partitionKeysSql(r)} FROM (${sql}) ORDER BY ${answerOrder(r)}) TO ${sqlString(join(folder, r.table))} (FORMAT parquet, PARTITION_BY (year, radar))`,
    );
    if (Number(rows[0]?.['Count'] ?? 0) > 0) await run(conn, partitionedViewSql(r.table));
    else await run(conn, `CREATE TABLE ${r.table} AS SELECT *, ${partitionKeysSql(r)} FROM (${sql}) LIMIT 0`);
  } finally {
    await run(conn, `SET threads = ${Number(threads?.['n'] ?? 2)}`);
  }
}

/**
 * Writes the catalogue tables into the connection's current database (a new, empty file). With `partitioned`,
 * the folder of the database: the big tables (files_x, transferred_x, transfers_x, coverage_x) go there as
 * hive-partitioned Parquet and the database holds views over them (core/radar/partitions.ts).
 */
export async function buildCatalogueDb(
  conn: DuckDBConnection,
  p: (table: string) => string,
  onTable: (name: string) => void,
  partitioned?: string,
): Promise<void> {
  const x = (name: string) => (partitioned && PARTITIONED_RESOURCES.has(name) ? `(SELECT * EXCLUDE (year, radar) FROM ${name})` : name);
  if (partitioned) {
    assertNoHiveKeys(partitioned);
    await run(conn, `SET file_search_path = ${sqlString(partitioned)}`);
  }
  try {
    for (const [name, sql] of tableSql(p, x)) {
      onTable(name);
      const big = partitioned && PARTITIONED_RESOURCES.get(name);
      if (big) await writePartitioned(conn, big, sql, partitioned);
      else await run(conn, `CREATE TABLE ${name} AS ${sql}`);
    }
    // the rare records of the big tables, for the routes of alarms and the blacklist (routes.ts SUBSET_TABLES);
    // in the database even in a partitioned build, in answer order
    for (const s of SUBSET_TABLES) {
      const r = RESOURCES[s.of];
      onTable(s.table);
      await run(conn, `CREATE TABLE ${s.table} AS SELECT * FROM ${x(r.table)} WHERE ${s.where} ORDER BY ${answerOrder(r)}`);
    }
    await run(
      conn,
      `CREATE TABLE facts AS
     SELECT 'files' AS resource, coalesce(max(epoch_ms(file_end_datetime) - epoch_ms(file_start_datetime)), 0) AS max_duration_ms FROM files_x
     UNION ALL SELECT 'transferred', coalesce(max(epoch_ms(file_end_datetime) - epoch_ms(file_start_datetime)), 0) FROM transferred_x
     UNION ALL SELECT 'transfers', coalesce(max(epoch_ms(end_datetime) - epoch_ms(start_datetime)), 0) FROM transfers_x
     UNION ALL SELECT 'coverage', coalesce(max(epoch_ms(end_datetime) - epoch_ms(start_datetime)), 0) FROM coverage_x`,
    );
  } finally {
    if (partitioned) await run(conn, 'RESET file_search_path');
  }
}
