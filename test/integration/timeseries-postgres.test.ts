/**
 * The PostgreSQL side of `npm run bench -- --only timeseries-postgres` answers as snapcat does: the timeseries
 * demo build's observations loaded into a real PostgreSQL (Debian's server, installed when missing; a private
 * cluster under test/.tmp on a socket of its own) in 52°North's observation schema (bench/pg-timeseries-load.ts),
 * answered by bench/pg-timeseries-server.ts, and every request below asked of both it and snapcat's endpoint
 * over the same build: the same status, and for 200 the same parsed JSON. A comparison of different answers is
 * worthless, so the bench checks this too before it times anything; here it is checked over more cases (nulls,
 * empty spans, both generalizers, POST in the order named, repeats, unknown ids, too long a timespan).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ensurePostgres, startPostgres, type RunningPostgres } from '../../bench/lib/postgres.ts';
import { loadObservations, type ObservationLoad } from '../../bench/pg-timeseries-load.ts';
import { startPgTimeseriesServer } from '../../bench/pg-timeseries-server.ts';
import { openDuckDB } from '../../lib/duckdb.ts';
import { freePort } from '../helpers/nginx.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

let postgres: RunningPostgres;
let pgServer: Awaited<ReturnType<typeof startPgTimeseriesServer>>;
let snapcat: Served;
let pgBase: string;
let load: ObservationLoad;
let ids: string[];
let rowsInDuckDB: number;

beforeAll(async () => {
  const build = inject('tsBuild');
  const duckPath = join(build, 'data', 'timeseries-v1.duckdb');
  const duck = await openDuckDB({ path: duckPath, readOnly: true });
  const c = await duck.connect();
  ids = (await c.runAndReadAll('SELECT id FROM timeseries ORDER BY sid')).getRows().map((r) => String(r[0]));
  rowsInDuckDB = Number((await c.runAndReadAll('SELECT count(*) FROM observations')).getRows()[0]![0]);
  c.closeSync();
  duck.closeSync();
  mkdirSync(TEST_TMP, { recursive: true });
  postgres = await startPostgres({ bin: ensurePostgres(), folder: join(TEST_TMP, `pg-timeseries-${process.pid}`), port: await freePort() });
  const client = new pg.Client(postgres.client());
  await client.connect();
  try {
    // small chunks: the load's chunking is exercised too
    load = await loadObservations({ client, duckPath, csvDir: join(postgres.host, 'csv'), chunkRows: 20_000, log: () => {} });
  } finally {
    await client.end();
  }
  pgServer = await startPgTimeseriesServer({ pool: postgres.client({ max: 2 }), port: 0, settings: { maxTimespan: 'P1Y1D', defaultGeneralizer: 'lttb', profile: 'spec' } });
  pgBase = `http://127.0.0.1:${(pgServer.server.address() as AddressInfo).port}`;
  snapcat = await startEndpoint(build);
});

afterAll(async () => {
  await snapcat?.close();
  await pgServer?.close();
  await postgres?.stop();
});

async function both(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; snapcat: unknown; postgres: unknown }> {
  const ask = async (base: string) => {
    const r = await fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });
    return { status: r.status, json: (await r.json()) as unknown };
  };
  const [a, b] = await Promise.all([ask(snapcat.url), ask(pgBase)]);
  expect(b.status, `${method} ${path}: PostgreSQL ${b.status}, snapcat ${a.status}: ${JSON.stringify(b.json).slice(0, 300)}`).toBe(a.status);
  return { status: a.status, snapcat: a.json, postgres: b.json };
}

describe('the load', () => {
  test('every observation of the build, every series, in chunks', () => {
    expect(load.rows).toBe(rowsInDuckDB);
    expect(load.series).toBe(ids.length);
    expect(load.chunks).toBeGreaterThan(1);
    expect(load.totalBytes).toBe(load.heapBytes + load.indexBytes);
    expect(load.heapBytes).toBeGreaterThan(0);
  });
});

describe('the same answers as snapcat', () => {
  const spans = ['2024-01-01T00:00:00Z/2024-01-09T00:00:00Z', 'P1D/2024-01-05T12:00:00Z', '2024-01-03T10:05:00Z/PT3H', 'P1Y/2024-01-08T23:50:00Z', '2030-01-01TZ/P1D'];

  test('GET getData of every series over several timespans (nulls and empty spans included)', async () => {
    let values = 0;
    let nulls = 0;
    for (const id of ids) {
      for (const span of spans) {
        const r = await both('GET', `/api/v1/timeseries/${id}/getData?timespan=${encodeURIComponent(span)}`);
        expect(r.status).toBe(200);
        expect(r.postgres).toEqual(r.snapcat);
        const v = (r.snapcat as { values: { value: number | null }[] }).values;
        values += v.length;
        nulls += v.filter((x) => x.value === null).length;
      }
    }
    // the comparison covered values, and values reported without a number
    expect(values).toBeGreaterThan(1000);
    expect(nulls).toBeGreaterThan(0);
  });

  test('generalize=true: the default (LTTB), a threshold, Douglas-Peucker', async () => {
    for (const id of ids.slice(0, 12)) {
      for (const q of ['generalize=true', 'generalize=true&threshold=50', 'generalize=true&generalizing_algorithm=DP&tolerance_value=0.5']) {
        const r = await both('GET', `/api/v1/timeseries/${id}/getData?timespan=${encodeURIComponent(spans[0]!)}&${q}`);
        expect(r.status).toBe(200);
        expect(r.postgres).toEqual(r.snapcat);
      }
    }
    const r = await both('GET', `/api/v1/timeseries/${ids[0]}/getData?timespan=${encodeURIComponent(spans[0]!)}&generalize=true&threshold=50`);
    expect((r.snapcat as { values: unknown[] }).values).toHaveLength(50);
  });

  test('POST getData of many series, in the order named, repeats answered once', async () => {
    const some = ids.slice(0, 40);
    const named = [...some].reverse().concat(some[0]!);
    for (const timespan of [spans[1]!, spans[3]!]) {
      const r = await both('POST', '/api/v1/timeseries/getData', { timespan, timeseries: named });
      expect(r.status).toBe(200);
      expect(r.postgres).toEqual(r.snapcat);
      expect(Object.keys((r.postgres as { allTimeseries: object }).allTimeseries)).toEqual([...some].reverse());
    }
  });

  test('an unknown series is 404 on both; too long a timespan 400 on both', async () => {
    expect((await both('GET', '/api/v1/timeseries/ts_nowhere/getData?timespan=P1D/2024-01-05TZ')).status).toBe(404);
    expect((await both('POST', '/api/v1/timeseries/getData', { timespan: 'P1D/2024-01-05TZ', timeseries: [ids[0], 'ts_nowhere'] })).status).toBe(404);
    expect((await both('GET', `/api/v1/timeseries/${ids[0]}/getData?timespan=P2Y/2024-01-05TZ`)).status).toBe(400);
  });
});
