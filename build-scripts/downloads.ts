/**
 * The catalogue's tables as Parquet under `/downloads/` in the tree, to be queried in place over HTTP (DuckDB,
 * pandas/pyarrow, DuckDB-WASM in the browser: docs/downloads.md), and `/downloads/index.json` listing every file
 * with its size, row count and SHA-256.
 *
 * The big tables (the radar catalogue's files, transfers, transferred files and coverage; the timeseries'
 * observations) are hive-partitioned by year, `downloads/radar/files/year=2024/files-2024.parquet`, each file
 * sorted by time (observations: by series, then time) and cut into row groups of DOWNLOAD_ROW_GROUP rows, so a
 * reader that filters on time reads the footer and the few row groups whose min/max statistics overlap, not the
 * year. The small tables are one file each.
 *
 * Incremental: each file's rows are fingerprinted in SQL (count, and the sum and XOR of every row's hash, the
 * tree state's way of fingerprinting keys); a file whose fingerprint is the base build's and whose bytes the base
 * left as they were (its stamp) is kept without being written or read. Only the partitions whose rows changed
 * are written, and DuckDB writes a file's bytes as a function of its rows (one thread, a total order), so an
 * incremental build gives the bytes a full build gives. The fingerprints, stamps, row counts and digests go to
 * `downloads-state.json` in the build folder, beside the tree state.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiName } from '../core/snapshot/table-schema.ts';
import { all, run, sqlString } from '../lib/duckdb.ts';
import { parquetFilesBelow } from '../lib/hive.ts';
import { TIMESERIES_DB_FILE } from '../lib/timeseries-store.ts';
import type { Progress } from './lib/progress.ts';
import type { FileStamp, TreeWriter } from './lib/tree-writer.ts';
import { RADAR_DB_FILE } from '../lib/radar-catalogue.ts';

/** The tree folder of the downloads, and the index's path in it. */
export const DOWNLOADS_DIR = 'downloads';
export const DOWNLOADS_INDEX = `${DOWNLOADS_DIR}/index.json`;
/** Beside the tree state in the build folder: what the next build needs to keep unchanged files. */
export const DOWNLOADS_STATE_FILE = 'downloads-state.json';

/**
 * Rows per row group of the downloaded files. A day of the demo's files is ~430 rows, a year ~160,000: with
 * 4,096 rows a group holds about ten days, so a one-day query reads the footer and one or two of a year's
 * ~40 groups (measured in docs/downloads.md). Smaller groups cost footer size and compression.
 */
export const DOWNLOAD_ROW_GROUP = 4096;

/** Changes whenever the tables' columns, order or writing options change: every file is then written again. */
const FORMAT = `1;rg=${DOWNLOAD_ROW_GROUP};zstd`;

export interface DownloadTable {
  api: ApiName;
  /** `downloads/<folder>/<name>...` */
  folder: 'radar' | 'timeseries';
  name: string;
  description: string;
  /** The rows, as SQL over the attached database `db`; `where` (yearWhere's) narrows them before any join. */
  sql: (db: string, where?: string) => string;
  /** Partitioned by the year of this (a TIMESTAMP column of the rows), or one file. */
  yearOf?: string;
  /**
   * A year's rows as a condition on the stored table's own columns, which DuckDB prunes by its row groups'
   * statistics. With it each year is written by its own statement (sorting one year's rows, not the table's:
   * the observations at 10^9 rows would spill tens of GB to sort at once); without it one statement writes all
   * years (PARTITION_BY).
   */
  yearWhere?: (year: number) => string;
  /** The order of the rows in each file: total (a key last). */
  orderBy: string;
}

/** Published tables, in the order of the index. */
export const DOWNLOAD_TABLES: DownloadTable[] = [
  { api: 'radarnet-mirror-v3', folder: 'radar', name: 'radars', description: 'The radars, with their institute and country (one row per radar).', sql: (d) => `SELECT * FROM ${d}.radars_x`, orderBy: 'id' },
  { api: 'radarnet-mirror-v3', folder: 'radar', name: 'transfer_logs', description: 'The transfer logs, with their radar.', sql: (d) => `SELECT * FROM ${d}.transfer_logs_x`, orderBy: 'id' },
  {
    api: 'radarnet-mirror-v3',
    folder: 'radar',
    name: 'files',
    description: 'The data files of the mirror (the /files records), with their radar, type and status.',
    sql: (d) => `SELECT * FROM ${d}.files_x`,
    yearOf: 'file_start_datetime',
    orderBy: 'file_start_datetime, id',
  },
  {
    api: 'radarnet-mirror-v3',
    folder: 'radar',
    name: 'transferred',
    description:
      'Every transfer of every file (the /transferred records: one row per file and transfer); transferred_file_status is the alarm category (null: no alarm); latest flags the most recent transfer of its file.',
    sql: (d) => `SELECT * FROM ${d}.transferred_x`,
    yearOf: 'file_start_datetime',
    orderBy: 'file_start_datetime, id, transfer_start_datetime, transfer_id',
  },
  {
    api: 'radarnet-mirror-v3',
    folder: 'radar',
    name: 'transfers',
    description: 'The transfers (the /transfers records), with their log and radar.',
    sql: (d) => `SELECT * FROM ${d}.transfers_x`,
    yearOf: 'start_datetime',
    orderBy: 'start_datetime, id',
  },
  {
    api: 'radarnet-mirror-v3',
    folder: 'radar',
    name: 'coverage',
    description: 'The temporal coverage intervals (the /coverage records).',
    sql: (d) => `SELECT * FROM ${d}.coverage_x`,
    yearOf: 'start_datetime',
    orderBy: 'start_datetime, id',
  },
  {
    api: 'timeseries-v1',
    folder: 'timeseries',
    name: 'stations',
    description: 'The stations: id, label, position (WGS 84).',
    sql: (d) => `SELECT id, label, longitude, latitude, service_id FROM ${d}.stations`,
    orderBy: 'id',
  },
  {
    api: 'timeseries-v1',
    folder: 'timeseries',
    name: 'timeseries',
    description: 'The timeseries with the labels of their station, phenomenon, category, procedure, offering and feature; first and last values.',
    sql: (d) => `SELECT t.id, t.label, t.uom, t.station_id, s.label AS station_label, s.longitude, s.latitude,
        t.phenomenon_id, ph.label AS phenomenon_label, t.category_id, c.label AS category_label,
        t.procedure_id, pr.label AS procedure_label, t.offering_id, o.label AS offering_label, t.feature_id, f.label AS feature_label, t.service_id,
        epoch_ms(t.first_timestamp) AS first_timestamp, t.first_value, epoch_ms(t.last_timestamp) AS last_timestamp, t.last_value
      FROM ${d}.timeseries t LEFT JOIN ${d}.stations s ON s.id = t.station_id LEFT JOIN ${d}.phenomena ph ON ph.id = t.phenomenon_id
      LEFT JOIN ${d}.categories c ON c.id = t.category_id LEFT JOIN ${d}.procedures pr ON pr.id = t.procedure_id
      LEFT JOIN ${d}.offerings o ON o.id = t.offering_id LEFT JOIN ${d}.features f ON f.id = t.feature_id`,
    orderBy: 'id',
  },
  {
    api: 'timeseries-v1',
    folder: 'timeseries',
    name: 'reference_values',
    description: 'Reference values (warning levels and the like) of the timeseries, with their observations.',
    sql: (d) => `SELECT r.id, r.label, r.timeseries_id, epoch_ms(o."timestamp") AS "timestamp", o."value"
      FROM ${d}.reference_values r JOIN ${d}.reference_value_observations o ON o.reference_value_id = r.id`,
    orderBy: 'id, "timestamp"',
  },
  {
    api: 'timeseries-v1',
    folder: 'timeseries',
    name: 'observations',
    description: 'Every observation: timeseries_id, timestamp (UTC), value (null: no value). Sorted by series, then time, in each year.',
    sql: (d, where) => `SELECT t.id AS timeseries_id, epoch_ms(o."timestamp") AS "timestamp", o."value" FROM ${d}.observations o JOIN ${d}.timeseries t ON t.sid = o.sid${where ? ` WHERE ${where}` : ''}`,
    yearOf: '"timestamp"',
    yearWhere: (y) => `o."timestamp" >= ${Date.UTC(y, 0, 1)} AND o."timestamp" < ${Date.UTC(y + 1, 0, 1)}`,
    orderBy: 'timeseries_id, "timestamp"',
  },
];

const DB_FILES: Partial<Record<ApiName, string>> = { 'radarnet-mirror-v3': RADAR_DB_FILE, 'timeseries-v1': TIMESERIES_DB_FILE };

// the index's types are core's: the site reads the index too (core/downloads-index.ts)
export type { DownloadFile, DownloadIndex, DownloadIndexTable } from '../core/downloads-index.ts';
import type { DownloadIndex } from '../core/downloads-index.ts';

interface StateEntry {
  fp: string;
  rows: number;
  bytes: number;
  sha256: string;
  stamp: FileStamp;
}

interface DownloadsState {
  format: string;
  files: Record<string, StateEntry>;
}

function readState(folder: string | undefined): DownloadsState | undefined {
  if (!folder) return undefined;
  const path = join(folder, DOWNLOADS_STATE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DownloadsState;
  } catch {
    return undefined;
  }
}

function relOf(t: DownloadTable, year: number | undefined): string {
  return year === undefined ? `${DOWNLOADS_DIR}/${t.folder}/${t.name}.parquet` : `${DOWNLOADS_DIR}/${t.folder}/${t.name}/year=${year}/${t.name}-${year}.parquet`;
}

export interface DownloadsOptions {
  conn: DuckDBConnection;
  apis: ApiName[];
  snapshot: { name: string; taken_at: string };
  dataDir: string;
  buildDir: string;
  writer: TreeWriter;
  progress: Progress;
  /** The base build's folder (its downloads state), undefined for a build into an empty folder. */
  baseFolder: string | undefined;
  /** Scratch folder for the files before they move into the tree. */
  scratch: string;
}

/** Writes the downloads and their index into the tree; returns how many files were written and kept. */
export async function writeDownloads(opts: DownloadsOptions): Promise<{ written: number; kept: number }> {
  const { conn, writer, progress } = opts;
  const [ver] = await all(conn, 'SELECT version() AS v');
  const format = `${FORMAT};${String(ver?.['v'])}`;
  const base = readState(opts.baseFolder);
  const baseFiles = base?.format === format ? base.files : {};
  const state: DownloadsState = { format, files: {} };
  const index: DownloadIndex = { snapshot: opts.snapshot.name, taken_at: opts.snapshot.taken_at, tables: [] };
  const counts = { written: 0, kept: 0 };
  const [threads] = await all(conn, "SELECT current_setting('threads') AS n");
  const attached: string[] = [];
  try {
    for (const api of opts.apis) {
      const file = DB_FILES[api];
      if (!file) continue;
      const alias = `dl_${api.replaceAll('-', '_')}`;
      await run(conn, `ATTACH ${sqlString(join(opts.dataDir, file))} AS ${alias} (READ_ONLY)`);
      attached.push(alias);
    }
    // one thread: each file's rows in the order asked, and the same bytes for the same rows
    await run(conn, 'SET threads = 1');
    for (const t of DOWNLOAD_TABLES) {
      if (!opts.apis.includes(t.api)) continue;
      progress.begin(`downloads: ${t.folder}/${t.name}`);
      const db = `dl_${t.api.replaceAll('-', '_')}`;
      const rows = t.yearOf ? `SELECT *, CAST(year(${t.yearOf}) AS INTEGER) AS year FROM (${t.sql(db)})` : `SELECT * FROM (${t.sql(db)})`;
      const fps = await all(
        conn,
        `SELECT ${t.yearOf ? 'year' : 'NULL::INTEGER AS year'}, count(*) AS n, CAST(bit_xor(hash(r)) AS VARCHAR) AS x, CAST(sum(CAST(hash(r) AS HUGEINT)) AS VARCHAR) AS s
         FROM (${rows}) r ${t.yearOf ? 'GROUP BY year ORDER BY year' : ''}`,
      );
      const parts = fps
        .filter((r) => !t.yearOf || Number(r['n']) > 0)
        .map((r) => {
          const year = r['year'] === null || r['year'] === undefined ? undefined : Number(r['year']);
          return { year, rows: Number(r['n']), fp: `${Number(r['n'])}:${String(r['x'])}:${String(r['s'])}`, rel: relOf(t, year) };
        });
      const changed = parts.filter((p) => {
        const b = baseFiles[p.rel];
        if (b && b.fp === p.fp && writer.baseIntact(p.rel, b.stamp)) {
          writer.keep(p.rel, b.bytes);
          state.files[p.rel] = b;
          counts.kept++;
          return false;
        }
        return true;
      });
      if (changed.length > 0) {
        const dir = mkdtempSync(join(opts.scratch, `${t.name}-`));
        try {
          const options = `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${DOWNLOAD_ROW_GROUP}`;
          if (t.yearOf && t.yearWhere) {
            for (const p of changed) {
              const yearDir = join(dir, `year=${p.year!}`);
              mkdirSync(yearDir);
              const yearRows = `SELECT *, CAST(year(${t.yearOf}) AS INTEGER) AS year FROM (${t.sql(db, t.yearWhere(p.year!))})`;
              await run(conn, `COPY (SELECT * EXCLUDE (year) FROM (${yearRows}) ORDER BY ${t.orderBy}) TO ${sqlString(join(yearDir, 'data_0.parquet'))} (${options})`);
            }
          } else if (t.yearOf) {
            const years = changed.map((p) => p.year!).join(', ');
            await run(conn, `COPY (SELECT * FROM (${rows}) WHERE year IN (${years}) ORDER BY ${t.orderBy}) TO ${sqlString(dir)} (${options}, PARTITION_BY (year))`);
          } else {
            await run(conn, `COPY (${rows} ORDER BY ${t.orderBy}) TO ${sqlString(join(dir, 'data_0.parquet'))} (${options})`);
          }
          const made = parquetFilesBelow(dir);
          for (const p of changed) {
            const from = made.find((f) => (p.year === undefined ? true : f.includes(`/year=${p.year}/`)));
            if (!from) throw new Error(`downloads: ${p.rel} was not written`);
            // hashed in pieces: a year of observations at 10^9 rows is hundreds of MB
            const sha256 = await fileSha256(from);
            const size = lstatSync(from).size;
            writer.moveIn(from, p.rel);
            const st = lstatSync(join(writerRoot(opts.buildDir), p.rel), { bigint: true });
            state.files[p.rel] = { fp: p.fp, rows: p.rows, bytes: size, sha256, stamp: { size: Number(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) } };
            counts.written++;
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      const described = await all(conn, `DESCRIBE ${t.sql(db)}`);
      index.tables.push({
        api: t.api,
        name: t.name,
        description: t.description,
        partitionedBy: t.yearOf ? ['year'] : [],
        sortedBy: t.orderBy.replaceAll('"', ''),
        rowGroupRows: DOWNLOAD_ROW_GROUP,
        columns: described.map((c) => ({ name: String(c['column_name']), type: String(c['column_type']) })),
        rows: parts.reduce((n, p) => n + p.rows, 0),
        files: parts.map((p) => {
          const s = state.files[p.rel]!;
          return { path: `/${p.rel}`, ...(p.year === undefined ? {} : { year: p.year }), rows: s.rows, bytes: s.bytes, sha256: s.sha256 };
        }),
      });
    }
  } finally {
    await run(conn, `SET threads = ${Number(threads?.['n'] ?? 2)}`);
    for (const a of attached) await run(conn, `DETACH ${a}`);
  }
  writer.write(DOWNLOADS_INDEX, JSON.stringify(index, null, 2) + '\n');
  writeFileSync(join(opts.buildDir, DOWNLOADS_STATE_FILE), JSON.stringify(state) + '\n');
  return counts;
}

/** The tree's folder in a build folder. */
function writerRoot(buildDir: string): string {
  return join(buildDir, 'site');
}

/** A file's SHA-256, read in pieces. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(piece as Buffer);
  return hash.digest('hex');
}
