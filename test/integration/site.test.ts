/**
 * The docs site (Astro): built over copies of the shared demo builds (the radar one, with the timeseries tree
 * of the other added), its pages list every route and parameter of both APIs' code tables, every link and
 * image of every page resolves to a file of the tree, pages stay small, the build is quick; rebuilding
 * replaces the pages, and a page that would overwrite an API file fails the build with nothing moved.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { buildSite, type SiteResult } from '../../build-scripts/site.ts';
import { SITE_FILES_MANIFEST } from '../../build-scripts/lib/site-files.ts';
import { RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { PARAM_DOCS as RADAR_PARAMS } from '../../core/radar/params.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { PARAM_DOCS as TIMESERIES_PARAMS } from '../../core/timeseries/params.ts';
import { ids, links, textOf } from '../helpers/html.ts';
import { runTmp } from '../helpers/paths.ts';

const MAX_PAGE_BYTES = 300 * 1024;

interface Build {
  snapshot: { name: string; apis: string[] };
  files: number;
  bytes: number;
}

/**
 * A copy of a tree of a shared (read-only) build, by hard links: 40,000 files in half a second where fs.cp
 * takes 20 s. Safe because the site build never writes into a file it finds: it adds new names and removes
 * only names it placed itself, which unlinks the copy's name and leaves the shared file alone.
 */
async function linkCopy(from: string, to: string): Promise<void> {
  await promisify(execFile)('cp', ['-al', from, to]);
}

/** A build folder with the radar demo's tree and the timeseries demo's tree, and a build.json naming both APIs. */
async function bothApis(folder: string): Promise<void> {
  const radar = await realpath(inject('demoBuild'));
  const ts = await realpath(inject('tsBuild'));
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await linkCopy(join(radar, 'site'), join(folder, 'site'));
  await linkCopy(join(ts, 'site', 'api'), join(folder, 'site', 'api'));
  // the shared builds hold their own site pages: the copy knows them as placed by a site build
  await copyFile(join(radar, SITE_FILES_MANIFEST), join(folder, SITE_FILES_MANIFEST));
  const a = JSON.parse(await readFile(join(radar, 'build.json'), 'utf8')) as Build;
  const b = JSON.parse(await readFile(join(ts, 'build.json'), 'utf8')) as Build;
  const merged: Build = { snapshot: { ...a.snapshot, apis: [...a.snapshot.apis, ...b.snapshot.apis] }, files: a.files + b.files, bytes: a.bytes + b.bytes };
  await writeFile(join(folder, 'build.json'), JSON.stringify(merged, null, 2));
}

async function placed(folder: string): Promise<string[]> {
  return (JSON.parse(await readFile(join(folder, SITE_FILES_MANIFEST), 'utf8')) as { files: string[] }).files;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** The sections of a docs page, one per route: heading text → section text. */
function routeSections(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<section class="route"[^>]*>([\s\S]*?)<\/section>/g)) {
    const h3 = /<h3[^>]*>([\s\S]*?)<\/h3>/.exec(m[1]!);
    out.set(textOf(h3?.[1] ?? ''), textOf(m[1]!));
  }
  return out;
}

describe('docs site over a build with both APIs', () => {
  let folder = '';
  let site = '';
  let result: SiteResult;
  let pages: string[] = [];
  const fetched: string[] = [];
  const page = (rel: string) => readFile(join(site, rel), 'utf8');

  beforeAll(async () => {
    folder = runTmp(inject('demoSnapshot'), `site-both-${process.pid}`);
    site = join(folder, 'site');
    await bothApis(folder);
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      return Promise.reject(new Error('the site build must not fetch'));
    }) as typeof fetch;
    try {
      result = await buildSite({ buildFolder: folder, quiet: true });
    } finally {
      globalThis.fetch = realFetch;
    }
    pages = (await placed(folder)).filter((f) => f.endsWith('.html'));
  }, 300_000);

  test('the Astro build takes under 60 s, fetches nothing and reports its pages', () => {
    expect(result.seconds).toBeLessThan(60);
    expect(fetched).toEqual([]);
    expect(result.pages).toBe(pages.length);
  });

  test('the pages exist: home, docs, browse, one page per radar', async () => {
    for (const rel of ['index.html', 'docs/radar/index.html', 'docs/timeseries/index.html', 'docs/operators/index.html', 'browse/radars/index.html', 'browse/stations/index.html']) {
      expect(pages).toContain(rel);
    }
    const radars = JSON.parse(await readFile(join(site, 'radarnet/mirror/v3/radars.expanded.json'), 'utf8')) as { radar_code: string }[];
    expect(radars.length).toBeGreaterThan(0);
    for (const r of radars) expect(pages).toContain(`browse/radars/${r.radar_code}/index.html`);
    const home = await page('index.html');
    const build = JSON.parse(await readFile(join(folder, 'build.json'), 'utf8')) as Build;
    expect(textOf(home)).toContain(build.snapshot.name);
  });

  test('the radar docs list every route of RADAR_ROUTES with its description and an example, and every parameter', async () => {
    const html = await page('docs/radar/index.html');
    const sections = routeSections(html);
    expect(sections.size).toBe(RADAR_ROUTES.length);
    for (const r of RADAR_ROUTES) {
      const path = r.shape === 'index' ? `${RADAR_PREFIX}/` : `${RADAR_PREFIX}${r.path}`;
      expect(r.description.trim(), `${path} has no description`).not.toBe('');
      const section = sections.get(`GET ${path}`);
      expect(section, `no section for GET ${path}`).toBeDefined();
      expect(section).toContain(r.description);
      expect(section).toMatch(/Example: (GET|POST) \//);
    }
    const found = ids(html);
    for (const p of RADAR_PARAMS) {
      expect(p.meaning.trim(), `${p.name} has no meaning`).not.toBe('');
      expect(found.has(`param-${p.name}`), `parameter ${p.name}`).toBe(true);
    }
    expect(textOf(html)).toContain('"statusCode": 400');
  });

  test('the timeseries docs list every route of TIMESERIES_ROUTES with its description and an example, and every parameter', async () => {
    const html = await page('docs/timeseries/index.html');
    const sections = routeSections(html);
    expect(sections.size).toBe(TIMESERIES_ROUTES.length);
    for (const r of TIMESERIES_ROUTES) {
      const head = `${r.method} ${TIMESERIES_PREFIX}${r.path}`;
      expect(r.description.trim(), `${head} has no description`).not.toBe('');
      const section = sections.get(head);
      expect(section, `no section for ${head}`).toBeDefined();
      expect(section).toContain(r.description);
      expect(section).toMatch(/Example: (GET|POST) \//);
    }
    const found = ids(html);
    for (const p of TIMESERIES_PARAMS) {
      expect(p.meaning.trim(), `${p.name} has no meaning`).not.toBe('');
      expect(found.has(`param-${p.name}`), `parameter ${p.name}`).toBe(true);
    }
  });

  test('examples show real answers of the tree', async () => {
    const text = textOf(await page('docs/radar/index.html'));
    const first = (JSON.parse(await readFile(join(site, 'radarnet/mirror/v3/radars.json'), 'utf8')) as { id: number; filename: string }[])[0]!;
    expect(text).toContain(`Example: GET ${RADAR_PREFIX}/radars/${first.id}`);
    expect(text).toContain(`"filename": "${first.filename}"`);
    const ts = textOf(await page('docs/timeseries/index.html'));
    expect(ts).toMatch(/Example: GET \/api\/v1\/timeseries\/ts_\w+\/getData/);
    expect(ts).toContain('"values": [');
  });

  test('every link and image of every page resolves to a file of the site folder', async () => {
    const broken: string[] = [];
    let checked = 0;
    const idsOf = new Map<string, Set<string>>();
    const targetIds = async (rel: string) => {
      if (!idsOf.has(rel)) idsOf.set(rel, ids(await page(rel)));
      return idsOf.get(rel)!;
    };
    for (const rel of pages) {
      const html = await page(rel);
      const base = new URL(`/${rel.replace(/index\.html$/, '')}`, 'http://site.test');
      for (const link of links(html)) {
        checked++;
        const url = new URL(link, base);
        if (url.origin !== 'http://site.test') {
          broken.push(`${rel}: ${link} (leaves the site)`);
          continue;
        }
        if (url.search !== '') {
          broken.push(`${rel}: ${link} (a query: no file answers it)`);
          continue;
        }
        let file = decodeURIComponent(url.pathname).replace(/^\//, '');
        if (file === '' || file.endsWith('/')) file += 'index.html';
        else if (!(await isFile(join(site, file))) && (await isFile(join(site, file, 'index.html')))) file += '/index.html';
        if (!(await isFile(join(site, file)))) {
          broken.push(`${rel}: ${link}`);
          continue;
        }
        if (url.hash !== '' && file.endsWith('.html') && !(await targetIds(file)).has(decodeURIComponent(url.hash.slice(1)))) {
          broken.push(`${rel}: ${link} (no such id)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(pages.length * 5);
  });

  test(`no page exceeds ${MAX_PAGE_BYTES / 1024} KB`, async () => {
    for (const rel of pages) expect((await stat(join(site, rel))).size, rel).toBeLessThan(MAX_PAGE_BYTES);
  });

  test('rebuilding replaces the pages of the last site build and leaves the API files alone', async () => {
    const api = await readFile(join(site, 'radarnet/mirror/v3/radars.json'));
    const before = await placed(folder);
    const again = await buildSite({ buildFolder: folder, quiet: true });
    expect(again.pages).toBe(result.pages);
    expect(await placed(folder)).toEqual(before);
    expect((await readFile(join(site, 'radarnet/mirror/v3/radars.json'))).equals(api)).toBe(true);
  }, 120_000);
});

describe('docs site over a timeseries-only build', () => {
  test('renders without the radar catalogue, and refuses to overwrite a file it did not place', async () => {
    const folder = runTmp(inject('demoSnapshot'), `site-ts-${process.pid}`);
    const ts = await realpath(inject('tsBuild'));
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    await linkCopy(join(ts, 'site'), join(folder, 'site'));
    await copyFile(join(ts, 'build.json'), join(folder, 'build.json'));
    await copyFile(join(ts, SITE_FILES_MANIFEST), join(folder, SITE_FILES_MANIFEST));
    const r = await buildSite({ buildFolder: folder, quiet: true });
    expect(r.pages).toBeGreaterThan(5);
    expect(textOf(await readFile(join(folder, 'site/browse/radars/index.html'), 'utf8'))).toContain('holds no static files of the radar catalogue');
    const radarDocs = textOf(await readFile(join(folder, 'site/docs/radar/index.html'), 'utf8'));
    for (const route of RADAR_ROUTES) expect(radarDocs).toContain(`${RADAR_PREFIX}${route.path === '/' ? '/' : route.path}`);

    // Forget which files the site placed: they are now files of the tree, which the next build must not overwrite.
    const home = await stat(join(folder, 'site/index.html'));
    await rm(join(folder, SITE_FILES_MANIFEST));
    await expect(buildSite({ buildFolder: folder, quiet: true })).rejects.toThrow(/would overwrite \d+ path\(s\) of the API tree.*index\.html/);
    expect((await stat(join(folder, 'site/index.html'))).mtimeMs).toBe(home.mtimeMs);
  }, 180_000);
});
