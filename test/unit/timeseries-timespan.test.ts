import { httpErrorOf } from '../helpers/errors.ts';
import { describe, expect, test } from 'vitest';
import { checkMaxTimespan, defaultTimespan, formatTimespan, parsePeriod, parseTimespan } from '../../core/timeseries/timespan.ts';

const ms = (iso: string) => Date.parse(iso);


describe('timespan: the forms 52°North documents', () => {
  test.each([
    ['PT6H/2013-08-16TZ', '2013-08-15T18:00:00Z', '2013-08-16T00:00:00Z'],
    ['PT6h/2013-08-16TZ', '2013-08-15T18:00:00Z', '2013-08-16T00:00:00Z'],
    ['P0Y0M3D/2013-01-31TZ', '2013-01-28T00:00:00Z', '2013-01-31T00:00:00Z'],
    ['2013-07-13TZ/2013-08-13TZ', '2013-07-13T00:00:00Z', '2013-08-13T00:00:00Z'],
    ['2013-08-13T10:00:00+02:00/P1D', '2013-08-13T08:00:00Z', '2013-08-14T08:00:00Z'],
    ['2013-08-13T10:00:00 02:00/P1D', '2013-08-13T08:00:00Z', '2013-08-14T08:00:00Z'], // '+' decoded to a space
    ['2013-07-13T12:00Z/2013-07-13T14:30Z', '2013-07-13T12:00:00Z', '2013-07-13T14:30:00Z'],
    ['PT12H/2013-08-06', '2013-08-05T12:00:00Z', '2013-08-06T00:00:00Z'],
    ['2013-08-16T+02:00/PT1H', '2013-08-15T22:00:00Z', '2013-08-15T23:00:00Z'],
    ['2013-08-16T 02:00/PT1H', '2013-08-15T22:00:00Z', '2013-08-15T23:00:00Z'],
    ['2013-08-16Z/PT1H', '2013-08-16T00:00:00Z', '2013-08-16T01:00:00Z'],
    ['2013-08-16T10:00:00.250-01:30/PT0.5S', '2013-08-16T11:30:00.250Z', '2013-08-16T11:30:00.750Z'],
    ['P2W/2013-01-01', '2012-12-18T00:00:00Z', '2013-01-01T00:00:00Z'],
    ['P1Y2M3DT4H5M6S/2014-03-04T04:05:06Z', '2013-01-01T00:00:00Z', '2014-03-04T04:05:06Z'],
    ['PT1,5S/2013-01-01T00:00:01.5Z', '2013-01-01T00:00:00Z', '2013-01-01T00:00:01.5Z'],
    ['2013-08-13TZ/2013-08-13TZ', '2013-08-13T00:00:00Z', '2013-08-13T00:00:00Z'],
    [' PT6H/2013-08-16TZ ', '2013-08-15T18:00:00Z', '2013-08-16T00:00:00Z'],
  ])('%s', (text, start, end) => {
    expect(parseTimespan(text)).toEqual({ start: ms(start), end: ms(end) });
  });

  test.each([
    ['2013', '2013-01-01T00:00:00Z', '2013-12-31T23:59:59.999Z'],
    ['2012-02', '2012-02-01T00:00:00Z', '2012-02-29T23:59:59.999Z'],
    ['2013-08-16', '2013-08-16T00:00:00Z', '2013-08-16T23:59:59.999Z'],
  ])('a lone date %s is that whole period', (text, start, end) => {
    expect(parseTimespan(text)).toEqual({ start: ms(start), end: ms(end) });
  });
});

describe('calendar arithmetic in UTC', () => {
  test.each([
    ['P1M/2013-03-31', '2013-02-28T00:00:00Z'], // day clamped to the month's end
    ['P1M/2012-03-31', '2012-02-29T00:00:00Z'],
    ['P1Y/2013-02-28', '2012-02-28T00:00:00Z'],
    ['P1Y/2012-02-29', '2011-02-28T00:00:00Z'],
    ['P12M/2013-05-15T12:34Z', '2012-05-15T12:34:00Z'],
    ['P13M/2013-01-15', '2011-12-15T00:00:00Z'],
  ])('%s starts %s', (text, start) => {
    expect(parseTimespan(text).start).toBe(ms(start));
  });

  test.each([
    ['2013-01-31/P1M', '2013-02-28T00:00:00Z'],
    ['2013-01-31T23:00Z/P1M1D', '2013-03-01T23:00:00Z'],
    ['2012-12-31/P2M', '2013-02-28T00:00:00Z'],
  ])('%s ends %s', (text, end) => {
    expect(parseTimespan(text).end).toBe(ms(end));
  });

  test('periods', () => {
    expect(parsePeriod('P1Y2M')).toEqual({ months: 14, fixedMs: 0 });
    expect(parsePeriod('P1W2DT3H4M5.5S')).toEqual({ months: 0, fixedMs: ((9 * 24 + 3) * 3600 + 4 * 60 + 5.5) * 1000 });
    expect(parsePeriod('P')).toBeUndefined();
    expect(parsePeriod('PT')).toBeUndefined();
    expect(parsePeriod('P1DT')).toBeUndefined();
    expect(parsePeriod('P1.5D')).toBeUndefined();
  });
});

describe('unreadable timespans: 400 naming timespan, with an example', () => {
  test.each([
    '',
    '/',
    'P1D',
    '2013-08-16T10:00Z',
    '2013-01-01/',
    '/2013-01-01',
    'P1D/P2D',
    'PT0S/2013-01-01',
    'P0Y0M0D/2013-01-01',
    'P/2013-01-01',
    'PT/2013-01-01',
    'P-1D/2013-01-01',
    '-P1D/2013-01-01',
    'P1.5D/2013-01-01',
    '2013-02-30/2013-03-01',
    '2013-13-01/2014-01-01',
    '2013-01-01T25:00Z/P1D',
    '2013-03-01/2013-02-01',
    '2013-01-01T12:00Z/2013-01-01T11:59:59.999Z',
    'yesterday/today',
    '2013-01-01/2013-01-02/2013-01-03',
    '2013-01-01T12:00+25:00/P1D',
    'P99999999999Y/2013-01-01',
    "2013-01-01' OR 1=1 --/P1D",
  ])('%j', (text) => {
    const e = httpErrorOf(() => parseTimespan(text));
    expect(e.status).toBe(400);
    expect(e.userMessage).toMatch(/^Parameter 'timespan' /);
    expect(e.hints[0]).toBe('A valid example: timespan=PT6H/2013-08-16TZ');
    expect(() => parseTimespan(e.hints[0]!.replace('A valid example: timespan=', ''))).not.toThrow();
  });

  test('the message says what is wrong', () => {
    expect(httpErrorOf(() => parseTimespan('2013-03-01/2013-02-01')).userMessage).toContain('starts after it ends');
    expect(httpErrorOf(() => parseTimespan('PT0S/2013-01-01')).userMessage).toContain('not longer than zero');
    expect(httpErrorOf(() => parseTimespan('P1D/P2D')).userMessage).toContain('two periods');
    expect(httpErrorOf(() => parseTimespan('2013-02-30/P1D')).userMessage).toContain('day 30');
  });
});

describe('default, maximum and format', () => {
  test('default: the week ending at taken_at', () => {
    const taken = ms('2024-03-02T06:00:00Z');
    expect(defaultTimespan(taken)).toEqual({ start: ms('2024-02-24T06:00:00Z'), end: taken });
  });

  test('P1Y1D is the default maximum, compared by calendar', () => {
    expect(checkMaxTimespan(parseTimespan('P1Y1D/2013-08-16TZ'))).toEqual(parseTimespan('P1Y1D/2013-08-16TZ'));
    expect(() => checkMaxTimespan(parseTimespan('2012-02-29/2013-03-01'))).not.toThrow(); // 2013-02-28 + 1 day
    const e = httpErrorOf(() => checkMaxTimespan(parseTimespan('2012-02-29/2013-03-01T00:00:00.001Z')));
    expect(e.status).toBe(400);
    expect(e.userMessage).toBe('Requested timespan is too long');
    expect(e.hints.join(' ')).toContain('P1Y1D');
  });

  test('a configured maximum', () => {
    expect(() => checkMaxTimespan(parseTimespan('PT6H/2013-08-16TZ'), 'PT6H')).not.toThrow();
    expect(httpErrorOf(() => checkMaxTimespan(parseTimespan('PT6H1S/2013-08-16TZ'), 'PT6H')).userMessage).toBe('Requested timespan is too long');
    expect(() => checkMaxTimespan(parseTimespan('PT6H/2013-08-16TZ'), 'six hours')).toThrow(/not an ISO 8601 period/);
  });

  test('the hint of a too long span is itself allowed', () => {
    const e = httpErrorOf(() => checkMaxTimespan(parseTimespan('2010-01-01/2013-08-16TZ')));
    const example = e.hints.find((h) => h.startsWith('A valid example: timespan='))!.replace('A valid example: timespan=', '');
    expect(() => checkMaxTimespan(parseTimespan(example))).not.toThrow();
  });

  test('formatTimespan reads back', () => {
    const span = parseTimespan('2013-08-13T10:00:00+02:00/P1D');
    expect(formatTimespan(span)).toBe('2013-08-13T08:00:00.000Z/2013-08-14T08:00:00.000Z');
    expect(parseTimespan(formatTimespan(span))).toEqual(span);
  });
});
