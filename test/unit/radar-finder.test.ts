/**
 * The file finder's script (site/scripts/radar-finder.ts) without a browser: the request it makes, and what
 * it says for each answer: the live endpoint's files, its refusal, and the answers of a host without it
 * (no connection, 404, an HTML page, the static collection served for any query).
 */
import { describe, expect, test } from 'vitest';
import { csvRecords, fileUrl, filesUrl, find, keepSelected, problemOf, selectionName, type FileRecord, type FinderQuery } from '../../site/scripts/radar-finder.ts';

const q: FinderQuery = { radarCode: 'gbr', from: '2024-01-29', to: '2024-01-30', fileType: '' };

function rec(id: number, code: string, type: string, start: string, end: string): FileRecord {
  return { id, file_path: `/sddata/${type}/x/${id}.${code}.${type}.bz2`, file_start_datetime: start, file_end_datetime: end, file_size: '10', status_flag: 0, checksum: null, radar_code: code, file_type: type };
}

const answer = (status: number, body: string, type = 'application/json') => async () => new Response(body, { status, headers: { 'content-type': type } });

describe('radar file finder', () => {
  test('asks the files path with radar_code and a timespan covering both days', () => {
    expect(filesUrl(q, { expanded: 'true' })).toBe('/radarnet/mirror/v3/files?radar_code=gbr&timespan=2024-01-29/2024-01-30T23:59:59.999&expanded=true');
    expect(filesUrl({ ...q, radarCode: '' }, { contentType: 'checksumReport' })).toBe('/radarnet/mirror/v3/files?timespan=2024-01-29/2024-01-30T23:59:59.999&contentType=checksumReport');
    expect(fileUrl(12, 'csv')).toBe('/radarnet/mirror/v3/files/12?contentType=csv');
  });

  test('refuses a query it cannot ask', () => {
    expect(problemOf(q)).toBeUndefined();
    expect(problemOf({ ...q, from: '2024-02-01' })).toMatch(/after the last day/);
    expect(problemOf({ ...q, to: '' })).toMatch(/last day/);
    expect(problemOf({ ...q, radarCode: 'gb1' })).toMatch(/three letters/);
  });

  test('lists the files the endpoint answers, of the chosen type', async () => {
    const body = JSON.stringify([rec(1, 'gbr', 'rawacf', '2024-01-29T00:00:00.000Z', '2024-01-29T02:00:00.000Z'), rec(2, 'gbr', 'fitacf', '2024-01-30T22:00:00.000Z', '2024-01-31T00:00:00.000Z')]);
    let asked = '';
    const fetcher = (async (url: string) => {
      asked = url;
      return answer(200, body)();
    }) as typeof fetch;
    expect(await find(q, fetcher)).toMatchObject({ kind: 'ok', all: 2, files: [{ id: 1 }, { id: 2 }] });
    expect(asked).toBe(filesUrl(q, { expanded: 'true' }));
    expect(await find({ ...q, fileType: 'fitacf' }, fetcher)).toMatchObject({ kind: 'ok', all: 2, files: [{ id: 2 }] });
  });

  test('says the endpoint is absent when the host cannot answer a query', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    for (const fetcher of [failing, answer(404, 'not found', 'text/plain'), answer(200, '<!doctype html><p>index</p>', 'text/html')] as (typeof fetch)[]) {
      const out = await find(q, fetcher);
      expect(out.kind).toBe('absent');
      expect((out as { message: string }).message).toMatch(/needs the live snapcat endpoint/);
    }
    // a host that serves the static collection (every radar, every day) for any query
    const everything = JSON.stringify([rec(1, 'gbr', 'rawacf', '2024-01-29T00:00:00.000Z', '2024-01-29T02:00:00.000Z'), rec(2, 'sas', 'rawacf', '2023-01-01T00:00:00.000Z', '2023-01-01T02:00:00.000Z')]);
    expect(await find(q, answer(200, everything) as typeof fetch)).toMatchObject({ kind: 'absent', message: expect.stringMatching(/outside the query/) });
  });

  test("shows the endpoint's reason for a refused query", async () => {
    const body = JSON.stringify({ statusCode: 400, reason: 'Bad Request', userMessage: "Parameter 'timespan' starts after it ends", hints: [] });
    expect(await find(q, answer(400, body) as typeof fetch)).toEqual({ kind: 'error', message: "The endpoint refused the query: Parameter 'timespan' starts after it ends." });
  });

  test('asks for JSON by name: a browser asks for HTML, which is the route\'s documentation', () => {
    expect(fileUrl(12)).toBe('/radarnet/mirror/v3/files/12?contentType=json');
  });

  test('names a download of the selection as the endpoint names the query, with the file type', () => {
    const typed = { ...q, fileType: 'fitacf' };
    expect(selectionName(typed, 'checksum')).toBe('files-gbr-2024-01-29_2024-01-30T235959.999Z-fitacf.sha1');
    expect(selectionName(typed, 'csv-expanded')).toBe('files-gbr-2024-01-29_2024-01-30T235959.999Z-fitacf.expanded.csv');
    expect(selectionName(typed, 'json')).toBe('files-gbr-2024-01-29_2024-01-30T235959.999Z-fitacf.json');
    expect(selectionName({ ...q, radarCode: '' }, 'json-expanded')).toBe('files-2024-01-29_2024-01-30T235959.999Z.expanded.json');
  });

  test('splits CSV into records, a line end inside quotes staying in its record', () => {
    expect(csvRecords('id,file_path\r\n1,"a\nb"\r\n2,c\r\n')).toEqual(['id,file_path\r\n', '1,"a\nb"\r\n', '2,c\r\n']);
  });

  describe('keeps the chosen type in every download of the whole answer', () => {
    const all = [
      { ...rec(1, 'gbr', 'rawacf', '2024-01-29T00:00:00.000Z', '2024-01-29T02:00:00.000Z'), checksum: 'aa' },
      { ...rec(2, 'gbr', 'fitacf', '2024-01-29T00:00:00.000Z', '2024-01-29T02:00:00.000Z'), checksum: 'bb' },
      rec(3, 'gbr', 'fitacf', '2024-01-29T02:00:00.000Z', '2024-01-29T04:00:00.000Z'),
      { ...rec(4, 'gbr', 'fitacf', '2024-01-29T04:00:00.000Z', '2024-01-29T06:00:00.000Z'), checksum: 'dd' },
    ];
    const fit = (r: FileRecord) => r.file_type === 'fitacf';
    test('checksum report: a line per file with a checksum, an escaped name read as one line', () => {
      const report = 'aa  1.bz2\nbb  2.bz2\n\\dd  4\\\\x.bz2\n';
      expect(keepSelected('checksum', report, all, fit)).toBe('bb  2.bz2\n\\dd  4\\\\x.bz2\n');
      expect(() => keepSelected('checksum', 'aa  1.bz2\n', all, fit)).toThrow(/does not list/);
      expect(() => keepSelected('checksum', 'aa  1\nxx  2\ndd  4\n', all, fit)).toThrow(/line 2/);
    });
    test('CSV: the header and the chosen rows, as written', () => {
      const csv = 'id,filename\r\n1,a\r\n2,"b,\nc"\r\n3,c\r\n4,d\r\n';
      expect(keepSelected('csv', csv, all, fit)).toBe('id,filename\r\n2,"b,\nc"\r\n3,c\r\n4,d\r\n');
      expect(keepSelected('csv-expanded', csv, all, (r) => r.id === 1)).toBe('id,filename\r\n1,a\r\n');
      expect(() => keepSelected('csv', 'id\r\n1\r\n', all, fit)).toThrow(/does not list/);
    });
    test('JSON: the chosen records, in order', () => {
      const json = JSON.stringify(all.map((r) => ({ id: r.id, filename: `${r.id}.bz2` })));
      expect(JSON.parse(keepSelected('json', json, all, fit))).toEqual([{ id: 2, filename: '2.bz2' }, { id: 3, filename: '3.bz2' }, { id: 4, filename: '4.bz2' }]);
      expect(() => keepSelected('json', '[]', all, fit)).toThrow(/does not list/);
    });
  });
});
