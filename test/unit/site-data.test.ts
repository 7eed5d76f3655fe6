/**
 * The site's data (core/site-data/): the pure functions the build runs (build-scripts/site-data.ts) to write
 * each page family's document. Records in, document out; the tree's files are a set.
 */
import { describe, expect, test } from 'vitest';
import { RECENT } from '../../core/radar/browse-summary-file.ts';
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { radarPathFiles, treeHref } from '../../core/site-data/links.ts';
import { alarmDigest, coverageDigest, keepLatest, radarActivityData, transferCategories, type CoverageRecord, type TransferredRecord } from '../../core/site-data/radar-activity.ts';
import { radarsData, type RadarRecord } from '../../core/site-data/radars.ts';
import { seriesMetaOf, stationsOf, statusesOf, type ListMember } from '../../core/site-data/stations.ts';
import { localeLabels, timeseriesData, type SeriesExtras } from '../../core/site-data/timeseries.ts';

const tree = (...rels: string[]) => {
  const set = new Set(rels);
  return (rel: string) => set.has(rel);
};

function transfer(id: number, code: string, start: string, status: string | null = 'nomatch'): TransferredRecord {
  return { id, file_path: `/data/${code}/f${id}.rawacf.bz2`, radar_code: code, file_type: 'rawacf', transferred_file_status: status, transfer_start_datetime: start };
}

describe('links', () => {
  test('a tree URL encodes each segment', () => {
    expect(treeHref('radarnet/mirror/v3/files/a b#c.json')).toBe('/radarnet/mirror/v3/files/a%20b%23c.json');
  });

  test('only the files the tree holds are linked, JSON then CSV then checksum report', () => {
    const has = tree('radarnet/mirror/v3/files/7.csv', 'radarnet/mirror/v3/files/7.json');
    expect(radarPathFiles(`${RADAR_PREFIX}/files/7`, has)).toEqual([
      { label: 'JSON', href: '/radarnet/mirror/v3/files/7.json' },
      { label: 'CSV', href: '/radarnet/mirror/v3/files/7.csv' },
    ]);
    expect(radarPathFiles(`${RADAR_PREFIX}/files/8`, has)).toEqual([]);
  });
});

describe('radar activity', () => {
  test('keepLatest keeps the RECENT largest keys, largest first, whatever the order they come in', () => {
    const list: number[] = [];
    const input = Array.from({ length: 3 * RECENT }, (_, i) => (i * 7) % (3 * RECENT));
    for (const n of input) keepLatest(list, n, (x) => String(x).padStart(4, '0'));
    expect(list).toEqual(Array.from({ length: RECENT }, (_, i) => 3 * RECENT - 1 - i));
  });

  test('the categories are the route table\'s: ok first-class, alarm categories with the status table\'s meaning', () => {
    const cats = transferCategories([{ status: 'nomatch', description: 'No matching file.' }], tree());
    const ok = cats.find((c) => c.status === 'ok');
    expect(ok?.meaning).toBe('No alarm.');
    const nomatch = cats.find((c) => c.status === 'nomatch');
    expect(nomatch).toMatchObject({ apiPath: `${RADAR_PREFIX}/transferred/files/nomatch`, meaning: 'No matching file.', files: [] });
    expect(cats.length).toBeGreaterThan(2);
  });

  test('alarms: each radar\'s latest (ties by id), the latest day\'s, counts per radar and day, in one pass', () => {
    const records = [
      transfer(1, 'han', '2024-01-01T10:00:00.000Z'),
      transfer(2, 'pyk', '2024-01-02T09:00:00.000Z', 'bad_checksum'),
      transfer(3, 'han', '2024-01-02T09:00:00.000Z'),
      transfer(4, 'han', '2024-01-02T23:59:59.000Z', null),
      transfer(5, 'pyk', '2024-01-01T00:00:00.000Z'),
    ];
    const cats = transferCategories([], tree());
    const has = tree('radarnet/mirror/v3/transferred/files/nomatch/3.json');
    const d = alarmDigest(records, cats, has);
    expect(d.recentAlarms.map(([code, list]) => [code, list.map((a) => a.id)])).toEqual([
      ['han', [4, 3, 1]],
      ['pyk', [2, 5]],
    ]);
    const three = d.recentAlarms[0]![1][1]!;
    expect(three).toEqual({ id: 3, filename: 'f3.rawacf.bz2', fileType: 'rawacf', status: 'nomatch', transferStart: '2024-01-02T09:00:00.000Z', links: [{ label: 'JSON', href: '/radarnet/mirror/v3/transferred/files/nomatch/3.json' }] });
    expect(d.recentAlarms[0]![1][0]!.status).toBe('ok');
    expect(d.latestAlarms.day).toBe('2024-01-02');
    expect(d.latestAlarms.alarms.map((a) => [a.radarCode, a.id])).toEqual([
      ['han', 4],
      ['han', 3],
      ['pyk', 2],
    ]);
    expect(d.alarmDays).toEqual([
      ['han', [['2024-01-01', 1], ['2024-01-02', 2]]],
      ['pyk', [['2024-01-02', 1], ['2024-01-01', 1]]],
    ]);
  });

  test('alarms: none gives no day', () => {
    const d = alarmDigest([], [], tree());
    expect(d).toEqual({ recentAlarms: [], latestAlarms: { alarms: [] }, alarmDays: [] });
    // and survives JSON as the site reads it
    expect(JSON.parse(JSON.stringify(d)).latestAlarms.day).toBeUndefined();
  });

  test('coverage: one series per file type and coverage type, sorted, intervals in start order, seconds summed', () => {
    const c = (id: number, code: string, fileType: string, start: string, end: string, flag = 0): CoverageRecord => ({
      id,
      radar_code: code,
      file_type: fileType,
      coverage_type: 'file',
      start_datetime: start,
      end_datetime: end,
      duration: (Date.parse(end) - Date.parse(start)) / 1000,
      status_flag: flag,
    });
    const out = coverageDigest([
      c(1, 'han', 'rawacf', '2024-01-01T02:00:00Z', '2024-01-01T04:00:00Z'),
      c(2, 'han', 'fitacf', '2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z', 1),
      c(3, 'han', 'rawacf', '2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z'),
    ]);
    expect(out).toEqual([
      [
        'han',
        [
          { fileType: 'fitacf', coverageType: 'file', intervals: [{ start: Date.parse('2024-01-01T00:00:00Z'), end: Date.parse('2024-01-01T01:00:00Z'), flagged: true }], seconds: 3600 },
          {
            fileType: 'rawacf',
            coverageType: 'file',
            intervals: [
              { start: Date.parse('2024-01-01T00:00:00Z'), end: Date.parse('2024-01-01T01:00:00Z'), flagged: false },
              { start: Date.parse('2024-01-01T02:00:00Z'), end: Date.parse('2024-01-01T04:00:00Z'), flagged: false },
            ],
            seconds: 3 * 3600,
          },
        ],
      ],
    ]);
  });

  test('the document without a summary has no files and no transfers; types sorted and latest files linked with one', () => {
    const empty = radarActivityData({ summary: undefined, transferStatuses: [], alarms: [], coverage: [], has: tree() });
    expect(empty.files).toEqual([]);
    expect(empty.transfers.instances).toBe(0);
    const recent = { id: 9, filename: 'f9', fileType: 'rawacf', start: 's', end: 'e', bytes: 1, flagged: false };
    const doc = radarActivityData({
      summary: {
        files: [['han', { byType: [{ fileType: 'rawacf', files: 1, bytes: 1, flagged: 0, first: 'a', last: 'b' }, { fileType: 'fitacf', files: 1, bytes: 1, flagged: 0, first: 'a', last: 'b' }], recent: [recent] }]],
        transfers: { byCategoryDay: [], byRadar: [], totals: [['ok', 3]], instances: 3 },
      },
      transferStatuses: [],
      alarms: [],
      coverage: [],
      has: tree('radarnet/mirror/v3/files/9.sha1'),
    });
    expect(doc.files[0]![1].byType.map((t) => t.fileType)).toEqual(['fitacf', 'rawacf']);
    expect(doc.files[0]![1].recent).toEqual([{ ...recent, links: [{ label: 'checksum report', href: '/radarnet/mirror/v3/files/9.sha1' }] }]);
    expect(doc.transfers.instances).toBe(3);
  });
});

describe('timeseries', () => {
  test('labels grouped by resource, ids and locales sorted, the last row of a pair wins', () => {
    expect(
      localeLabels([
        { resourceId: 'ts_2', locale: 'en', label: 'Level' },
        { resourceId: 'ts_1', locale: 'fr', label: 'Niveau' },
        { resourceId: 'ts_1', locale: 'de', label: 'Pegel' },
        { resourceId: 'ts_1', locale: 'de', label: 'Pegelstand' },
      ]),
    ).toEqual([
      ['ts_1', [['de', 'Pegelstand'], ['fr', 'Niveau']]],
      ['ts_2', [['en', 'Level']]],
    ]);
  });

  test('without a catalogue, no extras', () => {
    expect(timeseriesData(undefined, [])).toEqual({ extras: [], labels: [] });
  });
});

describe('radars', () => {
  const radar = (id: number, code: string, lat: number | null, flag = 1): RadarRecord => ({
    id,
    radar_code: code,
    radar_name: `Radar ${code}`,
    status_flag: flag,
    geographic_position: lat === null ? null : { type: 'Point', coordinates: [10, lat] },
    field_of_view: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] },
    institute_name: 'Inst',
    country_name: null,
  });

  test('slugs: the code when unique and plain, else radar-<id>; statuses named from the table, else the flag', () => {
    const { radars, statuses } = radarsData([radar(1, 'han', 62), radar(2, 'dup', -70, 7), radar(3, 'dup', null), radar(4, 'Odd-1', 0)], [{ id: 1, status: 'operational', description: 'Running.' }], tree('radarnet/mirror/v3/radars/1.json', 'radarnet/mirror/v3/radars/1.sha1'));
    expect(radars.map((r) => r.slug)).toEqual(['han', 'radar-2', 'radar-3', 'radar-4']);
    expect(radars.map((r) => r.hemisphere)).toEqual(['north', 'south', 'unknown', 'north']);
    expect(radars[0]).toMatchObject({ status: 'operational', statusDescription: 'Running.', position: [10, 62], institute: 'Inst', country: '' });
    expect(radars[1]).toMatchObject({ status: '7', statusDescription: '' });
    expect(radars[0]!.fieldOfView).toEqual([[0, 0], [1, 0], [1, 1], [0, 0]]);
    expect(radars[0]!.files).toEqual([
      { label: 'JSON', href: '/radarnet/mirror/v3/radars/1.json' },
      { label: 'checksum report', href: '/radarnet/mirror/v3/radars/1.sha1' },
    ]);
    expect(radars[0]!.fields.find((f) => f.name === 'field_of_view')?.value).toBe('GeoJSON Polygon of 4 points (in the JSON file)');
    expect(radars[0]!.fields.find((f) => f.name === 'geographic_position')?.value).toBe('10, 62 (lon, lat)');
    expect(statuses).toEqual([{ id: 1, status: 'operational', description: 'Running.' }]);
  });
});

describe('stations', () => {
  const member = (id: string, station: string, service = 'srv'): ListMember => ({
    id,
    label: `series ${id}`,
    station: { properties: { id: station, label: `Station ${station}` }, geometry: { coordinates: [7, 50] } },
    parameters: {
      service: { id: service },
      offering: { id: 'o', label: 'O' },
      feature: { id: 'f', label: 'F' },
      procedure: { id: 'p', label: 'P' },
      phenomenon: { id: 'ph', label: 'PH' },
      category: { id: 'c', label: 'C' },
    },
  });
  const intervals = [
    { name: 'low', lower: '0', upper: '10', color: '#0f0' },
    { name: 'high', lower: '10', color: '#f00' },
  ];
  const extras = (list: typeof intervals): SeriesExtras => ({ statusIntervals: list.map((i) => ({ ...i })) as SeriesExtras['statusIntervals'] });

  test('series: the metadata file\'s unit and values, the service\'s label when the services list it', () => {
    const series = seriesMetaOf([member('a', 's1'), member('b', 's1', 'other')], (id) => ({ uom: id === 'a' ? 'm' : 'cm', lastValue: { timestamp: 1, value: 12 } }), [{ id: 'srv', label: 'Service' }]);
    expect(series[0]).toMatchObject({ id: 'a', uom: 'm', station: { id: 's1', label: 'Station s1', lon: 7, lat: 50 }, service: { id: 'srv', label: 'Service' }, refValues: [] });
    expect(series[1]!.service).toEqual({ id: 'other' });
  });

  test('statuses: the interval of the last value; a station takes its most severe series\'; none without intervals', () => {
    const series = seriesMetaOf([member('a', 's1'), member('b', 's1'), member('c', 's2')], (id) => ({ uom: 'm', lastValue: { timestamp: 1, value: id === 'b' ? 12 : 3 } }), []);
    const byId: Record<string, SeriesExtras> = { a: extras(intervals), b: extras(intervals) };
    const { seriesStatus, stationStatus } = statusesOf(series, (id) => byId[id]);
    expect(seriesStatus.map(([id, s]) => [id, s?.name ?? null])).toEqual([
      ['a', 'low'],
      ['b', 'high'],
      ['c', null],
    ]);
    expect(stationStatus.map(([id, s]) => [id, s?.name ?? null])).toEqual([
      ['s1', 'high'],
      ['s2', null],
    ]);
  });

  test('stations: each series linked, its data only when the tree holds it; the first series\' service is the marker kind', () => {
    const [st] = stationsOf(
      [{ properties: { id: 's 1', label: 'S', timeseries: { ts_1: { phenomenon: { label: 'Level' }, service: { id: 'srv' } }, ts_2: {} } }, geometry: null }],
      tree('api/v1/timeseries/ts_1/getData.json'),
    );
    expect(st).toMatchObject({ id: 's 1', lon: undefined, href: '/api/v1/stations/s%201.json', service: { id: 'srv', label: 'srv' } });
    expect(st!.series).toEqual([
      { id: 'ts_1', label: 'Level', page: '/browse/timeseries/ts_1/', href: '/api/v1/timeseries/ts_1.json', dataHref: '/api/v1/timeseries/ts_1/getData.json' },
      { id: 'ts_2', label: 'ts_2', page: '/browse/timeseries/ts_2/', href: '/api/v1/timeseries/ts_2.json', dataHref: undefined },
    ]);
  });
});

describe('search', () => {
  test('radars, then each collection\'s members by kind, label, id; other locales\' labels as other texts, once each', async () => {
    const { searchIndexOf } = await import('../../core/site-data/search.ts');
    const { radars } = radarsData([{ id: 1, radar_code: 'han', radar_name: 'Hankasalmi', status_flag: 1, institute_name: 'Univ', country_name: 'Finland' }], [], tree());
    const index = searchIndexOf(
      radars,
      [
        ['timeseries', [{ id: 'ts_b', label: 'Bonn water' }, { id: 'ts_a', label: 'Aachen air' }]],
        ['stations', [{ properties: { id: 'st 1', label: 'Köln' } }, { id: 'nolabel' }]],
        ['phenomena', [{ id: 'ph', label: 'Level & flow' }]],
      ],
      [
        ['ts_a', [['de', 'Aachen Luft'], ['fr', 'Aachen air']]],
        ['st 1', [['de', 'Köln'], ['en', 'Cologne'], ['fr', 'Cologne']]],
      ],
    );
    expect(index.locales).toEqual(['de', 'en', 'fr']);
    expect(index.entries).toEqual([
      ['radar', 'han', 'Hankasalmi (han)', '/browse/radars/han/', ['han', 'Hankasalmi', 'Univ', 'Finland']],
      ['timeseries', 'ts_a', 'Aachen air', '/browse/timeseries/ts_a/', ['Aachen Luft']],
      ['timeseries', 'ts_b', 'Bonn water', '/browse/timeseries/ts_b/', []],
      ['station', 'st 1', 'Köln', '/browse/stations/st%201/', ['Cologne']],
      ['phenomenon', 'ph', 'Level & flow', '/browse/timeseries/?q=Level%20%26%20flow', []],
    ]);
  });
});
