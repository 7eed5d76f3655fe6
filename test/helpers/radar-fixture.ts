/**
 * A minimal valid radar snapshot (API `radarnet-mirror-v3`, two or three rows
 * per table) written with DuckDB into a folder under test/.tmp/, optionally
 * broken by a mutation: drop a table, rename a column, change a type, set a
 * value, truncate or overwrite a file, replace snapshot.json.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';

export const TMP_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.tmp');

const SHA1_A = 'a'.repeat(40);
const SHA1_B = '0123456789abcdef0123456789abcdef01234567';
const TS = (text: string) => `TIMESTAMP '${text}'`;

/** The SELECT writing each table of the valid fixture, in dependency order. */
export const RADAR_FIXTURE_SELECTS: Record<string, string> = {
  countries: `SELECT * FROM (VALUES (1, 'United Kingdom', 'GB'), (2, 'Canada', 'CA')) t(id, country_name, country_iso_code)`,
  institutes: `SELECT * FROM (VALUES (1, 'British Antarctic Survey', 1), (2, 'University of Saskatchewan', 2)) t(id, institute_name, country_id)`,
  radar_status: `SELECT * FROM (VALUES (0, 'operational', 'Running normally.'), (1, 'offline', 'Not running.')) t(id, status, description)`,
  radars: `SELECT * FROM (VALUES
    (1, 5, 'Saskatoon', 'sas', 't', 52.16::DOUBLE, -106.53::DOUBLE, '{"type":"Polygon","coordinates":[[[-106,52],[-100,60],[-110,60],[-106,52]]]}', 2,
     '/sddata/hdw/hdw.dat.sas', '${SHA1_A}', ${TS('1993-09-01 00:00:00')}, ${TS('2024-01-01 23:58:00')}, 0),
    (2, 9, 'Halley', 'hal', NULL, -75.52::DOUBLE, -26.63::DOUBLE, NULL, 1,
     '/sddata/hdw/hdw.dat.hal', '${SHA1_B}', NULL, NULL, 1)
  ) t(id, radar_id, radar_name, radar_code, radar_short_code, latitude, longitude, field_of_view, institute_id,
      hdw_file_path, hdw_checksum, earliest_data, latest_data, status_flag)`,
  file_types: `SELECT * FROM (VALUES (1, 'rawacf', 'YYYYMMDD.HHMM.SS.<code>.<channel>.rawacf.bz2'), (2, 'fitacf', 'YYYYMMDD.HHMM.SS.<code>.<channel>.fitacf.bz2')) t(id, file_type, file_format)`,
  file_status: `SELECT * FROM (VALUES (0, 'ok', 'No alarm.'), (1, 'blacklisted', 'Blacklisted by the PI.')) t(id, status, description)`,
  files: `SELECT * FROM (VALUES
    (1, '20240101.0000.00.sas.a.rawacf.bz2', '/sddata/raw/2024/01/20240101.0000.00.sas.a.rawacf.bz2', ${TS('2024-01-01 00:00:00')}, ${TS('2024-01-01 02:00:00')},
     ${TS('2024-01-01 00:00:01')}, ${TS('2024-01-01 01:59:59')}, ${TS('2024-01-01 02:05:00')}, 1000000::BIGINT, 0, '${SHA1_A}', true, true, ${TS('2024-01-01 02:10:00')}, 1, 1),
    (2, '20240101.0200.00.sas.a.rawacf.bz2', '/sddata/raw/2024/01/20240101.0200.00.sas.a.rawacf.bz2', ${TS('2024-01-01 02:00:00')}, ${TS('2024-01-01 04:00:00')},
     NULL, NULL, ${TS('2024-01-01 04:05:00')}, 2000000::BIGINT, 0, NULL, true, false, ${TS('2024-01-01 04:10:00')}, 1, 1),
    (3, '20240101.0000.00.hal.a.fitacf.bz2', '/sddata/fit/2024/01/20240101.0000.00.hal.a.fitacf.bz2', ${TS('2024-01-01 00:00:00')}, ${TS('2024-01-01 02:00:00')},
     NULL, NULL, ${TS('2024-01-01 02:05:00')}, 0::BIGINT, 1, '${SHA1_B}', false, false, ${TS('2024-01-01 02:10:00')}, 2, 2)
  ) t(id, filename, file_path, file_start_datetime, file_end_datetime, data_start_datetime, data_end_datetime, last_mod,
      file_size, status_flag, checksum, include_in_file_coverage, include_in_data_coverage, last_updated, radar_id, file_type_id)`,
  transfer_methods: `SELECT * FROM (VALUES (1, 'rsync', 'Pulled with rsync.'), (2, 'sftp', 'Pushed with sftp.')) t(id, method, description)`,
  transfer_logs: `SELECT * FROM (VALUES (1, '/sddata/logs/1.log', '${SHA1_A}', 1, 2), (2, '/sddata/logs/2.log', '${SHA1_B}', 2, 1)) t(id, file_path, checksum, radar_id, institute_id)`,
  transfers: `SELECT * FROM (VALUES
    (1, 1, ${TS('2024-01-01 02:06:00')}, ${TS('2024-01-01 02:07:00')}, 60, 1000000::BIGINT, 16666, 1, false),
    (2, 2, ${TS('2024-01-01 02:06:00')}, ${TS('2024-01-01 02:06:30')}, 30, 0::BIGINT, 0, 2, true)
  ) t(id, transfer_log_id, start_datetime, end_datetime, duration, size, rate, method_id, is_error)`,
  transferred_file_status: `SELECT * FROM (VALUES (1, 'blacklisted', 'On the blacklist.'), (2, 'old', 'Older than allowed.')) t(id, status, description)`,
  transfer_instances: `SELECT * FROM (VALUES (1, 1, NULL), (2, 1, 2), (3, 2, NULL)) t(file_id, transfer_id, status_id)`,
  coverage_types: `SELECT * FROM (VALUES (1, 'file', 'Covered by files.'), (2, 'data', 'Covered by records.')) t(id, coverage_type, description)`,
  temporal_coverage: `SELECT * FROM (VALUES
    (1, 1, 1, 1, ${TS('2024-01-01 00:00:00')}, ${TS('2024-01-01 04:00:00')}, 14400, 0),
    (2, 2, 2, 1, ${TS('2024-01-01 00:00:00')}, ${TS('2024-01-01 02:00:00')}, 7200, 0)
  ) t(id, radar_id, file_type_id, coverage_type_id, start_datetime, end_datetime, duration, status_flag)`,
};

export const RADAR_FIXTURE_MANIFEST = {
  format_version: 1,
  name: 'radar-fixture',
  taken_at: '2024-01-02T00:00:00Z',
  apis: ['radarnet-mirror-v3'],
};

export interface FixtureMutation {
  /** Per table: the SELECT to write instead of the valid one (given), or null to write no file. */
  tables?: Record<string, (select: string) => string | null>;
  /** The content of snapshot.json instead of the valid manifest: a string is written verbatim, anything else as JSON. */
  manifest?: unknown;
  /** Edits the folder after everything is written. */
  after?: (dir: string) => void | Promise<void>;
}

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Writes the fixture into `TMP_ROOT/<name>` (emptied first) and returns the folder. */
export async function writeRadarFixture(conn: DuckDBConnection, name: string, mutation: FixtureMutation = {}): Promise<string> {
  const dir = path.join(TMP_ROOT, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [table, select] of Object.entries(RADAR_FIXTURE_SELECTS)) {
    const edit = mutation.tables?.[table];
    const sql = edit ? edit(select) : select;
    if (sql === null) continue;
    await conn.run(`COPY (${sql}) TO ${sqlString(path.join(dir, `${table}.parquet`))} (FORMAT parquet)`);
  }
  const manifest = 'manifest' in mutation ? mutation.manifest : RADAR_FIXTURE_MANIFEST;
  await writeFile(path.join(dir, 'snapshot.json'), typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 2)}\n`);
  await mutation.after?.(dir);
  return dir;
}

/** Ready-made mutations. */
export const mutate = {
  dropTable: (table: string): FixtureMutation => ({ tables: { [table]: () => null } }),
  renameColumn: (table: string, from: string, to: string): FixtureMutation => ({
    tables: { [table]: (s) => `SELECT * RENAME (${q(from)} AS ${q(to)}) FROM (${s})` },
  }),
  changeType: (table: string, column: string, type: string): FixtureMutation => ({
    tables: { [table]: (s) => `SELECT * REPLACE (CAST(${q(column)} AS ${type}) AS ${q(column)}) FROM (${s})` },
  }),
  /** Sets `column` to the SQL expression `value` in the rows where `where` holds. */
  setValue: (table: string, column: string, value: string, where: string): FixtureMutation => ({
    tables: { [table]: (s) => `SELECT * REPLACE (CASE WHEN ${where} THEN ${value} ELSE ${q(column)} END AS ${q(column)}) FROM (${s})` },
  }),
  /** Keeps the first half of the table's file. */
  truncateFile: (table: string): FixtureMutation => ({
    after: async (dir) => {
      const file = path.join(dir, `${table}.parquet`);
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
  }),
  /** Overwrites every data page of the table's file with noise, keeping the footer (schema, row counts) intact. */
  corruptPages: (table: string): FixtureMutation => ({
    after: async (dir) => {
      const file = path.join(dir, `${table}.parquet`);
      const bytes = await readFile(file);
      const footerLength = bytes.readUInt32LE(bytes.length - 8);
      const end = bytes.length - 8 - footerLength;
      for (let i = 4; i < end; i++) bytes[i] = (i * 7919 + 13) & 0xff;
      await writeFile(file, bytes);
    },
  }),
  garbageFile: (table: string): FixtureMutation => ({
    after: (dir) => writeFile(path.join(dir, `${table}.parquet`), 'this is not a parquet file\n'.repeat(20)),
  }),
  manifest: (content: unknown): FixtureMutation => ({ manifest: content }),
  /** Several mutations at once (later table edits wrap earlier ones). */
  all: (...mutations: FixtureMutation[]): FixtureMutation => {
    const tables: Record<string, (select: string) => string | null> = {};
    for (const m of mutations) {
      for (const [table, edit] of Object.entries(m.tables ?? {})) {
        const before = tables[table];
        tables[table] = before ? (s) => { const t = before(s); return t === null ? null : edit(t); } : edit;
      }
    }
    const result: FixtureMutation = {
      tables,
      after: async (dir) => {
        for (const m of mutations) await m.after?.(dir);
      },
    };
    const withManifest = mutations.filter((m) => 'manifest' in m).at(-1);
    if (withManifest) result.manifest = withManifest.manifest;
    return result;
  },
};
