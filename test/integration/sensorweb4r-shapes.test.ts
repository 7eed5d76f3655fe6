/**
 * What 52°North's R client, sensorweb4R (github.com/52North/sensorweb4R; not on CRAN, so not installable here),
 * reads from a Timeseries API, asked of a real endpoint in the order the client asks: the requests it sends
 * (`R/query-methods.R`: `services`, `stations`, `timeseries` with its filters, `fetch` of each resource,
 * `getData`) and the names its parsers read (`R/parse-methods.R`: `Service.parse`, `Station.parse`,
 * `Timeseries.parse`, `ReferenceValue.parse`, `TimeseriesData.parse`), each with the type the parser
 * converts it to. The client sends `Accept: application/json` and decodes the text by the charset of the
 * answer's Content-Type (httr), and builds resource URLs as `<endpoint without trailing slash>/<collection>/<id>`,
 * a service's from the relative reference the resource carries (`../services/<id>`, whose dot segments curl
 * removes).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

type Json = Record<string, any>;
let s: Served;
/** The endpoint URL as a user gives it to `Endpoint()`, which drops the trailing slash. */
let endpoint: string;

beforeAll(async () => {
  s = await startEndpoint(inject('tsBuild'));
  endpoint = `${s.url}/api/v1/`.replace(/\/+$/, '');
});
afterAll(async () => {
  await s.close();
});

/** `get.json`: GET with Accept: application/json, stop for status, the text decoded by its charset, then parsed. */
async function getJson<T = Json>(url: string, query: Record<string, string> = {}): Promise<T> {
  const q = Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&');
  const target = new URL(q ? `${url}?${q}` : url); // as curl, which removes dot segments
  const r = await get(`${target.origin}`, `${target.pathname}${target.search}`, { Accept: 'application/json' });
  expect(r.status, `${target.pathname}${target.search}: ${r.text.slice(0, 200)}`).toBe(200);
  expect(r.type).toBe('application/json; charset=UTF-8');
  return JSON.parse(r.text) as T;
}

const isMs = (t: unknown) => Number.isSafeInteger(t) && (t as number) > Date.UTC(2000, 0, 1);
/** `as.character` of a field the parser reads: present and a string. */
const text = (v: unknown) => typeof v === 'string' && v.length > 0;
/** A time-value pair as `list.as.tvp` and `ReferenceValue.parse` read it (a null value becomes NA). */
const tvp = (v: Json | undefined) => v !== undefined && isMs(v['timestamp']) && (typeof v['value'] === 'number' || v['value'] === null);

describe('sensorweb4R against snapcat', () => {
  test('services(e), then fetch(service): Service.parse and the fetch method', async () => {
    const services = await getJson<Json[]>(`${endpoint}/services`);
    expect(services.length).toBeGreaterThan(0);
    for (const srv of services) {
      expect(text(srv['id']) && text(srv['label'])).toBe(true);
      const full = await getJson(`${endpoint}/services/${srv['id']}`);
      expect([full['label'], text(full['serviceUrl']), text(full['version']), text(full['type']), typeof full['supportsFirstLatest']]).toEqual([srv['label'], true, true, true, 'boolean']);
      // quantities becomes a data.frame row: one integer per collection
      expect(Object.keys(full['quantities'])).toEqual(['categories', 'features', 'offerings', 'phenomena', 'procedures', 'stations', 'timeseries']);
      expect(Object.values(full['quantities']).every((n) => Number.isInteger(n) && (n as number) > 0)).toBe(true);
    }
  });

  test('stations(e, service = srv), then fetch(station): GeoJSON points in lon/lat (CRS "+proj=longlat +datum=WGS84")', async () => {
    const stations = await getJson<Json[]>(`${endpoint}/stations`, { service: 'srv_rivers' });
    expect(stations.length).toBeGreaterThan(10);
    for (const st of stations) {
      expect(text(st['properties']['id']) && text(st['properties']['label'])).toBe(true);
      const [x, y] = st['geometry']['coordinates'] as number[];
      expect(st['geometry']['type']).toBe('Point');
      // German rivers: longitude first
      expect(x! > 5 && x! < 16 && y! > 47 && y! < 56, `${st['properties']['id']} ${x} ${y}`).toBe(true);
    }
    const one = await getJson(`${endpoint}/stations/${stations[0]!['properties']['id']}`);
    expect([one['properties']['label'], one['geometry']['coordinates']]).toEqual([stations[0]!['properties']['label'], stations[0]!['geometry']['coordinates']]);
  });

  test('timeseries(e, station = sta), then fetch(ts): uom, station, parameters, firstValue, lastValue, referenceValues', async () => {
    const list = await getJson<Json[]>(`${endpoint}/timeseries`, { station: 'sta_koeln_rhein' });
    expect(list.map((t) => t['id']).sort()).toEqual(['ts_koeln_rhein_discharge', 'ts_koeln_rhein_water_level', 'ts_koeln_rhein_water_temperature']);
    for (const member of list) {
      expect(text(member['label']) && member['station']['properties']['id'] === 'sta_koeln_rhein').toBe(true);
      const ts = await getJson(`${endpoint}/timeseries/${member['id']}`);
      expect(text(ts['label']) && text(ts['uom'])).toBe(true);
      expect(ts['station']['properties']['id']).toBe('sta_koeln_rhein');
      // firstValue(ts) and lastValue(ts): TimeseriesData.parse of one value each, not NA
      expect(tvp(ts['firstValue']) && tvp(ts['lastValue'])).toBe(true);
      expect(ts['firstValue']['timestamp']).toBeLessThanOrEqual(ts['lastValue']['timestamp']);
      // each parameter is fetched by its id; its service by the relative reference it carries
      for (const [name, collection] of [['service', 'services'], ['offering', 'offerings'], ['procedure', 'procedures'], ['phenomenon', 'phenomena'], ['category', 'categories'], ['feature', 'features']] as const) {
        const id = ts['parameters'][name]['id'];
        expect(text(id), name).toBe(true);
        const resource = await getJson(`${endpoint}/${collection}/${id}`);
        expect(resource['id']).toBe(id);
        if (name === 'service') continue;
        const ref = typeof resource['service'] === 'string' ? resource['service'] : resource['service']['id'];
        expect((await getJson(`${endpoint}/services/${ref}`))['id']).toBe(ts['parameters']['service']['id']);
      }
      // ReferenceValue.parse: referenceValueId, label, lastValue {timestamp, value}
      expect(Array.isArray(ts['referenceValues'])).toBe(true);
      for (const rv of ts['referenceValues']) expect(text(rv['referenceValueId']) && text(rv['label']) && tvp(rv['lastValue']), JSON.stringify(rv)).toBe(true);
    }
    const level = await getJson(`${endpoint}/timeseries/ts_koeln_rhein_water_level`);
    expect(level['referenceValues'].length).toBe(3);
  });

  test('getData(ts, timespan = interval): {values: [{timestamp, value}]} for the interval, as format.interval writes it', async () => {
    const timespan = '2024-01-02T00:00:00Z/2024-01-03T00:00:00Z';
    const data = await getJson(`${endpoint}/timeseries/ts_koeln_rhein_water_level/getData`, { generalize: 'false', timespan });
    expect(Object.keys(data)).toEqual(['values']);
    const values = data['values'] as Json[];
    expect(values.length).toBe(145); // 10-minute values, both ends included
    expect(values.every((v) => Object.keys(v).join() === 'timestamp,value' && tvp(v))).toBe(true);
    expect([values[0]!['timestamp'], values.at(-1)!['timestamp']]).toEqual([Date.UTC(2024, 0, 2), Date.UTC(2024, 0, 3)]);
    for (let i = 1; i < values.length; i++) expect(values[i]!['timestamp']).toBeGreaterThan(values[i - 1]!['timestamp']);
    // without a timespan: the default week, the same shape
    const week = await getJson(`${endpoint}/timeseries/ts_koeln_rhein_water_level/getData`, { generalize: 'false' });
    expect(Object.keys(week)).toEqual(['values']);
  });
});
