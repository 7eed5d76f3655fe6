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
import { run } from '../../lib/duckdb.ts';

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
    [
      'observations',
      `SELECT k.sid, o."timestamp"::BIGINT AS "timestamp", o."value"::DOUBLE AS "value"
       FROM ${p('observations')} o JOIN series_keys k ON k.id = o.timeseries_id ORDER BY k.sid, o."timestamp"`,
    ],
    [
      'timeseries',
      `SELECT k.sid, t.id, t.label, t.service_id, t.category_id, t.offering_id, t.feature_id, t.procedure_id, t.phenomenon_id, t.station_id, t.uom,
         b.first_timestamp, b.first_value, b.last_timestamp, b.last_value
       FROM ${p('timeseries')} t JOIN series_keys k ON k.id = t.id
       LEFT JOIN (SELECT sid, min("timestamp") AS first_timestamp, arg_min("value", "timestamp") AS first_value,
                         max("timestamp") AS last_timestamp, arg_max("value", "timestamp") AS last_value
                  FROM observations WHERE "value" IS NOT NULL GROUP BY sid) b ON b.sid = k.sid
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

/** Writes the tables into the connection's current database (a new, empty file). */
export async function buildTimeseriesDb(conn: DuckDBConnection, p: (table: string) => string, config: TimeseriesConfig, onTable: (name: string) => void): Promise<void> {
  for (const [name, sql] of tableSql(p)) {
    onTable(name);
    await run(conn, `CREATE TABLE ${name} AS ${sql}`);
  }
  await run(conn, 'DROP TABLE series_keys');
  await run(conn, 'CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)');
  await run(conn, { sql: "INSERT INTO meta VALUES ('config', $config)", params: { config: JSON.stringify(config) } });
}
