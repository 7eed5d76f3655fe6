/**
 * The radar catalogue API over a generated demo snapshot: every route, the spec's six rules, the filters
 * against brute force over the full records, and every kind of bad input.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { RADAR_PREFIX, RADAR_ROUTES, INDEX_PATHS } from '../../core/radar/routes.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

let s: Served;
const P = RADAR_PREFIX;
type Rec = Record<string, unknown> & { id: number };

async function json<T = Rec[]>(path: string): Promise<T> {
  const r = await get(s.url, path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.type).toBe('application/json');
  return JSON.parse(r.text) as T;
}

beforeAll(async () => {
  s = await startEndpoint(inject('demoBuild'));
});
afterAll(async () => {
  await s.close();
});

describe('every route', () => {
  test.each(RADAR_ROUTES.filter((r) => r.shape === 'collection').map((r) => [r.path]))('%s lists records in ascending id order, and each id path answers', async (path) => {
    const all = await json(`${P}${path}`);
    expect(Array.isArray(all)).toBe(true);
    const ids = all.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const idRoute = RADAR_ROUTES.find((r) => r.path === `${path}/:id`)!;
    if (all.length === 0) return;
    const id = all[Math.floor(all.length / 2)]!.id;
    const one = await json<Rec | Rec[]>(`${P}${path}/${id}`);
    if (idRoute.shape === 'instances') {
      expect(Array.isArray(one)).toBe(true);
      expect((one as Rec[]).every((r) => r.id === id)).toBe(true);
      expect((one as Rec[]).length).toBe(all.filter((r) => r.id === id).length);
    } else {
      expect((one as Rec).id).toBe(id);
    }
  });

  test('the demo has records in every collection', async () => {
    for (const r of RADAR_ROUTES.filter((x) => x.shape === 'collection')) {
      const all = await json(`${P}${r.path}`);
      expect(all.length, r.path).toBeGreaterThan(0);
    }
  });

  test('/ is the index of every route; the bare prefix redirects to it', async () => {
    const index = await json<{ api_routes: { method: string; path: string }[] }>(`${P}/`);
    expect(index.api_routes.map((r) => r.path)).toEqual(INDEX_PATHS.map((r) => `${P}${r}`));
    const r = await get(s.url, `${P}?expanded=true`);
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe(`${P}/?expanded=true`);
  });

  test('views: simple and expanded fields of files, transferred files and radars', async () => {
    const [f] = await json(`${P}/files`);
    expect(Object.keys(f!)).toEqual(['id', 'filename', 'checksum']);
    const [fx] = await json(`${P}/files?expanded=true`);
    expect(Object.keys(fx!)).toEqual([
      'id', 'file_path', 'file_start_datetime', 'file_end_datetime', 'data_start_datetime', 'data_end_datetime', 'last_mod', 'file_size',
      'status_flag', 'checksum', 'include_in_file_coverage', 'include_in_data_coverage', 'last_updated', 'radar_code', 'radar_short_code', 'radar_name', 'file_type',
    ]);
    expect(fx!['file_size']).toMatch(/^\d+$/);
    expect(fx!['file_start_datetime']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [tx] = await json(`${P}/transferred/files?expanded=true`);
    expect(Object.keys(tx!).slice(-3)).toEqual(['transferred_file_status', 'transfer_start_datetime', 'transfer_end_datetime']);
    const radars = await json(`${P}/radars?expanded=true`);
    expect(radars.length).toBe(49);
    const sas = radars.find((r) => r['radar_code'] === 'sas')!;
    expect(sas).toMatchObject({ radar_id: 5, radar_name: 'Saskatoon', radar_short_code: 't', geographic_position: { type: 'Point' } });
    expect((sas['field_of_view'] as { type: string }).type).toBe('Polygon');
    const [rs] = await json(`${P}/radars`);
    expect(Object.keys(rs!)).toEqual(['id', 'filename', 'checksum']);
    expect(rs!['filename']).toMatch(/^hdw\.dat\.[a-z]{3}$/);
  });

  test('/transferred/files/:id is the most recent instance of that file', async () => {
    const all = await json(`${P}/transferred/files?expanded=true`);
    const counts = new Map<number, Rec[]>();
    for (const r of all) counts.set(r.id, [...(counts.get(r.id) ?? []), r]);
    const [id, instances] = [...counts].find(([, v]) => v.length > 1)!;
    const latest = instances.reduce((a, b) => (String(b['transfer_start_datetime']) >= String(a['transfer_start_datetime']) ? b : a));
    expect(await json<Rec>(`${P}/transferred/files/${id}?expanded=true`)).toEqual(latest);
  });
});

describe("the spec's rules", () => {
  test('1: /small/:id has one element per instance; distinct=true one element', async () => {
    const all = await json(`${P}/transferred/files/small`);
    expect(all.length).toBeGreaterThan(0);
    const ids = [...new Set(all.map((r) => r.id))];
    for (const id of ids.slice(0, 5)) {
      const instances = await json(`${P}/transferred/files/small/${id}`);
      expect(instances.length).toBe(all.filter((r) => r.id === id).length);
      expect(await json(`${P}/transferred/files/small/${id}?distinct=true`)).toHaveLength(1);
    }
  });

  test('2: checksumReport gives `<checksum>  <filename>` lines, null checksums left out', async () => {
    const files = await json(`${P}/files`);
    const r = await get(s.url, `${P}/files?contentType=checksumReport`);
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/plain; charset=utf-8');
    const expected = files.filter((f) => f['checksum'] !== null).map((f) => `${f['checksum']}  ${f['filename']}\n`).join('');
    expect(r.text).toBe(expected);
    expect(files.some((f) => f['checksum'] === null)).toBe(true);
  });

  test('3: distinct=true on a category lists each file once', async () => {
    for (const c of ['alarm', 'nomatch', 'blacklisted']) {
      const all = await json(`${P}/transferred/files/${c}`);
      const distinct = await json(`${P}/transferred/files/${c}?distinct=true`);
      expect(distinct.map((r) => r.id)).toEqual([...new Set(all.map((r) => r.id))]);
    }
    const all = await json(`${P}/transferred/files`);
    expect(new Set(all.map((r) => r.id)).size).toBeLessThan(all.length);
  });

  test('4: radar_code and timespan combine with contentType and distinct', async () => {
    const all = await json(`${P}/transferred/files?expanded=true`);
    const code = String(all[0]!['radar_code']);
    const start = String(all[0]!['file_start_datetime']).slice(0, 13);
    const end = String(all[all.length - 1]!['file_start_datetime']).slice(0, 10);
    const expected = all.filter((r) => r['radar_code'] === code && String(r['file_end_datetime']) >= `${start}:00:00.000Z` && String(r['file_start_datetime']) <= `${end}T00:00:00.000Z`);
    const ids = [...new Set(expected.map((r) => r.id))];
    const r = await get(s.url, `${P}/transferred/files?radar_code=${code.toUpperCase()}&timespan=${start}/${end}&distinct=true&contentType=csv`);
    expect(r.status).toBe(200);
    const lines = r.text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,filename,checksum');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(ids);
  });

  test('5: bbox=-180,-90,180,0 on /radars selects the southern hemisphere', async () => {
    const all = await json(`${P}/radars?expanded=true`);
    const south = await json(`${P}/radars?bbox=-180,-90,180,0&expanded=true`);
    const expected = all.filter((r) => (r['geographic_position'] as { coordinates: number[] }).coordinates[1]! <= 0);
    expect(south).toEqual(expected);
    expect(south.length).toBeGreaterThan(5);
    expect(south.length).toBeLessThan(all.length);
  });

  test('6: timespan on /radars selects radars that came online within the span', async () => {
    const all = await json(`${P}/radars?expanded=true`);
    const span = await json(`${P}/radars?timespan=2000/2006&expanded=true`);
    const expected = all.filter((r) => r['earliest_data'] !== null && String(r['earliest_data']) >= '2000-01-01' && String(r['earliest_data']) <= '2006-01-01T00:00:00.000Z');
    expect(span).toEqual(expected);
    expect(span.map((r) => r['radar_code'])).toEqual(expect.arrayContaining(['pgr', 'kod', 'ksr']));
  });
});

describe('filters agree with brute force', () => {
  test.each([
    ['2024-03-01T10/2024-03-01T14'],
    ['2024-03-01/2024-03-02'],
    ['2024-03-01T09:59:59.999Z/2024-03-01T10:00'],
    ['2024-03-02T23:30+02:00/2024-03-03'],
    ['2023/2024-03'],
  ])('timespan=%s on /files and /transfers and /coverage/temporal', async (ts) => {
    const [a, b] = ts.split('/').map((x) => {
      const full = x.length === 4 ? `${x}-01-01` : x.length === 7 ? `${x}-01` : x;
      return Date.parse(full.length === 10 ? `${full}T00:00:00Z` : /[Z+]|-\d\d:\d\d$/.test(full.slice(10)) ? full : full.length === 13 ? `${full}:00Z` : `${full}Z`);
    });
    for (const [path, startField, endField] of [
      ['/files', 'file_start_datetime', 'file_end_datetime'],
      ['/transfers', 'start_datetime', 'end_datetime'],
      ['/coverage/temporal', 'start_datetime', 'end_datetime'],
    ] as const) {
      const all = await json(`${P}${path}?expanded=true`);
      const expected = all.filter((r) => Date.parse(String(r[startField])) <= b! && Date.parse(String(r[endField])) >= a!).map((r) => r.id);
      const got = (await json(`${P}${path}?timespan=${encodeURIComponent(ts)}`)).map((r) => r.id);
      expect(got, `${path} ${ts}`).toEqual(expected);
    }
  });

  test('bbox on files follows the radar position, also across the antimeridian', async () => {
    const radars = await json(`${P}/radars?expanded=true`);
    const pos = new Map(radars.map((r) => [r['radar_code'], (r['geographic_position'] as { coordinates: number[] }).coordinates]));
    const all = await json(`${P}/files?expanded=true`);
    for (const box of ['-130,40,-60,70', '150,-90,-150,90']) {
      const [minX, minY, maxX, maxY] = box.split(',').map(Number) as [number, number, number, number];
      const inBox = ([x, y]: number[]) => y! >= minY && y! <= maxY && (minX <= maxX ? x! >= minX && x! <= maxX : x! >= minX || x! <= maxX);
      const expected = all.filter((f) => inBox(pos.get(f['radar_code'])!)).map((f) => f.id);
      const got = (await json(`${P}/files?bbox=${box}`)).map((f) => f.id);
      expect(got, box).toEqual(expected);
      expect(got.length).toBeGreaterThan(0);
    }
  });

  test('radar_code is case-insensitive and an unknown code selects nothing', async () => {
    expect((await json(`${P}/files?radar_code=SaS`)).length).toBeGreaterThan(0);
    expect(await json(`${P}/files?radar_code=xyz`)).toEqual([]);
  });
});

describe('representations', () => {
  test('Accept chooses the type; contentType wins over Accept', async () => {
    expect((await get(s.url, `${P}/radars`, { accept: 'text/csv' })).type).toBe('text/csv; charset=utf-8');
    expect((await get(s.url, `${P}/radars`, { accept: 'text/plain' })).text).toMatch(/^[0-9a-f]{40} {2}hdw\.dat\.\w{3}\n/);
    expect((await get(s.url, `${P}/radars?contentType=json`, { accept: 'text/csv' })).type).toBe('application/json');
    const html = await get(s.url, `${P}/files/1`, { accept: 'text/html' });
    expect(html.type).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('/radarnet/mirror/v3/files/:id');
  });

  test('CSV: delimiter and includeHeaders', async () => {
    const r = await get(s.url, `${P}/metadata/file/types?contentType=text/csv&delimiter=%09&includeHeaders=false`);
    const types = await json(`${P}/metadata/file/types`);
    expect(r.text).toBe(types.map((t) => `${t.id}\t${t['file_type']}\t${t['file_format']}\r\n`).join(''));
  });

  test('HEAD answers the headers of GET without a body', async () => {
    const res = await fetch(`${s.url}${P}/files?radar_code=sas`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test('CORS on every API response, errors too', async () => {
    expect((await get(s.url, `${P}/files`)).headers.get('access-control-allow-origin')).toBe('*');
    expect((await get(s.url, `${P}/files/x`)).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('bad input: status and the JSON error body', () => {
  test.each([
    [`${P}/files?timespan=2024-13/2025`, 400, 'timespan'],
    [`${P}/files?timespan=2025/2024`, 400, 'timespan'],
    [`${P}/files?timespan=yesterday`, 400, 'timespan'],
    [`${P}/radars?bbox=1,2,3`, 400, 'bbox'],
    [`${P}/radars?bbox=0,0,0,100`, 400, 'bbox'],
    [`${P}/files?expanded=yes`, 400, 'expanded'],
    [`${P}/files?distinct=2`, 400, 'distinct'],
    [`${P}/files?radar_code=saskatoon`, 400, 'radar_code'],
    [`${P}/files?contentType=application/xml`, 400, 'contentType'],
    [`${P}/files?contentType=csv&delimiter=ab`, 400, 'delimiter'],
    [`${P}/files?includeHeaders=maybe`, 400, 'includeHeaders'],
    [`${P}/files/abc`, 400, ':id'],
    [`${P}/files/1.5`, 400, ':id'],
    [`${P}/files/99999999`, 404, undefined],
    [`${P}/files/99999999999999999999999`, 404, undefined],
    [`${P}/transferred/files/small/1`, 404, undefined],
    [`${P}/nothing/here`, 404, undefined],
    // a path under an API's root keeps the JSON error (a site path gets the site's HTML 404: test/browser/site-tasks)
    [`/radarnet/nothing`, 404, undefined],
    [`${P}/coverage/temporal?contentType=checksumReport`, 406, undefined],
  ])('%s gives %i', async (path, status, param) => {
    const r = await get(s.url, path);
    expect(r.status).toBe(status);
    expect(r.type).toBe('application/json');
    const body = JSON.parse(r.text) as Record<string, unknown>;
    expect(body['statusCode']).toBe(status);
    expect(typeof body['reason']).toBe('string');
    expect(typeof body['userMessage']).toBe('string');
    if (param) {
      expect(body['userMessage']).toContain(`'${param}'`);
      expect((body['hints'] as string[])[0]).toMatch(/^A valid example: /);
    }
    expect(r.text).not.toMatch(/SELECT|at \w+ \(|\.ts:\d+/);
  });

  test('Accept with only unproducible types: 406', async () => {
    const r = await get(s.url, `${P}/files`, { accept: 'image/png' });
    expect(r.status).toBe(406);
    expect(JSON.parse(r.text)).toMatchObject({ statusCode: 406, reason: 'Not Acceptable' });
  });

  test('a method other than GET: 405 with Allow', async () => {
    const res = await fetch(`${s.url}${P}/files`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toMatchObject({ statusCode: 405 });
  });
});

describe('a file missing from the static tree', () => {
  test('is answered by a query with the same bytes', async () => {
    // A private copy of the build (hard links: removing a name leaves the shared file), so other tests are undisturbed.
    const dir = mkdtempSync(join(realpathSync(inject('demoBuild')), '..', 'vanish-'));
    execFileSync('cp', ['-al', realpathSync(inject('demoBuild')), join(dir, 'build')]);
    const own = await startEndpoint(join(dir, 'build'));
    try {
      const file = join(dir, 'build', 'site/radarnet/mirror/v3/radars.json');
      const bytes = readFileSync(file);
      unlinkSync(file);
      const r = await get(own.url, `${P}/radars`);
      expect(r.status).toBe(200);
      expect(r.body.equals(bytes)).toBe(true);
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
