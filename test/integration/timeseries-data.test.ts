/**
 * Raw data of the Timeseries API through a real endpoint, against brute force over the snapshot's
 * observations.parquet: the default week, every timespan form, tvp and highchart, reference values,
 * generalization bounds, force_latest_values, the maximum timespan, and POST getData with its errors.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { get, type Served } from '../helpers/servers.ts';
import { startTsEndpointAndDb, tsParquet } from '../helpers/ts-brute-force.ts';

let s: Served;
let db: DuckDBConnection;
let close: () => Promise<void>;
const P = '/api/v1';
const TAKEN = Date.UTC(2024, 0, 9);
const DAY = 86_400_000;
type Value = { timestamp: number; value: number | null };
type Json = Record<string, any>;

beforeAll(async () => {
  ({ s, db, close } = await startTsEndpointAndDb());
});
afterAll(() => close());

/** Brute force: the observations of a series with timestamps in [start, end]. */
async function observations(id: string, start: number, end: number): Promise<Value[]> {
  const r = await db.runAndReadAll(`SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM ${tsParquet('observations')} WHERE timeseries_id = $id AND "timestamp" BETWEEN $a AND $b ORDER BY 1`, { id, a: start, b: end });
  return r.getRowObjectsJS().map((x) => ({ timestamp: x['t'] as number, value: x['v'] as number | null }));
}

async function json<T = Json>(path: string): Promise<T> {
  const r = await get(s.url, path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.type).toBe('application/json; charset=UTF-8');
  return JSON.parse(r.text) as T;
}

async function post(body: string, headers: Record<string, string> = {}, query = ''): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${s.url}${P}/timeseries/getData${query}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

const data = (id: string, q = '') => json<{ values: Value[] }>(`${P}/timeseries/${id}/getData${q}`);

describe('GET getData', () => {
  test('the default timespan is the week ending at taken_at; values as in the snapshot, nulls kept', async () => {
    const list = (await json<Json[]>(`${P}/timeseries`)).map((t) => t['id'] as string);
    const withNulls = (await db.runAndReadAll(`SELECT DISTINCT timeseries_id AS id FROM ${tsParquet('observations')} WHERE "value" IS NULL AND "timestamp" >= ${TAKEN - 7 * DAY} ORDER BY 1 LIMIT 5`)).getRowObjectsJS().map((r) => r['id'] as string);
    expect(withNulls.length).toBeGreaterThan(0);
    let nulls = 0;
    for (const id of [...list.filter((_, i) => i % 9 === 0), ...withNulls]) {
      const got = (await data(id)).values;
      expect(got, id).toEqual(await observations(id, TAKEN - 7 * DAY, TAKEN));
      nulls += got.filter((v) => v.value === null).length;
    }
    expect(nulls).toBeGreaterThanOrEqual(withNulls.length);
    expect((await data('ts_brocken_relative_humidity')).values).toEqual([]);
  });

  test('every timespan form selects the same values', async () => {
    const id = 'ts_dresden_elbe_water_level';
    const want = await observations(id, Date.UTC(2024, 0, 5), Date.UTC(2024, 0, 6));
    expect(want.length).toBe(145);
    for (const span of ['2024-01-05T00:00:00Z/2024-01-06T00:00:00Z', 'P1D/2024-01-06TZ', '2024-01-05TZ/P1D', 'PT24H/2024-01-06', 'P0Y0M1D/2024-01-06TZ', '2024-01-05T01:00:00%2B01:00/PT24H', '2024-01-05T01:00:00+01:00/P1D', '2024-01-04T23:00:00-01:00/2024-01-06TZ']) {
      expect((await data(id, `?timespan=${span}`)).values, span).toEqual(want);
    }
    expect((await data(id, '?timespan=2024-01-05')).values).toEqual(want.slice(0, -1));
    expect((await data(id, '?timespan=2024-01')).values).toEqual(await observations(id, Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1) - 1));
  });

  test('format highchart (also spelled highcharts) carries the same values', async () => {
    const id = 'ts_koeln_air_temperature';
    const tvp = (await data(id, '?timespan=P2D/2024-01-09TZ')).values;
    for (const f of ['highchart', 'highcharts']) {
      const h = await json(`${P}/timeseries/${id}/getData?timespan=P2D/2024-01-09TZ&format=${f}`);
      expect(h).toEqual({ name: id, data: tvp.map((v) => [v.timestamp, v.value]) });
    }
  });

  test('expanded: reference values sampled at the served timestamps, a revision included', async () => {
    const r = await db.runAndReadAll(`SELECT reference_value_id AS id, list("timestamp"::DOUBLE ORDER BY "timestamp") AS ts, list("value" ORDER BY "timestamp") AS vs FROM ${tsParquet('reference_value_observations')} GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT 1`);
    const row = r.getRowObjectsJS()[0]!;
    const ref = row['id'] as string;
    const vs = row['vs'] as number[];
    const steps = (row['ts'] as number[]).map((t, i) => [t, vs[i]!] as const);
    const id = `ts_${ref.slice(4, -4)}_water_level`;
    const x = await json(`${P}/timeseries/${id}/getData?expanded=true`);
    const values: Value[] = x[id].values;
    expect(values).toEqual(await observations(id, TAKEN - 7 * DAY, TAKEN));
    const sampled: Value[] = x[id].extra.referenceValues[ref].values;
    expect(Object.keys(x[id].extra.referenceValues)).toEqual([1, 2, 3].map((l) => `${ref.slice(0, -1)}${l}`));
    expect(sampled.map((v) => v.timestamp)).toEqual(values.map((v) => v.timestamp));
    for (const v of sampled) expect(v.value).toBe(steps.filter(([t]) => t <= v.timestamp).at(-1)![1]);
    expect(new Set(sampled.map((v) => v.value)).size).toBe(2);
    const h = await json<Json[]>(`${P}/timeseries/${id}/getData?expanded=true&format=highchart`);
    expect(h.map((e) => e['name'])).toEqual([id, ...Object.keys(x[id].extra.referenceValues)]);
  });

  test('generalize: at most the threshold, first and last kept, only raw points; Douglas-Peucker within its tolerance', async () => {
    const id = 'ts_koeln_rhein_water_level';
    const raw = (await data(id)).values;
    const key = (v: Value) => `${v.timestamp}:${v.value}`;
    const rawKeys = new Set(raw.map(key));
    for (const [q, max] of [['generalize=true', 200], ['generalize=true&threshold=50', 50], ['generalize=true&generalizing_algorithm=LTTB&threshold=10', 10]] as const) {
      const g = (await data(id, `?${q}`)).values;
      expect(g.length, q).toBeLessThanOrEqual(max);
      expect(g.length, q).toBeGreaterThan(max / 2);
      expect([g[0], g.at(-1)]).toEqual([raw[0], raw.at(-1)]);
      expect(g.every((v) => rawKeys.has(key(v)))).toBe(true);
    }
    const tolerance = 2;
    const dp = (await data(id, `?generalize=true&generalizing_algorithm=dp&tolerance_value=${tolerance}`)).values;
    expect([dp[0], dp.at(-1)]).toEqual([raw[0], raw.at(-1)]);
    expect(dp.length).toBeLessThan(raw.length / 2);
    for (let k = 1, i = 0; k < dp.length; k++) {
      const [a, b] = [dp[k - 1]!, dp[k]!];
      while (raw[i]!.timestamp < b.timestamp) {
        const p = raw[i++]!;
        if (p.timestamp <= a.timestamp || a.value === null || b.value === null || p.value === null) continue;
        const line = a.value + ((b.value - a.value) * (p.timestamp - a.timestamp)) / (b.timestamp - a.timestamp);
        expect(Math.abs(p.value - line)).toBeLessThanOrEqual(tolerance + 1e-9);
      }
    }
  });

  test('force_latest_values: a timespan without values answers the last value before it', async () => {
    const id = 'ts_wittenberg_elbe_water_temperature'; // taken out of service at 70 % of the period
    const late = '?timespan=P1D/2024-01-09TZ';
    expect((await data(id, late)).values).toEqual([]);
    const before = (await observations(id, 0, TAKEN - DAY)).filter((v) => v.value !== null).at(-1)!;
    expect((await data(id, `${late}&force_latest_values=true`)).values).toEqual([before]);
    expect((await data('ts_koeln_pm10', `${late}&force_latest_values=true`)).values).toEqual((await data('ts_koeln_pm10', late)).values);
    expect((await data('ts_brocken_relative_humidity', '?force_latest_values=true')).values).toEqual([]);
  });

  test('the maximum timespan (P1Y1D), timespan errors, filters', async () => {
    expect((await get(s.url, `${P}/timeseries/ts_koeln_pm10/getData?timespan=P1Y1D/2024-01-09TZ`)).status).toBe(200);
    for (const [span, message] of [['P1Y2D/2024-01-09TZ', 'Requested timespan is too long'], ['2023-01-01/2024-01-09', 'Requested timespan is too long'], ['yesterday', "'timespan'"], ['2024-01-09/2024-01-01', "'timespan'"], ['P0D/2024-01-09', "'timespan'"], ['P1D/P2D', "'timespan'"]]) {
      const r = await get(s.url, `${P}/timeseries/ts_koeln_pm10/getData?timespan=${span}`);
      expect([r.status, JSON.parse(r.text)['userMessage']], span).toEqual([400, expect.stringContaining(message!)]);
    }
    for (const [q, param] of [['generalize=yes', 'generalize'], ['generalize=true&generalizing_algorithm=spline', 'generalizing_algorithm'], ['generalize=true&threshold=1', 'threshold'], ['generalize=true&generalizing_algorithm=DP&tolerance_value=-1', 'tolerance_value'], ['format=csv', 'format'], ['expanded=1', 'expanded'], ['force_latest_values=x', 'force_latest_values']]) {
      const r = await get(s.url, `${P}/timeseries/ts_koeln_pm10/getData?${q}`);
      expect([r.status, JSON.parse(r.text)['userMessage']], q).toEqual([400, expect.stringContaining(`'${param}'`)]);
    }
    expect((await get(s.url, `${P}/timeseries/ts_koeln_pm10/getData?phenomenon=phe_pm10`)).status).toBe(200);
    expect((await get(s.url, `${P}/timeseries/ts_koeln_pm10/getData?phenomenon=phe_water_level`)).status).toBe(404);
  });
});

describe('POST getData', () => {
  const ids = ['ts_koeln_pm10', 'ts_dresden_elbe_water_level', 'ts_brocken_relative_humidity'];

  test('allTimeseries in the order asked, each as GET answers it; repeats once', async () => {
    const span = 'PT12H/2024-01-08TZ';
    const r = await post(JSON.stringify({ timespan: span, timeseries: [...ids, ids[0]] }));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body['allTimeseries'])).toEqual(ids);
    for (const id of ids) expect(r.body['allTimeseries'][id]).toEqual(await data(id, `?timespan=${span}`));
    const noSpan = await post(JSON.stringify({ timeseries: [ids[1]] }));
    expect(noSpan.body['allTimeseries'][ids[1]!]).toEqual(await data(ids[1]!));
  });

  test('options in the body or the query: highchart, expanded, generalize, filters', async () => {
    const h = await post(JSON.stringify({ timespan: 'PT12H/2024-01-08TZ', timeseries: ids, format: 'highchart' }));
    expect(h.body.map((e: Json) => e['name'])).toEqual(ids);
    const hx = await post(JSON.stringify({ timespan: 'PT12H/2024-01-08TZ', timeseries: ids.slice(0, 2), expanded: true }), {}, '?format=highcharts');
    expect(hx.body.map((e: Json) => e['name'])).toEqual(['ts_koeln_pm10', 'ts_dresden_elbe_water_level', 'ref_dresden_elbe_ms1', 'ref_dresden_elbe_ms2', 'ref_dresden_elbe_ms3']);
    const x = await post(JSON.stringify({ timeseries: [ids[1]], expanded: 'true', generalize: true, threshold: 20 }));
    const entry = x.body['allTimeseries'][ids[1]!];
    expect(entry['values'].length).toBeLessThanOrEqual(20);
    expect(Object.keys(entry['extra']['referenceValues'])).toHaveLength(3);
    const f = await post(JSON.stringify({ timeseries: ids, phenomenon: 'phe_pm10' }));
    expect(Object.keys(f.body['allTimeseries'])).toEqual(['ts_koeln_pm10']);
  });

  test.each([
    ['{"timeseries": ["ts_koeln_pm10"]', 400, 'not JSON'],
    ['', 400, 'not JSON'],
    ['["ts_koeln_pm10"]', 400, 'JSON object'],
    ['{"timespan": "PT1H/2024-01-08TZ"}', 400, "'timeseries'"],
    ['{"timeseries": "ts_koeln_pm10"}', 400, "'timeseries'"],
    ['{"timeseries": ["ts_koeln_pm10"], "timespan": "P2Y/2024-01-08TZ"}', 400, 'Requested timespan is too long'],
    ['{"timeseries": ["ts_koeln_pm10"], "timespan": 5}', 400, "'timespan'"],
    ['{"timeseries": ["ts_koeln_pm10", "ts_nope"]}', 404, 'ts_nope'],
    [JSON.stringify({ timeseries: ['ts_koeln_pm10'], padding: 'x'.repeat(70_000) }), 413, 'larger than 65536 bytes'],
  ])('body %# gives %i', async (body, status, message) => {
    const r = await post(body);
    expect(r.status).toBe(status);
    expect(r.body).toMatchObject({ statusCode: status, userMessage: expect.stringContaining(message) });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('Accept: image/png is a chart of the series named; OPTIONS preflight; other methods 405', async () => {
    const png = await fetch(`${s.url}${P}/timeseries/getData`, { method: 'POST', headers: { accept: 'image/png' }, body: JSON.stringify({ timeseries: ['ts_koeln_pm10'], width: 200, height: 100 }) });
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const pre = await fetch(`${s.url}${P}/timeseries/getData`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/\bContent-Type\b/);
    const put = await fetch(`${s.url}${P}/timeseries/getData`, { method: 'PUT', body: '{}' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
  });
});
