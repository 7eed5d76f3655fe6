/**
 * The data formats real clients ask for, through a real endpoint over the timeseries demo build: `format=flot`
 * (Helgoland sends it on every data request) against the tvp answer and brute force over the snapshot's
 * observations.parquet.
 */
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

let s: Served;
let duck: DuckDBInstance;
let db: DuckDBConnection;
const P = '/api/v1';
type Json = Record<string, any>;
type Pair = [number, number | null];

beforeAll(async () => {
  s = await startEndpoint(inject('tsBuild'));
  duck = await DuckDBInstance.create(':memory:');
  db = await duck.connect();
});
afterAll(async () => {
  await s.close();
  db.closeSync();
  duck.closeSync();
});

const parquet = (table: string) => `read_parquet('${join(inject('tsSnapshot'), `${table}.parquet`).replaceAll("'", "''")}')`;

/** Brute force: the nearest non-null observation before `start` and after `end`. */
async function outside(id: string, start: number, end: number): Promise<{ before: Pair | undefined; after: Pair | undefined }> {
  const one = async (sql: string, at: number) => {
    const r = (await db.runAndReadAll(sql, { id, at })).getRowObjectsJS();
    return r.length ? ([r[0]!['t'] as number, r[0]!['v'] as number] as Pair) : undefined;
  };
  const base = `SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM ${parquet('observations')} WHERE timeseries_id = $id AND "value" IS NOT NULL`;
  return {
    before: await one(`${base} AND "timestamp" < $at ORDER BY 1 DESC LIMIT 1`, start),
    after: await one(`${base} AND "timestamp" > $at ORDER BY 1 LIMIT 1`, end),
  };
}

async function json(path: string, init?: RequestInit): Promise<Json> {
  const res = await fetch(`${s.url}${path}`, init);
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(text) as Json;
}

const post = (body: object) => json(`${P}/timeseries/getData`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const pairs = (values: { timestamp: number; value: number | null }[]): Pair[] => values.map((v) => [v.timestamp, v.value]);

describe('format=flot', () => {
  const id = 'ts_koeln_rhein_water_level';
  const span = '2024-01-03T00:00:00Z/2024-01-05T00:00:00Z';

  test('one series: the tvp values as [t, v] pairs and an empty referenceValues', async () => {
    const tvp = await json(`${P}/timeseries/${id}/getData?timespan=${span}`);
    const flot = await json(`${P}/timeseries/${id}/getData?timespan=${span}&format=flot`);
    expect(Object.keys(flot)).toEqual(['values', 'referenceValues']);
    expect(flot['values']).toEqual(pairs(tvp['values']));
    expect(flot['values'].length).toBeGreaterThan(250);
    expect(flot['referenceValues']).toEqual({});
    // the default week too, and the format's name in any case
    expect((await json(`${P}/timeseries/${id}/getData?format=FLOT`))['values']).toEqual(pairs((await json(`${P}/timeseries/${id}/getData`))['values']));
  });

  test('expanded: keyed by id, the reference values sampled as in tvp, and the nearest non-null values outside the span', async () => {
    const withRefs = (await json(`${P}/timeseries?expanded=true`)) as Json[];
    const ids = ['ts_koeln_rhein_water_level', 'ts_dresden_elbe_water_level', 'ts_brocken_relative_humidity'];
    for (const x of ids) {
      const tvp = (await json(`${P}/timeseries/${x}/getData?timespan=${span}&expanded=true`))[x];
      const flot = await json(`${P}/timeseries/${x}/getData?timespan=${span}&expanded=true&format=flot`);
      expect(Object.keys(flot), x).toEqual([x]);
      const entry = flot[x];
      expect(entry['values']).toEqual(pairs(tvp['values']));
      expect(Object.keys(entry['referenceValues'])).toEqual(Object.keys(tvp['extra']['referenceValues']));
      for (const [ref, r] of Object.entries(tvp['extra']['referenceValues'] as Record<string, { values: { timestamp: number; value: number }[] }>)) {
        expect(entry['referenceValues'][ref]).toEqual({ values: pairs(r.values) });
      }
      const want = await outside(x, Date.UTC(2024, 0, 3), Date.UTC(2024, 0, 5));
      expect(entry['valueBeforeTimespan'], x).toEqual(want.before);
      expect(entry['valueAfterTimespan'], x).toEqual(want.after);
    }
    expect(withRefs.length).toBeGreaterThan(0);
    const koeln = (await json(`${P}/timeseries/${ids[0]}/getData?timespan=${span}&expanded=true&format=flot`))[ids[0]!];
    expect(Object.keys(koeln['referenceValues']).length).toBeGreaterThan(0);
    expect(koeln['valueBeforeTimespan'][0]).toBeLessThan(Date.UTC(2024, 0, 3));
    expect(koeln['valueAfterTimespan'][0]).toBeGreaterThan(Date.UTC(2024, 0, 5));
    // a series without any value has neither
    const empty = (await json(`${P}/timeseries/ts_brocken_relative_humidity/getData?expanded=true&format=flot`))['ts_brocken_relative_humidity'];
    expect(empty).toEqual({ values: [], referenceValues: {} });
  });

  test('the span at the edges of the data: nothing after the last value', async () => {
    const flot = (await json(`${P}/timeseries/${id}/getData?timespan=P1D/2024-01-09TZ&expanded=true&format=flot`))[id];
    const want = await outside(id, Date.UTC(2024, 0, 8), Date.UTC(2024, 0, 9));
    expect(want.after).toBeUndefined();
    expect(flot).not.toHaveProperty('valueAfterTimespan');
    expect(flot['valueBeforeTimespan']).toEqual(want.before);
  });

  test('generalize: the same points as tvp generalized; the values outside the span are not generalized away', async () => {
    const q = `timespan=${span}&generalize=true&threshold=50&expanded=true`;
    const tvp = (await json(`${P}/timeseries/${id}/getData?${q}`))[id];
    const flot = (await json(`${P}/timeseries/${id}/getData?${q}&format=flot`))[id];
    expect(flot['values'].length).toBeLessThanOrEqual(51);
    expect(flot['values']).toEqual(pairs(tvp['values']));
    expect(flot['valueBeforeTimespan']).toEqual((await outside(id, Date.UTC(2024, 0, 3), Date.UTC(2024, 0, 5))).before);
  });

  test('POST: keyed by id in the order named, each entry as GET answers it', async () => {
    const ids = ['ts_dresden_elbe_water_level', 'ts_koeln_rhein_water_level'];
    for (const expanded of [false, true]) {
      const all = await post({ timespan: span, timeseries: ids, format: 'flot', expanded });
      expect(Object.keys(all)).toEqual(ids);
      for (const x of ids) {
        const one = await json(`${P}/timeseries/${x}/getData?timespan=${span}&format=flot${expanded ? '&expanded=true' : ''}`);
        expect(all[x]).toEqual(expanded ? one[x] : one);
      }
    }
    // the format may be given in the query too
    expect(Object.keys(await json(`${P}/timeseries/getData?format=flot`, { method: 'POST', body: JSON.stringify({ timeseries: ids }) }))).toEqual(ids);
  });

  test('format=tvp explicitly is the default answer; an unknown format is 400 naming the three', async () => {
    const plain = await get(s.url, `${P}/timeseries/${id}/getData`);
    const tvp = await get(s.url, `${P}/timeseries/${id}/getData?format=tvp`);
    expect(tvp.body.equals(plain.body)).toBe(true);
    const bad = await get(s.url, `${P}/timeseries/${id}/getData?format=dygraphs`);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ statusCode: 400, userMessage: expect.stringContaining('tvp, highchart or flot') });
  });
});
