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
 * per series come from one GROUP BY over the id column (as many groups as series). Each pass then reads back
 * its own rows (pruned by their sid bounds) for its series' first and last non-null values (`series_bounds`,
 * joined into `timeseries`), so that no statement after the passes reads the observations but writeSeriesFile's
 * stream.
 */
async function writeObservations(conn: DuckDBConnection, p: (name: string) => string): Promise<void> {
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
    await run(conn, {
      sql: `INSERT INTO observations
        SELECT k.sid, o."timestamp"::BIGINT AS "timestamp", o."value"::DOUBLE AS "value"
        FROM ${p('observations')} o JOIN series_keys k ON k.id = o.timeseries_id
        WHERE o.timeseries_id BETWEEN $lo AND $hi
        ORDER BY k.sid, o."timestamp"`,
      params: { lo: pass.loId, hi: pass.hiId },
    });
    await run(conn, {
      sql: `INSERT INTO series_bounds
        SELECT sid, min("timestamp"), arg_min("value", "timestamp"), max("timestamp"), arg_max("value", "timestamp")
        FROM observations WHERE sid BETWEEN $lo AND $hi AND "value" IS NOT NULL GROUP BY sid`,
      params: { lo: pass.loSid, hi: pass.hiSid },
    });
  }
  await run(conn, 'CHECKPOINT');
}

/** Writes the tables into the connection's current database (a new, empty file). */
export async function buildTimeseriesDb(conn: DuckDBConnection, p: (table: string) => string, config: TimeseriesConfig, onTable: (name: string) => void): Promise<void> {
  for (const [name, sql] of tableSql(p)) {
    onTable(name);
    if (sql === OBSERVATIONS_IN_PASSES) await writeObservations(conn, p);
    else await run(conn, `CREATE TABLE ${name} AS ${sql}`);
  }
  await run(conn, 'DROP TABLE series_keys');
  await run(conn, 'DROP TABLE series_bounds');
  await run(conn, 'CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)');
  await run(conn, { sql: "INSERT INTO meta VALUES ('config', $config)", params: { config: JSON.stringify(config) } });
}
