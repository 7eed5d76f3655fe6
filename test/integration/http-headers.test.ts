/**
 * Caching, CORS and security headers through a real endpoint: an ETag per build and request, 304 on a
 * matching If-None-Match (static files, live queries and charts alike), no caching of errors, a new ETag for
 * a new build, and the security headers on every answer.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

let radar: Served;
let ts: Served;

beforeAll(async () => {
  [radar, ts] = await Promise.all([startEndpoint(inject('demoBuild')), startEndpoint(inject('tsBuild'))]);
});
afterAll(async () => {
  await Promise.all([radar.close(), ts.close()]);
});

describe('ETag and 304', () => {
  test.each([
    ['radar static', () => radar, '/radarnet/mirror/v3/radars'],
    ['radar live', () => radar, '/radarnet/mirror/v3/files?limit=3'],
    ['timeseries static', () => ts, '/api/v1/stations'],
    ['timeseries live', () => ts, '/api/v1/stations?locale=de'],
    ['pre-rendered chart', () => ts, '/api/v1/timeseries/ts_koeln_rhein_water_level/lastWeek'],
  ])('%s: an ETag, then 304 with no body when the client has it', async (_, server, path) => {
    const a = await get(server().url, path);
    expect(a.status).toBe(200);
    const etag = a.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+-[\w-]+"$/);
    expect(a.headers.get('cache-control')).toBe('public, max-age=300');
    expect(a.headers.get('vary')).toBe(path.startsWith('/api/v1/') ? 'Accept, Accept-Language, Accept-Encoding' : 'Accept, Accept-Encoding');
    const b = await get(server().url, path);
    expect(b.headers.get('etag')).toBe(etag);
    const c = await get(server().url, path, { 'If-None-Match': `W/${etag}, "other"` });
    expect(c.status).toBe(304);
    expect(c.body.length).toBe(0);
    expect(c.headers.get('etag')).toBe(etag);
    const d = await get(server().url, path, { 'If-None-Match': '"stale"' });
    expect(d.status).toBe(200);
    expect(d.body.equals(a.body)).toBe(true);
  });

  test('another representation or query is another ETag; errors are not cached', async () => {
    const json = await get(radar.url, '/radarnet/mirror/v3/radars');
    const csv = await get(radar.url, '/radarnet/mirror/v3/radars', { Accept: 'text/csv' });
    expect(csv.type).toMatch(/text\/csv/);
    expect(csv.headers.get('etag')).not.toBe(json.headers.get('etag'));
    expect((await get(radar.url, '/radarnet/mirror/v3/radars?limit=1')).headers.get('etag')).not.toBe(json.headers.get('etag'));
    const bad = await get(ts.url, '/api/v1/stations?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('etag')).toBeNull();
    expect(bad.headers.get('cache-control')).toBe('no-store');
  });

  test('another build (snapshot) gives other ETags for the same request', async () => {
    const a = await get(radar.url, '/radarnet/mirror/v3/');
    const b = await get(ts.url, '/radarnet/mirror/v3/');
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
  });
});

describe('CORS preflight: OPTIONS on any path', () => {
  test.each([
    ['ts', '/api/v1/stations', 'GET, HEAD, OPTIONS'],
    ['ts', '/api/v1/timeseries/ts_koeln_rhein_water_level/getData', 'GET, HEAD, OPTIONS'],
    ['ts', '/api/v1/timeseries/getData', 'POST, OPTIONS'],
    ['ts', '/api/v1', 'GET, HEAD, OPTIONS'],
    ['ts', '/api/v1/no/such/path', 'GET, HEAD, OPTIONS'],
    ['radar', '/radarnet/mirror/v3/files?radar_code=sas', 'GET, HEAD, OPTIONS'],
    ['radar', '/docs/', 'GET, HEAD, OPTIONS'],
    ['radar', '/nothing-here', 'GET, HEAD, OPTIONS'],
  ])('%s %s: 204 with %s', async (which, path, methods) => {
    const base = which === 'ts' ? ts.url : radar.url;
    const res = await fetch(`${base}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://client.example.org', 'Access-Control-Request-Method': methods.split(', ')[0]!, 'Access-Control-Request-Headers': 'accept-language, content-type' },
    });
    expect(res.status).toBe(204);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe(methods);
    expect(res.headers.get('allow')).toBe(methods);
    const allowed = res.headers.get('access-control-allow-headers')!.split(', ').map((h) => h.toLowerCase());
    for (const h of ['accept', 'accept-language', 'content-type']) expect(allowed).toContain(h);
    expect(res.headers.get('access-control-max-age')).toBe('86400');
  });
});

describe('CORS and security headers', () => {
  test('on API answers, errors and site files', async () => {
    for (const r of [await get(ts.url, '/api/v1/timeseries'), await get(ts.url, '/api/v1/nothing'), await get(radar.url, '/radarnet/mirror/v3/radars', { Accept: 'text/html' })]) {
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-expose-headers')).toContain('Link');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});

describe('files of the static tree by their own names', () => {
  test('/radarnet/mirror/v3/radars/<id>.json and .csv are the tree files, the same bytes as the API paths', async () => {
    const list = await get(radar.url, '/radarnet/mirror/v3/radars');
    const first = (JSON.parse(list.text) as { id: number }[])[0]!.id;
    const file = await get(radar.url, `/radarnet/mirror/v3/radars/${first}.json`);
    expect([file.status, file.type]).toEqual([200, 'application/json']);
    expect(file.body.equals((await get(radar.url, `/radarnet/mirror/v3/radars/${first}`)).body)).toBe(true);
    const csv = await get(radar.url, '/radarnet/mirror/v3/radars.csv');
    expect(csv.type).toMatch(/text\/csv/);
    expect(csv.body.equals((await get(radar.url, '/radarnet/mirror/v3/radars?contentType=csv')).body)).toBe(true);
    expect((await get(radar.url, '/radarnet/mirror/v3/radars/..%2F..%2F..%2Fbuild.json')).status).toBeGreaterThanOrEqual(400);
  });
});

test('/openapi.json: the OpenAPI 3.1 description of both APIs, in every tree', async () => {
  for (const s of [radar, ts]) {
    const r = await get(s.url, '/openapi.json');
    expect([r.status, r.type]).toEqual([200, 'application/json']);
    const doc = JSON.parse(r.text) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/radarnet/mirror/v3/'))).toBe(true);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/v1/'))).toBe(true);
  }
});
