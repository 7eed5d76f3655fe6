/**
 * The Timeseries API's metadata over the generated demo (103 stations, 276 series), through a real endpoint:
 * every collection and id path, filters against brute force over the expanded timeseries list, Link headers
 * that walk every page exactly once, locales, search in en and de, bbox and near against brute force, and
 * every kind of bad input with its status and JSON error body.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { COLLECTIONS } from '../../core/timeseries/catalogue.ts';
import { lookupCrs, toEastNorth } from '../../core/timeseries/geo/crs.ts';
import { bruteForceNear } from '../../core/timeseries/geo/sphere.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

let s: Served;
const P = '/api/v1';
type Json = Record<string, any>;

async function json<T = Json[]>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const r = await get(s.url, path, headers);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.type).toBe('application/json; charset=UTF-8');
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  return JSON.parse(r.text) as T;
}

const idOf = (m: Json): string => m['id'] ?? m['properties']['id'];
const ids = (list: Json[]) => list.map(idOf);
let series: Json[]; // the expanded timeseries list: the ground truth of the filters

beforeAll(async () => {
  s = await startEndpoint(inject('tsBuild'));
  series = await json(`${P}/timeseries?expanded=true`);
});
afterAll(async () => {
  await s.close();
});

describe('collections and resources', () => {
  test('the index in both shapes; sizes are the collections', async () => {
    const plain = await json<Json>(`${P}/`);
    expect(Object.keys(plain)).toEqual([...COLLECTIONS]);
    const expanded = await json(`${P}/?expanded=true`);
    for (const e of expanded) expect((await json(`${P}/${e['id']}`)).length).toBe(e['size']);
    expect(expanded.map((e) => e['size'])).toEqual([2, 4, 7, 103, 11, 7, 103, 276]);
    const r = await get(s.url, P);
    expect([r.status, r.headers.get('location')]).toEqual([301, `${P}/`]);
  });

  test.each(COLLECTIONS.map((c) => [c]))('%s: sorted by label, each id path answers its resource', async (c) => {
    const list = await json(`${P}/${c}`);
    const labels = list.map((m) => m['label'] ?? m['properties']['label']);
    const collator = new Intl.Collator('en');
    for (let i = 1; i < list.length; i++) expect(collator.compare(labels[i - 1], labels[i]) <= 0, `${labels[i - 1]} before ${labels[i]}`).toBe(true);
    const expanded = await json(`${P}/${c}?expanded=true`);
    expect(ids(expanded)).toEqual(ids(list));
    for (const i of [0, Math.floor(list.length / 2), list.length - 1]) {
      const item = await json<Json>(`${P}/${c}/${idOf(list[i]!)}`);
      expect(idOf(item)).toBe(idOf(list[i]!));
      if (c !== 'timeseries') expect(item).toEqual(expanded[i]);
      expect(await json<Json>(`${P}/${c}/${idOf(list[i]!)}/`)).toEqual(item);
      expect(await json<Json>(`${P}/${c}/${idOf(list[i]!)}.json`, { accept: 'image/png' })).toEqual(item);
    }
  });

  test('resource shapes', async () => {
    const srv = await json<Json>(`${P}/services/srv_rivers`);
    expect(srv).toEqual({
      id: 'srv_rivers', label: 'River gauges (demo)', serviceUrl: 'https://sensors.example.org/rivers/sos', version: '2.0.0', type: 'SOS', supportsFirstLatest: true,
      quantities: {
        categories: 2,
        features: (await json(`${P}/features?expanded=true`)).filter((f) => f['service']['id'] === '../services/srv_rivers').length,
        offerings: (await json(`${P}/offerings?expanded=true`)).filter((o) => o['service'] === '../services/srv_rivers').length,
        phenomena: 3,
        procedures: (await json(`${P}/procedures?expanded=true`)).filter((p) => p['service']['id'] === '../services/srv_rivers').length,
        stations: 52,
        timeseries: series.filter((t) => t['parameters']['service']['id'] === 'srv_rivers').length,
      },
    });
    expect(Object.keys(srv['quantities'])).toEqual(['categories', 'features', 'offerings', 'phenomena', 'procedures', 'stations', 'timeseries']);
    const weather = await json<Json>(`${P}/services/srv_weather`);
    for (const c of ['categories', 'features', 'offerings', 'phenomena', 'procedures', 'stations', 'timeseries']) {
      expect(srv['quantities'][c] + weather['quantities'][c], c).toBe((await json(`${P}/${c}`)).length);
      expect(srv['quantities'][c], c).toBeGreaterThan(0);
    }
    expect(await json<Json>(`${P}/phenomena/phe_pm10`)).toEqual({ id: 'phe_pm10', label: 'PM10', service: { id: '../services/srv_weather', label: 'Weather and air quality (demo)' } });
    expect(await json<Json>(`${P}/offerings/off_pm10_hourly`)).toEqual({ id: 'off_pm10_hourly', label: 'PM10_HOURLY', service: '../services/srv_weather' });
    const sta = await json<Json>(`${P}/stations/sta_koeln_rhein`);
    expect(sta['geometry']).toEqual({ type: 'Point', coordinates: [6.963, 50.937] });
    expect(Object.keys(sta['properties']['timeseries'])).toEqual(['ts_koeln_rhein_discharge', 'ts_koeln_rhein_water_level', 'ts_koeln_rhein_water_temperature']);
    const ts = await json<Json>(`${P}/timeseries/ts_koeln_rhein_water_level`);
    expect(Object.keys(ts)).toEqual(['id', 'label', 'uom', 'station', 'firstValue', 'lastValue', 'parameters', 'refValues', 'referenceValues']);
    expect(ts['refValues'].map((r: Json) => r['referenceValueId'])).toEqual(['ref_koeln_rhein_ms1', 'ref_koeln_rhein_ms2', 'ref_koeln_rhein_ms3']);
    expect(ts['referenceValues']).toEqual(ts['refValues']);
    expect(ts['referenceValues'].every((r: Json) => Object.keys(r).join() === 'referenceValueId,label,lastValue' && typeof r['lastValue']['value'] === 'number')).toBe(true);
    expect(Object.keys(ts['parameters'])).toEqual(['service', 'offering', 'feature', 'procedure', 'phenomenon', 'category']);
    // first and last value are the series' first and last non-null observation (the data of the whole snapshot)
    const all = (await json<Json>(`${P}/timeseries/ts_koeln_rhein_water_level/getData?timespan=2023-12-01TZ/2024-02-01TZ`))['values'].filter((v: Json) => v['value'] !== null);
    expect([ts['firstValue'], ts['lastValue']]).toEqual([all[0], all.at(-1)]);
    const none = await json<Json>(`${P}/timeseries/ts_brocken_relative_humidity`);
    expect([none['firstValue'], none['lastValue'], none['referenceValues']]).toEqual([undefined, undefined, []]);
    // members of a collection stay as 52°North's examples show them
    expect(Object.keys((await json(`${P}/timeseries?expanded=true&station=sta_koeln_rhein`))[0]!)).toEqual(['id', 'label', 'station', 'parameters']);
  });

  test('status_intervals, rendering_hints and force_latest_values on timeseries metadata', async () => {
    const own = await json<Json>(`${P}/timeseries/ts_koeln_rhein_water_level?status_intervals=true&rendering_hints=true`);
    expect(own['statusIntervals'].map((i: Json) => i['name'])).toEqual(['below warning level 1', 'warning level 1', 'warning level 2', 'warning level 3']);
    expect(own['statusIntervals'].at(-1)['upper']).toBeUndefined();
    expect(own['firstValue'].timestamp).toBeLessThanOrEqual(own['lastValue'].timestamp);
    expect(own['referenceValues']).toEqual(own['refValues']);
    expect(Object.keys(own['renderingHints']['referenceValueStyleProperties'])).toHaveLength(3);
    const phen = await json<Json>(`${P}/timeseries/ts_bonn_rhein_water_level?status_intervals=true&rendering_hints=true`);
    expect(phen['statusIntervals'].map((i: Json) => i['name'])).toEqual(['below warning level 1', 'warning level 1', 'warning level 2', 'warning level 3']);
    expect(phen['renderingHints']).toEqual({ chartType: 'line', properties: { lineType: 'solid', width: 2, color: '#1e90ff' } });
    const pm10 = await json<Json>(`${P}/timeseries/ts_koeln_pm10?status_intervals=true`);
    expect(pm10['statusIntervals'].map((i: Json) => i['name'])).toEqual(['good', 'moderate', 'poor', 'above daily limit']);
    expect((await json<Json>(`${P}/timeseries/ts_koeln_air_temperature?status_intervals=true`))['statusIntervals']).toEqual([]);
    const latest = await json(`${P}/timeseries?force_latest_values=true&station=sta_koeln_rhein`);
    expect(latest.every((t) => typeof t['lastValue']['value'] === 'number')).toBe(true);
    expect((await json(`${P}/timeseries?station=sta_koeln_rhein`)).every((t) => t['lastValue'] === undefined)).toBe(true);
    const list = await json(`${P}/timeseries?status_intervals=true&phenomenon=phe_pm10`);
    expect(list.every((t) => Array.isArray(t['statusIntervals']) && t['statusIntervals'].length === 4)).toBe(true);
  });
});

describe('/timeseries/{id}/extras (52°North v1.10.8)', () => {
  test('license, status intervals and rendering hints, as the metadata has them; fields selects', async () => {
    const id = 'ts_koeln_rhein_water_level';
    const meta = await json<Json>(`${P}/timeseries/${id}?status_intervals=true&rendering_hints=true`);
    const extras = await json<Json>(`${P}/timeseries/${id}/extras`);
    expect(Object.keys(extras)).toEqual(['license', 'statusIntervals', 'renderingHints']);
    expect(extras['license']).toBe('Generated demo data, free to use for any purpose (CC0 1.0).');
    expect(extras['statusIntervals']).toEqual(meta['statusIntervals']);
    expect(extras['renderingHints']).toEqual(meta['renderingHints']);
    expect(await json<Json>(`${P}/timeseries/${id}/extras?fields=license`)).toEqual({ license: extras['license'] });
    expect(await json<Json>(`${P}/timeseries/${id}/extras/?fields=renderingHints,STATUSINTERVALS`)).toEqual({ statusIntervals: extras['statusIntervals'], renderingHints: extras['renderingHints'] });
    expect(await json<Json>(`${P}/timeseries/${id}/extras.json?fields=statusIntervals`)).toEqual({ statusIntervals: extras['statusIntervals'] });
    // no status interval configured for air temperature: left out (a hint by phenomenon there is)
    const air = await json<Json>(`${P}/timeseries/ts_koeln_air_temperature?rendering_hints=true`);
    expect(await json<Json>(`${P}/timeseries/ts_koeln_air_temperature/extras`)).toEqual({ license: extras['license'], renderingHints: air['renderingHints'] });
    expect(await json<Json>(`${P}/timeseries/ts_koeln_air_temperature/extras?fields=statusIntervals`)).toEqual({});
  });
});

describe('filters', () => {
  const memberOf: Record<string, (t: Json) => string> = {
    services: (t) => t['parameters']['service']['id'],
    categories: (t) => t['parameters']['category']['id'],
    offerings: (t) => t['parameters']['offering']['id'],
    features: (t) => t['parameters']['feature']['id'],
    procedures: (t) => t['parameters']['procedure']['id'],
    phenomena: (t) => t['parameters']['phenomenon']['id'],
    stations: (t) => t['station']['properties']['id'],
    timeseries: (t) => t['id'],
  };
  const filterOf: Record<string, (t: Json) => string> = {
    service: memberOf['services']!, category: memberOf['categories']!, offering: memberOf['offerings']!, feature: memberOf['features']!,
    procedure: memberOf['procedures']!, phenomenon: memberOf['phenomena']!, station: memberOf['stations']!,
  };
  const combos: Record<string, string>[] = [
    { service: 'srv_rivers' }, { category: 'cat_meteorology' }, { station: 'sta_koeln' }, { phenomenon: 'phe_water_level' }, { offering: 'off_pm10_hourly' },
    { feature: 'foi_koeln_rhein' }, { procedure: 'pro_tipping_bucket' }, { service: 'srv_weather', phenomenon: 'phe_pm10' },
    { category: 'cat_hydrology', procedure: 'pro_radar_gauge' }, { station: 'sta_koeln_rhein', phenomenon: 'phe_discharge' }, { service: 'srv_rivers', phenomenon: 'phe_pm10' },
    { phenomenon: 'phe_nothing' },
  ];

  test.each(COLLECTIONS.map((c) => [c]))('%s: every filter and combinations, ANDed, against brute force', async (c) => {
    const full = ids(await json(`${P}/${c}`));
    for (const f of combos) {
      const matching = series.filter((t) => Object.entries(f).every(([k, v]) => filterOf[k]!(t) === v));
      const expected = new Set(matching.map(memberOf[c]!));
      const got = ids(await json(`${P}/${c}?${new URLSearchParams(f)}`));
      expect(got, `${c} ${JSON.stringify(f)}`).toEqual(full.filter((id) => expected.has(id)));
    }
  });
});

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/<([^>]*)>; rel="(\w+)"(?:; title="([^"]*)")?/g)) out[m[2]!] = m[1]!;
  return out;
}

describe('paging', () => {
  test.each([
    ['/stations', 7],
    ['/timeseries?service=srv_weather&expanded=true', 25],
    ['/features?locale=de', 10],
    ['/categories', 1],
    ['/phenomena', 100],
  ])('%s with limit %i: following next from first walks every member exactly once', async (path, limit) => {
    const all = ids(await json(`${P}${path}`));
    const sep = path.includes('?') ? '&' : '?';
    const first = await get(s.url, `${P}${path}${sep}limit=${limit}`);
    let next: string | undefined = links(first.headers.get('link'))['first'];
    const seen: string[] = [];
    let pages = 0;
    while (next) {
      const r = await get(s.url, next);
      expect(r.status).toBe(200);
      const l = links(r.headers.get('link'));
      expect(l['self']).toBe(next);
      expect(l['first']).toContain('offset=0');
      seen.push(...ids(JSON.parse(r.text)));
      next = l['next'];
      pages++;
    }
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / limit));
  });

  test('titles, prev, and no Link header without offset or limit', async () => {
    const r = await get(s.url, `${P}/stations?offset=4&limit=2`);
    const header = r.headers.get('link')!;
    for (const t of ['rel="first"; title="first page"', 'rel="last"; title="last page"', 'rel="prev"; title="previous page"', 'rel="next"; title="next page"']) expect(header).toContain(t);
    expect(links(header)).toEqual({
      self: `${P}/stations?offset=4&limit=2`, first: `${P}/stations?offset=0&limit=2`, last: `${P}/stations?offset=102&limit=2`, prev: `${P}/stations?offset=2&limit=2`, next: `${P}/stations?offset=6&limit=2`,
    });
    expect((await get(s.url, `${P}/stations`)).headers.get('link')).toBeNull();
    expect(JSON.parse((await get(s.url, `${P}/stations?offset=500`)).text)).toEqual([]);
  });
});

describe('locales', () => {
  test('labels and order follow the locale; de_AT falls back to de, fr to the default', async () => {
    const de = await json(`${P}/phenomena?locale=de`);
    expect(de.map((p) => p['label'])).toEqual(['Abfluss', 'Feinstaub PM10', 'Lufttemperatur', 'Niederschlag', 'Relative Luftfeuchte', 'Wassertemperatur', 'Wasserstand'].sort(new Intl.Collator('de').compare));
    expect((await get(s.url, `${P}/stations?locale=de_AT`)).text).toBe((await get(s.url, `${P}/stations?locale=de`)).text);
    expect((await get(s.url, `${P}/stations?locale=fr`)).text).toBe((await get(s.url, `${P}/stations`)).text);
    expect((await json(`${P}/services?locale=nl`)).map((x) => x['label'])).toEqual(['Rivierpeilen (demo)', 'Weer en luchtkwaliteit (demo)']);
    const ts = await json<Json>(`${P}/timeseries/ts_koeln_rhein_water_level?locale=de`);
    expect([ts['label'], ts['station']['properties']['label'], ts['refValues'][0]['label']]).toEqual(['Wasserstand@Köln (Rhein)', 'Köln (Rhein)', 'Meldestufe 1']);
  });

  test('Accept-Language selects the locale when locale is absent (quality values; English or unknown: the default labels)', async () => {
    const text = async (path: string, language?: string) => {
      const r = await get(s.url, path, language === undefined ? {} : { 'accept-language': language });
      expect(r.status, `${path} ${language}`).toBe(200);
      expect(r.headers.get('vary')).toBe('Accept, Accept-Language, Accept-Encoding');
      return r.text;
    };
    for (const path of [`${P}/phenomena`, `${P}/stations?expanded=true`, `${P}/timeseries/ts_koeln_rhein_water_level`, `${P}/timeseries.json`, `${P}/search?q=rhein`]) {
      const sep = path.includes('?') ? '&' : '?';
      const [plain, de, nl] = await Promise.all([text(path), text(`${path}${sep}locale=de`), text(`${path}${sep}locale=nl`)]);
      expect(de).not.toBe(plain);
      for (const h of ['de', 'de-DE', 'DE-de, en;q=0.5', 'fr, de;q=0.8, en;q=0.7', 'en;q=0.2, de;q=0.9', 'de-LU', 'zh-Hant-TW, de-CH;q=0.1']) expect(await text(path, h), `${path} ${h}`).toBe(de);
      expect(await text(path, 'nl-NL,nl;q=0.9')).toBe(nl);
      for (const h of ['en', 'en-US,en;q=0.9,de;q=0.8', 'fr', '*', 'de;q=0', 'x-klingon, 12', ';;,', 'de;q=abc']) expect(await text(path, h), `${path} ${h}`).toBe(plain);
      expect(await text(`${path}${sep}locale=nl`, 'de')).toBe(nl);
    }
    // the index (the API's own texts) and data have no labels: the header changes nothing
    expect(await text(`${P}/`, 'de')).toBe(await text(`${P}/`));
    expect(await text(`${P}/timeseries/ts_koeln_pm10/getData`, 'de')).toBe(await text(`${P}/timeseries/ts_koeln_pm10/getData`));
    // a tree file by its own name stays that file
    expect(await text(`${P}/stations.expanded.json`, 'de')).toBe(await text(`${P}/stations?expanded=true`));
    // the ETag differs by language, so a cache never serves one language's answer for another
    const [a, b] = await Promise.all([get(s.url, `${P}/phenomena`), get(s.url, `${P}/phenomena`, { 'accept-language': 'de' })]);
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
    expect((await get(s.url, `${P}/phenomena`, { 'accept-language': 'nl', 'if-none-match': b.headers.get('etag')! })).status).toBe(200);
    expect((await get(s.url, `${P}/phenomena`, { 'accept-language': 'de', 'if-none-match': b.headers.get('etag')! })).status).toBe(304);
  });
});

describe('search', () => {
  const groups: [string, string][] = [['timeseries', 'timeseries'], ['phenomena', 'phenomenon'], ['procedures', 'procedure'], ['offerings', 'offering'], ['stations', 'station'], ['features', 'feature'], ['categories', 'category']];

  test.each([
    ['rhine', undefined],
    ['RHEIN', 'de'],
    ['köln', 'de'],
    ['cologne', 'en'],
    ['temperatur', 'de'],
    ['water', undefined],
    ['zzz', 'de'],
  ])('q=%s locale=%s against brute force over every collection', async (q, locale) => {
    const loc = locale ? `&locale=${locale}` : '';
    const expected: Json[] = [];
    for (const [c, type] of groups) {
      for (const m of await json(`${P}/${c}?${loc.slice(1)}`)) {
        const label: string = m['label'] ?? m['properties']['label'];
        if (label.toLowerCase().includes(q.toLowerCase())) expected.push({ id: idOf(m), label, type, href: `./${c}/${idOf(m)}` });
      }
    }
    expect(await json(`${P}/search?q=${encodeURIComponent(q)}${loc}`)).toEqual(expected);
    if (q !== 'zzz') expect(expected.length).toBeGreaterThan(0);
  });
});

describe('bbox and near against brute force', () => {
  let stations: { id: string; lon: number; lat: number }[];
  const point = (c: number[]) => ({ type: 'Point', coordinates: c });
  const r = (() => {
    let a = 7;
    return () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648);
  })();
  beforeAll(async () => {
    stations = (await json(`${P}/stations`)).map((f) => ({ id: f['properties']['id'], lon: f['geometry']['coordinates'][0], lat: f['geometry']['coordinates'][1] }));
  });
  const sorted = (xs: string[]) => [...xs].sort();

  test('near: 20 circles (km on the 6371 km sphere)', async () => {
    for (let i = 0; i < 20; i++) {
      const [lon, lat, radius] = [3 + r() * 12, 47 + r() * 8, 10 + r() * 150];
      const want = bruteForceNear(stations.map((x) => x.lon), stations.map((x) => x.lat), lon, lat, radius).map((k) => stations[k]!.id);
      const got = ids(await json(`${P}/stations?near=${encodeURIComponent(JSON.stringify({ center: point([lon, lat]), radius }))}`));
      expect(sorted(got)).toEqual(sorted(want));
    }
  });

  test('bbox: 20 boxes, in CRS84, in EPSG:4326 (lat/lon) and in EPSG:25832 (UTM metres)', async () => {
    const utm = lookupCrs('EPSG:25832')!;
    for (let i = 0; i < 20; i++) {
      const [w, s0] = [3 + r() * 10, 47 + r() * 6];
      const [e, n] = [w + 0.5 + r() * 4, s0 + 0.5 + r() * 3];
      const want = stations.filter((x) => x.lon >= w && x.lon <= e && x.lat >= s0 && x.lat <= n).map((x) => x.id);
      const q = (bbox: unknown, crs?: string) => `${P}/stations?bbox=${encodeURIComponent(JSON.stringify(bbox))}${crs ? `&crs=${crs}` : ''}`;
      expect(sorted(ids(await json(q({ ll: point([w, s0]), ur: point([e, n]) })))), `box ${i}`).toEqual(sorted(want));
      expect(sorted(ids(await json(q({ ll: point([s0, w]), ur: point([n, e]) }, 'EPSG:4326'))))).toEqual(sorted(want));
      const [x1, y1, x2, y2] = [300000 + r() * 300000, 5300000 + r() * 500000, 0, 0];
      const [ux2, uy2] = [x1 + 50000 + r() * 300000, y1 + 50000 + r() * 300000];
      void x2;
      void y2;
      const inUtm = stations.filter((x) => {
        const [ex, ny] = toEastNorth(utm, x.lon, x.lat);
        return ex >= x1 && ex <= ux2 && ny >= y1 && ny <= uy2;
      });
      expect(sorted(ids(await json(q({ ll: point([x1, y1]), ur: point([ux2, uy2]) }, 'EPSG:25832'))))).toEqual(sorted(inUtm.map((x) => x.id)));
    }
  });

  test('bbox AND near AND a filter; output geometries in the requested CRS', async () => {
    const bbox = encodeURIComponent(JSON.stringify({ ll: point([5, 49]), ur: point([9, 53]) }));
    const near = encodeURIComponent(JSON.stringify({ center: point([7, 51]), radius: 120 }));
    const both = ids(await json(`${P}/stations?bbox=${bbox}&near=${near}&service=srv_rivers`));
    const want = bruteForceNear(stations.map((x) => x.lon), stations.map((x) => x.lat), 7, 51, 120)
      .map((k) => stations[k]!)
      .filter((x) => x.lon >= 5 && x.lon <= 9 && x.lat >= 49 && x.lat <= 53 && series.some((t) => t['station']['properties']['id'] === x.id && t['parameters']['service']['id'] === 'srv_rivers'));
    expect(sorted(both)).toEqual(sorted(want.map((x) => x.id)));
    expect(both.length).toBeGreaterThan(3);
    const latLon = await json<Json>(`${P}/stations/sta_koeln_rhein?crs=EPSG:4326`);
    expect(latLon['geometry']['coordinates']).toEqual([50.937, 6.963]);
    const [x, y] = (await json<Json>(`${P}/stations/sta_koeln_rhein?crs=EPSG:25832`))['geometry']['coordinates'];
    expect(Math.round(x / 1000)).toBe(357);
    expect(Math.round(y / 1000)).toBe(5645);
  });
});

describe('bad input: status and the JSON error body', () => {
  test.each([
    [`${P}/stations?expanded=yes`, 400, 'expanded'],
    [`${P}/stations?locale=deutsch`, 400, 'locale'],
    [`${P}/stations?service=rivers`, 400, 'service'],
    [`${P}/timeseries?phenomenon=sta_koeln`, 400, 'phenomenon'],
    [`${P}/features?offering=x`, 400, 'offering'],
    [`${P}/stations?offset=-1`, 400, 'offset'],
    [`${P}/stations?limit=0`, 400, 'limit'],
    [`${P}/stations?limit=10001`, 400, 'limit'],
    [`${P}/stations?crs=EPSG:9999`, 400, 'crs'],
    [`${P}/stations?bbox=1,2,3,4`, 400, 'bbox'],
    [`${P}/stations?bbox={"ll":{"type":"Point","coordinates":[7,52]},"ur":{"type":"Point","coordinates":[8,51]}}`, 400, 'bbox'],
    [`${P}/stations?near={"center":[7,51],"radius":5}`, 400, 'near'],
    [`${P}/stations?near={"center":{"type":"Point","coordinates":[7,51]},"radius":-5}`, 400, 'near'],
    [`${P}/timeseries?status_intervals=1`, 400, 'status_intervals'],
    [`${P}/timeseries/ts_koeln_pm10?rendering_hints=yes`, 400, 'rendering_hints'],
    [`${P}/timeseries?force_latest_values=no`, 400, 'force_latest_values'],
    [`${P}/search`, 400, 'q'],
    [`${P}/search?q=%20`, 400, 'q'],
    [`${P}/search?q=x&locale=x`, 400, 'locale'],
    [`${P}/nothing`, 404, undefined],
    [`${P}/stations/sta_nowhere`, 404, undefined],
    [`${P}/services/sta_koeln`, 404, undefined],
    [`${P}/timeseries/ts_nope`, 404, undefined],
    [`${P}/timeseries/ts_nope/getData`, 404, undefined],
    [`${P}/timeseries/ts_koeln_pm10/lastMonth`, 404, undefined],
    [`${P}/timeseries/ts_nope/lastDay.png`, 404, undefined],
    [`${P}/stations/sta_koeln/timeseries`, 404, undefined],
    [`${P}/timeseries/ts_koeln_pm10/extras?fields=licence`, 400, 'fields'],
    [`${P}/timeseries/ts_koeln_pm10/extras?fields=,`, 400, 'fields'],
    [`${P}/timeseries/ts_nope/extras`, 404, undefined],
    [`${P}/timeseries/ts_koeln_pm10/extras.png`, 406, undefined],
    [`${P}/stations.png`, 406, undefined],
    [`${P}/timeseries/ts_koeln_pm10/lastWeek.pdf`, 406, undefined],
  ])('%s gives %i', async (path, status, param) => {
    const r = await get(s.url, path);
    expect(r.status).toBe(status);
    expect(r.type).toBe('application/json; charset=UTF-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const body = JSON.parse(r.text) as Json;
    expect(body['statusCode']).toBe(status);
    expect(typeof body['reason']).toBe('string');
    expect(typeof body['userMessage']).toBe('string');
    if (param) {
      expect(body['userMessage']).toContain(`'${param}'`);
      expect(body['hints'][0]).toMatch(/^A valid example: /);
    }
    expect(r.text).not.toMatch(/SELECT|at \w+ \(|\.ts:\d+/);
  });

  test('pre-rendered charts: only those the configuration names', async () => {
    const r = JSON.parse((await get(s.url, `${P}/timeseries/ts_koeln_pm10/lastWeek.png`)).text) as Json;
    expect(r['userMessage']).toBe("No pre-rendered chart found for timeseries 'ts_koeln_pm10'");
    expect((await get(s.url, `${P}/timeseries/ts_koeln_rhein_water_level/lastWeek.png`)).type).toBe('image/png');
  });

  test('Accept with only chart types off the data paths: 406 with the charts hint; a method other than GET: 405 with Allow', async () => {
    for (const accept of ['image/png', 'application/pdf']) {
      const r = await get(s.url, `${P}/timeseries/ts_koeln_pm10`, { accept });
      expect(r.status).toBe(406);
      expect(JSON.parse(r.text)['userMessage']).toMatch(/rendered only from data paths/);
    }
    const res = await fetch(`${s.url}${P}/stations`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toMatchObject({ statusCode: 405 });
  });

  test('HEAD answers the headers of GET without a body', async () => {
    for (const path of [`${P}/stations`, `${P}/stations?locale=de`, `${P}/timeseries/ts_koeln_pm10/getData?timespan=P1D/2024-01-09TZ`]) {
      const res = await fetch(`${s.url}${path}`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
