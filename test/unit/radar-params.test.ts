import { httpErrorOf } from '../helpers/errors.ts';
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../core/http/errors.ts';
import { negotiate } from '../../core/http/media-types.ts';
import { parsePartialDatetime } from '../../core/radar/partial-datetime.ts';
import { needsLiveQuery, parseRadarParams } from '../../core/radar/params.ts';
import { isBulk, NO_SELECTION, type Selection } from '../../core/radar/queries.ts';

const ms = (iso: string) => Date.parse(iso);

describe('partial datetimes', () => {
  test.each([
    ['2016', '2016-01-01T00:00:00.000Z'],
    ['2016-03', '2016-03-01T00:00:00.000Z'],
    ['2016-03-01', '2016-03-01T00:00:00.000Z'],
    ['2016-03-01T12', '2016-03-01T12:00:00.000Z'],
    ['2016-03-01T12:30', '2016-03-01T12:30:00.000Z'],
    ['2016-03-01T12:30:15', '2016-03-01T12:30:15.000Z'],
    ['2016-03-01T12:30:15.250', '2016-03-01T12:30:15.250Z'],
    ['2016-03-01T12:30:15.250Z', '2016-03-01T12:30:15.250Z'],
    ['2016-03-01T12:30Z', '2016-03-01T12:30:00.000Z'],
    ['2016-03-01T12:30+01:00', '2016-03-01T11:30:00.000Z'],
    ['2016-03-01T12:30 01:00', '2016-03-01T11:30:00.000Z'], // '+' decoded to a space in a query string
    ['2016-03-01T12:30-0230', '2016-03-01T15:00:00.000Z'],
    ['2016-03-01 12:30', '2016-03-01T12:30:00.000Z'],
    ['2016-02-29', '2016-02-29T00:00:00.000Z'],
    // Years below 100 are years, not 1900 + the year (Date.UTC's rule).
    ['0001', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T23:59', '0099-12-31T23:59:00.000Z'],
    ['0004-02-29', '0004-02-29T00:00:00.000Z'],
  ])('%s is %s', (input, iso) => {
    expect(parsePartialDatetime(input)).toEqual({ ok: true, ms: ms(iso) });
  });

  test.each(['', '16', '2016-13', '2015-02-29', '2016-03-01T24', '2016-03-01T12:60', '2016-03-01T12:00:60', 'yesterday', '2016-03-01Z', '2016-03-01T12:00+25:00', "2016' OR 1=1 --", '0000', '0003-02-29'])(
    '%s is refused',
    (input) => {
      expect(parsePartialDatetime(input).ok).toBe(false);
    },
  );
});


describe('common parameters', () => {
  test('defaults', () => {
    const p = parseRadarParams(new URLSearchParams(''));
    expect(p).toEqual({ contentType: undefined, expanded: false, timespan: undefined, bbox: undefined, radarCode: undefined, distinct: false, delimiter: ',', includeHeaders: true });
    expect(needsLiveQuery(p)).toBe(false);
  });

  test('every parameter read', () => {
    const p = parseRadarParams(new URLSearchParams('contentType=checksumReport&expanded=TRUE&timespan=2016/2016-03&bbox=-180,-90,180,0&radar_code=SAS&distinct=true&delimiter=;&includeHeaders=false&unknown=1'));
    expect(p).toEqual({
      contentType: 'checksum',
      expanded: true,
      timespan: { start: ms('2016-01-01T00:00:00Z'), end: ms('2016-03-01T00:00:00Z') },
      bbox: { minX: -180, minY: -90, maxX: 180, maxY: 0 },
      radarCode: 'sas',
      distinct: true,
      delimiter: ';',
      includeHeaders: false,
    });
    expect(needsLiveQuery(p)).toBe(true);
  });

  test('a repeated parameter: the first value counts', () => {
    expect(parseRadarParams(new URLSearchParams('expanded=true&expanded=nonsense')).expanded).toBe(true);
  });

  test.each([
    ['contentType', 'contentType=xml'],
    ['expanded', 'expanded=yes'],
    ['timespan', 'timespan=2016'],
    ['timespan', 'timespan=2017/2016'],
    ['timespan', 'timespan=2016-02-30/2017'],
    ['bbox', 'bbox=1,2,3'],
    ['bbox', 'bbox=0,0,200,10'],
    ['bbox', 'bbox=0,10,10,0'],
    ['bbox', 'bbox=a,b,c,d'],
    ['radar_code', 'radar_code=sa'],
    ['distinct', 'distinct=1'],
    ['delimiter', 'delimiter=;;'],
    ['delimiter', 'delimiter=%22'],
    ['includeHeaders', 'includeHeaders=no'],
  ])('bad %s gives 400 naming it, with an example', (name, query) => {
    const e = httpErrorOf(() => parseRadarParams(new URLSearchParams(query)));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain(`'${name}'`);
    expect(e.hints[0]).toMatch(new RegExp(`^A valid example: ${name}=`));
  });
});

describe('content negotiation', () => {
  const types = ['application/json', 'text/csv', 'text/plain', 'text/html'];
  test.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['text/csv', 'text/csv'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['text/*;q=0.5, application/json;q=0.4', 'text/csv'],
    ['text/plain;q=0.1, text/csv;q=0.9', 'text/csv'],
    ['application/xml, text/plain', 'text/plain'],
  ])('Accept %s gives %s', (accept, expected) => {
    expect(negotiate(accept, types)).toBe(expected);
  });

  test('only unproducible types: 406', () => {
    const e = httpErrorOf(() => negotiate('application/xml, image/png', types));
    expect(e.status).toBe(406);
    expect(e.hints.join(' ')).toContain('application/json');
  });

  test('q=0 refuses a type', () => {
    expect(() => negotiate('application/json;q=0', ['application/json'])).toThrow(HttpError);
  });
});

describe('bulk answers', () => {
  const day = 86_400_000;
  const sel = (over: Partial<Selection>): Selection => ({ ...NO_SELECTION, ...over });
  test('more than a week, or no timespan, of a streamed answer is bulk', () => {
    expect(isBulk(sel({}), undefined)).toBe(true);
    expect(isBulk(sel({ timespan: { start: 0, end: 365 * day } }), undefined)).toBe(true);
    expect(isBulk(sel({ timespan: { start: 0, end: 7 * day + 1 } }), undefined)).toBe(true);
    expect(isBulk(sel({ timespan: { start: 0, end: 365 * day }, bbox: { minX: -30, minY: 40, maxX: 40, maxY: 75 } }), undefined)).toBe(true);
    expect(isBulk(sel({ distinct: true }), undefined)).toBe(true);
  });
  test('a week or less, an id or a radar is not', () => {
    expect(isBulk(sel({ timespan: { start: 0, end: day } }), undefined)).toBe(false);
    expect(isBulk(sel({ timespan: { start: 0, end: 7 * day } }), undefined)).toBe(false);
    expect(isBulk(sel({}), 17n)).toBe(false);
    expect(isBulk(sel({ radarCode: 'kap' }), undefined)).toBe(false);
    expect(isBulk(sel({ timespan: { start: 0, end: 365 * day }, radarCode: 'kap' }), undefined)).toBe(false);
  });
});
