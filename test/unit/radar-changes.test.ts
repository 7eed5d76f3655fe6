/** The change API's pure parts (core/radar/changes.ts) and the Atom writer (core/feeds/atom.ts). */
import { describe, expect, test } from 'vitest';
import { changesCsv, changesSql, checksumLine, oldestAnswerable, sinceInstant, type ChangeRow, type HistorySnapshot } from '../../core/radar/changes.ts';
import { atomXml, radarFeedPath, timeseriesFeedPath, urn } from '../../core/feeds/atom.ts';
import { parseAtom } from '../helpers/atom.ts';
import { httpErrorOf } from '../helpers/errors.ts';

const day = (d: number, base: boolean): HistorySnapshot => ({
  name: `demo-${d}d`,
  taken_at: `2024-01-${String(d + 1).padStart(2, '0')}T00:00:00.000Z`,
  base: base ? `demo-${d - 1}d` : null,
  baseTakenAt: base ? `2024-01-${String(d).padStart(2, '0')}T00:00:00.000Z` : null,
  changes: base ? {} : null,
});
/** Three kept snapshots, newest first; the oldest has a change set against demo-9d, which is no longer kept. */
const KEPT = [day(12, true), day(11, true), day(10, true)];

describe('since', () => {
  test('the oldest answerable snapshot: the base of the oldest change set, else the oldest snapshot', () => {
    expect(oldestAnswerable(KEPT)).toEqual({ name: 'demo-9d', taken_at: '2024-01-10T00:00:00.000Z' });
    expect(oldestAnswerable([day(11, true), day(10, false)])).toEqual({ name: 'demo-10d', taken_at: '2024-01-11T00:00:00.000Z' });
    expect(oldestAnswerable([])).toBeUndefined();
  });

  test.each([
    ['demo-11d', '2024-01-12T00:00:00.000Z'],
    ['demo-9d', '2024-01-10T00:00:00.000Z'],
    ['2024-01-10T00:00:00Z', '2024-01-10T00:00:00.000Z'],
    ['2024-01-11', '2024-01-11T00:00:00.000Z'],
    ['2024-01-11T12:00+02:00', '2024-01-11T10:00:00.000Z'],
  ])('%s: changes after %s', (since, after) => {
    expect(sinceInstant(since, KEPT, '/p')).toBe(Date.parse(after));
  });

  test.each([['demo-8d'], ['2024-01-09T23:59:59Z'], ['no such thing'], ['2023']])('%s: 410, the hints naming the oldest answerable', (since) => {
    const e = httpErrorOf(() => sinceInstant(since, KEPT, '/p'));
    expect(e.status).toBe(410);
    expect(e.hints[0]).toContain('demo-9d');
    expect(e.hints[1]).toBe('A valid example: /p/changes?since=demo-9d');
  });

  test('missing or empty: 400 naming since; no history: 410', () => {
    for (const since of [null, ' ']) expect(httpErrorOf(() => sinceInstant(since, KEPT, '/p')).status).toBe(400);
    expect(httpErrorOf(() => sinceInstant('demo-11d', [], '/p')).status).toBe(410);
  });
});

describe('answers', () => {
  const row = (over: Partial<ChangeRow>): ChangeRow => ({ snapshot: 's', taken_at: Date.parse('2024-01-02T00:00:00Z'), resource: 'files', id: 7n, change: 'changed', fields: ['checksum', 'file_size'], radar_code: 'sas', start_time: 0, end_time: 1000, filename: 'a.bz2', file_path: '/x/a.bz2', checksum: 'ab', ...over });

  test('values are bound, never pasted', () => {
    const q = changesSql('read_parquet(\'x\')', { since: 5, params: { radarCode: "sas'; --", timespan: { start: 1, end: 2 }, expanded: false }, checksum: false });
    expect(q.sql).not.toContain('sas');
    expect(q.params).toEqual({ since: 5, radar: "sas'; --", tstart: 1, tend: 2 });
  });

  test('CSV: header, CRLF, fields as JSON, the delimiter quoted', () => {
    expect(changesCsv([row({})], false, ',', true)).toBe('snapshot,taken_at,resource,id,change,fields\r\ns,2024-01-02T00:00:00.000Z,files,7,changed,"[""checksum"",""file_size""]"\r\n');
    expect(changesCsv([row({ change: 'added', fields: null })], true, ';', false)).toBe('s;2024-01-02T00:00:00.000Z;files;7;added;;sas;1970-01-01T00:00:00.000Z;1970-01-01T00:00:01.000Z;a.bz2;/x/a.bz2;ab\r\n');
  });

  test.each([
    ['a.bz2', 'ab  a.bz2\n'],
    ['a\\b', '\\ab  a\\\\b\n'],
    ['a\nb\rc', '\\ab  a\\nb\\rc\n'],
  ])('checksum line of %j: as GNU sha1sum writes it', (name, line) => {
    expect(checksumLine('ab', name)).toBe(line);
  });
});

describe('Atom', () => {
  test('escapes text and attributes, takes the newest entry\'s updated, parses as Atom', () => {
    const xml = atomXml({
      id: urn('feed', 'radar', 'sas'),
      title: 'A & <B>',
      subtitle: '"q"',
      self: '/feeds/radars/sas.atom',
      page: '/browse/radars/sas/',
      updated: '2024-01-01T00:00:00.000Z',
      entries: [
        { id: urn('radar', 'sas', 'demo 1'), title: 't', updated: '2024-01-03T00:00:00.000Z', links: [{ href: '/x?a=1&b=2' }], summary: 's<' },
        { id: urn('radar', 'sas', 'demo 0'), title: 't', updated: '2024-01-02T00:00:00.000Z', links: [{ href: '/y' }], summary: '' },
      ],
    });
    const f = parseAtom(xml);
    expect(f.title).toBe('A & <B>');
    expect(f.updated).toBe('2024-01-03T00:00:00.000Z');
    expect(f.entries[0]!.id).toBe('urn:snapcat:radar:sas:demo%201');
    expect(f.entries[0]!.links).toEqual([{ rel: 'alternate', href: '/x?a=1&b=2' }]);
    expect(f.entries[0]!.summary).toBe('s<');
    expect(() => parseAtom(xml.replace('</feed>', ''))).toThrow();
  });

  test('feed paths only for names that can stand in a path as they are', () => {
    expect(radarFeedPath('sas')).toBe('/feeds/radars/sas.atom');
    expect(radarFeedPath('radar-1')).toBeUndefined();
    expect(timeseriesFeedPath('ts_1.a')).toBe('/feeds/timeseries/ts_1.a.atom');
    expect(timeseriesFeedPath('a/b')).toBeUndefined();
    expect(timeseriesFeedPath('..')).toBeUndefined();
  });
});
