/**
 * Paths, query parameters and paging of the Timeseries API: the route table, one schema per parameter
 * (good values read, bad ones 400 naming the parameter with a valid example), and Link headers that walk
 * every page exactly once.
 */
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../core/http/errors.ts';
import { chooseRepresentation } from '../../core/timeseries/charts.ts';
import { pageOf } from '../../core/timeseries/paging.ts';
import { collectionIsStatic, MAX_LIMIT, readCollectionParams, readItemParams, readParam, type ParamName } from '../../core/timeseries/params.ts';
import { matchTimeseriesPath } from '../../core/timeseries/routes.ts';
import { staticFile } from '../../core/timeseries/static-tree.ts';

describe('paths', () => {
  test.each([
    ['/api/v1/', { kind: 'index' }, undefined, '/api/v1/'],
    ['/api/v1/stations', { kind: 'collection', collection: 'stations' }, undefined, '/api/v1/stations'],
    ['/api/v1/stations/', { kind: 'collection', collection: 'stations' }, undefined, '/api/v1/stations'],
    ['/api/v1/stations.json', { kind: 'collection', collection: 'stations' }, 'json', '/api/v1/stations'],
    ['/api/v1/stations/sta_x', { kind: 'item', collection: 'stations', id: 'sta_x' }, undefined, '/api/v1/stations/sta_x'],
    ['/api/v1/stations/sta_x/', { kind: 'item', collection: 'stations', id: 'sta_x' }, undefined, '/api/v1/stations/sta_x'],
    ['/api/v1/phenomena/phe_x.JSON', { kind: 'item', collection: 'phenomena', id: 'phe_x' }, 'json', '/api/v1/phenomena/phe_x'],
    ['/api/v1/search', { kind: 'search' }, undefined, '/api/v1/search'],
    ['/api/v1/timeseries/ts_x/getData', { kind: 'getData', id: 'ts_x' }, undefined, '/api/v1/timeseries/ts_x/getData'],
    ['/api/v1/timeseries/ts_x/getData.json', { kind: 'getData', id: 'ts_x' }, 'json', '/api/v1/timeseries/ts_x/getData'],
    ['/api/v1/timeseries/ts_x/getData.png', { kind: 'getData', id: 'ts_x' }, 'png', '/api/v1/timeseries/ts_x/getData'],
    ['/api/v1/timeseries/getData', { kind: 'postData' }, undefined, '/api/v1/timeseries/getData'],
    ['/api/v1/timeseries/ts_x/getData.csv', { kind: 'getData', id: 'ts_x' }, 'csv', '/api/v1/timeseries/ts_x/getData'],
    ['/api/v1/timeseries/ts_x/getData.ZIP', { kind: 'getData', id: 'ts_x' }, 'zip', '/api/v1/timeseries/ts_x/getData'],
    ['/api/v1/timeseries/getData.zip', { kind: 'postData' }, 'zip', '/api/v1/timeseries/getData'],
    ['/api/v1/timeseries/getData.csv', { kind: 'postData' }, 'csv', '/api/v1/timeseries/getData'],
    ['/api/v1/timeseries/ts_x/lastWeek', { kind: 'chart', id: 'ts_x', name: 'lastWeek', interval: 'lastWeek', qualifier: undefined }, undefined, '/api/v1/timeseries/ts_x/lastWeek'],
    ['/api/v1/timeseries/ts_x/lastDay.png', { kind: 'chart', id: 'ts_x', name: 'lastDay', interval: 'lastDay', qualifier: undefined }, 'png', '/api/v1/timeseries/ts_x/lastDay'],
    ['/api/v1/timeseries/ts_x/lastWeek_with_legend', { kind: 'chart', id: 'ts_x', name: 'lastWeek_with_legend', interval: 'lastWeek', qualifier: 'with_legend' }, undefined, '/api/v1/timeseries/ts_x/lastWeek_with_legend'],
    ['/api/v1/timeseries/ts_x/lastYear', { kind: 'chart', id: 'ts_x', name: 'lastYear', interval: undefined, qualifier: undefined }, undefined, '/api/v1/timeseries/ts_x/lastYear'],
  ])('%s', (path, route, extension, apiPath) => {
    expect(matchTimeseriesPath(path)).toEqual({ route, extension, apiPath });
  });

  test.each(['/api/v1', '/api/v2/stations', '/api/v1/nothing', '/api/v1/stations/sta_x/more', '/api/v1/stations//x', '/api/v1/%E0%A4%A', '/api/v1/.json', '/api/v1/stations.csv', '/api/v1/stations/getData.csv'])(
    '%s is no path',
    (path) => {
      expect(matchTimeseriesPath(path)).toBeUndefined();
    },
  );

  test('static file names', () => {
    expect(staticFile('/api/v1/', false)).toBe('api/v1/index.json');
    expect(staticFile('/api/v1/', true)).toBe('api/v1/index.expanded.json');
    expect(staticFile('/api/v1/stations/sta_x', false)).toBe('api/v1/stations/sta_x.json');
    expect(staticFile('/api/v1/timeseries/ts_x/getData', true)).toBe('api/v1/timeseries/ts_x/getData.expanded.json');
  });

  test('representation: the extension wins over Accept; chart types only on data paths, else 406', () => {
    expect(chooseRepresentation('image/png', 'json', true)).toBe('json');
    expect(chooseRepresentation('application/json', 'png', true)).toBe('png');
    expect(chooseRepresentation(undefined, 'pdf', true)).toBe('pdf');
    expect(chooseRepresentation(undefined, undefined, true)).toBe('json');
    expect(chooseRepresentation('*/*', undefined, true)).toBe('json');
    expect(chooseRepresentation('image/png', undefined, true)).toBe('png');
    expect(chooseRepresentation('application/pdf', undefined, true)).toBe('pdf');
    expect(chooseRepresentation('application/json;q=0.5, image/png', undefined, true)).toBe('png');
    expect(chooseRepresentation('application/json, image/png;q=0.5', undefined, false)).toBe('json');
    // the data paths also give CSV and ZIP downloads (DECISIONS.md "Real clients")
    expect(chooseRepresentation('text/csv', undefined, true)).toBe('csv');
    expect(chooseRepresentation('application/zip', undefined, true)).toBe('zip');
    expect(chooseRepresentation('application/json', 'csv', true)).toBe('csv');
    expect(chooseRepresentation('text/csv', 'zip', true)).toBe('zip');
    for (const [accept, ext, charts] of [['image/png', undefined, false], [undefined, 'png', false], [undefined, 'pdf', false], ['application/pdf', undefined, false], ['text/csv', undefined, false], ['application/zip', undefined, false], ['text/html', undefined, true]] as const) {
      let e: unknown;
      try {
        chooseRepresentation(accept, ext, charts);
      } catch (x) {
        e = x;
      }
      expect((e as HttpError).status).toBe(406);
      if (accept !== 'text/csv' && accept !== 'application/zip' && accept !== 'text/html') expect((e as HttpError).userMessage).toMatch(/rendered only from data paths/);
    }
  });
});

function badParam(query: string, read: (q: URLSearchParams) => unknown): HttpError {
  try {
    read(new URLSearchParams(query));
  } catch (e) {
    return e as HttpError;
  }
  throw new Error(`no error for ${query}`);
}

describe('parameters', () => {
  test.each([
    ['expanded', 'TRUE', true],
    ['expanded', 'false', false],
    ['locale', 'de-at', 'de_AT'],
    ['service', 'srv_rivers', 'srv_rivers'],
    ['station', ' sta_x ', 'sta_x'],
    ['offset', '0', 0],
    ['limit', String(MAX_LIMIT), MAX_LIMIT],
    ['q', ' Rhein ', 'Rhein'],
    ['format', 'highcharts', 'highchart'],
    ['format', 'TVP', 'tvp'],
    ['force_latest_values', 'true', true],
  ] as [ParamName, string, unknown][])('%s=%s reads as %j', (name, raw, value) => {
    expect(readParam(new URLSearchParams([[name, raw]]), name)).toEqual(value);
  });

  test.each([
    ['expanded', 'yes'],
    ['expanded', ''],
    ['locale', 'german'],
    ['service', 'rivers'],
    ['category', 'srv_x'],
    ['station', 'sta_'],
    ['phenomenon', 'phe_ x'],
    ['offering', 'off_x/y'],
    ['feature', 'foi_ä'],
    ['procedure', ''],
    ['offset', '-1'],
    ['offset', '2147483648'],
    ['limit', '0'],
    ['limit', String(MAX_LIMIT + 1)],
    ['limit', '1.5'],
    ['q', '  '],
    ['format', 'csv'],
    ['status_intervals', '1'],
    ['rendering_hints', 'on'],
    ['generalize', 'maybe'],
  ] as [ParamName, string][])('%s=%j is 400 naming it, with an example', (name, raw) => {
    const e = badParam(new URLSearchParams([[name, raw]]).toString(), (q) => readParam(q, name));
    expect(e).toBeInstanceOf(HttpError);
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain(`'${name}'`);
    expect(e.hints[0]).toMatch(/^A valid example: /);
  });

  test('the first of a repeated parameter counts; unknown parameters are ignored', () => {
    expect(readParam(new URLSearchParams('expanded=true&expanded=nonsense'), 'expanded')).toBe(true);
    const p = readCollectionParams(new URLSearchParams('foo=bar&expanded=true'), 'stations');
    expect(collectionIsStatic(p)).toBe(true);
  });

  test('collection parameters: which routes read what; what makes an answer live', () => {
    expect(readCollectionParams(new URLSearchParams('offset=5'), 'features').paging).toEqual({ offset: 5, limit: MAX_LIMIT });
    expect(readCollectionParams(new URLSearchParams('limit=5'), 'features').paging).toEqual({ offset: 0, limit: 5 });
    expect(readCollectionParams(new URLSearchParams('status_intervals=true'), 'features').statusIntervals).toBe(false);
    expect(readCollectionParams(new URLSearchParams('bbox=nonsense'), 'features').geo).toBeUndefined();
    expect(badParam('bbox=nonsense', (q) => readCollectionParams(q, 'stations')).userMessage).toContain("'bbox'");
    for (const q of ['locale=de', 'service=srv_x', 'limit=2', 'crs=EPSG:4326', 'near={"center":{"type":"Point","coordinates":[7,50]},"radius":5}']) {
      expect(collectionIsStatic(readCollectionParams(new URLSearchParams(q), 'stations')), q).toBe(false);
    }
    for (const q of ['status_intervals=true', 'rendering_hints=true', 'force_latest_values=true']) {
      expect(collectionIsStatic(readCollectionParams(new URLSearchParams(q), 'timeseries')), q).toBe(false);
    }
    expect(readItemParams(new URLSearchParams('crs=EPSG:3857'), 'stations').crs?.code).toBe('EPSG:3857');
    expect(badParam('crs=EPSG:1', (q) => readItemParams(q, 'stations')).userMessage).toContain("'crs'");
  });
});

describe('paging', () => {
  const path = '/api/v1/stations';

  test('the 52°North example: offset 4, limit 2', () => {
    const page = pageOf(2351, { offset: 4, limit: 2 }, path, new URLSearchParams('offset=4&limit=2'));
    expect(page).toMatchObject({ start: 4, end: 6 });
    expect(page.links).toEqual([
      '</api/v1/stations?offset=4&limit=2>; rel="self"',
      '</api/v1/stations?offset=0&limit=2>; rel="first"; title="first page"',
      '</api/v1/stations?offset=2350&limit=2>; rel="last"; title="last page"',
      '</api/v1/stations?offset=2&limit=2>; rel="prev"; title="previous page"',
      '</api/v1/stations?offset=6&limit=2>; rel="next"; title="next page"',
    ]);
  });

  test('other parameters are kept, in order, before offset and limit', () => {
    const page = pageOf(10, { offset: 0, limit: 3 }, path, new URLSearchParams('limit=3&locale=de&expanded=true'));
    expect(page.links[0]).toBe('</api/v1/stations?locale=de&expanded=true&offset=0&limit=3>; rel="self"');
  });

  test.each([
    [0, 1],
    [1, 1],
    [7, 3],
    [9, 3],
    [10, 3],
    [100, 7],
    [5, 10],
  ])('following next from first visits each of %i members once (limit %i)', (total, limit) => {
    const seen: number[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    let lastSelf = '';
    while (offset !== undefined) {
      const page = pageOf(total, { offset, limit }, path, new URLSearchParams());
      for (let i = page.start; i < page.end; i++) seen.push(i);
      const next = page.links.find((l) => l.includes('rel="next"'));
      lastSelf = page.links[0]!;
      const lastLink = page.links.find((l) => l.includes('rel="last"'))!;
      if (!next) expect(lastLink.replace('; title="last page"', '').replace('"last"', '"self"')).toBe(lastSelf);
      offset = next ? Number(/offset=(\d+)/.exec(next)![1]) : undefined;
      pages++;
    }
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(pages).toBe(Math.max(1, Math.ceil(total / limit)));
  });

  test('beyond the end: an empty page whose prev is the last page', () => {
    const page = pageOf(10, { offset: 50, limit: 4 }, path, new URLSearchParams());
    expect([page.start, page.end]).toEqual([10, 10]);
    expect(page.links.find((l) => l.includes('rel="prev"'))).toContain('offset=8&limit=4');
    expect(page.links.some((l) => l.includes('rel="next"'))).toBe(false);
  });
});
