/**
 * Builds the timeseries database the endpoint reads (`data/timeseries-v1.duckdb`): the snapshot's metadata
 * tables as they are (sorted by id), the timeseries with an integer key `sid` and their first and last
 * non-null values, and the observations keyed by `sid` and sorted by (sid, timestamp), so that one series'
 * range is a tight scan (row groups are pruned by their sid and timestamp bounds). The parsed configuration
 * goes in `meta` as JSON. Labels of a language (`en`, `de`, not `de_AT`) equal to the resource's default
 * label are left out: the fallback gives the same label (core/timeseries/locale.ts), and every resource has
 * such an `en` row, which would double what the endpoint loads at start. Read-only at serving time (see PERFORMANCE-NOTES.md for why a database file).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TimeseriesConfig } from '../../core/snapshot/timeseries-config.ts';
import { all, run } from '../../lib/duckdb.ts';
import { rowsPerPass } from '../snapshot/key-passes.ts';
import { SeriesFileWriter } from '../../lib/series-file.ts';

/** The tables whose resources have labels (written before `labels`). */
const LABELLED = ['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries', 'reference_values'];

function tableSql(p: (name: string) => string): [string, string][] {
  const member = (t: string) => `SELECT id, label, service_id FROM ${p(t)} ORDER BY id`;
  return [
    ['services', `SELECT id, label, service_url, version, type, supports_first_latest FROM ${p('services')} ORDER BY id`],
    ['categories', member('categories')],
    ['offerings', member('offerings')],
    ['features', member('features')],
    ['procedures', member('procedures')],
    ['phenomena', member('phenomena')],
    ['stations', `SELECT id, label, longitude::DOUBLE AS longitude, latitude::DOUBLE AS latitude, service_id FROM ${p('stations')} ORDER BY id`],
    ['series_keys', `SELECT (row_number() OVER (ORDER BY id) - 1)::INTEGER AS sid, id FROM ${p('timeseries')}`],
    ['observations', OBSERVATIONS_IN_PASSES],
    [
      'timeseries',
      `SELECT k.sid, t.id, t.label, t.service_id, t.category_id, t.offering_id, t.feature_id, t.procedure_id, t.phenomenon_id, t.station_id, t.uom,
         b.first_timestamp, b.first_value, b.last_timestamp, b.last_value
       FROM ${p('timeseries')} t JOIN series_keys k ON k.id = t.id
       LEFT JOIN series_bounds b ON b.sid = k.sid
       ORDER BY t.id`,
    ],
    ['reference_values', `SELECT id, label, timeseries_id FROM ${p('reference_values')} ORDER BY id`],
    [
      'reference_value_observations',
      `SELECT reference_value_id, "timestamp"::BIGINT AS "timestamp", "value"::DOUBLE AS "value" FROM ${p('reference_value_observations')} ORDER BY reference_value_id, "timestamp"`,
    ],
    [
      'labels',
      `SELECT l.resource_id, l.locale, l.label FROM ${p('labels')} l
       LEFT JOIN (${LABELLED.map((t) => `SELECT id, label FROM ${t}`).join(' UNION ALL ')}) d ON d.id = l.resource_id
       WHERE NOT (position('_' IN l.locale) = 0 AND l.label IS NOT DISTINCT FROM d.label)
       ORDER BY l.resource_id, l.locale`,
    ],
  ];
}

/** Marks the observations in tableSql: written by writeObservations, not by one statement. */
const OBSERVATIONS_IN_PASSES = '';

/** A run of series keys [lo, hi] (by id: `loId` to `hiId`) whose observations one pass sorts. */
export interface SeriesPass {
  loId: string;
  hiId: string;
  loSid: number;
  hiSid: number;
  rows: number;
}

/**
 * Series (in key order, with their observation counts) packed greedily into passes of at most `perPass` rows; a
 * series with more rows than that is a pass of its own (DuckDB's sort spills what does not fit).
 */
export function seriesPasses(counts: { sid: number; id: string; rows: number }[], perPass: number): SeriesPass[] {
  const passes: SeriesPass[] = [];
  let open: SeriesPass | undefined;
  for (const { sid, id, rows } of counts) {
    if (open && open.rows + rows > perPass) {
      passes.push(open);
      open = undefined;
    }
    if (open) {
      open.hiId = id;
      open.hiSid = sid;
      open.rows += rows;
    } else open = { loId: id, hiId: id, loSid: sid, hiSid: sid, rows };
  }
  if (open) passes.push(open);
  return passes;
}

/**
 * The observations table, sorted by (sid, timestamp), written in passes over runs of series whose rows fit
 * DuckDB's memory limit (key-passes.ts `rowsPerPass`), in key order: no statement sorts (or holds) the whole
 * table, so the build's memory does not grow with the number of observations. Series keys follow the ids'
 * order, so a run of keys is a range of ids, and a snapshot's observations file, sorted by id as the format
 * asks, has its row groups pruned by their statistics: all passes together read it about once. The counts
 * per series come from one GROUP BY over the id column (as many groups as series). Each pass sorts its rows
 * into an in-memory table (`memory.pass_observations`, at most a pass's rows; DuckDB spills it past its
 * limit), which is then appended to `observations`, read for its series' first and last non-null values
 * (`series_bounds`, joined into `timeseries`) and, in a full build, streamed into the series file
 * (`seriesFile`, lib/series-file.ts): no statement reads the whole persistent table. Why (issue 23, measured
 * at 10^9): one stream of the 10^9-row table of this database (8,192-row row groups) grew the process beyond
 * DuckDB's memory limit with the rows read (about 0.5 GB per 10^9 rows, even at a 256 MB limit; the same read
 * from the snapshot's Parquet file stayed flat), and it was the build's peak (2.6 GB resident); the pass's own
 * table is dropped each time.
 */
async function writeObservations(conn: DuckDBConnection, p: (name: string) => string, seriesFile: SeriesFileWriter | undefined): Promise<void> {
  await run(conn, 'CREATE TABLE observations (sid INTEGER, "timestamp" BIGINT, "value" DOUBLE)');
  await run(
    conn,
    'CREATE TABLE series_bounds (sid INTEGER, first_timestamp BIGINT, first_value DOUBLE, last_timestamp BIGINT, last_value DOUBLE)',
  );
  const counts = await all(
    conn,
    `SELECT k.sid, k.id, c.n FROM (SELECT timeseries_id, count(*) AS n FROM ${p('observations')} GROUP BY timeseries_id) c
     JOIN series_keys k ON k.id = c.timeseries_id ORDER BY k.sid`,
  );
  const passes = seriesPasses(
    counts.map((r) => ({ sid: Number(r['sid']), id: String(r['id']), rows: Number(r['n']) })),
    await rowsPerPass(conn),
  );
  for (const pass of passes) {
    await run(conn, 'CREATE OR REPLACE TABLE memory.pass_observations (sid INTEGER, "timestamp" BIGINT, "value" DOUBLE)');
    await run(conn, {
      sql: `INSERT INTO memory.pass_observations
        SELECT k.sid, o."timestamp"::BIGINT AS "timestamp", o."value"::DOUBLE AS "value"
        FROM ${p('observations')} o JOIN series_keys k ON k.id = o.timeseries_id
        WHERE o.timeseries_id BETWEEN $lo AND $hi
        ORDER BY k.sid, o."timestamp"`,
      params: { lo: pass.loId, hi: pass.hiId },
    });
    await run(conn, 'INSERT INTO observations SELECT * FROM memory.pass_observations');
    await run(
      conn,
      `INSERT INTO series_bounds
       SELECT sid, min("timestamp"), arg_min("value", "timestamp"), max("timestamp"), arg_max("value", "timestamp")
       FROM memory.pass_observations WHERE "value" IS NOT NULL GROUP BY sid`,
    );
    if (seriesFile) await seriesFile.add(conn, 'memory.pass_observations');
  }
  await run(conn, 'DROP TABLE IF EXISTS memory.pass_observations');
  await run(conn, 'CHECKPOINT');
}

/** Writes the tables into the connection's current database (a new, empty file). */
export async function buildTimeseriesDb(
  conn: DuckDBConnection,
  p: (table: string) => string,
  config: TimeseriesConfig,
  onTable: (name: string) => void,
  opts: { seriesFileDir?: string } = {},
): Promise<void> {
  let seriesFile: SeriesFileWriter | undefined;
  try {
    for (const [name, sql] of tableSql(p)) {
      onTable(name);
      if (sql !== OBSERVATIONS_IN_PASSES) await run(conn, `CREATE TABLE ${name} AS ${sql}`);
      else {
        if (opts.seriesFileDir) {
          const [keys] = await all(conn, 'SELECT count(*) AS n FROM series_keys');
          seriesFile = new SeriesFileWriter(opts.seriesFileDir, Number(keys!['n']));
        }
        await writeObservations(conn, p, seriesFile);
        seriesFile?.finish();
      }
    }
  } finally {
    seriesFile?.close();
  }
  await run(conn, 'DROP TABLE series_keys');
  await run(conn, 'DROP TABLE series_bounds');
  await run(conn, 'CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)');
  await run(conn, { sql: "INSERT INTO meta VALUES ('config', $config)", params: { config: JSON.stringify(config) } });
}

/** A daily append cannot be made over the last build: the build is made in full instead (build.ts). */
export class AppendRejected extends Error {
  constructor(reason: string) {
    super(`daily append not possible: ${reason}`);
    this.name = 'AppendRejected';
  }
}

/**
 * A daily append (build-scripts/timeseries/append.ts) over the connection's current database, a copy of the
 * last build's: the metadata tables are made again from the snapshot (they are small), the observations of the
 * new files (`pNew`, already validated) are sorted by (sid, timestamp) into `memory.new_observations` and added
 * to `observations`, and each series' first and last non-null values are those of the last build carried
 * forward by the new rows. `lastTimestamp[sid]` is each series' last observation (null values included) in the
 * last build, -Infinity for none: a new row at or before it, or a change in the set of series (the keys would
 * move), rejects the append (AppendRejected). Returns the number of new observations.
 */
export async function appendTimeseriesDb(
  conn: DuckDBConnection,
  p: (table: string) => string,
  newObservations: string,
  config: TimeseriesConfig,
  lastTimestamp: Float64Array,
  onTable: (name: string) => void,
): Promise<number> {
  const tables = tableSql(p);
  const sql = (name: string) => tables.find(([n]) => n === name)![1];
  onTable('series_keys');
  await run(conn, `CREATE TABLE series_keys AS ${sql('series_keys')}`);
  const [moved] = await all(
    conn,
    `SELECT count(*) AS n FROM series_keys k FULL OUTER JOIN timeseries t ON t.id = k.id AND t.sid = k.sid WHERE k.id IS NULL OR t.id IS NULL`,
  );
  if (Number(moved!['n']) > 0) throw new AppendRejected(`the set of timeseries changed (${Number(moved!['n'])} ids added or removed)`);
  if (lastTimestamp.length !== (await all(conn, 'SELECT sid FROM series_keys')).length) throw new AppendRejected('the last build\'s series file has another number of series');
  onTable('observations (new)');
  await run(
    conn,
    `CREATE TABLE memory.new_observations AS
     SELECT k.sid, o."timestamp"::BIGINT AS "timestamp", o."value"::DOUBLE AS "value"
     FROM ${newObservations} o JOIN series_keys k ON k.id = o.timeseries_id
     ORDER BY k.sid, o."timestamp"`,
  );
  // every new row after its series' last observation in the last build: one row per series with new rows
  const firsts = await all(conn, 'SELECT sid, min("timestamp")::DOUBLE AS t FROM memory.new_observations GROUP BY sid');
  for (const r of firsts) {
    const sid = Number(r['sid']);
    const t = Number(r['t']);
    if (!(t > lastTimestamp[sid]!)) {
      const [id] = await all(conn, { sql: 'SELECT id FROM series_keys WHERE sid = $sid', params: { sid } });
      throw new AppendRejected(`a new observation of ${String(id!['id'])} at ${new Date(t).toISOString()} is not after the last build's last one (${new Date(lastTimestamp[sid]!).toISOString()})`);
    }
  }
  const [added] = await all(conn, 'SELECT count(*) AS n FROM memory.new_observations');
  await run(conn, 'INSERT INTO observations SELECT * FROM memory.new_observations');
  // the bounds: the first non-null value stays unless the series had none; the last is the new rows' if they have one
  await run(
    conn,
    `CREATE TABLE series_bounds AS
     WITH n AS (SELECT sid, min("timestamp") AS ft, arg_min("value", "timestamp") AS fv, max("timestamp") AS lt, arg_max("value", "timestamp") AS lv
                FROM memory.new_observations WHERE "value" IS NOT NULL GROUP BY sid)
     SELECT t.sid,
       CASE WHEN t.first_timestamp IS NULL THEN n.ft ELSE t.first_timestamp END AS first_timestamp,
       CASE WHEN t.first_timestamp IS NULL THEN n.fv ELSE t.first_value END AS first_value,
       CASE WHEN n.lt IS NULL THEN t.last_timestamp ELSE n.lt END AS last_timestamp,
       CASE WHEN n.lt IS NULL THEN t.last_value ELSE n.lv END AS last_value
     FROM timeseries t LEFT JOIN n ON n.sid = t.sid
     WHERE t.first_timestamp IS NOT NULL OR n.ft IS NOT NULL`,
  );
  // the metadata tables again, in the full build's order (labels reads the labelled tables)
  for (const [name, q] of tables) {
    if (name === 'series_keys' || name === 'observations') continue;
    onTable(name);
    await run(conn, `DROP TABLE IF EXISTS ${name}`);
    await run(conn, `CREATE TABLE ${name} AS ${q}`);
  }
  await run(conn, 'DROP TABLE series_keys');
  await run(conn, 'DROP TABLE series_bounds');
  await run(conn, 'DROP TABLE IF EXISTS meta');
  await run(conn, 'CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)');
  await run(conn, { sql: "INSERT INTO meta VALUES ('config', $config)", params: { config: JSON.stringify(config) } });
  return Number(added!['n']);
}
