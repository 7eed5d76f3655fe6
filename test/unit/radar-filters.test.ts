/**
 * The radar filters, one record each (core/radar/filters.ts FILTERS), table by table: what each parameter
 * reads and refuses, whether a value needs a live answer, its SQL with bound values, the resident rows it keeps
 * (the same rows the SQL keeps: test/integration/radar-filters-sql.test.ts checks that on generated data), its
 * partition predicate, and whether memory can answer it.
 */
import { describe, expect, test } from 'vitest';
import { FILTER_KEYS, FILTERS, filterOf, NO_SELECTION, selectionLive, selectionResident, type ResidentColumns, type Selection } from '../../core/radar/filters.ts';
import { RADAR_PARAM_NAMES } from '../../core/radar/params.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { RADAR_ROUTES } from '../../core/radar/routes.ts';
import { RADAR } from '../../core/nginx/static-rules.ts';

const HOUR = 3_600_000;
const route = (path: string) => RADAR_ROUTES.find((r) => r.path === path)!;
const at = (iso: string) => Date.parse(iso);
const us = (iso: string) => at(iso) * 1000;
const files = { resource: RESOURCES.files, route: route('/files'), maxDurationMs: 2 * HOUR };
const radars = { resource: RESOURCES.radars, route: route('/radars'), maxDurationMs: 0 };
const institutes = { resource: RESOURCES.institutes, route: route('/institutes'), maxDurationMs: 0 };

/** Four files: two of sas (one starting 2 h before the day), one of pgr, one without a position or times. */
const FILE_ROWS: ResidentColumns = {
  id: [1n, 2n, 3n, 4n],
  latitude: [52.16, 52.16, 62.0, null],
  longitude: [-106.53, -106.53, -145.0, null],
  radarCode: ['sas', 'sas', 'pgr', null],
  timeStart: [us('2024-03-01T00:00:00Z'), us('2024-02-29T22:00:00Z'), us('2024-03-01T12:00:00Z'), null],
  timeEnd: [us('2024-03-01T02:00:00Z'), us('2024-03-01T00:00:00Z'), us('2024-03-01T14:00:00Z'), null],
};

function kept<K extends keyof Selection>(k: K, v: Selection[K], c = files, cols = FILE_ROWS): bigint[] {
  const t = filterOf(k).rows(v, c, cols);
  return cols.id.filter((_, i) => t === undefined || t(i));
}

test('every Selection field has a filter, and every filter parameter is read and known to nginx', () => {
  expect(FILTER_KEYS).toEqual(Object.keys(NO_SELECTION));
  for (const k of FILTER_KEYS) {
    expect(RADAR_PARAM_NAMES).toContain(FILTERS[k].param);
    expect(RADAR.knownParams).toContain(FILTERS[k].param);
    expect(filterOf(k).live(filterOf(k).absent), `${k}: the absent value is what the tree holds`).toBe(false);
  }
  expect(selectionLive(NO_SELECTION)).toBe(false);
});

describe('timespan', () => {
  const f = filterOf('timespan');
  test.each([
    ['2024-03-01/2024-03-02', { start: at('2024-03-01T00:00:00Z'), end: at('2024-03-02T00:00:00Z') }],
    ['2024-03-01T12/2024-03-01T12:30', { start: at('2024-03-01T12:00:00Z'), end: at('2024-03-01T12:30:00Z') }],
  ])('reads %s', (raw, want) => expect(f.schema.parse(raw)).toEqual(want));
  test.each(['2024-03-01', '2024-03-02/2024-03-01', 'x/y', '2024-03-01/2024-03-02/2024-03-03'])('refuses %s', (raw) => expect(f.schema.safeParse(raw).success).toBe(false));

  const day = { start: at('2024-03-01T00:00:00Z'), end: at('2024-03-01T23:59:59Z') };
  test('overlap, with the start bounded by the longest interval; an instant column by BETWEEN', () => {
    expect(f.sql(day, files)).toEqual({
      sql: 'file_start_datetime <= CAST($ts_end AS TIMESTAMP) AND file_end_datetime >= CAST($ts_start AS TIMESTAMP) AND file_start_datetime >= CAST($ts_start_bound AS TIMESTAMP)',
      params: { ts_start: '2024-03-01 00:00:00.000', ts_end: '2024-03-01 23:59:59.000', ts_start_bound: '2024-02-29 22:00:00.000' },
    });
    expect(f.sql(day, radars)?.sql).toBe('earliest_data BETWEEN CAST($ts_start AS TIMESTAMP) AND CAST($ts_end AS TIMESTAMP)');
    expect(f.sql(undefined, files)).toBeUndefined();
    expect(f.sql(day, institutes)).toBeUndefined();
  });
  test('resident rows: the overlapping ones, an end on the span\'s start included, no NULL times', () => {
    expect(kept('timespan', day)).toEqual([1n, 2n, 3n]);
    expect(kept('timespan', { start: at('2024-03-01T13:00:00Z'), end: at('2024-03-01T13:00:00Z') })).toEqual([3n]);
    expect(kept('timespan', { start: at('2024-03-02T00:00:00Z'), end: at('2024-03-03T00:00:00Z') })).toEqual([]);
    expect(kept('timespan', undefined)).toEqual([1n, 2n, 3n, 4n]);
  });
  test('partitions: the years from the start less the longest interval to the end; live; resident', () => {
    expect(f.partition({ start: at('2016-01-01T00:00:00Z'), end: at('2016-01-01T23:59:59Z') }, files)?.params).toEqual({ year_from: 2015, year_to: 2016 });
    expect(f.partition(undefined, files)).toBeUndefined();
    expect(f.live(day)).toBe(true);
    expect(f.resident(day, 'csv')).toBe(true);
  });
});

describe('bbox', () => {
  const f = filterOf('bbox');
  test.each([
    ['-180,-90,180,0', { minX: -180, minY: -90, maxX: 180, maxY: 0 }],
    [' 170 , 40, -170, 70 ', { minX: 170, minY: 40, maxX: -170, maxY: 70 }],
  ])('reads %s', (raw, want) => expect(f.schema.parse(raw)).toEqual(want));
  test.each(['1,2,3', '0,10,1,5', '0,0,181,1', 'a,b,c,d', '1,2,3,4,5'])('refuses %s', (raw) => expect(f.schema.safeParse(raw).success).toBe(false));

  test('latitude and longitude bound; across the antimeridian an OR; only resources of a radar', () => {
    expect(f.sql({ minX: -110, minY: 50, maxX: -100, maxY: 55 }, files)).toEqual({
      sql: 'latitude BETWEEN $bbox_min_y AND $bbox_max_y AND longitude BETWEEN $bbox_min_x AND $bbox_max_x',
      params: { bbox_min_x: -110, bbox_min_y: 50, bbox_max_x: -100, bbox_max_y: 55 },
    });
    expect(f.sql({ minX: 170, minY: 50, maxX: -140, maxY: 70 }, files)?.sql).toContain('(longitude >= $bbox_min_x OR longitude <= $bbox_max_x)');
    expect(f.sql({ minX: 0, minY: 0, maxX: 1, maxY: 1 }, institutes)).toBeUndefined();
  });
  test('resident rows: inside the box (edges included), across the antimeridian, never a NULL position', () => {
    expect(kept('bbox', { minX: -110, minY: 50, maxX: -100, maxY: 55 })).toEqual([1n, 2n]);
    expect(kept('bbox', { minX: -106.53, minY: 52.16, maxX: -106.53, maxY: 52.16 })).toEqual([1n, 2n]);
    expect(kept('bbox', { minX: 170, minY: 60, maxX: -140, maxY: 65 })).toEqual([3n]);
    expect(kept('bbox', { minX: -180, minY: -90, maxX: 180, maxY: 90 })).toEqual([1n, 2n, 3n]);
  });
  test('no partition predicate; live; resident', () => {
    expect(f.partition({ minX: 0, minY: 0, maxX: 1, maxY: 1 }, files)).toBeUndefined();
    expect(f.live({ minX: 0, minY: 0, maxX: 1, maxY: 1 })).toBe(true);
  });
});

describe('radar_code', () => {
  const f = filterOf('radarCode');
  test.each([['sas', 'sas'], [' PGR ', 'pgr']])('reads %j', (raw, want) => expect(f.schema.parse(raw)).toBe(want));
  test.each(['sa', 'sass', 's4s', ''])('refuses %j', (raw) => expect(f.schema.safeParse(raw).success).toBe(false));
  test('bound, only on resources of a radar; rows of that radar; its partition folders', () => {
    expect(f.sql('sas', files)).toEqual({ sql: 'radar_code = $radar_code', params: { radar_code: 'sas' } });
    expect(f.sql('sas', institutes)).toBeUndefined();
    expect(kept('radarCode', 'sas')).toEqual([1n, 2n]);
    expect(kept('radarCode', 'xyz')).toEqual([]);
    expect(f.partition('sas', files)).toEqual({ sql: 'radar = $radar_code', params: { radar_code: 'sas' } });
    expect(f.live('sas')).toBe(true);
    expect(f.live(undefined)).toBe(false);
  });
});

describe('distinct', () => {
  const f = filterOf('distinct');
  test.each([['true', true], ['FALSE', false]])('reads %j', (raw, want) => expect(f.schema.parse(raw)).toBe(want));
  test('the route\'s latest flag: on request, always on a /:id route of instances, never without one', () => {
    const instances = { ...files, resource: RESOURCES.transferred, route: route('/transferred/files') };
    expect(f.sql(true, instances)).toEqual({ sql: 'latest', params: {} });
    expect(f.sql(false, instances)).toBeUndefined();
    expect(f.sql(false, { ...instances, route: route('/transferred/files/:id') })).toEqual({ sql: 'latest', params: {} });
    expect(f.sql(true, files)).toBeUndefined();
    expect(kept('distinct', true)).toEqual([1n, 2n, 3n, 4n]);
    expect(f.live(true)).toBe(true);
    expect(f.live(false)).toBe(false);
  });
});

describe('delimiter', () => {
  const f = filterOf('delimiter');
  test.each([[';', ';'], ['\t', '\t'], ['é', 'é']])('reads %j', (raw, want) => expect(f.schema.parse(raw)).toBe(want));
  test.each(['"', '\n', '\r', ';;', ''])('refuses %j', (raw) => expect(f.schema.safeParse(raw).success).toBe(false));
  test('no condition; memory holds comma-separated CSV only; another delimiter is live', () => {
    expect(f.sql(';', files)).toBeUndefined();
    expect(kept('delimiter', ';')).toEqual([1n, 2n, 3n, 4n]);
    expect(f.resident(';', 'csv')).toBe(false);
    expect(f.resident(';', 'json')).toBe(true);
    expect(f.resident(',', 'csv')).toBe(true);
    expect(selectionResident({ ...NO_SELECTION, delimiter: ';' }, 'csv')).toBe(false);
    expect(f.live(';')).toBe(true);
  });
});
