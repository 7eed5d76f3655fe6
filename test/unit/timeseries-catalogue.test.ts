/**
 * The pure metadata core of the Timeseries API over a tiny in-memory catalogue: filters, labels and
 * locales, sorting, views, status intervals and rendering hints, search and the collection index.
 */
import { describe, expect, test } from 'vitest';
import { collectionAnswer, collectionParts, indexAnswer, itemAnswer } from '../../core/timeseries/answer.ts';
import { selectMembers, matchingSeries } from '../../core/timeseries/filters.ts';
import { labelIn, normaliseLocale, sortByLabel } from '../../core/timeseries/locale.ts';
import { readCollectionParams, readItemParams } from '../../core/timeseries/params.ts';
import { search } from '../../core/timeseries/search.ts';
import { memberView } from '../../core/timeseries/views.ts';
import { lookupCrs } from '../../core/timeseries/geo/crs.ts';
import { tinyCatalogue } from '../helpers/ts-catalogue.ts';

const cat = tinyCatalogue();
const ids = (name: 'stations' | 'timeseries' | 'services' | 'phenomena' | 'features' | 'categories', positions: ArrayLike<number> | undefined) =>
  positions === undefined ? undefined : Array.from(positions, (i) => cat[name][i]!.id);

describe('filters', () => {
  test.each([
    ['stations', {}, undefined],
    ['stations', { phenomenon: 'phe_temp' }, ['sta_azur', 'sta_zug']],
    ['stations', { phenomenon: 'phe_temp', service: 'srv_a' }, []],
    ['stations', { service: 'srv_b' }, ['sta_azur', 'sta_zug']],
    ['timeseries', { station: 'sta_azur' }, ['ts_azur_level', 'ts_azur_temp']],
    ['timeseries', { station: 'sta_azur', phenomenon: 'phe_level' }, ['ts_azur_level']],
    ['timeseries', { feature: 'foi_zug', procedure: 'pro_thermo' }, ['ts_zug_empty', 'ts_zug_temp']],
    ['services', { station: 'sta_azur' }, ['srv_a', 'srv_b']],
    ['phenomena', { station: 'sta_aerzen' }, ['phe_level']],
    ['features', { offering: 'off_temp' }, ['foi_azur', 'foi_zug']],
    ['categories', { station: 'sta_nowhere' }, []],
  ] as const)('%s with %j', (name, filters, expected) => {
    expect(ids(name, selectMembers(cat, name, filters))).toEqual(expected);
  });

  test('every series matches no filter; a filter by an unknown id matches none', () => {
    expect(matchingSeries(cat, {}).length).toBe(5);
    expect(matchingSeries(cat, { service: 'srv_nope' }).length).toBe(0);
  });

  test('stations: near ANDs with the filters', () => {
    const geo = { crs: lookupCrs('CRS84')!, bbox: undefined, near: { lon: 7, lat: 43.7, radiusKm: 10 } };
    expect(ids('stations', selectMembers(cat, 'stations', {}, geo))).toEqual(['sta_azur']);
    expect(ids('stations', selectMembers(cat, 'stations', { phenomenon: 'phe_level' }, geo))).toEqual(['sta_azur']);
    expect(ids('stations', selectMembers(cat, 'stations', { station: 'sta_zug' }, geo))).toEqual([]);
  });

  test('service quantities count every collection, keys in alphabetical order (52°North)', () => {
    expect(cat.services[0]!.quantities).toEqual({ categories: 1, features: 2, offerings: 1, phenomena: 1, procedures: 1, stations: 2, timeseries: 2 });
    expect(cat.services[1]!.quantities).toEqual({ categories: 1, features: 1, offerings: 1, phenomena: 1, procedures: 1, stations: 2, timeseries: 3 });
    expect(Object.keys(cat.services[0]!.quantities)).toEqual(['categories', 'features', 'offerings', 'phenomena', 'procedures', 'stations', 'timeseries']);
  });
});

describe('labels and locales', () => {
  test.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['de-at', 'de_AT'],
    ['de_AT', 'de_AT'],
    ['nds', 'nds'],
    ['german', undefined],
    ['de_AUT', undefined],
    ['', undefined],
  ])('normaliseLocale(%j) = %j', (text, expected) => {
    expect(normaliseLocale(text)).toBe(expected);
  });

  test('de_AT, then de, then the default label', () => {
    const azur = cat.stations[cat.ids.stations.get('sta_azur')!]!;
    expect([undefined, 'en', 'de', 'de_AT', 'de_CH', 'fr'].map((l) => labelIn(azur, l))).toEqual(['Azur', 'Azur', 'Azur (de)', 'Azur (AT)', 'Azur (de)', 'Azur']);
  });

  test('sorted by label with the collation of the locale (Ä with A), ties by id; subsets agree', () => {
    expect(ids('stations', sortByLabel(cat, 'stations', undefined))).toEqual(['sta_aerzen', 'sta_azur', 'sta_empty', 'sta_zug']);
    expect(ids('timeseries', sortByLabel(cat, 'timeseries', undefined))).toEqual(['ts_azur_temp', 'ts_zug_empty', 'ts_zug_temp', 'ts_aerzen_level', 'ts_azur_level']);
    expect(ids('stations', sortByLabel(cat, 'stations', 'de', [3, 1, 0]))).toEqual(['sta_aerzen', 'sta_azur', 'sta_zug']);
  });

  test('collections and items in a locale', () => {
    const p = readCollectionParams(new URLSearchParams('locale=de'), 'phenomena');
    expect(JSON.parse(collectionAnswer(cat, 'phenomena', p, '/api/v1/phenomena', new URLSearchParams()).body)).toEqual([
      { id: 'phe_temp', label: 'Temperatur' },
      { id: 'phe_level', label: 'Wasserstand' },
    ]);
    const item = JSON.parse(itemAnswer(cat, 'timeseries', 0, readItemParams(new URLSearchParams('locale=de'), 'timeseries')));
    expect(item.parameters.phenomenon).toEqual({ id: 'phe_level', label: 'Wasserstand' });
    expect(item.refValues[0].label).toBe('Meldestufe 1');
  });

  test('a collection in pieces of any size is the JSON array of its member views, byte for byte', () => {
    for (const name of ['stations', 'timeseries', 'features'] as const) {
      for (const query of ['', 'expanded=true&locale=de', 'offset=1&limit=2']) {
        const q = new URLSearchParams(query);
        const p = readCollectionParams(q, name);
        const whole = collectionAnswer(cat, name, p, `/api/v1/${name}`, q).body;
        const members = JSON.parse(whole) as unknown[];
        expect(members.length, `${name}?${query}`).toBeGreaterThan(0);
        expect(whole).toBe(JSON.stringify(members));
        for (const size of [1, 2, 3, 1000]) {
          const pieces = [...collectionParts(cat, name, p, `/api/v1/${name}`, q, size).pieces()];
          expect(pieces.join(''), `${name}?${query} in pieces of ${size}`).toBe(whole);
          expect(pieces.length).toBe(2 + Math.ceil(members.length / size));
        }
      }
    }
  });
});

describe('views', () => {
  const o = { locale: undefined };
  test('stations: Feature, expanded with its series; output CRS', () => {
    expect(memberView(cat, 'stations', 1, 'list', o)).toEqual({ type: 'Feature', properties: { id: 'sta_azur', label: 'Azur' }, geometry: { type: 'Point', coordinates: [7.0, 43.7] } });
    const x = memberView(cat, 'stations', 1, 'expanded', o) as { properties: { timeseries: Record<string, unknown> } };
    expect(Object.keys(x.properties.timeseries)).toEqual(['ts_azur_level', 'ts_azur_temp']);
    expect(x.properties.timeseries['ts_azur_temp']).toEqual({
      phenomenon: { id: 'phe_temp', label: 'Temperature' },
      service: { id: 'srv_b', label: 'Beta service' },
      feature: { id: 'foi_azur', label: 'Azur site' },
      offering: { id: 'off_temp', label: 'TEMP_RAW' },
      procedure: { id: 'pro_thermo', label: 'Thermometer' },
    });
    const latLon = memberView(cat, 'stations', 1, 'list', { locale: undefined, crs: lookupCrs('EPSG:4326')! }) as { geometry: { coordinates: number[] } };
    expect(latLon.geometry.coordinates).toEqual([43.7, 7.0]);
  });

  test('services, collections with a service, offerings', () => {
    expect(memberView(cat, 'services', 0, 'item', o)).toEqual({
      id: 'srv_a', label: 'Alpha service', serviceUrl: 'https://a.example.org/sos', version: '2.0.0', type: 'SOS', supportsFirstLatest: true,
      quantities: { categories: 1, features: 2, offerings: 1, phenomena: 1, procedures: 1, stations: 2, timeseries: 2 },
    });
    expect(memberView(cat, 'categories', 0, 'item', o)).toEqual({ id: 'cat_air', label: 'Air', service: { id: '../services/srv_b', label: 'Beta service' } });
    expect(memberView(cat, 'offerings', 0, 'item', o)).toEqual({ id: 'off_level', label: 'LEVEL_RAW', service: '../services/srv_a' });
    expect(memberView(cat, 'procedures', 0, 'list', o)).toEqual({ id: 'pro_gauge', label: 'Gauge' });
  });

  test('timeseries: list, expanded, item; a series without values has no lastValue', () => {
    expect(Object.keys(memberView(cat, 'timeseries', 0, 'list', o))).toEqual(['id', 'label', 'station']);
    expect(Object.keys(memberView(cat, 'timeseries', 0, 'expanded', o))).toEqual(['id', 'label', 'station', 'parameters']);
    const item = memberView(cat, 'timeseries', 0, 'item', o);
    expect(Object.keys(item)).toEqual(['id', 'label', 'uom', 'station', 'firstValue', 'lastValue', 'parameters', 'refValues', 'referenceValues']);
    expect(item['firstValue']).toEqual({ timestamp: 1000, value: 4 });
    expect(item['referenceValues']).toEqual(item['refValues']);
    expect(item['lastValue']).toEqual({ timestamp: 9000, value: 6 });
    expect(item['refValues']).toEqual([{ referenceValueId: 'ref_aerzen_ms1', label: 'Warning level 1', lastValue: { timestamp: 5000, value: 7 } }]);
    const empty = memberView(cat, 'timeseries', 3, 'item', o);
    expect([empty['firstValue'], empty['lastValue'], empty['referenceValues']]).toEqual([undefined, undefined, []]);
    expect(memberView(cat, 'timeseries', 0, 'list', { locale: undefined, lastValue: true })['lastValue']).toEqual({ timestamp: 9000, value: 6 });
  });

  test('status intervals and rendering hints: a timeseries entry wins over its phenomenon', () => {
    const own = memberView(cat, 'timeseries', 0, 'item', { locale: undefined, statusIntervals: true, renderingHints: true });
    expect(own['firstValue']).toEqual({ timestamp: 1000, value: 4 });
    expect(own['referenceValues']).toEqual(own['refValues']);
    expect(own['statusIntervals']).toEqual([
      { lower: '0', upper: '7', name: 'normal', color: '#0000ff' },
      { lower: '7', name: 'flood', color: '#ff0000' },
    ]);
    expect(own['renderingHints']).toEqual({
      chartType: 'bar',
      properties: { interval: 'byDay', width: 0.5, color: '#0000ff' },
      referenceValueStyleProperties: { ref_aerzen_ms1: { chartType: 'line', properties: { lineType: 'dashed' } } },
    });
    const byPhenomenon = memberView(cat, 'timeseries', 1, 'item', { locale: undefined, statusIntervals: true, renderingHints: true });
    expect(byPhenomenon['statusIntervals']).toEqual([
      { lower: '0', upper: '5', name: 'low', color: '#00ff00' },
      { lower: '5', name: 'high', color: '#ff0000' },
    ]);
    expect(byPhenomenon['renderingHints']).toBeUndefined();
    const temp = memberView(cat, 'timeseries', 2, 'list', { locale: undefined, statusIntervals: true, renderingHints: true });
    expect(temp['statusIntervals']).toEqual([]);
    expect(temp['renderingHints']).toEqual({ chartType: 'line', properties: { color: '#ff0000', width: 2 } });
  });
});

describe('search and index', () => {
  test('case-insensitive substring in the locale, grouped, each group by label', () => {
    const hits = search(cat, 'AZUR', undefined);
    expect(hits.map((h) => `${h.type}:${h.id}`)).toEqual(['timeseries:ts_azur_temp', 'timeseries:ts_azur_level', 'station:sta_azur', 'feature:foi_azur']);
    expect(hits[2]).toEqual({ id: 'sta_azur', label: 'Azur', type: 'station', href: './stations/sta_azur' });
    expect(search(cat, 'wasser', 'de').map((h) => h.id)).toEqual(['phe_level']);
    expect(search(cat, 'wasser', undefined)).toEqual([]);
    expect(search(cat, '(at)', 'de_AT').map((h) => h.label)).toEqual(['Azur (AT)']);
    expect(search(cat, '@', undefined).map((h) => h.id)).toEqual(['ts_azur_temp', 'ts_zug_empty', 'ts_zug_temp', 'ts_aerzen_level', 'ts_azur_level']);
  });

  test('the index: keyed by collection, or an array with sizes', () => {
    const plain = JSON.parse(indexAnswer(cat, false));
    expect(Object.keys(plain)).toEqual(['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries']);
    expect(plain.stations).toEqual({ id: 'stations', label: 'Station', description: 'A station is the place where measurement takes place.' });
    const expanded = JSON.parse(indexAnswer(cat, true)) as { id: string; size: number }[];
    expect(expanded.map((e) => [e.id, e.size])).toEqual([['services', 2], ['categories', 2], ['offerings', 2], ['features', 3], ['procedures', 2], ['phenomena', 2], ['stations', 4], ['timeseries', 5]]);
  });
});
