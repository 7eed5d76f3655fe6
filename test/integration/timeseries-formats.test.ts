/**
 * The data formats real clients ask for, through a real endpoint over the timeseries demo build: `format=flot`
 * (Helgoland sends it on every data request) against the tvp answer and brute force over the snapshot's
 * observations.parquet; CSV downloads (`getData.csv`, `Accept: text/csv`, GET and POST) against the tvp values;
 * ZIP downloads (the exact request Helgoland's export makes) unpacked by the real `unzip`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runTmp } from '../helpers/paths.ts';
import { get, type Served } from '../helpers/servers.ts';
import { startTsEndpointAndDb, tsParquet } from '../helpers/ts-brute-force.ts';

let s: Served;
let db: DuckDBConnection;
let close: () => Promise<void>;
const P = '/api/v1';
type Json = Record<string, any>;
type Pair = [number, number | null];

beforeAll(async () => {
  ({ s, db, close } = await startTsEndpointAndDb());
});
afterAll(() => close());

/** Brute force: the nearest non-null observation before `start` and after `end`. */
async function outside(id: string, start: number, end: number): Promise<{ before: Pair | undefined; after: Pair | undefined }> {
  const one = async (sql: string, at: number) => {
    const r = (await db.runAndReadAll(sql, { id, at })).getRowObjectsJS();
    return r.length ? ([r[0]!['t'] as number, r[0]!['v'] as number] as Pair) : undefined;
  };
  const base = `SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM ${tsParquet('observations')} WHERE timeseries_id = $id AND "value" IS NOT NULL`;
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

/** The values of a tvp answer as CSV rows would hold them: ISO time, and the number or ''. */
const rowsOf = (values: { timestamp: number; value: number | null }[], decimal = '.') =>
  values.map((v) => [new Date(v.timestamp).toISOString(), v.value === null ? '' : String(v.value).replace('.', decimal)]);

function parseCsv(text: string, delimiter: string): { header: string[]; rows: string[][] } {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  return { header: lines[0]!.split(delimiter), rows: lines.slice(1).map((l) => l.split(delimiter)) };
}

const run = promisify(execFile);

/** Unpacks a ZIP with the real unzip: its test passes, and each entry's bytes by name. */
async function unzip(zip: Buffer, name: string): Promise<Map<string, Buffer>> {
  const dir = runTmp(inject('tsSnapshot'), 'zips');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, zip);
  expect((await run('unzip', ['-t', file])).stdout).toMatch(/No errors detected/);
  const names = (await run('unzip', ['-Z1', file])).stdout.split('\n').filter((n) => n !== '');
  const out = new Map<string, Buffer>();
  for (const n of names) out.set(n, (await run('unzip', ['-p', file, n], { encoding: 'buffer', maxBuffer: 64 << 20 })).stdout as Buffer);
  return out;
}

describe('CSV and ZIP downloads', () => {
  const id = 'ts_koeln_rhein_water_level';
  const span = '2024-01-03T00:00:00Z/2024-01-05T00:00:00Z';
  const tvp = async (x: string, q = `timespan=${span}`) => (await json(`${P}/timeseries/${x}/getData?${q}`))['values'] as { timestamp: number; value: number | null }[];

  test('getData.csv: timestamp,value, ISO UTC times, the tvp values; an attachment named by id and timespan; Accept: text/csv the same', async () => {
    // identity: the length checked is the CSV's own (fetch asks for gzip, and a CSV of 1 KB or more is compressed)
    const r = await get(s.url, `${P}/timeseries/${id}/getData.csv?timespan=${span}`, { 'Accept-Encoding': 'identity' });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.type).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${id}_20240103T000000Z_20240105T000000Z.csv"`);
    expect(r.headers.get('content-length')).toBe(String(r.body.length));
    const csv = parseCsv(r.text, ',');
    expect(csv.header).toEqual(['timestamp', 'value']);
    expect(csv.rows).toEqual(rowsOf(await tvp(id)));
    expect(csv.rows.length).toBeGreaterThan(250);
    const accept = await get(s.url, `${P}/timeseries/${id}/getData?timespan=${span}`, { Accept: 'text/csv' });
    expect(accept.body.equals(r.body)).toBe(true);
    expect(accept.headers.get('content-disposition')).toBe(r.headers.get('content-disposition'));
    // the extension wins over Accept; HEAD has the headers and no body
    expect((await get(s.url, `${P}/timeseries/${id}/getData.csv?timespan=${span}`, { Accept: 'application/json' })).body.equals(r.body)).toBe(true);
    const head = await fetch(`${s.url}${P}/timeseries/${id}/getData.csv?timespan=${span}`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(r.body.length), 0]);
  });

  test('a null is an empty field; generalize and force_latest_values apply as to JSON; the default week', async () => {
    const withNull = (await db.runAndReadAll(`SELECT timeseries_id AS id FROM ${tsParquet('observations')} WHERE "value" IS NULL AND "timestamp" >= ${Date.UTC(2024, 0, 2)} ORDER BY 1 LIMIT 1`)).getRowObjectsJS()[0]!['id'] as string;
    const rows = parseCsv((await get(s.url, `${P}/timeseries/${withNull}/getData.csv`)).text, ',').rows;
    expect(rows).toEqual(rowsOf(await tvp(withNull, '')));
    expect(rows.some((r) => r[1] === '')).toBe(true);
    const q = `timespan=${span}&generalize=true&threshold=40`;
    expect(parseCsv((await get(s.url, `${P}/timeseries/${id}/getData.csv?${q}`)).text, ',').rows).toEqual(rowsOf(await tvp(id, q)));
  });

  test('locale=de: ; as delimiter and a decimal comma; bom=true: a byte order mark', async () => {
    const air = 'ts_koeln_air_temperature';
    const r = await get(s.url, `${P}/timeseries/${air}/getData.csv?timespan=${span}&locale=de&bom=true`);
    expect(r.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const csv = parseCsv(r.text.slice(1), ';');
    expect(csv.header).toEqual(['timestamp', 'value']);
    expect(csv.rows).toEqual(rowsOf(await tvp(air), ','));
    expect(csv.rows.some((x) => x[1]!.includes(','))).toBe(true);
  });

  test("Helgoland's export: getData.zip with timespan (offsets, encoded), locale, zip and bom, unpacked by unzip", async () => {
    // what @helgoland/core 20 createCsvDataExportLink writes: moment().format() times, encodeURIComponent
    const timespan = encodeURIComponent('2024-01-03T01:00:00+01:00/2024-01-05T01:00:00+01:00');
    const r = await get(s.url, `${P}/timeseries/${id}/getData.zip?timespan=${timespan}&locale=de&generalize=true&zip=true&bom=true`);
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.type).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${id}_20240103T000000Z_20240105T000000Z.zip"`);
    const entries = await unzip(r.body, 'helgoland.zip');
    expect([...entries.keys()]).toEqual([`${id}.csv`]);
    const csv = (await get(s.url, `${P}/timeseries/${id}/getData.csv?timespan=${span}&locale=de&generalize=true&bom=true`)).body;
    expect(entries.get(`${id}.csv`)!.equals(csv)).toBe(true);
    // zip=true on .csv, and Accept: application/zip, answer the same archive; the same request, the same bytes
    const q = `timespan=${timespan}&locale=de&generalize=true&zip=true&bom=true`;
    expect((await get(s.url, `${P}/timeseries/${id}/getData.csv?${q}`)).body.equals(r.body)).toBe(true);
    expect((await get(s.url, `${P}/timeseries/${id}/getData?${q}`, { Accept: 'application/zip' })).body.equals(r.body)).toBe(true);
  });

  test('POST: one CSV with a timeseries column (Accept: text/csv or getData.csv), or a ZIP of one CSV per series (getData.zip)', async () => {
    const ids = ['ts_dresden_elbe_water_level', id];
    const body = JSON.stringify({ timespan: span, timeseries: ids, locale: 'de' });
    const send = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${P}/timeseries/${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const csvRes = await send('getData', { Accept: 'text/csv' });
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get('content-disposition')).toBe('attachment; filename="timeseries_20240103T000000Z_20240105T000000Z.csv"');
    const text = await csvRes.text();
    expect((await (await send('getData.csv')).text())).toBe(text);
    const csv = parseCsv(text, ';');
    expect(csv.header).toEqual(['timeseries', 'timestamp', 'value']);
    const want = [];
    for (const x of ids) want.push(...rowsOf(await tvp(x), ',').map((r) => [x, ...r]));
    expect(csv.rows).toEqual(want);
    const zipRes = await send('getData.zip');
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    expect(zipRes.headers.get('content-disposition')).toBe('attachment; filename="timeseries_20240103T000000Z_20240105T000000Z.zip"');
    const entries = await unzip(Buffer.from(await zipRes.arrayBuffer()), 'post.zip');
    expect([...entries.keys()]).toEqual(ids.map((x) => `${x}.csv`));
    for (const x of ids) expect(entries.get(`${x}.csv`)!.equals((await get(s.url, `${P}/timeseries/${x}/getData.csv?timespan=${span}&locale=de`)).body), x).toBe(true);
  });

  test('errors are the JSON error shape: a bad timespan, bom or locale is 400, an unknown id 404; other paths have no CSV', async () => {
    for (const [path, status, param] of [
      [`${P}/timeseries/${id}/getData.csv?timespan=yesterday`, 400, 'timespan'],
      [`${P}/timeseries/${id}/getData.zip?bom=maybe`, 400, 'bom'],
      [`${P}/timeseries/${id}/getData.csv?locale=1234`, 400, 'locale'],
      [`${P}/timeseries/ts_nowhere/getData.csv`, 404, undefined],
      [`${P}/stations.csv`, 404, undefined],
    ] as const) {
      const r = await get(s.url, path);
      expect(r.status, path).toBe(status);
      expect(r.type).toMatch(/^application\/json/);
      const e = JSON.parse(r.text);
      expect(e.statusCode).toBe(status);
      if (param) expect(e.userMessage).toContain(`'${param}'`);
    }
    expect((await get(s.url, `${P}/stations`, { Accept: 'text/csv' })).status).toBe(406);
  });
});
