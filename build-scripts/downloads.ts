/**
 * The catalogue's tables as Parquet under `/downloads/` in the tree, to be queried in place over HTTP (DuckDB,
 * pandas/pyarrow, DuckDB-WASM in the browser: docs/downloads.md), and `/downloads/index.json` listing every file
 * with its size, row count and SHA-256.
 *
 * The big tables are hive-partitioned: the radar catalogue's files, transfers, transferred files and coverage by
 * year, `downloads/radar/files/year=2024/files-2024.parquet`; the timeseries' observations by year and month,
 * `downloads/timeseries/observations/year=2024/month=3/observations-2024-03.parquet` (a daily append rewrites the
 * current month's file, not the year's: docs/downloads.md). Each file is sorted by time (observations: by series,
 * then time) and cut into row groups of DOWNLOAD_ROW_GROUP rows, so a reader that filters on time reads the
 * footer and the few row groups whose min/max statistics overlap. The small tables are one file each.
 *
 * Incremental: each file's rows are fingerprinted in SQL (count, and the sum and XOR of every row's hash, the
 * tree state's way of fingerprinting keys); a file whose fingerprint is the base build's and whose bytes the base
 * left as they were (its stamp) is kept without being written or read. Only the partitions whose rows changed
 * are written, and DuckDB writes a file's bytes as a function of its rows (one thread, a total order), so an
 * incremental build gives the bytes a full build gives. The fingerprints, stamps, row counts and digests go to
 * `downloads-state.json` in the build folder, beside the tree state.
 *
 * A daily append (timeseries/append.ts) knows what it changed in the observations: rows added, none changed or
 * removed, relative to the build it appended to. When the base's downloads were made from that build's
 * observations (the state records the digest of `data/observations-sources.json`), the observations are not
 * scanned: the months of the added rows are the partitions that changed, their fingerprints are the base's
 * combined with the added rows' (count and sum add, XOR), and every other month is kept. Anything else (a full
 * build of the database, a base made from other observations) fingerprints every month as above.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiName } from '../core/snapshot/table-schema.ts';
import { all, run, sqlString } from '../lib/duckdb.ts';
import { parquetFilesBelow } from '../lib/hive.ts';
import { TIMESERIES_DB_FILE } from '../lib/timeseries-store.ts';
import type { Progress } from './lib/progress.ts';
import type { FileStamp, TreeWriter } from './lib/tree-writer.ts';
import { RADAR_DB_FILE } from '../lib/radar-catalogue.ts';
import { SOURCES_FILE } from './timeseries/append.ts';

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

/** Changes whenever the tables' columns, order, partitions or writing options change: every file is then written again. */
const FORMAT = `2;rg=${DOWNLOAD_ROW_GROUP};zstd`;

export interface DownloadTable {
  api: ApiName;
  /** `downloads/<folder>/<name>...` */
  folder: 'radar' | 'timeseries';
  name: string;
  description: string;
  /**
   * The rows, as SQL over the attached database `db`; `where` (rangeWhere's) narrows them before any join;
   * `stored` replaces the stored table the rows come from (the observations: the rows a daily append added).
   */
  sql: (db: string, where?: string, stored?: string) => string;
  /** Partitioned by the year of this (a TIMESTAMP column of the rows), or one file. */
  yearOf?: string;
  /** Partitioned by year and month of `yearOf` (`year=2024/month=3/`), not by year alone. */
  monthly?: boolean;
  /**
   * A partition's rows, [from, to) in epoch milliseconds, as a condition on the stored table's own columns, which
   * DuckDB prunes by its row groups' statistics. With it each partition is written by its own statement (sorting
   * one month's rows, not the table's: the observations at 10^9 rows would spill tens of GB to sort at once);
   * without it one statement writes all years (PARTITION_BY).
   */
  rangeWhere?: (from: number, to: number) => string;
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
    description: 'Every observation: timeseries_id, timestamp (UTC), value (null: no value). Sorted by series, then time, in each month.',
    sql: (d, where, stored) =>
      `SELECT t.id AS timeseries_id, epoch_ms(o."timestamp") AS "timestamp", o."value" FROM ${stored ?? `${d}.observations`} o JOIN ${d}.timeseries t ON t.sid = o.sid${where ? ` WHERE ${where}` : ''}`,
    yearOf: '"timestamp"',
    monthly: true,
    rangeWhere: (from, to) => `o."timestamp" >= ${from} AND o."timestamp" < ${to}`,
    orderBy: 'timeseries_id, "timestamp"',
  },
];

/**
 * DuckDB's memory limit while the downloads are written (build.ts, withMemoryCap): each statement sorts one
 * month's rows (about 8.5 × 10^6 at 10^9 observations over ten years, some 300 MB in DuckDB's sort), which its
 * sort spills past this; the rest of the build's limit would only hold cached blocks of the database beside the
 * Parquet writer's own buffers (issue 23: 1.94 GiB resident at 10^9 with the build's 1 GB).
 */
export const DOWNLOADS_MEMORY_LIMIT = '640MB';

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
  /** The file's partition (a daily append reads the base's partitions of the observations from the state). */
  year?: number;
  month?: number;
}

interface DownloadsState {
  format: string;
  /** SHA-256 of the build's `data/observations-sources.json`: the observations its files were made from. */
  observationSources?: string;
  files: Record<string, StateEntry>;
}

/**
 * The rows a daily append added to the timeseries observations (timeseries/append.ts): none of the build it
 * appended to was changed or removed.
 */
export interface AppendedObservations {
  /** A table of the build's DuckDB connection with the stored observations' columns (`sid`, `timestamp`, `value`). */
  table: string;
  /** observationSourcesDigest of the build appended to. */
  since: string;
}

/** SHA-256 of a data folder's record of the observation files it was built from (append.ts SOURCES_FILE), if any. */
export function observationSourcesDigest(dataDir: string): string | undefined {
  const path = join(dataDir, SOURCES_FILE);
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : undefined;
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

/** One file of a table: its partition (none: the table's one file), rows and fingerprint. */
interface Part {
  year: number | undefined;
  month: number | undefined;
  rows: number;
  fp: string;
  rel: string;
}

function relOf(t: DownloadTable, year: number | undefined, month: number | undefined): string {
  const folder = `${DOWNLOADS_DIR}/${t.folder}`;
  if (year === undefined) return `${folder}/${t.name}.parquet`;
  if (month === undefined) return `${folder}/${t.name}/year=${year}/${t.name}-${year}.parquet`;
  return `${folder}/${t.name}/year=${year}/month=${month}/${t.name}-${year}-${String(month).padStart(2, '0')}.parquet`;
}

/** Epoch milliseconds of the first instant of a UTC month (`month0` 0-11; 12 is the next year's January). */
function utcMonthStart(year: number, month0: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month0, 1);
  return d.getTime();
}

/** A partition's span, [from, to) in epoch milliseconds. */
function partRange(year: number, month: number | undefined): [number, number] {
  return month === undefined ? [utcMonthStart(year, 0), utcMonthStart(year + 1, 0)] : [utcMonthStart(year, month - 1), utcMonthStart(year, month)];
}

/** The partition keys of a table's files. */
function partitionKeys(t: DownloadTable): string[] {
  return t.yearOf ? (t.monthly ? ['year', 'month'] : ['year']) : [];
}

/** A table's rows (the SQL of its `sql`) with its partition keys as columns. */
function withKeys(t: DownloadTable, rows: string): string {
  if (!t.yearOf) return `SELECT * FROM (${rows})`;
  return `SELECT *, CAST(year(${t.yearOf}) AS INTEGER) AS year${t.monthly ? `, CAST(month(${t.yearOf}) AS INTEGER) AS month` : ''} FROM (${rows})`;
}

/** Each partition's count, XOR and sum of its rows' hashes, in partition order (one row for a table of one file). */
function fingerprintSql(t: DownloadTable, rows: string): string {
  const keys = partitionKeys(t);
  return `SELECT ${keys.length > 0 ? keys.join(', ') : 'NULL::INTEGER AS year'}, count(*) AS n, CAST(bit_xor(hash(r)) AS VARCHAR) AS x, CAST(sum(CAST(hash(r) AS HUGEINT)) AS VARCHAR) AS s
    FROM (${withKeys(t, rows)}) r ${keys.length > 0 ? `GROUP BY ALL ORDER BY ${keys.join(', ')}` : ''}`;
}

function partOf(t: DownloadTable, r: Record<string, unknown>): Part {
  const key = (k: string) => (r[k] === null || r[k] === undefined ? undefined : Number(r[k]));
  const year = key('year');
  const month = t.monthly ? key('month') : undefined;
  const n = Number(r['n']);
  return { year, month, rows: n, fp: `${n}:${String(r['x'])}:${String(r['s'])}`, rel: relOf(t, year, month) };
}

/** The fingerprint of the union of two disjoint sets of rows: counts and sums add, XORs combine. */
export function combineFingerprints(a: string, b: string): string {
  const [na, xa, sa] = a.split(':');
  const [nb, xb, sb] = b.split(':');
  return `${Number(na) + Number(nb)}:${(BigInt(xa!) ^ BigInt(xb!)).toString()}:${(BigInt(sa!) + BigInt(sb!)).toString()}`;
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
  /** The observations a daily append added (undefined: the timeseries database was built in full). */
  appended?: AppendedObservations;
}

export interface DownloadsResult {
  written: number;
  kept: number;
  /** Tables whose changed partitions were learned from the daily append, without a fingerprint scan. */
  fromAppend: string[];
}

/** Writes the downloads and their index into the tree; returns how many files were written and kept. */
export async function writeDownloads(opts: DownloadsOptions): Promise<DownloadsResult> {
  const { conn, writer, progress } = opts;
  const [ver] = await all(conn, 'SELECT version() AS v');
  const format = `${FORMAT};${String(ver?.['v'])}`;
  const base = readState(opts.baseFolder);
  const baseFiles = base?.format === format ? base.files : {};
  const state: DownloadsState = { format, files: {} };
  if (opts.apis.includes('timeseries-v1')) {
    const digest = observationSourcesDigest(opts.dataDir);
    if (digest) state.observationSources = digest;
  }
  const index: DownloadIndex = { snapshot: opts.snapshot.name, taken_at: opts.snapshot.taken_at, tables: [] };
  const result: DownloadsResult = { written: 0, kept: 0, fromAppend: [] };
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
      // a daily append's observations over a base made from the observations appended to: the base's partitions,
      // those of the added rows with their fingerprints combined (no row of the base is read)
      const appended = t.api === 'timeseries-v1' && t.name === 'observations' && t.yearOf ? opts.appended : undefined;
      let parts: Part[];
      if (appended && base?.format === format && base.observationSources === appended.since) {
        progress.begin(`downloads: ${t.folder}/${t.name} (the months of the appended rows)`);
        const byRel = new Map<string, Part>();
        const prefix = `${DOWNLOADS_DIR}/${t.folder}/${t.name}/`;
        for (const [rel, b] of Object.entries(base.files)) {
          if (rel.startsWith(prefix) && b.year !== undefined) byRel.set(rel, { year: b.year, month: b.month, rows: b.rows, fp: b.fp, rel });
        }
        for (const r of await all(conn, fingerprintSql(t, t.sql(db, undefined, appended.table)))) {
          const added = partOf(t, r);
          const had = byRel.get(added.rel);
          byRel.set(added.rel, had ? { ...had, rows: had.rows + added.rows, fp: combineFingerprints(had.fp, added.fp) } : added);
        }
        parts = [...byRel.values()].sort((a, b) => a.year! - b.year! || (a.month ?? 0) - (b.month ?? 0));
        result.fromAppend.push(`${t.folder}/${t.name}`);
      } else {
        parts = (await all(conn, fingerprintSql(t, t.sql(db)))).map((r) => partOf(t, r)).filter((p) => !t.yearOf || p.rows > 0);
      }
      const changed = parts.filter((p) => {
        const b = baseFiles[p.rel];
        if (b && b.fp === p.fp && writer.baseIntact(p.rel, b.stamp)) {
          writer.keep(p.rel, b.bytes);
          state.files[p.rel] = b;
          result.kept++;
          return false;
        }
        return true;
      });
      if (changed.length > 0) {
        const dir = mkdtempSync(join(opts.scratch, `${t.name}-`));
        try {
          const options = `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${DOWNLOAD_ROW_GROUP}`;
          const made = new Map<string, string>();
          if (t.yearOf && t.rangeWhere) {
            // each partition by its own statement, sorting its rows alone
            for (const p of changed) {
              const file = join(dir, `${p.year!}-${p.month ?? 0}.parquet`);
              const [from, to] = partRange(p.year!, p.month);
              await run(conn, `COPY (SELECT * FROM (${t.sql(db, t.rangeWhere(from, to))}) ORDER BY ${t.orderBy}) TO ${sqlString(file)} (${options})`);
              made.set(p.rel, file);
            }
          } else if (t.yearOf) {
            const years = changed.map((p) => p.year!).join(', ');
            await run(conn, `COPY (SELECT * FROM (${withKeys(t, t.sql(db))}) WHERE year IN (${years}) ORDER BY ${t.orderBy}) TO ${sqlString(dir)} (${options}, PARTITION_BY (year))`);
            const files = parquetFilesBelow(dir);
            for (const p of changed) {
              const from = files.find((f) => f.includes(`/year=${p.year}/`));
              if (from) made.set(p.rel, from);
            }
          } else {
            await run(conn, `COPY (SELECT * FROM (${t.sql(db)}) ORDER BY ${t.orderBy}) TO ${sqlString(join(dir, 'data_0.parquet'))} (${options})`);
            made.set(changed[0]!.rel, join(dir, 'data_0.parquet'));
          }
          for (const p of changed) {
            const from = made.get(p.rel);
            if (!from) throw new Error(`downloads: ${p.rel} was not written`);
            // hashed in pieces: a month of observations at 10^9 rows is tens of MB
            const sha256 = await fileSha256(from);
            const size = lstatSync(from).size;
            writer.moveIn(from, p.rel);
            const st = lstatSync(join(writerRoot(opts.buildDir), p.rel), { bigint: true });
            state.files[p.rel] = {
              fp: p.fp,
              rows: p.rows,
              bytes: size,
              sha256,
              stamp: { size: Number(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) },
              ...(p.year === undefined ? {} : { year: p.year }),
              ...(p.month === undefined ? {} : { month: p.month }),
            };
            result.written++;
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
        partitionedBy: partitionKeys(t),
        sortedBy: t.orderBy.replaceAll('"', ''),
        rowGroupRows: DOWNLOAD_ROW_GROUP,
        columns: described.map((c) => ({ name: String(c['column_name']), type: String(c['column_type']) })),
        rows: parts.reduce((n, p) => n + p.rows, 0),
        files: parts.map((p) => {
          const s = state.files[p.rel]!;
          return { path: `/${p.rel}`, ...(p.year === undefined ? {} : { year: p.year }), ...(p.month === undefined ? {} : { month: p.month }), rows: s.rows, bytes: s.bytes, sha256: s.sha256 };
        }),
      });
    }
  } finally {
    await run(conn, `SET threads = ${Number(threads?.['n'] ?? 2)}`);
    for (const a of attached) await run(conn, `DETACH ${a}`);
  }
  writer.write(DOWNLOADS_INDEX, JSON.stringify(index, null, 2) + '\n');
  writeFileSync(join(opts.buildDir, DOWNLOADS_STATE_FILE), JSON.stringify(state) + '\n');
  return result;
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
