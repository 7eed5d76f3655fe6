/**
 * The file finder's script (site/scripts/radar-finder.ts) without a browser: the request it makes, and what
 * it says for each answer: the live endpoint's files, its refusal, and the answers of a host without it
 * (no connection, 404, an HTML page, the static collection served for any query).
 */
import { describe, expect, test } from 'vitest';
import { fileUrl, filesUrl, find, problemOf, type FileRecord, type FinderQuery } from '../../site/scripts/radar-finder.ts';

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
});
