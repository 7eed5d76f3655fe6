/**
 * 52°North's own web client, `@helgoland/core` 20.0.1 (the library of its Helgoland viewer), run headless
 * in Node against a real endpoint (test/helpers/helgoland.ts says what is not the client's own code, and
 * why). In the `52north` profile it finds its v1 connector by itself, as the viewer does for a configured
 * URL; in the `spec` profile the settings pin the connector (the index is an object there, which no
 * connector recognises). Both run the same cases: services, every collection, platforms, datasets, first and
 * last values, reference values, extras, data over a week and over two years, and the CSV export.
 * Expected values come from brute force over the snapshot's Parquet files, or from the endpoint's own
 * answer in another shape where the client only passes a resource through.
 *
 * The demo snapshot spans 40 days across a new year (2023-12-01 to taken_at 2024-01-10), so that a
 * two-year request, which the client splits into calendar years, gets values from two of its parts.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firstValueFrom, type Observable } from 'rxjs';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { build } from '../../build-scripts/build.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';
import { helgoland, type Helgoland } from '../helpers/helgoland.ts';
import { parseCsv } from '../helpers/csv.ts';
import { readZip } from '../helpers/zip.ts';
import {
  DatasetType,
  HELGOLAND_SERVICE_CONNECTOR_HANDLER,
  HelgolandTimeseries,
  Timespan,
  type HelgolandTimeseriesData,
} from '@helgoland/core';

type Json = Record<string, any>;
type Pair = [number, number | null];

const DAY = 86_400_000;
const TAKEN = Date.UTC(2024, 0, 10);
const SERIES = 'ts_koeln_rhein_water_level'; // reference values, status intervals, rendering hints
const OTHER = 'ts_dresden_elbe_discharge';
type Member = { id: string; label: string };
/** The collections the client reads as they are: path, list, member. */
const COLLECTIONS: [string, (h: Helgoland, url: string, f?: Json) => Observable<Member[]>, (h: Helgoland, id: string, url: string) => Observable<Member>][] = [
  ['categories', (h, u, f) => h.services.getCategories(u, f), (h, id, u) => h.services.getCategory(id, u)],
  ['offerings', (h, u, f) => h.services.getOfferings(u, f), (h, id, u) => h.services.getOffering(id, u)],
  ['phenomena', (h, u, f) => h.services.getPhenomena(u, f), (h, id, u) => h.services.getPhenomenon(id, u)],
  ['procedures', (h, u, f) => h.services.getProcedures(u, f), (h, id, u) => h.services.getProcedure(id, u)],
  ['features', (h, u, f) => h.services.getFeatures(u, f), (h, id, u) => h.services.getFeature(id, u)],
];

const root = join(TEST_TMP, `helgoland-${process.pid}`);
const snapshot = join(root, 'snapshot');
const served: Record<string, Served> = {};
let duck: DuckDBInstance;
let db: DuckDBConnection;

beforeAll(async () => {
  await writeDemoSnapshot({ from: '2023-12-01', days: 40, seed: 5, out: snapshot, apis: ['timeseries-v1'], log: () => {} });
  await Promise.all(
    (['spec', '52north'] as const).map(async (profile) => {
      // `timeseriesProfile` is the build option DECISIONS "Real clients" calls for (recorded in build.json)
      const opts: Parameters<typeof build>[0] & { timeseriesProfile: string } = { snapshot, out: join(root, `dist-${profile}`), quiet: true, site: false, charts: false, timeseriesProfile: profile };
      await build(opts);
      served[profile] = await startEndpoint(opts.out);
    }),
  );
  duck = await DuckDBInstance.create(':memory:');
  db = await duck.connect();
});
afterAll(async () => {
  await Promise.all(Object.values(served).map((s) => s.close()));
  db?.closeSync();
  duck?.closeSync();
  await rm(root, { recursive: true, force: true });
});

const parquet = (table: string) => `read_parquet('${join(snapshot, `${table}.parquet`).replaceAll("'", "''")}')`;
async function rows(sql: string, params: Record<string, string | number> = {}): Promise<Json[]> {
  return (await db.runAndReadAll(sql, params)).getRowObjectsJS() as Json[];
}
/** Brute force: the observations of a series with timestamps in [start, end], as [t, v]. */
async function pairs(id: string, start: number, end: number): Promise<Pair[]> {
  const r = await rows(`SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM ${parquet('observations')} WHERE timeseries_id = $id AND "timestamp" BETWEEN $a AND $b ORDER BY 1`, { id, a: start, b: end });
  return r.map((x) => [x['t'] as number, x['v'] as number | null]);
}
async function nearest(id: string, at: number, side: 'before' | 'after'): Promise<Pair> {
  const [op, order] = side === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
  const r = await rows(`SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM ${parquet('observations')} WHERE timeseries_id = $id AND "timestamp" ${op} $at ORDER BY 1 ${order} LIMIT 1`, { id, at });
  return [r[0]!['t'] as number, r[0]!['v'] as number | null];
}

/** The client's answer; on failure, every request it made with the answer it got. */
async function run<T>(h: Helgoland, what: Observable<T>): Promise<T> {
  const from = h.exchanges.length;
  try {
    return await firstValueFrom(what);
  } catch (e) {
    const why = e instanceof Error ? e.message : typeof e === 'string' ? e : ((e as Json)['message'] ?? JSON.stringify(e));
    throw new Error(`the client failed: ${why}\nits requests:\n${h.log(from)}`);
  }
}

const PROFILES = [
  { profile: '52north', connector: undefined },
  { profile: 'spec', connector: 'DatasetApiV1Connector' },
] as const;

describe.each(PROFILES)('$profile profile (connector: $connector)', ({ profile, connector }) => {
  let h: Helgoland;
  let url: string;
  const raw = async (path: string): Promise<any> => {
    const res = await fetch(`${url}${path}`);
    expect(res.status, path).toBe(200);
    return res.json();
  };
  beforeAll(() => {
    url = `${served[profile]!.url}/api/v1/`;
    h = helgoland(url, connector ? { connector } : {});
  });
  afterAll(() => h?.close());
  const internalId = (id: string) => `${url}__${id}`;
  const dataset = (id: string) => run(h, h.services.getDataset(internalId(id), { type: DatasetType.Timeseries }));

  if (profile === '52north') {
    test('connector detection: the v1 connector says yes, the v3 and SensorThings ones no; the first yes (v1) serves', async () => {
      const fresh = helgoland(url);
      try {
        const list = fresh.injector.get(HELGOLAND_SERVICE_CONNECTOR_HANDLER);
        const answers = await Promise.all(list.map((c) => firstValueFrom(c.canHandle(url))));
        // the v2 connector's test is the v1 one without the `platforms` check, so it says yes too;
        // the viewer registers v1 first, and the first yes wins
        expect(Object.fromEntries(list.map((c, i) => [c.name, answers[i]])), fresh.log()).toEqual({ DatasetApiV1Connector: true, DatasetApiV2Connector: true, DatasetApiV3Connector: false, StaApiV1Connector: false });
        const services = await run(fresh, fresh.services.getServices(url));
        expect(services.map((s) => s.id)).toEqual(['srv_rivers', 'srv_weather']);
        expect(fresh.exchanges.filter((e) => e.url === url).every((e) => e.status === 200)).toBe(true);
      } finally {
        fresh.close();
      }
    });
  } else {
    test('without the pin no connector takes the spec index (an object, not an array)', async () => {
      const fresh = helgoland(url);
      try {
        await expect(firstValueFrom(fresh.services.getServices(url))).rejects.toBe(`No Connector found for ${url}`);
        expect(fresh.exchanges.map((e) => [e.url, e.status])).toEqual(Array(4).fill([url, 200]));
      } finally {
        fresh.close();
      }
    });
  }

  test('services, with quantities of every collection', async () => {
    const services = await run(h, h.services.getServices(url));
    const count = async (table: string) => Object.fromEntries((await rows(`SELECT service_id AS s, count(*)::INTEGER AS n FROM ${parquet(table)} GROUP BY 1`)).map((r) => [r['s'], r['n']]));
    const [cat, off, phe, pro, foi, ts, sta] = await Promise.all(['categories', 'offerings', 'phenomena', 'procedures', 'features', 'timeseries', 'stations'].map(count));
    const want = (await rows(`SELECT id, label, type, version FROM ${parquet('services')} ORDER BY label`)).map((s) => ({
      id: s['id'],
      apiUrl: url,
      label: s['label'],
      type: s['type'],
      version: s['version'],
      quantities: { categories: cat![s['id']] ?? 0, features: foi![s['id']] ?? 0, offerings: off![s['id']] ?? 0, phenomena: phe![s['id']] ?? 0, procedures: pro![s['id']] ?? 0, datasets: ts![s['id']] ?? 0, platforms: sta![s['id']] ?? 0 },
    }));
    expect(services.map((s) => ({ ...s })), h.log(h.exchanges.length - 1)).toEqual(want);
    expect({ ...(await run(h, h.services.getService('srv_rivers', url))) }).toEqual(want.find((s) => s.id === 'srv_rivers'));
  });

  test('every collection, each member, and a filtered list, as the API answers them', async () => {
    for (const [c, list, member] of COLLECTIONS) {
      const all = await run(h, list(h, url));
      expect(all, c).toEqual(await raw(c));
      expect(all.length, c).toBeGreaterThan(1);
      expect(await run(h, member(h, all[0]!.id, url)), c).toEqual(await raw(`${c}/${all[0]!.id}`));
      const filtered = await run(h, list(h, url, { service: 'srv_rivers' }));
      expect(filtered, c).toEqual(await raw(`${c}?service=srv_rivers`));
      expect(filtered.length, c).toBeLessThan(all.length);
    }
  });

  test('a client switched to German asks with locale=de and gets the German labels', async () => {
    const de = helgoland(url, { ...(connector ? { connector } : {}), language: 'de' });
    try {
      const phenomena = await run(de, de.services.getPhenomena(url));
      expect(de.exchanges.at(-1)!.url).toContain('locale=de');
      expect(phenomena).toEqual(await raw('phenomena?locale=de'));
      expect(phenomena.map((p) => p.label)).toContain('Wasserstand');
    } finally {
      de.close();
    }
  });

  test('a browser set to German sends Accept-Language (no locale) and gets the German labels', async () => {
    const de = helgoland(url, { ...(connector ? { connector } : {}), acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8' });
    try {
      const phenomena = await run(de, de.services.getPhenomena(url));
      const asked = de.exchanges.at(-1)!;
      expect([asked.url, asked.headers['accept-language']]).toEqual([`${url}phenomena`, 'de-DE,de;q=0.9,en;q=0.8']);
      expect(phenomena, de.log()).toEqual(await raw('phenomena?locale=de'));
    } finally {
      de.close();
    }
  });

  test('platforms are the stations, with their timeseries', async () => {
    const platforms = await run(h, h.services.getPlatforms(url));
    const stations: Json[] = await raw('stations');
    expect(platforms.map((p) => ({ ...p }))).toEqual(stations.map((s) => ({ id: s['properties']['id'], label: s['properties']['label'], datasetIds: [], geometry: s['geometry'] })));
    const one = await run(h, h.services.getPlatform('sta_koeln_rhein', url));
    const detailed: Json = await raw('stations/sta_koeln_rhein');
    expect({ ...one }).toEqual({ id: 'sta_koeln_rhein', label: detailed['properties']['label'], datasetIds: Object.keys(detailed['properties']['timeseries']), geometry: detailed['geometry'] });
    expect(one.datasetIds).toContain(SERIES);
  });

  test('datasets are the timeseries: the list, the expanded list, one by its internal id', async () => {
    const list = await run(h, h.services.getDatasets(url, { type: DatasetType.Timeseries }));
    const rawList: Json[] = await raw('timeseries');
    expect(list.map((d) => [d.id, d.label, d.url, d.internalId])).toEqual(rawList.map((t) => [t['id'], t['label'], url, internalId(t['id'])]));
    const expanded = await run(h, h.services.getDatasets(url, { type: DatasetType.Timeseries, expanded: true }));
    const rawExpanded: Json[] = await raw('timeseries?expanded=true');
    expect(expanded.length).toBe(rawExpanded.length);
    expanded.forEach((d, i) => {
      const t = rawExpanded[i]!;
      expect(d).toBeInstanceOf(HelgolandTimeseries);
      expect([d.id, d.uom, d.platform.id, d.platform.label, d.platform.geometry, d.parameters]).toEqual([t['id'], t['uom'], t['station']['properties']['id'], t['station']['properties']['label'], t['station']['geometry'], t['parameters']]);
    });
    const one = await dataset(SERIES);
    const t: Json = await raw(`timeseries/${SERIES}`);
    expect(one).toBeInstanceOf(HelgolandTimeseries);
    expect([one.id, one.label, one.uom, one.internalId, one.platform.id, one.parameters]).toEqual([SERIES, t['label'], 'cm', internalId(SERIES), 'sta_koeln_rhein', t['parameters']]);
  });

  test('first and last values of a dataset', async () => {
    for (const id of [SERIES, OTHER]) {
      const [first, last] = await Promise.all(
        ['ASC', 'DESC'].map(async (o) => (await rows(`SELECT "timestamp"::DOUBLE AS timestamp, "value" AS value FROM ${parquet('observations')} WHERE timeseries_id = $id AND "value" IS NOT NULL ORDER BY 1 ${o} LIMIT 1`, { id }))[0]),
      );
      const one = await dataset(id);
      expect({ firstValue: one.firstValue, lastValue: one.lastValue }, h.log(h.exchanges.length - 1)).toEqual({ firstValue: first, lastValue: last });
    }
  });

  test('reference values of a dataset, with their last values', async () => {
    const want = await rows(
      `SELECT r.id AS referenceValueId, r.label, {'timestamp': arg_max(o."timestamp", o."timestamp")::DOUBLE, 'value': arg_max(o."value", o."timestamp")} AS lastValue
       FROM ${parquet('reference_values')} r JOIN ${parquet('reference_value_observations')} o ON o.reference_value_id = r.id WHERE r.timeseries_id = $id GROUP BY ALL ORDER BY 1`,
      { id: SERIES },
    );
    expect(want.length).toBe(3);
    const one = await dataset(SERIES);
    expect([...(one.referenceValues ?? [])].sort((a, b) => a.referenceValueId.localeCompare(b.referenceValueId)), h.log(h.exchanges.length - 1)).toEqual(want);
  });

  test('extras: status intervals and rendering hints', async () => {
    const t: Json = await raw(`timeseries/${SERIES}?status_intervals=true&rendering_hints=true`);
    expect(t['statusIntervals'].length).toBeGreaterThan(0);
    expect(t['renderingHints']).toBeDefined();
    const extras = await run(h, h.services.getDatasetExtras(internalId(SERIES)));
    expect(h.exchanges.at(-1)!.url).toBe(`${url}timeseries/${SERIES}/extras`);
    expect(extras).toMatchObject({ statusIntervals: t['statusIntervals'], renderingHints: t['renderingHints'] });
  });

  test('data over a week (format=flot), plain and expanded with reference values and the values around the span', async () => {
    const ts = await dataset(SERIES);
    const from = TAKEN - 8 * DAY;
    const to = TAKEN - DAY;
    const mark = h.exchanges.length;
    const data = (await run(h, h.services.getDatasetData(ts, new Timespan(from, to)))) as HelgolandTimeseriesData;
    expect(h.exchanges.at(-1)!.url).toBe(`${url}timeseries/${SERIES}/getData?format=flot&timespan=2024-01-02T00%3A00%3A00%2B00%3A00%2F2024-01-09T00%3A00%3A00%2B00%3A00`);
    const want = await pairs(SERIES, from, to);
    expect(want.length).toBe(7 * 144 + 1);
    expect(data.values, h.log(mark)).toEqual(want);
    expect(data.referenceValues).toEqual({});

    const expanded = (await run(h, h.services.getDatasetData(ts, new Timespan(from, to), { expanded: true }))) as HelgolandTimeseriesData;
    const tvp: Json = (await raw(`timeseries/${SERIES}/getData?expanded=true&timespan=2024-01-02T00:00:00Z/2024-01-09T00:00:00Z`))[SERIES];
    const refs = Object.fromEntries(Object.entries(tvp['extra']['referenceValues'] as Record<string, { values: Json[] }>).map(([ref, r]) => [ref, { values: r.values.map((v) => [v['timestamp'], v['value']]) }]));
    expect(Object.keys(refs).length).toBe(3);
    const around = { valueBeforeTimespan: await nearest(SERIES, from, 'before'), valueAfterTimespan: await nearest(SERIES, to, 'after') };
    // both are numbers here, so "the nearest value" and "the nearest number" outside the span agree
    expect([around.valueBeforeTimespan[1], around.valueAfterTimespan[1]]).toEqual([expect.any(Number), expect.any(Number)]);
    expect({ ...expanded }, h.log(h.exchanges.length - 1)).toEqual({ values: want, referenceValues: refs, ...around });
  });

  test('generalized data (a dataset option of the viewer): generalize=true, the same points as the tvp generalization', async () => {
    const ts = await dataset(SERIES);
    const mark = h.exchanges.length;
    const data = (await run(h, h.services.getDatasetData(ts, new Timespan(TAKEN - 8 * DAY, TAKEN - DAY), { generalize: true }))) as HelgolandTimeseriesData;
    expect(new URL(h.exchanges.at(-1)!.url).searchParams.get('generalize')).toBe('true');
    const tvp: { values: Json[] } = await raw(`timeseries/${SERIES}/getData?generalize=true&timespan=2024-01-02T00:00:00Z/2024-01-09T00:00:00Z`);
    expect(tvp.values.length).toBeLessThan(7 * 144);
    expect(data.values, h.log(mark)).toEqual(tvp.values.map((v) => [v['timestamp'], v['value']]));
  });

  test('data over two years: the client asks for each calendar year (each within P1Y1D) and joins them', async () => {
    const ts = await dataset(OTHER);
    const from = Date.UTC(2022, 0, 10);
    const mark = h.exchanges.length;
    const data = (await run(h, h.services.getDatasetData(ts, new Timespan(from, TAKEN)))) as HelgolandTimeseriesData;
    const asked = h.exchanges.slice(mark).map((e) => [new URL(e.url).searchParams.get('timespan'), e.status]);
    expect(asked, h.log(mark)).toEqual(['2022', '2023', '2024'].map((y) => [`${y}-01-01T00:00:00+00:00/${y}-12-31T23:59:59+00:00`, 200]));
    const want = await pairs(OTHER, from, TAKEN);
    expect(want.length).toBeGreaterThan(24 * 39);
    expect(want.filter(([t]) => t < Date.UTC(2024, 0, 1)).length).toBeGreaterThan(24 * 30);
    expect(data.values).toEqual(want);
  });

  test('CSV export: the link the client makes (getData.zip) gives one CSV of the span, in the locale asked', async () => {
    const from = TAKEN - 8 * DAY;
    const to = TAKEN - DAY;
    const want = await pairs(SERIES, from, to);
    for (const [lang, delimiter] of [[undefined, ','], ['de', ';']] as const) {
      const link = await run(h, h.services.createCsvDataExportLink(internalId(SERIES), { timespan: new Timespan(from, to), ...(lang ? { lang } : {}) }));
      expect(link).toBe(`${url}timeseries/${SERIES}/getData.zip?timespan=2024-01-02T00%3A00%3A00%2B00%3A00%2F2024-01-09T00%3A00%3A00%2B00%3A00${lang ? `&locale=${lang}` : ''}&bom=true`);
      const res = await fetch(link); // as the browser opens it
      const body = Buffer.from(await res.arrayBuffer());
      expect([res.status, res.headers.get('content-type')], `GET ${link} -> ${body.toString('utf8', 0, 400)}`).toEqual([200, 'application/zip']);
      expect(res.headers.get('content-disposition')).toMatch(/^(attachment|inline); filename="[^"/]+\.zip"$/);
      const entries = readZip(body);
      expect(entries.map((e) => e.name)).toEqual([expect.stringMatching(/^[^/]+\.csv$/)]);
      const table = parseCsv(entries[0]!.data.toString('utf8').replace(/^\uFEFF/, ''), delimiter).filter((r) => r.length > 1 || r[0] !== '');
      expect(table[0]).toEqual(['timestamp', 'value']);
      // how a null or a German decimal is written is the server's choice: an empty field or `null`; `,` or `.`
      const got = table.slice(1).map(([t, v]): Pair => [Date.parse(t!), v === '' || v === 'null' ? null : Number(v!.replace(',', '.'))]);
      expect(got, lang ?? 'en').toEqual(want);
    }
  });

  if (profile === '52north') {
    test('POST getData of several series: answered keyed by id, as the client reads it', async () => {
      const from = TAKEN - 2 * DAY;
      const mark = h.exchanges.length;
      const got = await run(h, h.api.getTimeseriesData(url, [SERIES, OTHER], new Timespan(from, TAKEN)));
      expect(h.exchanges[mark]!.body).toEqual({ timespan: '2024-01-08T00:00:00+00:00/2024-01-10T00:00:00+00:00', timeseries: [SERIES, OTHER] });
      const want = await Promise.all([SERIES, OTHER].map(async (id) => ({ id, url, data: (await pairs(id, from, TAKEN)).map(([timestamp, value]) => ({ timestamp, value })) })));
      expect(got, h.log(mark)).toEqual(want);
    });
  }
});
