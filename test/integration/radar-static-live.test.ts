/**
 * The static tree and the live endpoint agree to the byte, for every file of the tree; checksum reports
 * pass `sha1sum -c`; CSV parses back to the JSON records.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { demoFileContent } from '../../build-scripts/demo/radar/file-content.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES, INDEX_PATHS, routeFormats } from '../../core/radar/routes.ts';
import { VARIANTS } from '../../core/radar/static-tree.ts';
import { parseCsv } from '../helpers/csv.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';
import { get, inParallel, startTreeAndLive, type Served } from '../helpers/servers.ts';

let live: Served;
let fromTree: Served;
let site: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ live, fromTree, site, close } = await startTreeAndLive(inject('demoBuild')));
});
afterAll(() => close());

/** The request a static file answers: its API path and the parameters of its variant. */
function requestOf(file: string): string {
  const rel = `/${relative(site, file)}`;
  const v = [...VARIANTS].sort((a, b) => b.suffix.length - a.suffix.length).find((x) => rel.endsWith(x.suffix))!;
  let path = rel.slice(0, -v.suffix.length);
  if (path.endsWith('/index')) path = path.slice(0, -'index'.length);
  const contentType = { json: 'json', csv: 'csv', checksum: 'checksumReport', html: 'html' }[v.format];
  return `${path}?contentType=${contentType}${v.expanded ? '&expanded=true' : ''}`;
}

describe('static tree equals live endpoint', () => {
  test('every file of the tree, byte for byte', async () => {
    const files = walkFiles(join(site, 'radarnet'));
    expect(files.length).toBeGreaterThan(1000);
    const mismatches: string[] = [];
    await inParallel(files, 8, async (file) => {
      const request = requestOf(file);
      const r = await get(live.url, request);
      if (r.status !== 200 || !r.body.equals(readFileSync(file))) mismatches.push(`${request}: live ${r.status} ${r.text.slice(0, 120)}`);
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
  }, 420_000);

  test('a parameter-free request answers the static file', async () => {
    for (const path of ['/files', '/transferred/files/alarm', '/radars/1', '/metadata/transfer/logs']) {
      const r = await get(fromTree.url, `${RADAR_PREFIX}${path}`, { 'Accept-Encoding': 'identity' });
      expect(r.body.equals(readFileSync(join(site, `radarnet/mirror/v3${path}.json`)))).toBe(true);
      expect(r.headers.get('content-length')).toBe(String(r.body.length));
    }
  });
});

/** A real id of each `:id` route's collection, from the tree. */
function realPath(route: (typeof RADAR_ROUTES)[number]): string {
  if (!route.path.endsWith('/:id')) return route.path;
  const parent = route.path.slice(0, -'/:id'.length);
  const records = JSON.parse(readFileSync(join(site, `radarnet/mirror/v3${parent}.json`), 'utf8')) as { id: number }[];
  return `${parent}/${records[0]?.id ?? 1}`;
}

describe('the BAS prefix answers the same API', () => {
  const QUERIES = { json: 'contentType=json', csv: 'contentType=csv', checksum: 'contentType=checksumReport', html: 'contentType=html' };

  test('every route in every format: the same bytes and headers under both prefixes, from the tree and live; links follow the prefix', async () => {
    const problems: string[] = [];
    const requests = RADAR_ROUTES.flatMap((route) =>
      routeFormats(route).flatMap((format) => [false, true].map((expanded) => ({ route, format, rest: realPath(route), query: `${QUERIES[format]}${expanded ? '&expanded=true' : ''}` }))),
    );
    await inParallel(requests, 6, async ({ route, format, rest, query }) => {
      const target = `${rest}?${query}`;
      const [spec, basTree, basLive] = await Promise.all([get(fromTree.url, `${RADAR_PREFIX}${target}`), get(fromTree.url, `${BAS_PREFIX}${target}`), get(live.url, `${BAS_PREFIX}${target}`)]);
      const holdsLinks = route.shape === 'index' || format === 'html';
      const wanted = holdsLinks ? Buffer.from(spec.text.replaceAll(RADAR_PREFIX, BAS_PREFIX)) : spec.body;
      for (const [name, r] of [['from the tree', basTree], ['live', basLive]] as const) {
        if (r.status !== 200 || spec.status !== 200) problems.push(`${target} ${name}: ${spec.status} / ${r.status}`);
        if (!r.body.equals(wanted)) problems.push(`${target} ${name}: bytes differ`);
        if (holdsLinks && r.text.includes(RADAR_PREFIX)) problems.push(`${target} ${name}: links under ${RADAR_PREFIX}`);
        for (const h of ['content-type', 'content-disposition']) if (r.headers.get(h) !== spec.headers.get(h)) problems.push(`${target} ${name}: ${h} ${r.headers.get(h)} vs ${spec.headers.get(h)}`);
      }
      if (holdsLinks && !basTree.text.includes(BAS_PREFIX)) problems.push(`${target}: no link under ${BAS_PREFIX}`);
    });
    expect(problems).toEqual([]);
    expect(requests.length).toBeGreaterThan(300);
  });

  test('tree files by their own name: the index and HTML pages link under the prefix asked, the rest is the file', async () => {
    for (const rel of ['/index.json', '/index.html', '/files.html', '/transferred/files/alarm.html', '/files.sha1', '/radars.expanded.csv', '/coverage/temporal.expanded.json']) {
      const [spec, bas] = await Promise.all([get(fromTree.url, `${RADAR_PREFIX}${rel}`), get(fromTree.url, `${BAS_PREFIX}${rel}`)]);
      expect([spec.status, bas.status], rel).toEqual([200, 200]);
      expect(spec.body.equals(readFileSync(join(site, `radarnet/mirror/v3${rel}`))), rel).toBe(true);
      const links = rel.startsWith('/index.') || rel.endsWith('.html');
      expect(bas.text, rel).toBe(links ? spec.text.replaceAll(RADAR_PREFIX, BAS_PREFIX) : spec.text);
      expect(bas.headers.get('content-type'), rel).toBe(spec.headers.get('content-type'));
      expect(bas.headers.get('content-disposition'), rel).toBe(spec.headers.get('content-disposition'));
    }
    // a percent-encoded name is the same file
    const [page, csv] = await Promise.all([get(fromTree.url, `${BAS_PREFIX}/transferred/fil%65s/alarm.html`), get(fromTree.url, `${BAS_PREFIX}/r%61dars.csv`)]);
    expect(page.text).toBe(readFileSync(join(site, 'radarnet/mirror/v3/transferred/files/alarm.html'), 'utf8').replaceAll(RADAR_PREFIX, BAS_PREFIX));
    expect(csv.body.equals(readFileSync(join(site, 'radarnet/mirror/v3/radars.csv')))).toBe(true);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="radars.csv"');
  });

  test('the bare prefix redirects to its own index; errors name paths under it', async () => {
    const r = await get(fromTree.url, `${BAS_PREFIX}?contentType=json`);
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe(`${BAS_PREFIX}/?contentType=json`);
    const index = JSON.parse((await get(fromTree.url, `${BAS_PREFIX}/`)).text) as { api_routes: { method: string; path: string }[] };
    expect(index.api_routes.map((x) => x.path)).toEqual(INDEX_PATHS.map((x) => `${BAS_PREFIX}${x}`));
    for (const path of ['/files/', '/nothing', '/files/abc', '/files/999999999']) {
      const e = await get(fromTree.url, `${BAS_PREFIX}${path}`);
      expect(e.status, path).toBeGreaterThanOrEqual(400);
      expect(e.text, path).toContain(BAS_PREFIX);
      expect(e.text, path).not.toContain(RADAR_PREFIX);
    }
    expect((await get(fromTree.url, '/superdarn/mirror')).status).toBe(404);
    expect((await get(fromTree.url, `${BAS_PREFIX}x/files`)).status).toBe(404);
  });
});

describe('Content-Disposition on downloads', () => {
  test.each([
    ['/files?contentType=csv', 'files.csv'],
    ['/files?contentType=csv&expanded=true', 'files.expanded.csv'],
    ['/files?contentType=checksumReport&expanded=true', 'files.sha1'],
    ['/transferred/files/compression/failure?contentType=checksumReport', 'transferred-files-compression-failure.sha1'],
    ['/files?contentType=csv&radar_code=SAS&timespan=2024-03-01/2024-03-02T12:30', 'files-sas-2024-03-01_2024-03-02T1230Z.csv'],
    ['/files?timespan=2024-03-01T06:00:00%2B02:00/2024-03-01T12:00:00.500Z&contentType=checksumReport', 'files-2024-03-01T0400Z_2024-03-01T120000.500Z.sha1'],
    ['/radars?bbox=-180,-90,180,0&contentType=csv&delimiter=%3B', 'radars-bbox_-180_-90_180_0.csv'],
    ['/transferred/files/alarm?distinct=true&contentType=csv&includeHeaders=false', 'transferred-files-alarm-distinct.csv'],
  ])('%s: %s, the same live and from the tree', async (target, name) => {
    const [a, b] = await Promise.all([get(fromTree.url, `${RADAR_PREFIX}${target}`), get(live.url, `${BAS_PREFIX}${target}`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(b.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
  });

  test('JSON and HTML answers have none; an id path is named by its id', async () => {
    for (const target of ['/files', '/files?expanded=true', '/radars?contentType=html', '/']) {
      expect((await get(fromTree.url, `${RADAR_PREFIX}${target}`)).headers.get('content-disposition'), target).toBeNull();
    }
    const id = (JSON.parse(readFileSync(join(site, 'radarnet/mirror/v3/files.json'), 'utf8')) as { id: number }[])[0]!.id;
    const r = await get(live.url, `${RADAR_PREFIX}/files/${id}?contentType=csv`);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="files-${id}.csv"`);
  });
});

describe('checksum reports', () => {
  test('sha1sum -c accepts the report for files that exist', async () => {
    const dir = runTmp(inject('demoSnapshot'), 'sha1sum-check');
    mkdirSync(dir, { recursive: true });
    const r = await get(fromTree.url, `${RADAR_PREFIX}/files?contentType=checksumReport&radar_code=sas`);
    const lines = r.text.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const name = line.slice(42);
      writeFileSync(join(dir, name), demoFileContent(name));
    }
    writeFileSync(join(dir, 'report.sha1'), r.body);
    const out = execFileSync('sha1sum', ['-c', 'report.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(out.trim().split('\n')).toHaveLength(lines.length);
    expect(out).not.toContain('FAILED');
  });

  test('sha1sum -c accepts the radar report against the real hardware files', async () => {
    const r = await get(fromTree.url, `${RADAR_PREFIX}/radars?contentType=checksumReport`);
    const out = execFileSync('sha1sum', ['-c', '-'], { cwd: join(import.meta.dirname, '../../build-scripts/demo/data/superdarn/hdw'), input: r.body, encoding: 'utf8' });
    expect(out.trim().split('\n')).toHaveLength(49);
  });
});

describe('CSV parses back to the JSON records', () => {
  test.each([['/files'], ['/files?expanded=true'], ['/transferred/files/alarm?expanded=true'], ['/radars?expanded=true'], ['/transfers'], ['/coverage/temporal'], ['/metadata/transfer/logs']])(
    '%s',
    async (path) => {
      const sep = path.includes('?') ? '&' : '?';
      const records = JSON.parse((await get(fromTree.url, `${RADAR_PREFIX}${path}`)).text) as Record<string, unknown>[];
      for (const delimiter of [',', ';']) {
        const csv = await get(fromTree.url, `${RADAR_PREFIX}${path}${sep}contentType=csv&delimiter=${encodeURIComponent(delimiter)}`);
        const [header, ...rows] = parseCsv(csv.text, delimiter);
        expect(header).toEqual(Object.keys(records[0]!));
        expect(rows.length).toBe(records.length);
        rows.forEach((row, i) => {
          const rec = records[i]!;
          header!.forEach((name, j) => {
            const v = rec[name];
            if (v !== null && typeof v === 'object') expect(JSON.parse(row[j]!)).toEqual(v);
            else expect(row[j]).toBe(v === null ? '' : String(v));
          });
        });
      }
    },
  );
});
