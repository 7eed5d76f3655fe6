/**
 * Snapshot history (docs/changes.md): every build records its snapshot (name, taken_at, record counts, the tree
 * manifest's digest) and its change set against the build it follows, the one served when it started (the
 * previous published snapshot), and keeps the last N change sets beside the build (`history/`):
 *
 * - `history/radar-changes.parquet`: one row per radar record key added, changed (with the fields whose values
 *   changed, as the API names them) or removed, per resource, with the file's radar, interval, name and
 *   checksum where the resource has them (the change API filters and reports by them);
 * - `history/series-changes.parquet`: per timeseries, the observations after the previous snapshot's last
 *   observation, a row with a null value included (count, first and last time);
 * - `history/status-changes.parquet`: per timeseries, each value that entered another status interval
 *   (`from_level`, `to_level`; null outside every interval), from the previous snapshot's latest value on;
 * - `history/snapshots.json`: the kept snapshots, newest first, byte for byte the tree's `/snapshots.json`.
 *
 * Cost: the keys are compared by the fingerprints the tree state keeps anyway (`tree-keys.parquet` of both
 * builds: a join of two number columns), and only the changed keys' rows are read from the two catalogue
 * databases to name the fields; a series' new observations are read by (series, time) bounds, which the
 * observations' row groups are sorted by. A build of the same snapshot as the served one (a rebuild) keeps the
 * served build's history as it is, its snapshot's entry made again (its digest may differ).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import { RESOURCES, RESOURCE_NAMES, type ResourceName } from '../../core/radar/resources.ts';
import { RADAR_DB_FILE } from '../../lib/radar-catalogue.ts';
import { TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import type { TimeseriesConfig, StatusInterval } from '../../core/snapshot/timeseries-config.ts';
import type { SnapshotManifest } from '../../core/snapshot/table-schema.ts';

export const HISTORY_DIR = 'history';
export const SNAPSHOTS_FILE = 'snapshots.json';
export const RADAR_CHANGES_FILE = 'radar-changes.parquet';
export const SERIES_CHANGES_FILE = 'series-changes.parquet';
export const STATUS_CHANGES_FILE = 'status-changes.parquet';
export const ALARM_CHANGES_FILE = 'alarm-changes.parquet';
/** How many snapshots' change sets are kept: SNAPCAT_HISTORY_KEEP, default 30. */
export const HISTORY_KEEP_ENV = 'SNAPCAT_HISTORY_KEEP';
export const DEFAULT_HISTORY_KEEP = 30;

export interface SnapshotEntry {
  name: string;
  taken_at: string;
  /** The snapshot this one's change set is against (null: the first one kept, no change set). */
  base: string | null;
  /** When `base` was taken. */
  baseTakenAt: string | null;
  manifestSha256: string | null;
  records: Record<string, number>;
  changes: {
    radar: Record<string, { added: number; changed: number; removed: number }>;
    /** New alarm instances (transferred files with an alarm category). */
    alarms: number;
    timeseries: { series: number; newObservations: number; statusChanges: number };
  } | null;
}

export interface SnapshotsDocument {
  /** How many snapshots' change sets a build keeps. */
  keep: number;
  /** Newest first. */
  snapshots: SnapshotEntry[];
}

export function historyKeep(value = process.env[HISTORY_KEEP_ENV]): number {
  if (value === undefined || value === '') return DEFAULT_HISTORY_KEEP;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`${HISTORY_KEEP_ENV} must be a whole number from 1 to 10000, not '${value}'`);
  return n;
}

/** The snapshots.json of a build folder, or undefined (a build from before snapshot history). */
export function readSnapshots(buildFolder: string): SnapshotsDocument | undefined {
  try {
    return JSON.parse(readFileSync(join(buildFolder, HISTORY_DIR, SNAPSHOTS_FILE), 'utf8')) as SnapshotsDocument;
  } catch {
    return undefined;
  }
}

/** Empty change tables of the right shape, as SQL. */
const RADAR_COLUMNS = 'snapshot VARCHAR, taken_at TIMESTAMP, res VARCHAR, id BIGINT, change VARCHAR, fields VARCHAR[], radar_code VARCHAR, start_time TIMESTAMP, end_time TIMESTAMP, filename VARCHAR, file_path VARCHAR, checksum VARCHAR';
const SERIES_COLUMNS = 'snapshot VARCHAR, taken_at TIMESTAMP, timeseries_id VARCHAR, station_id VARCHAR, new_observations BIGINT, first_time BIGINT, last_time BIGINT';
const STATUS_COLUMNS = 'snapshot VARCHAR, taken_at TIMESTAMP, timeseries_id VARCHAR, station_id VARCHAR, "timestamp" BIGINT, "value" DOUBLE, from_level VARCHAR, to_level VARCHAR';

const T_RADAR = 'memory.main.history_radar';
const T_SERIES = 'memory.main.history_series';
const T_STATUS = 'memory.main.history_status';
const T_KEYS = 'memory.main.history_keys';
const T_ALARMS = 'memory.main.history_alarms';
const ALARM_COLUMNS = 'snapshot VARCHAR, taken_at TIMESTAMP, id BIGINT, transfer_id BIGINT, category VARCHAR, radar_code VARCHAR, filename VARCHAR, file_path VARCHAR, transfer_start TIMESTAMP';
/** The history's tables: their columns, files and order. */
const HISTORY_TABLES = [
  { table: T_RADAR, columns: RADAR_COLUMNS, file: RADAR_CHANGES_FILE, order: 'taken_at DESC, snapshot, res, id' },
  { table: T_SERIES, columns: SERIES_COLUMNS, file: SERIES_CHANGES_FILE, order: 'taken_at DESC, snapshot, timeseries_id' },
  { table: T_STATUS, columns: STATUS_COLUMNS, file: STATUS_CHANGES_FILE, order: 'taken_at DESC, snapshot, timeseries_id, "timestamp"' },
  { table: T_ALARMS, columns: ALARM_COLUMNS, file: ALARM_CHANGES_FILE, order: 'taken_at DESC, snapshot, id, transfer_id' },
];

export interface HistoryInput {
  conn: DuckDBConnection;
  /** The new build's folder (its data/ and tree-keys.parquet are written). */
  folder: string;
  /** The served build's folder when this build started, if any. */
  previous: string | undefined;
  manifest: SnapshotManifest;
  /** This build's key fingerprints as SQL (the tree state's, TreeState.keysSql); else made from its database. */
  newKeysSql?: string;
  keep?: number;
}

export interface HistoryResult {
  /** The kept snapshots, this build's first, its manifest digest not yet known (finishSnapshots). */
  document: SnapshotsDocument;
  seconds: number;
}

/**
 * Writes `history/snapshots.json` with this build's manifest digest (undefined: a build without a tree) and
 * returns its text, which the tree's `/snapshots.json` holds too.
 */
export function finishSnapshots(folder: string, document: SnapshotsDocument, manifestSha256: string | undefined): string {
  const [first, ...rest] = document.snapshots;
  const done: SnapshotsDocument = { keep: document.keep, snapshots: [{ ...first!, manifestSha256: manifestSha256 ?? null }, ...rest] };
  const json = JSON.stringify(done, null, 2) + '\n';
  writeFileSync(join(folder, HISTORY_DIR, SNAPSHOTS_FILE), json);
  return json;
}

async function attach(conn: DuckDBConnection, file: string, alias: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  await run(conn, `ATTACH ${sqlString(file)} AS ${alias} (READ_ONLY)`);
  const partitioned = await all(conn, { sql: `SELECT view_name FROM duckdb_views() WHERE database_name = $db AND NOT internal AND sql LIKE '%read_parquet(%'`, params: { db: alias } });
  if (partitioned.length === 0) return true;
  // A partitioned build's database holds views over Parquet named relative to its folder (catalogue-db.ts), which a
  // connection reads through its one `file_search_path`; two builds' views cannot both be read so. The alias then
  // names an in-memory database whose views read each table where its file is: the partitions by absolute path,
  // the other tables from the file's database.
  const stored = `${alias}_file`;
  await run(conn, `DETACH ${alias}`);
  await run(conn, `ATTACH ${sqlString(file)} AS ${stored} (READ_ONLY)`);
  await run(conn, `ATTACH ':memory:' AS ${alias}`);
  const dir = dirname(resolve(file));
  const views = new Set(partitioned.map((r) => r['view_name'] as string));
  for (const r of await all(conn, { sql: `SELECT table_name FROM duckdb_tables() WHERE database_name = $db UNION SELECT view_name FROM duckdb_views() WHERE database_name = $db AND NOT internal`, params: { db: stored } })) {
    const t = r['table_name'] as string;
    const from = views.has(t)
      ? `read_parquet(${sqlString(join(dir, t, '*', '*', '*.parquet'))}, hive_partitioning = true, hive_types = {'year': INTEGER, 'radar': VARCHAR})`
      : `${stored}.main.${q(t)}`;
    await run(conn, `CREATE VIEW ${alias}.main.${q(t)} AS SELECT * FROM ${from}`);
  }
  return true;
}

async function columnsOf(conn: DuckDBConnection, db: string, table: string): Promise<string[]> {
  const rows = await all(conn, { sql: 'SELECT column_name FROM duckdb_columns() WHERE database_name = $db AND table_name = $t ORDER BY column_index', params: { db, t: table } });
  return rows.map((r) => r['column_name'] as string);
}

async function tableExists(conn: DuckDBConnection, db: string, table: string): Promise<boolean> {
  return (await columnsOf(conn, db, table)).length > 0;
}

const q = (c: string) => `"${c.replaceAll('"', '""')}"`;

/** Key fingerprints of a build: its tree state's, or made from its database like the tree state makes them. */
async function keysSql(conn: DuckDBConnection, folder: string | undefined, db: string, resources: ResourceName[]): Promise<string> {
  const file = folder === undefined ? '' : join(folder, 'tree-keys.parquet');
  if (folder !== undefined && existsSync(file)) return `SELECT res, k, fp FROM read_parquet(${sqlString(file)})`;
  const parts: string[] = [];
  for (const res of resources) {
    if (!(await tableExists(conn, db, RESOURCES[res].table))) continue;
    parts.push(`SELECT ${sqlString(res)} AS res, id AS k, sum(CAST(hash(r) AS HUGEINT)) AS fp FROM ${db}.main.${RESOURCES[res].table} r GROUP BY id`);
  }
  return parts.length ? parts.join(' UNION ALL ') : 'SELECT NULL::VARCHAR AS res, NULL::BIGINT AS k, NULL::HUGEINT AS fp WHERE false';
}

/** The radar change set of `snapshot` into T_RADAR: keys added, changed (with fields) and removed, per resource. */
async function radarChanges(conn: DuckDBConnection, previous: string, snapshot: SnapshotManifest, newKeysSql: string | undefined): Promise<void> {
  const resources = [...RESOURCE_NAMES];
  const newKeys = newKeysSql ?? (await keysSql(conn, undefined, 'hist_new_radar', resources));
  const oldKeys = await keysSql(conn, previous, 'hist_old_radar', resources);
  // the resources both builds fingerprinted (a build without a tree fingerprints every one)
  const resOf = async (sql: string) => new Set((await all(conn, `SELECT DISTINCT res FROM (${sql})`)).map((r) => r['res'] as string));
  const oldRes = await resOf(oldKeys);
  const both = [...(await resOf(newKeys))].filter((r) => oldRes.has(r));
  await run(
    conn,
    `CREATE OR REPLACE TABLE ${T_KEYS} AS
     SELECT coalesce(n.res, o.res) AS res, coalesce(n.k, o.k) AS k, CASE WHEN o.k IS NULL THEN 'added' WHEN n.k IS NULL THEN 'removed' ELSE 'changed' END AS change
     FROM (${newKeys}) n FULL JOIN (${oldKeys}) o ON o.res = n.res AND o.k = n.k
     WHERE n.fp IS DISTINCT FROM o.fp
       AND coalesce(n.res, o.res) IN (${both.length ? both.map(sqlString).join(', ') : 'NULL'})`,
  );
  const present = (await all(conn, `SELECT DISTINCT res FROM ${T_KEYS}`)).map((r) => r['res'] as string);
  for (const res of present) {
    const resource = RESOURCES[res as ResourceName];
    if (!resource) continue;
    const t = resource.table;
    const [nc, oc] = [await columnsOf(conn, 'hist_new_radar', t), await columnsOf(conn, 'hist_old_radar', t)];
    if (nc.length === 0 || oc.length === 0) continue;
    // the fields as the API names them: every field of the expanded record (the simple one's included)
    const apiFields = [...new Set([...resource.simple, ...resource.expanded].map((f) => f.name))].filter((f) => nc.includes(f) && oc.includes(f));
    const hashes = (db: string) =>
      `SELECT id, ${apiFields.map((c, i) => `sum(CAST(hash(${q(c)}) AS HUGEINT)) AS h${i}`).join(', ')}
       FROM ${db}.main.${t} WHERE id IN (SELECT k FROM ${T_KEYS} WHERE res = ${sqlString(res)} AND change = 'changed') GROUP BY id`;
    const fieldList = apiFields.length ? `list_filter([${apiFields.map((c, i) => `CASE WHEN n.h${i} IS DISTINCT FROM o.h${i} THEN ${sqlString(c)} END`).join(', ')}], x -> x IS NOT NULL)` : '[]::VARCHAR[]';
    const col = (cols: string[], c: string | undefined, type: string) => (c !== undefined && cols.includes(c) ? `CAST(${q(c)} AS ${type})` : `NULL::${type}`);
    const time = resource.time;
    const [start, end] = time === undefined ? [undefined, undefined] : time.kind === 'overlap' ? [time.start, time.end] : [time.column, time.column];
    const info = (db: string, cols: string[]) =>
      `SELECT DISTINCT ON (id) id, ${col(cols, resource.radar ? 'radar_code' : undefined, 'VARCHAR')} AS radar_code, ${col(cols, start, 'TIMESTAMP')} AS start_time, ${col(cols, end, 'TIMESTAMP')} AS end_time,
         ${col(cols, resource.checksum?.filename, 'VARCHAR')} AS filename, ${col(cols, 'file_path', 'VARCHAR')} AS file_path, ${col(cols, resource.checksum?.checksum, 'VARCHAR')} AS checksum
       FROM ${db}.main.${t} WHERE id IN (SELECT k FROM ${T_KEYS} WHERE res = ${sqlString(res)} AND change <> ${sqlString(db === 'hist_new_radar' ? 'removed' : 'added')})`;
    await run(
      conn,
      `INSERT INTO ${T_RADAR}
       SELECT ${sqlString(snapshot.name)}, ${sqlString(snapshot.taken_at)}::TIMESTAMP, ${sqlString(res)}, k.k, k.change,
         CASE WHEN k.change = 'changed' THEN ${fieldList} END,
         coalesce(ni.radar_code, oi.radar_code), coalesce(ni.start_time, oi.start_time), coalesce(ni.end_time, oi.end_time),
         coalesce(ni.filename, oi.filename), coalesce(ni.file_path, oi.file_path), coalesce(ni.checksum, oi.checksum)
       FROM ${T_KEYS} k
       LEFT JOIN (${hashes('hist_new_radar')}) n ON n.id = k.k
       LEFT JOIN (${hashes('hist_old_radar')}) o ON o.id = k.k
       LEFT JOIN (${info('hist_new_radar', nc)}) ni ON ni.id = k.k AND k.change <> 'removed'
       LEFT JOIN (${info('hist_old_radar', oc)}) oi ON oi.id = k.k AND k.change = 'removed'
       WHERE k.res = ${sqlString(res)}
       ORDER BY k.k`,
    );
  }
  // a key whose rows changed in fields the API does not show (an internal flag) is no change to a client
  await run(conn, `DELETE FROM ${T_RADAR} WHERE snapshot = ${sqlString(snapshot.name)} AND change = 'changed' AND len(fields) = 0`);
  // the alarm instances this snapshot brought: instances with an alarm category of the transferred files whose
  // records changed, that the previous snapshot did not have (by file and transfer)
  if ((await tableExists(conn, 'hist_new_radar', 'transferred_alarm_x')) && (await tableExists(conn, 'hist_old_radar', 'transferred_alarm_x'))) {
    await run(
      conn,
      `INSERT INTO ${T_ALARMS}
       SELECT ${sqlString(snapshot.name)}, ${sqlString(snapshot.taken_at)}::TIMESTAMP, n.id, n.transfer_id, n.transferred_file_status, n.radar_code, n.filename, n.file_path, CAST(n.transfer_start_datetime AS TIMESTAMP)
       FROM hist_new_radar.main.transferred_alarm_x n
       WHERE n.id IN (SELECT k FROM ${T_KEYS} WHERE res = 'transferred' AND change <> 'removed')
         AND NOT EXISTS (SELECT 1 FROM hist_old_radar.main.transferred_alarm_x o WHERE o.id = n.id AND o.transfer_id = n.transfer_id AND o.transferred_file_status = n.transferred_file_status)
       ORDER BY n.id, n.transfer_id`,
    );
  }
  await run(conn, `DROP TABLE ${T_KEYS}`);
}

/** The status intervals of a series (the series' own, else its phenomenon's), as the API lists them. */
function intervalsOf(config: TimeseriesConfig, seriesId: string, phenomenonId: string): StatusInterval[] {
  return config.statusIntervals.timeseries[seriesId] ?? config.statusIntervals.phenomenon[phenomenonId] ?? [];
}

/** SQL of the name of the first interval holding `v` (lower ≤ v < upper), null outside all. */
function levelSql(intervals: StatusInterval[], v: string): string {
  if (intervals.length === 0) return 'NULL::VARCHAR';
  const whens = intervals.map((i) => `WHEN ${v} >= ${Number(i.lower)}${i.upper !== undefined ? ` AND ${v} < ${Number(i.upper)}` : ''} THEN ${sqlString(i.name)}`);
  return `CASE ${whens.join(' ')} ELSE NULL END`;
}

/** New observations and status changes per timeseries into T_SERIES and T_STATUS. */
async function timeseriesChanges(conn: DuckDBConnection, snapshot: SnapshotManifest): Promise<void> {
  const [cfgRow] = await all(conn, "SELECT value FROM hist_new_ts.main.meta WHERE key = 'config'");
  const config = JSON.parse(String(cfgRow!['value'])) as TimeseriesConfig;
  const series = await all(
    conn,
    `SELECT n.sid, n.id, s.id AS station_id, p.id AS phenomenon_id, o.sid AS old_sid, o.last_timestamp AS old_value_time, o.last_value AS old_value
     FROM hist_new_ts.main.timeseries n JOIN hist_new_ts.main.stations s ON s.id = n.station_id JOIN hist_new_ts.main.phenomena p ON p.id = n.phenomenon_id
     LEFT JOIN hist_old_ts.main.timeseries o ON o.id = n.id ORDER BY n.id`,
  );
  // "New" is after the previous snapshot's last observation, a row with a null value included (docs/changes.md):
  // the timeseries table keeps the last *value*'s time, so the last row's is read from the old observations. Rows
  // before the earliest last value of all series cannot be any series' last row: pruned by the zone maps.
  const oldLastRow = new Map<number, bigint>();
  const known = series.filter((s) => s['old_sid'] !== null);
  if (known.length > 0) {
    const valueTimes = known.map((s) => s['old_value_time']);
    const from = valueTimes.every((t) => t !== null) ? valueTimes.reduce<bigint>((a, t) => (BigInt(t as bigint) < a ? BigInt(t as bigint) : a), BigInt(valueTimes[0] as bigint)) : null;
    const lastRows = await all(
      conn,
      `SELECT sid, max("timestamp") AS last FROM hist_old_ts.main.observations${from === null ? '' : ` WHERE "timestamp" >= ${from}`} GROUP BY sid`,
    );
    for (const r of lastRows) oldLastRow.set(Number(r['sid']), BigInt(r['last'] as bigint | number));
  }
  const head = `${sqlString(snapshot.name)}, ${sqlString(snapshot.taken_at)}::TIMESTAMP`;
  // The new observations of every series, read once: a query per series over the whole table checked the zone
  // maps of all its row groups (124,000 at 10^9 rows: 228 s for 2,760 series). When every series was in the
  // previous snapshot, rows at or before the earliest of their last times are pruned by those zone maps.
  const olds = series.map((s) => {
    if (s['old_sid'] === null) return null;
    const valueTime = s['old_value_time'] === null ? null : BigInt(s['old_value_time'] as bigint | number);
    return oldLastRow.get(Number(s['old_sid'])) ?? valueTime;
  });
  let floor: bigint | null = null;
  if (olds.length > 0 && olds.every((o) => o !== null)) floor = olds.reduce<bigint>((a, o) => (o! < a ? o! : a), olds[0]!);
  await run(conn, 'CREATE OR REPLACE TEMP TABLE hist_bounds (sid INTEGER, old_last BIGINT)');
  // numbers only (a series key and a time), from the databases: no text reaches the SQL
  if (series.length > 0) await run(conn, `INSERT INTO hist_bounds VALUES ${series.map((s, i) => `(${Number(s['sid'])}, ${olds[i] === null ? 'NULL' : String(olds[i])})`).join(', ')}`);
  await run(
    conn,
    `CREATE OR REPLACE TEMP TABLE hist_new_obs AS
     SELECT o.sid, o."timestamp", o."value" FROM hist_new_ts.main.observations o JOIN hist_bounds b ON b.sid = o.sid
     WHERE (b.old_last IS NULL OR o."timestamp" > b.old_last)${floor === null ? '' : ` AND o."timestamp" > ${floor}`}
     ORDER BY o.sid, o."timestamp"`,
  );
  for (const [i, s] of series.entries()) {
    const sid = Number(s['sid']);
    const after = olds[i] ?? null;
    const bound = after === null ? '' : ` AND "timestamp" > ${after}`;
    const id = sqlString(String(s['id']));
    const station = sqlString(String(s['station_id']));
    await run(
      conn,
      `INSERT INTO ${T_SERIES} SELECT ${head}, ${id}, ${station}, count(*), min("timestamp"), max("timestamp")
       FROM hist_new_obs WHERE sid = ${sid}${bound} HAVING count(*) > 0`,
    );
    const intervals = intervalsOf(config, String(s['id']), String(s['phenomenon_id']));
    if (intervals.length === 0) continue;
    // the previous snapshot's latest value starts the sequence: its level is where the series stood
    const valueTime = s['old_sid'] === null || s['old_value_time'] === null || s['old_value'] === null ? null : BigInt(s['old_value_time'] as bigint | number);
    const start = valueTime === null ? '' : `SELECT ${valueTime}::BIGINT AS "timestamp", ${Number(s['old_value'])}::DOUBLE AS "value", true AS old UNION ALL `;
    await run(
      conn,
      `INSERT INTO ${T_STATUS}
       SELECT ${head}, ${id}, ${station}, "timestamp", "value", prev_level, level FROM (
         SELECT "timestamp", "value", old, level, lag(level) OVER (ORDER BY "timestamp") AS prev_level, row_number() OVER (ORDER BY "timestamp") AS i
         FROM (SELECT *, ${levelSql(intervals, '"value"')} AS level FROM (${start}SELECT "timestamp", "value", false AS old FROM hist_new_obs WHERE sid = ${sid}${bound} AND "value" IS NOT NULL))
       ) WHERE NOT old AND (i > 1 OR ${valueTime === null ? 'false' : 'true'}) AND level IS DISTINCT FROM prev_level
       ORDER BY "timestamp"`,
    );
  }
  await run(conn, 'DROP TABLE hist_new_obs');
  await run(conn, 'DROP TABLE hist_bounds');
}

async function countsOf(conn: DuckDBConnection, radar: boolean, ts: boolean): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const count = async (key: string, sql: string) => {
    const [r] = await all(conn, sql);
    out[key] = Number(r!['n']);
  };
  if (radar) {
    for (const res of ['files', 'transfers', 'radars', 'coverage'] as const) {
      if (await tableExists(conn, 'hist_new_radar', RESOURCES[res].table)) await count(res, `SELECT count(DISTINCT id) AS n FROM hist_new_radar.main.${RESOURCES[res].table}`);
    }
  }
  if (ts) {
    await count('stations', 'SELECT count(*) AS n FROM hist_new_ts.main.stations');
    await count('timeseries', 'SELECT count(*) AS n FROM hist_new_ts.main.timeseries');
    await count('observations', 'SELECT count(*) AS n FROM hist_new_ts.main.observations');
  }
  return out;
}

/** Carries the previous build's kept change rows into the tables (those of `keepNames` only). */
async function carry(conn: DuckDBConnection, previous: string | undefined, keepNames: string[]): Promise<void> {
  if (previous === undefined || keepNames.length === 0) return;
  const names = keepNames.map(sqlString).join(', ');
  for (const { table, file } of HISTORY_TABLES) {
    const path = join(previous, HISTORY_DIR, file);
    if (existsSync(path)) await run(conn, `INSERT INTO ${table} SELECT * FROM read_parquet(${sqlString(path)}) WHERE snapshot IN (${names})`);
  }
}

/** Records this build's snapshot and change set, and the kept history, in `<folder>/history/`. */
export async function recordHistory(input: HistoryInput): Promise<HistoryResult> {
  const t0 = performance.now();
  const { conn, folder, manifest } = input;
  const keep = input.keep ?? historyKeep();
  const previous = input.previous !== undefined && existsSync(join(input.previous, 'build.json')) ? input.previous : undefined;
  const prevDoc = previous === undefined ? undefined : readSnapshots(previous);
  const prevManifest = previous === undefined ? undefined : (JSON.parse(readFileSync(join(previous, 'build.json'), 'utf8')) as { snapshot: SnapshotManifest }).snapshot;
  const prevName = prevManifest?.name;
  const rebuild = prevName === manifest.name;
  for (const { table, columns } of HISTORY_TABLES) await run(conn, `CREATE OR REPLACE TABLE ${table} (${columns})`);
  const attached: string[] = [];
  const tryAttach = async (file: string, alias: string) => {
    if (await attach(conn, file, alias)) attached.push(alias);
  };
  try {
    await tryAttach(join(folder, 'data', RADAR_DB_FILE), 'hist_new_radar');
    await tryAttach(join(folder, 'data', TIMESERIES_DB_FILE), 'hist_new_ts');
    let kept: SnapshotEntry[];
    let entry: SnapshotEntry;
    if (rebuild && prevDoc) {
      // the same snapshot again: its change set is the one it had; its entry is made again
      const old = prevDoc.snapshots.find((s) => s.name === manifest.name);
      kept = prevDoc.snapshots.filter((s) => s.name !== manifest.name).slice(0, keep - 1);
      await carry(conn, previous, [manifest.name, ...kept.map((s) => s.name)]);
      entry = { name: manifest.name, taken_at: manifest.taken_at, base: old?.base ?? null, baseTakenAt: old?.baseTakenAt ?? null, manifestSha256: null, records: {}, changes: old?.changes ?? null };
    } else {
      kept = previous === undefined ? [] : (prevDoc?.snapshots.filter((s) => s.name !== manifest.name) ?? []).slice(0, keep - 1);
      await carry(conn, previous, kept.map((s) => s.name));
      let changes: SnapshotEntry['changes'] = null;
      if (previous !== undefined && !rebuild) {
        const hasRadar = attached.includes('hist_new_radar');
        const hasTs = attached.includes('hist_new_ts');
        if (hasRadar) await tryAttach(join(previous, 'data', RADAR_DB_FILE), 'hist_old_radar');
        if (hasTs) await tryAttach(join(previous, 'data', TIMESERIES_DB_FILE), 'hist_old_ts');
        if (attached.includes('hist_old_radar')) await radarChanges(conn, previous, manifest, input.newKeysSql);
        if (attached.includes('hist_old_ts')) await timeseriesChanges(conn, manifest);
        const radarCounts: Record<string, { added: number; changed: number; removed: number }> = {};
        for (const r of await all(conn, { sql: `SELECT res, change, count(*) AS n FROM ${T_RADAR} WHERE snapshot = $s GROUP BY ALL ORDER BY ALL`, params: { s: manifest.name } })) {
          const c = (radarCounts[r['res'] as string] ??= { added: 0, changed: 0, removed: 0 });
          c[r['change'] as 'added' | 'changed' | 'removed'] = Number(r['n']);
        }
        const [sr] = await all(conn, { sql: `SELECT count(*) AS series, coalesce(sum(new_observations), 0) AS obs FROM ${T_SERIES} WHERE snapshot = $s`, params: { s: manifest.name } });
        const [st] = await all(conn, { sql: `SELECT count(*) AS n FROM ${T_STATUS} WHERE snapshot = $s`, params: { s: manifest.name } });
        const [al] = await all(conn, { sql: `SELECT count(*) AS n FROM ${T_ALARMS} WHERE snapshot = $s`, params: { s: manifest.name } });
        changes = { radar: radarCounts, alarms: Number(al!['n']), timeseries: { series: Number(sr!['series']), newObservations: Number(sr!['obs']), statusChanges: Number(st!['n']) } };
      }
      entry = { name: manifest.name, taken_at: manifest.taken_at, base: prevManifest?.name ?? null, baseTakenAt: prevManifest?.taken_at ?? null, manifestSha256: null, records: {}, changes };
    }
    entry.records = await countsOf(conn, attached.includes('hist_new_radar'), attached.includes('hist_new_ts'));
    const document: SnapshotsDocument = { keep, snapshots: [entry, ...kept] };
    const dir = join(folder, HISTORY_DIR);
    mkdirSync(dir, { recursive: true });
    for (const { table, file, order } of HISTORY_TABLES) {
      await run(conn, `COPY (SELECT * FROM ${table} ORDER BY ${order}) TO ${sqlString(join(dir, file))} (FORMAT parquet, COMPRESSION zstd)`);
    }
    return { document, seconds: (performance.now() - t0) / 1000 };
  } finally {
    for (const a of [...attached].reverse()) {
      await run(conn, `DETACH ${a}`);
      await run(conn, `DETACH DATABASE IF EXISTS ${a}_file`);
    }
    for (const t of [...HISTORY_TABLES.map((h) => h.table), T_KEYS]) await run(conn, `DROP TABLE IF EXISTS ${t}`);
  }
}
