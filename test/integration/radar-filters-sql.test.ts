/**
 * Each radar filter's SQL (core/radar/filters.ts, run by DuckDB) and its JS test of a resident row select the
 * same rows, on generated tables: positions on and off the box's edges, boxes across the antimeridian, times on
 * a timespan's bounds, NULL positions, codes and times, for an interval resource (files) and an instant one
 * (radars). The demo catalogue's version of this is resident-tables.test.ts; this one reaches the corners a
 * demo does not hold.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { and } from '../../core/sql.ts';
import { NO_SELECTION, selectionRowTests, selectionSql, type ResidentColumns, type Selection } from '../../core/radar/filters.ts';
import { RESOURCES, type Resource } from '../../core/radar/resources.ts';
import { RADAR_ROUTES } from '../../core/radar/routes.ts';
import { all, openDuckDB, run } from '../../lib/duckdb.ts';
import { fc } from '../helpers/fuzz.ts';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await openDuckDB({ threads: 1 });
  conn = await instance.connect();
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

const BASE = Date.parse('2024-03-01T00:00:00Z');
/** Quarter degrees, so generated boxes often fall exactly on a position. */
const lat = fc.integer({ min: -360, max: 360 }).map((n) => n / 4);
const lon = fc.integer({ min: -720, max: 720 }).map((n) => n / 4);
/** Minutes around BASE, so generated timespans often fall exactly on a record's time. */
const instant = fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }).map((m) => BASE + m * 60_000);
const code = fc.constantFrom('sas', 'pgr', 'kod');

interface Row {
  lat: number | null;
  lon: number | null;
  code: string | null;
  start: number | null;
  ms: number;
}
const row = fc.record({ lat: fc.option(lat, { freq: 6 }), lon: fc.option(lon, { freq: 6 }), code: fc.option(code, { freq: 6 }), start: fc.option(instant, { freq: 6 }), ms: fc.integer({ min: 0, max: 3 * 60 }).map((m) => m * 60_000) });

const selection = fc.record({
  timespan: fc.option(fc.tuple(instant, instant).map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) })), { freq: 2, nil: undefined }),
  bbox: fc.option(fc.record({ minX: lon, maxX: lon, ys: fc.tuple(lat, lat) }).map(({ minX, maxX, ys }) => ({ minX, maxX, minY: Math.min(...ys), maxY: Math.max(...ys) })), { freq: 2, nil: undefined }),
  radarCode: fc.option(code, { freq: 2, nil: undefined }),
});

const sqlNumber = (v: number | null) => (v === null ? 'NULL' : String(v));
const sqlTime = (ms: number | null) => (ms === null ? 'NULL' : `make_timestamp(${ms * 1000})`);

/** The table of a resource with the columns the filters read, and the same rows as resident columns. */
async function load(r: Resource, rows: Row[]): Promise<ResidentColumns> {
  const rt = r.time!;
  const time = rt.kind === 'overlap' ? [rt.start, rt.end] : [rt.column];
  await run(conn, `CREATE OR REPLACE TABLE t (id BIGINT, latitude DOUBLE, longitude DOUBLE, radar_code VARCHAR, ${time.map((c) => `${c} TIMESTAMP`).join(', ')})`);
  if (rows.length > 0) {
    const values = rows.map((x, i) => {
      const times = [sqlTime(x.start), ...(time.length === 2 ? [sqlTime(x.start === null ? null : x.start + x.ms)] : [])];
      return `(${i}, ${sqlNumber(x.lat)}, ${sqlNumber(x.lon)}, ${x.code === null ? 'NULL' : `'${x.code}'`}, ${times.join(', ')})`;
    });
    await run(conn, `INSERT INTO t VALUES ${values.join(', ')}`);
  }
  return {
    id: rows.map((_, i) => BigInt(i)),
    latitude: rows.map((x) => x.lat),
    longitude: rows.map((x) => x.lon),
    radarCode: rows.map((x) => x.code),
    timeStart: rows.map((x) => (x.start === null ? null : x.start * 1000)),
    ...(time.length === 2 ? { timeEnd: rows.map((x) => (x.start === null ? null : (x.start + x.ms) * 1000)) } : {}),
  };
}

test.each([
  ['files', '/files'],
  ['radars', '/radars'],
] as const)('%s: the SQL and the resident test of every filter keep the same rows', async (name, path) => {
  const resource = RESOURCES[name];
  const route = RADAR_ROUTES.find((r) => r.path === path)!;
  await fc.assert(
    fc.asyncProperty(fc.array(row, { maxLength: 40 }), selection, async (rows, sel) => {
      const cols = await load(resource, rows);
      // the longest interval of the table, as the build records it
      const maxDurationMs = Math.max(0, ...rows.filter((x) => x.start !== null).map((x) => x.ms));
      const s: Selection = { ...NO_SELECTION, ...sel };
      const where = and(selectionSql(s, { resource, route, maxDurationMs }));
      const bySql = (await all(conn, { sql: `SELECT id FROM t WHERE ${where.sql} ORDER BY id`, params: where.params })).map((x) => BigInt(x['id'] as bigint));
      const tests = selectionRowTests(s, { resource, maxDurationMs }, cols);
      const byJs = cols.id.filter((_, i) => tests.every((t) => t(i)));
      expect(byJs).toEqual(bySql);
    }),
    { numRuns: 150 },
  );
});
