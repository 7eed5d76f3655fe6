/**
 * The site in a real browser (Playwright driving the Chromium of lib/chromium.ts), served by the real endpoint
 * over both demo builds (radar, timeseries): every page (up to a cap, families of pages sampled evenly) loads
 * with 200 and no console error, page error or failed same-origin request; every internal link of the
 * rendered DOM resolves through the endpoint, anchors included; the map, the coverage timeline, the chart and
 * the file finder draw what the data says; the finder and the search say when the endpoint is absent (site
 * served by a plain static server); screenshots at desktop and phone widths (test/artifacts/screenshots/);
 * axe-core on the main pages; the map and chart pages load in under a second.
 *
 * Checks of pages not written yet skip (with a note), and are strict as soon as the page exists.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { FileRecord } from '../../site/scripts/radar-finder.ts';
import { closeSharedBrowser, describeProblems, DESKTOP, openPage, openTab, PHONE, settle, sharedBrowser, startStaticServer, watchPage, type StaticServer, type Tab } from '../helpers/browser.ts';
import { ids as staticIds } from '../helpers/html.ts';
import { neighbourhood, type Station } from '../../site/lib/stations.ts';
import { inParallel, startEndpoint, type Served, json } from '../helpers/servers.ts';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots');
/** Pages loaded per build, at most; families (a folder of many pages) sampled evenly. */
const PAGE_CAP = 75;
const PAGES_AT_ONCE = 3;
const LOAD_BUDGET_MS = 1000;
const RADAR_PREFIX = '/radarnet/mirror/v3';
const TS_PREFIX = '/api/v1';
/** Links answered by a render of the endpoint's Chromium. */
const RENDERED = /\/getData\.(png|pdf)$/;
const RENDERED_SAMPLE = 6;

/**
 * Checks that fail on the current pages, each with what is wrong: their tests are marked `test.fails` (the
 * suite stays green and the findings are still printed). Fix the page or the endpoint, then remove the entry:
 * a test marked here that passes fails, as a reminder.
 */
const KNOWN_FAILURES: Record<string, string> = {};

/** `test`, or `test.fails` with the reason in its name when the check is a known failure. */
function checked(key: string, name: string): [typeof test | typeof test.fails, string] {
  const why = KNOWN_FAILURES[key];
  return why ? [test.fails, `${name} [KNOWN FAILURE: ${why}]`] : [test, name];
}

type BuildName = 'radar' | 'ts';
const BUILDS: Record<BuildName, string> = { radar: inject('demoBuild'), ts: inject('tsBuild') };

// ---------------------------------------------------------------------------------------------------------
// The pages of a build

/** Every page of the site folder: each index.html outside the API trees, as its URL path. */
function sitePages(site: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      const rel = relative(site, full);
      if (e.isDirectory()) {
        if (rel === 'api' || rel === 'radarnet' || rel === '_astro') continue;
        walk(full);
      } else if (e.name === 'index.html') {
        out.push(`/${rel.slice(0, -'index.html'.length)}`);
      }
    }
  };
  walk(site);
  return out.sort();
}

/**
 * At most `cap` pages: every page outside a family, and evenly spaced members of each family (a folder holding
 * more than 20 pages, such as /browse/radars/<code>/), first and last included, the budget split among families.
 */
function samplePages(pages: string[], cap: number): string[] {
  const parent = (p: string) => p.replace(/[^/]+\/$/, '');
  const byParent = new Map<string, string[]>();
  for (const p of pages) if (p !== '/') byParent.set(parent(p), [...(byParent.get(parent(p)) ?? []), p]);
  const families = [...byParent.values()].filter((m) => m.length > 20);
  const inFamily = new Set(families.flat());
  const singles = pages.filter((p) => !inFamily.has(p));
  let budget = Math.max(0, cap - singles.length);
  const picked: string[] = [];
  const sorted = [...families].sort((a, b) => a.length - b.length);
  sorted.forEach((members, i) => {
    const share = Math.floor(budget / (sorted.length - i));
    const k = Math.min(members.length, share);
    const pick = k >= members.length ? members : Array.from({ length: k }, (_, j) => members[k === 1 ? 0 : Math.round((j * (members.length - 1)) / (k - 1))]!);
    picked.push(...new Set(pick));
    budget -= new Set(pick).size;
  });
  return [...singles, ...picked].sort();
}

// ---------------------------------------------------------------------------------------------------------
// Crawling

interface DomLink {
  /** The attribute as written. */
  raw: string;
  /** Resolved against the page. */
  url: string;
  tag: string;
}

interface Crawled {
  build: BuildName;
  path: string;
  status: number;
  problems: string[];
  links: DomLink[];
  ids: Set<string>;
  loadMs: number;
}

async function crawlPage(tab: Tab, base: string, build: BuildName, path: string): Promise<Crawled> {
  const visited = await tab.visit(`${base}${path}`).catch((e: unknown) => e as Error);
  if (visited instanceof Error) return { build, path, status: 0, problems: [`navigation: ${visited.message}`], links: [], ids: new Set(), loadMs: NaN };
  const { response, problems, loadMs } = visited;
  const dom = await tab.page.evaluate(() => {
    const sel = 'a[href], area[href], link[href], img[src], script[src], source[src], iframe[src], object[data]';
    const links = Array.from(document.querySelectorAll(sel), (e) => {
      const raw = e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('data') ?? '';
      let url = '';
      try {
        url = new URL(raw, document.baseURI).href;
      } catch {
        url = `invalid:${raw}`;
      }
      return { raw, url, tag: e.tagName.toLowerCase() };
    });
    const ids = [...Array.from(document.querySelectorAll('[id]'), (e) => e.id), ...Array.from(document.querySelectorAll('a[name]'), (e) => e.getAttribute('name') ?? '')];
    return { links, ids };
  });
  return { build, path, status: response?.status() ?? 0, problems: describeProblems(problems), links: dom.links, ids: new Set(dom.ids), loadMs };
}

// ---------------------------------------------------------------------------------------------------------
// Shared state

interface Site {
  name: BuildName;
  build: string;
  endpoint: Served;
  base: string;
  pages: string[];
  crawled: Crawled[];
}

let browser: Browser;
const sites = {} as Record<BuildName, Site>;
let crawlSeconds = 0;

async function exists(base: string, path: string): Promise<boolean> {
  const res = await fetch(`${base}${path}`, { method: 'HEAD' });
  return res.status === 200;
}

/** A new page in a new context (its own cache); closed with its context. */
async function freshPage(options = DESKTOP): Promise<{ page: Page; context: BrowserContext; close: () => Promise<void> }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  return { page, context, close: () => context.close() };
}

beforeAll(async () => {
  const t0 = Date.now();
  await rm(SCREENSHOTS, { recursive: true, force: true }); // this run's screenshots only
  await mkdir(SCREENSHOTS, { recursive: true });
  const launched = await sharedBrowser();
  browser = launched.browser;
  console.log(`[browser] Chromium ${browser.version()} from ${launched.exe.source} (${launched.exe.path}), launched in ${Date.now() - t0} ms`);
  for (const name of ['radar', 'ts'] as const) {
    const endpoint = await startEndpoint(BUILDS[name]);
    const all = sitePages(join(BUILDS[name], 'site'));
    sites[name] = { name, build: BUILDS[name], endpoint, base: endpoint.url, pages: samplePages(all, PAGE_CAP), crawled: [] };
  }
  // Both builds' pages, a few tabs at once, in one desktop context.
  const jobs = (['radar', 'ts'] as const).flatMap((name) => sites[name].pages.map((path) => ({ name, path })));
  const context = await browser.newContext(DESKTOP);
  const wall: [string, number][] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PAGES_AT_ONCE }, async () => {
      const tab = await openTab(context);
      while (next < jobs.length) {
        const { name, path } = jobs[next++]!;
        const t = Date.now();
        sites[name].crawled.push(await crawlPage(tab, sites[name].base, name, path));
        wall.push([`${name}:${path}`, Date.now() - t]);
      }
    }),
  );
  await context.close();
  wall.sort((a, b) => b[1] - a[1]);
  console.log(`[browser] slowest: ${wall.slice(0, 5).map(([p, ms]) => `${p} ${ms} ms`).join(', ')}; median ${wall[Math.floor(wall.length / 2)]?.[1]} ms`);
  crawlSeconds = (Date.now() - t0) / 1000;
  console.log(`[browser] crawled ${jobs.length} pages (radar ${sites.radar.pages.length}, ts ${sites.ts.pages.length}) in ${crawlSeconds.toFixed(1)} s`);
}, 120_000);

afterAll(async () => {
  await closeSharedBrowser();
  await Promise.all(Object.values(sites).map((s) => s.endpoint.close()));
});

// ---------------------------------------------------------------------------------------------------------
// Every page, every link

describe('every page', () => {
  test('the home, docs and browse pages are among the pages loaded', () => {
    for (const name of ['radar', 'ts'] as const) {
      const paths = sites[name].pages;
      for (const p of ['/', '/docs/', '/docs/radar/', '/docs/timeseries/', '/docs/operators/', '/browse/', '/browse/radars/', '/browse/stations/']) {
        expect(paths, `${name} build`).toContain(p);
      }
      expect(paths.length).toBeLessThanOrEqual(PAGE_CAP);
    }
  });

  test.each(['radar', 'ts'] as const)('%s build: every page loads with 200, no console error, page error or failed request', (name) => {
    const bad = sites[name].crawled.filter((c) => c.status !== 200 || c.problems.length > 0).map((c) => `${c.path} (${c.status}): ${c.problems.join('; ')}`);
    expect(bad, `pages with problems:\n${bad.join('\n')}`).toEqual([]);
    expect(sites[name].crawled.length).toBe(sites[name].pages.length);
  });

  const checkLinks = async (name: BuildName) => {
    const site = sites[name];
    const origin = new URL(site.base).origin;
    const crawledIds = new Map(site.crawled.map((c) => [c.path, c.ids]));
    const targets = new Map<string, string[]>(); // URL without hash → pages that link to it
    const anchors = new Map<string, string[]>(); // URL with hash → pages
    const external = new Set<string>();
    const broken: string[] = [];
    for (const c of site.crawled) {
      for (const l of c.links) {
        if (/^(mailto|tel|javascript|data|blob):/i.test(l.raw)) continue;
        if (l.url.startsWith('invalid:')) {
          broken.push(`${c.path}: ${l.tag} ${l.raw} (not a URL)`);
          continue;
        }
        const u = new URL(l.url);
        if (u.origin !== origin) {
          external.add(`${c.path}: ${l.raw}`);
          continue;
        }
        const hash = u.hash;
        u.hash = '';
        targets.set(u.href, [...(targets.get(u.href) ?? []), c.path]);
        if (hash.length > 1) anchors.set(`${u.href}${hash}`, [...(anchors.get(`${u.href}${hash}`) ?? []), c.path]);
      }
    }
    // Charts and reports drawn on demand by the endpoint's Chromium (getData.png, getData.pdf) cost 0.1 to 1 s
    // each: the same route for every timeseries, so an even sample of them; every other URL is checked.
    const all = [...targets.keys()];
    const rendered = all.filter((u) => RENDERED.test(new URL(u).pathname));
    const sampled = new Set(rendered.filter((_, i) => i % Math.ceil(rendered.length / RENDERED_SAMPLE) === 0));
    const toCheck = all.filter((u) => !RENDERED.test(new URL(u).pathname) || sampled.has(u));
    const types = new Map<string, string>();
    await inParallel(toCheck, 8, async (url) => {
      let res = await fetch(url, { method: 'HEAD' });
      if (res.status !== 200) res = await fetch(url); // an answer to GET is what a reader gets
      else await res.body?.cancel();
      if (res.status !== 200) broken.push(`${url} → ${res.status}, linked from ${[...new Set(targets.get(url))].slice(0, 3).join(', ')}`);
      else types.set(url, res.headers.get('content-type') ?? '');
      if (res.bodyUsed === false) await res.body?.cancel();
    });
    // Anchors: the id in the target page's DOM when it was loaded, else in its HTML.
    const htmlIds = new Map<string, Set<string>>();
    for (const [url, from] of anchors) {
      const u = new URL(url);
      const id = decodeURIComponent(u.hash.slice(1));
      u.hash = '';
      if (!types.has(u.href)) continue; // already broken, or a rendered chart left out
      if (!types.get(u.href)!.startsWith('text/html')) {
        broken.push(`${url}: an anchor into ${types.get(u.href)}, linked from ${from[0]}`);
        continue;
      }
      let known = u.search === '' ? crawledIds.get(u.pathname) : undefined;
      if (!known) {
        if (!htmlIds.has(u.href)) htmlIds.set(u.href, staticIds(await (await fetch(u.href)).text()));
        known = htmlIds.get(u.href)!;
        const names = [...(await (await fetch(u.href)).text()).matchAll(/<a\s[^>]*name="([^"]*)"/g)].map((m) => m[1]!);
        for (const n of names) known.add(n);
      }
      if (!known.has(id)) broken.push(`${url}: no element with id "${id}", linked from ${[...new Set(from)].slice(0, 3).join(', ')}`);
    }
    console.log(`[browser] ${name}: ${toCheck.length} of ${targets.size} internal URLs (${sampled.size} of ${rendered.length} rendered charts and reports) and ${anchors.size} anchors checked; ${external.size} external links${external.size ? `: ${[...external].slice(0, 5).join(', ')}` : ''}`);
    if (broken.length > 0) console.log(`[browser] ${name}: ${broken.length} broken links:\n${broken.sort().join('\n')}`);
    expect(linkShapes(broken, origin), `broken links, by shape (all of them printed above)`).toEqual([]);
    expect(targets.size).toBeGreaterThan(site.crawled.length);
  };
  for (const name of ['radar', 'ts'] as const) {
    const [t, title] = checked(`${name}-links`, `${name} build: every internal link of the rendered pages resolves through the endpoint, anchors included`);
    t(title, () => checkLinks(name), 60_000);
  }
});

/**
 * Broken links grouped by shape, for a short failure message: identifiers (`ts_...`, `sta_...`, numbers,
 * radar codes in /browse/radars/) replaced by `*`, each shape with its count and one example.
 */
function linkShapes(broken: string[], origin: string): string[] {
  const shapes = new Map<string, { n: number; example: string }>();
  for (const b of broken) {
    const shape = b
      .replace(origin, '')
      .replace(/, linked from .*$/, '')
      .replace(/\/[a-z]{2,4}_[^/.?#]+/g, '/*')
      .replace(/\/\d+(?=[/.?#]|$)/g, '/*')
      .replace(/\/browse\/radars\/[^/]+\//, '/browse/radars/*/');
    const e = shapes.get(shape) ?? { n: 0, example: b.replace(origin, '') };
    e.n++;
    shapes.set(shape, e);
  }
  return [...shapes].map(([shape, e]) => (e.n === 1 ? e.example : `${shape} (${e.n}×), e.g. ${e.example}`)).sort();
}

// ---------------------------------------------------------------------------------------------------------
// What the browse pages draw

interface RadarRecord {
  id: number;
  radar_code: string;
  field_of_view: { type: string; coordinates: unknown[] } | null;
}

/** The browse page of a radar, as site/lib/radars.ts names it: its code when unique and plain, else radar-<id>. */
function radarSlugs(records: RadarRecord[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const r of records) count.set(r.radar_code, (count.get(r.radar_code) ?? 0) + 1);
  return new Map(records.map((r) => [r.id, count.get(r.radar_code) === 1 && /^[a-z0-9]+$/.test(r.radar_code) ? r.radar_code : `radar-${r.id}`]));
}

interface CoverageRow {
  radar_code: string;
  file_type: string;
  coverage_type: string;
}

/** The series of a radar's coverage: one per (coverage type, file type) the data has. */
function coverageSeries(rows: CoverageRow[]): string[] {
  return [...new Set(rows.map((r) => `${r.coverage_type}/${r.file_type}`))].sort();
}

describe('the browse pages draw what the data says', () => {
  test('/browse/radars/ draws one .radar-marker per radar and the fields of view', async (ctx) => {
    const { base } = sites.radar;
    const radars = await json<{ id: number }[]>(base, `${RADAR_PREFIX}/radars.json`);
    const expanded = await json<RadarRecord[]>(base, `${RADAR_PREFIX}/radars.expanded.json`);
    const { page, close } = await freshPage();
    try {
      await page.goto(`${base}/browse/radars/`, { waitUntil: 'load' });
      const markers = await page.locator('.radar-marker').count();
      const fovs = await page.locator('.radar-fov').count();
      if (markers === 0 && fovs === 0 && (await page.locator('.radar-map, svg.map, [data-map]').count()) === 0) ctx.skip('no map on /browse/radars/ yet');
      expect(radars.length).toBeGreaterThan(0);
      expect(markers, 'one .radar-marker per radar of /radarnet/mirror/v3/radars.json').toBe(radars.length);
      const withFov = expanded.filter((r) => r.field_of_view?.type === 'Polygon').length;
      expect(withFov).toBeGreaterThan(0);
      expect(fovs, 'one .radar-fov per radar with a field_of_view polygon').toBe(withFov);
    } finally {
      await close();
    }
  });

  test('/browse/stations/ draws one .station-marker per station with a position', async (ctx) => {
    const { base } = sites.ts;
    const stations = await json<{ properties: { id: string }; geometry: { coordinates?: unknown[] } | null }[]>(base, `${TS_PREFIX}/stations`);
    const placed = stations.filter((s) => Array.isArray(s.geometry?.coordinates) && s.geometry!.coordinates!.length >= 2).map((s) => s.properties.id);
    const { page, close } = await freshPage();
    try {
      await page.goto(`${base}/browse/stations/`, { waitUntil: 'load' });
      const markers = await page.locator('.station-marker').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-station') ?? ''));
      if (markers.length === 0) ctx.skip('no station map yet');
      expect(placed.length).toBeGreaterThan(0);
      expect(markers.length, 'one .station-marker per station').toBe(placed.length);
      if (markers.every((m) => m !== '')) expect([...markers].sort(), 'the markers name the stations (data-station)').toEqual([...placed].sort());
    } finally {
      await close();
    }
  });

  test('a station page draws its neighbourhood: the markers in its window, keyboard and skip link as on the list (screenshots of a dense and a sparse one)', async () => {
    const { base } = sites.ts;
    const features = await json<{ properties: { id: string; label: string }; geometry: { coordinates: number[] } | null }[]>(base, `${TS_PREFIX}/stations`);
    const list: Station[] = features.map((f) => ({ id: f.properties.id, label: f.properties.label, lon: f.geometry?.coordinates[0], lat: f.geometry?.coordinates[1], href: '', service: undefined, series: [] }));
    const placed = list.filter((s) => s.lon !== undefined && s.lat !== undefined);
    const inside = (s: Station) => neighbourhood(list, s)!.inside.length;
    const span = (s: Station) => neighbourhood(list, s)!.n - neighbourhood(list, s)!.s;
    const dense = placed.reduce((a, b) => (inside(b) > inside(a) ? b : a));
    const sparse = placed.reduce((a, b) => (span(b) > span(a) ? b : a));
    for (const [name, s] of [['dense', dense], ['sparse', sparse]] as const) {
      const { page, close } = await freshPage();
      try {
        const { problems } = watchPage(page, base);
        await page.goto(`${base}/browse/stations/${s.id}/`, { waitUntil: 'load' });
        const markers = await page.locator('.station-marker').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-station') ?? ''));
        expect(markers.sort(), name).toEqual(neighbourhood(list, s)!.inside.map((p) => p.id).sort());
        expect(markers.length, name).toBeLessThan(list.length);
        // every marker drawn inside the map's box
        const out = await page.locator('.ts-map > svg').evaluate((svg) => {
          const box = svg.getBoundingClientRect();
          return Array.from(svg.querySelectorAll('.station-marker path')).filter((p) => {
            const r = p.getBoundingClientRect();
            const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
            return cx < box.left || cx > box.right || cy < box.top || cy > box.bottom;
          }).length;
        });
        expect(out, name).toBe(0);
        expect(await page.locator(`.station-marker.station-current[data-station="${s.id}"]`).count()).toBe(1);
        expect(await page.locator('.ts-map-here').textContent()).toBe(s.label);
        await page.locator('main a[href="/browse/stations/"]', { hasText: 'Whole network map' }).waitFor();
        // keyboard: the skip link comes before the markers and moves focus past the map; the markers take focus
        await page.locator('.ts-map-skip').focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('class'))).toMatch(/station-marker/);
        await page.locator('.ts-map-skip').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('station-after-map');
        await page.locator('.ts-map').screenshot({ path: join(SCREENSHOTS, `station-map-${name}-1280.png`) });
        expect(describeProblems(problems)).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  test('a radar page draws one .coverage-series per coverage series of its data', async (ctx) => {
    const { base } = sites.radar;
    const records = await json<RadarRecord[]>(base, `${RADAR_PREFIX}/radars.expanded.json`);
    const slugs = radarSlugs(records);
    const coverage = await json<CoverageRow[]>(base, `${RADAR_PREFIX}/coverage/temporal.json`);
    // A radar with the most series, one with fewer, and one without coverage, where the demo has them.
    const unique = records.filter((r) => slugs.get(r.id) === r.radar_code);
    const series = (code: string) => coverageSeries(coverage.filter((c) => c.radar_code === code));
    const byCount = [...unique].sort((a, b) => series(b.radar_code).length - series(a.radar_code).length);
    const chosen = [...new Set([byCount[0]!, byCount[Math.floor(byCount.length / 2)]!, byCount[byCount.length - 1]!])];
    expect(series(byCount[0]!.radar_code).length, 'the demo has a radar with coverage').toBeGreaterThan(0);
    const found: { path: string; timelines: number; drawn: number; expected: string[]; labelled: string[]; intervals: Map<string, number> }[] = [];
    const intervals = (code: string) => {
      const m = new Map<string, number>();
      for (const c of coverage.filter((x) => x.radar_code === code)) m.set(`${c.coverage_type}/${c.file_type}`, (m.get(`${c.coverage_type}/${c.file_type}`) ?? 0) + 1);
      return m;
    };
    const { page, close } = await freshPage();
    try {
      for (const r of chosen) {
        const path = `/browse/radars/${slugs.get(r.id)}/`;
        await page.goto(`${base}${path}`, { waitUntil: 'load' });
        // Series that name themselves (data-coverage-type, data-file-type, data-intervals) are compared one by one.
        const labelled = await page.locator('.coverage-timeline .coverage-series[data-coverage-type][data-file-type]').evaluateAll((gs) =>
          gs.map((g) => `${g.getAttribute('data-coverage-type')}/${g.getAttribute('data-file-type')}=${g.getAttribute('data-intervals') ?? '?'}`),
        );
        found.push({
          path,
          timelines: await page.locator('.coverage-timeline').count(),
          drawn: await page.locator('.coverage-timeline .coverage-series').count(),
          expected: series(r.radar_code),
          labelled,
          intervals: intervals(r.radar_code),
        });
      }
    } finally {
      await close();
    }
    if (found.every((f) => f.timelines === 0)) ctx.skip('no .coverage-timeline on the radar pages yet');
    console.log(`[browser] coverage timelines: ${found.map((f) => `${f.path} ${f.drawn} series drawn, ${f.expected.length} in the data`).join('; ')}`);
    for (const f of found) {
      // A radar without coverage may show no timeline at all; one with coverage shows exactly one.
      if (f.expected.length > 0) expect(f.timelines, `${f.path}: one .coverage-timeline`).toBe(1);
      expect(f.drawn, `${f.path}: .coverage-series vs the data's series ${f.expected.join(', ') || '(none)'}`).toBe(f.expected.length);
      if (f.labelled.length > 0) {
        const want = f.expected.map((k) => `${k}=${f.intervals.get(k)}`);
        expect(f.labelled.map((l) => l.replace(/=\?$/, `=${f.intervals.get(l.slice(0, -2))}`)).sort(), `${f.path}: each series and its intervals (coverage/temporal rows)`).toEqual(want.sort());
      }
    }
  });

  test('a timeseries page: .ts-chart data-series-count equals the series drawn', async (ctx) => {
    const { base } = sites.ts;
    const list = await json<{ id: string }[]>(base, `${TS_PREFIX}/timeseries`);
    const withPage: string[] = [];
    for (const t of [list[0], list[Math.floor(list.length / 2)], list[list.length - 1]]) {
      if (t && (await exists(base, `/browse/timeseries/${encodeURIComponent(t.id)}/`))) withPage.push(t.id);
    }
    if (withPage.length === 0) ctx.skip('no /browse/timeseries/<id>/ pages yet');
    const { page, close } = await freshPage();
    try {
      for (const id of withPage) {
        const path = `/browse/timeseries/${encodeURIComponent(id)}/`;
        await page.goto(`${base}${path}`, { waitUntil: 'load' });
        const chart = page.locator('.ts-chart');
        expect(await chart.count(), `${path}: one .ts-chart`).toBe(1);
        const declared = await chart.getAttribute('data-series-count');
        expect(declared, `${path}: .ts-chart has data-series-count`).not.toBeNull();
        const drawnSeries = await chart.evaluate((el) => new Set(Array.from(el.querySelectorAll('g.series[data-series]'), (g) => g.getAttribute('data-series'))).size);
        expect(drawnSeries, `${path}: series drawn (g.series[data-series]) vs data-series-count`).toBe(Number(declared));
        expect(drawnSeries, `${path}: draws at least its own series`).toBeGreaterThan(0);
      }
    } finally {
      await close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// The file finder and the search, with and without the endpoint

describe('the file finder and the search', () => {
  test('/browse/files/ shows what GET /radarnet/mirror/v3/files answers for the same query, and its links resolve', async (ctx) => {
    const { base } = sites.radar;
    if (!(await exists(base, '/browse/files/'))) ctx.skip('no /browse/files/ yet');
    const all = await json<FileRecord[]>(base, `${RADAR_PREFIX}/files.expanded.json`);
    // A radar, a day and a type that have files: those of a file in the middle of the catalogue.
    const pick = all[Math.floor(all.length / 2)]!;
    const day = pick.file_start_datetime.slice(0, 10);
    const cases = [
      { radar: pick.radar_code, from: day, to: day, type: pick.file_type },
      { radar: pick.radar_code, from: day, to: day, type: '' },
    ];
    const { page, close } = await freshPage();
    const { problems, inFlight } = watchPage(page, new URL(base).origin);
    const links = new Set<string>();
    try {
      await page.goto(`${base}/browse/files/`, { waitUntil: 'load' });
      const form = page.locator('main form');
      expect(await form.count(), 'one form in main').toBe(1);
      for (const c of cases) {
        await form.locator('[name="radar_code"]').selectOption(c.radar);
        await form.locator('[name="from"]').fill(c.from);
        await form.locator('[name="to"]').fill(c.to);
        await form.locator('[name="file_type"]').selectOption(c.type);
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `${RADAR_PREFIX}/files`, { timeout: 10_000 });
        await form.locator('[type="submit"]').click();
        const res = await answered;
        await settle(inFlight);
        // The same query: the radar, and the days as a timespan from the first day's start to the last day's end.
        const asked = new URL(res.url()).searchParams;
        expect(asked.get('radar_code'), 'the finder asks for the radar').toBe(c.radar);
        expect(asked.get('timespan'), 'the finder asks for the days').toBe(`${c.from}/${c.to}T23:59:59.999`);
        const query = `radar_code=${c.radar}&timespan=${c.from}/${c.to}T23:59:59.999&expanded=true`;
        const answer = await json<FileRecord[]>(base, `${RADAR_PREFIX}/files?${query}`);
        // The API has no file-type parameter: the finder keeps the chosen type.
        const want = c.type ? answer.filter((f) => f.file_type === c.type) : answer;
        expect(want.length, `the demo has files for ${query}`).toBeGreaterThan(0);
        const rows = page.locator('main table tbody tr');
        const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
        expect(shown.length, `table rows vs GET ${RADAR_PREFIX}/files?${query}${c.type ? ` (type ${c.type})` : ''}`).toBe(want.length);
        want.forEach((f, i) => expect(shown[i], `row ${i + 1}`).toContain(f.file_path.slice(f.file_path.lastIndexOf('/') + 1)));
        expect((await page.locator('[role="status"]').allInnerTexts()).join(' ')).toContain(String(want.length));
        for (const href of await page.locator('main a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) links.add(href);
      }
      await page.screenshot({ path: join(SCREENSHOTS, 'browse-files-results-1280.png') });
      expect(describeProblems(problems)).toEqual([]);
    } finally {
      await close();
    }
    // Each file's JSON, CSV and checksum report, and the whole answer in each form, through the endpoint.
    const broken: string[] = [];
    await inParallel([...links].filter((u) => u.startsWith(base)), 8, async (u) => {
      const res = await fetch(u);
      await res.arrayBuffer();
      if (res.status !== 200) broken.push(`${u.slice(base.length)} → ${res.status}`);
    });
    expect(links.size).toBeGreaterThan(10);
    expect(broken, "links of the finder's results").toEqual([]);
  });

  test('/search/ lists every result GET /api/v1/search answers for the same words, and the labels of the other locales', async (ctx) => {
    const { base } = sites.ts;
    if (!(await exists(base, '/search/'))) ctx.skip('no /search/ yet');
    const q = 'Rhein';
    const want = await json<{ id: string; label: string; type: string }[]>(base, `${TS_PREFIX}/search?q=${q}`);
    expect(want.length, `the demo has results for ${q}`).toBeGreaterThan(1);
    const { page, close } = await freshPage();
    const { problems, inFlight } = watchPage(page, new URL(base).origin);
    try {
      const searched = async (words: string) => {
        await page.goto(`${base}/search/`, { waitUntil: 'load' });
        const input = page.locator('main form input[name="q"]');
        expect(await input.count(), 'an input named q').toBe(1);
        await input.fill(words);
        await input.press('Enter');
        await expect.poll(async () => (await page.locator('[role="status"]').allInnerTexts()).join(' '), { timeout: 5000 }).toMatch(/result|Nothing/);
        await settle(inFlight);
        expect(new URL(page.url()).searchParams.get('q'), 'the address keeps the query').toBe(words);
        return page.locator('main #site-search-results li').evaluateAll((lis) => lis.map((li) => ({ type: li.getAttribute('data-type') ?? '', id: li.getAttribute('data-id') ?? '', text: li.textContent ?? '' })));
      };
      const items = await searched(q);
      // every label of the default locale the API finds, each once, with its label; and more, from the German labels
      for (const w of want) {
        expect(items.filter((t) => t.id === w.id && t.type === w.type && t.text.includes(w.label)).length, `one item for ${w.type} ${w.id} (${w.label})`).toBe(1);
      }
      const rhine = await searched('Rhine');
      expect(items.length, 'rhein finds as many as Rhine').toBe(rhine.length);
      expect(items.length).toBeGreaterThan(want.length);
      expect((await page.locator('[role="status"]').allInnerTexts()).join(' ')).toContain(String(rhine.length));
      // Köln (German label of Cologne), written without the umlaut
      const de = await json<{ properties: { id: string; label: string } }[]>(base, `${TS_PREFIX}/stations?locale=de`);
      const koeln = de.filter((s) => /köln/i.test(s.properties.label)).map((s) => s.properties.id);
      expect(koeln.length, 'the demo has a station labelled Köln in German').toBeGreaterThan(0);
      const found = await searched('koeln');
      for (const id of koeln) expect(found.some((f) => f.type === 'station' && f.id === id), `koeln finds station ${id}`).toBe(true);
      expect(describeProblems(problems)).toEqual([]);
    } finally {
      await close();
    }
  });

  test('/search/ finds the radar sas by code and by name, also on a plain static host', async () => {
    let server: StaticServer | undefined;
    const { page, close } = await freshPage();
    try {
      server = await startStaticServer(join(BUILDS.radar, 'site'));
      for (const words of ['sas', 'Saskatoon', 'SASKATOON']) {
        await page.goto(`${server.url}/search/?q=${words}`, { waitUntil: 'load' });
        const first = page.locator('main #site-search-results li').first();
        await expect.poll(() => first.getAttribute('data-id'), { timeout: 5000 }).toBe('sas');
        expect(await first.locator('a').getAttribute('href')).toBe('/browse/radars/sas/');
      }
    } finally {
      await close();
      await server?.close();
    }
  });

  const absent = [
    { name: 'radar' as const, path: '/browse/files/', what: 'the file finder' },
  ];
  test.for(absent)('$what says clearly when the endpoint is absent (plain static host)', async ({ name, path }, ctx) => {
    const site = join(BUILDS[name], 'site');
    if (!existsSync(join(site, path, 'index.html'))) ctx.skip(`no ${path} yet`);
    let server: StaticServer | undefined;
    const { page, close } = await freshPage();
    try {
      server = await startStaticServer(site);
      const res = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      const form = page.locator('main form').first();
      expect(await form.count(), 'a form in main').toBe(1);
      const text = page.locator('main input[type="search"], main input[type="text"]').first();
      if ((await text.count()) === 1 && (await text.inputValue()) === '') await text.fill('a');
      const status = page.locator('[role="status"]');
      const said = async () => (await status.allInnerTexts()).join(' ').trim();
      const before = await said();
      await page.locator('main form [type="submit"], main form button:not([type])').first().click();
      // a new message, after the submission, that names the endpoint
      await expect.poll(async () => ((await said()) === before ? '' : await said()), { timeout: 5000 }).toMatch(/endpoint/i);
      console.log(`[browser] ${path} without the endpoint says: ${(await status.allInnerTexts()).join(' ').trim()}`);
    } finally {
      await close();
      await server?.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// The main pages: screenshots, accessibility, speed

interface MainPage {
  build: BuildName;
  path: string;
  /** File name of its screenshots. */
  shot: string;
  /** A map or a chart: must load in under a second. */
  timed?: boolean;
}

async function firstRadarPage(): Promise<string | undefined> {
  const records = await json<RadarRecord[]>(sites.radar.base, `${RADAR_PREFIX}/radars.expanded.json`);
  const slugs = radarSlugs(records);
  // the radar with the most coverage: a page with everything drawn
  const coverage = await json<CoverageRow[]>(sites.radar.base, `${RADAR_PREFIX}/coverage/temporal.json`);
  const rows = (code: string) => coverage.filter((c) => c.radar_code === code).length;
  const best = [...records].sort((a, b) => rows(b.radar_code) - rows(a.radar_code))[0];
  return best && `/browse/radars/${slugs.get(best.id)}/`;
}

async function firstTimeseriesPage(): Promise<string | undefined> {
  const list = await json<{ id: string }[]>(sites.ts.base, `${TS_PREFIX}/timeseries`);
  return list[0] && `/browse/timeseries/${encodeURIComponent(list[0].id)}/`;
}

async function firstStationPage(): Promise<string | undefined> {
  const list = await json<{ properties: { id: string } }[]>(sites.ts.base, `${TS_PREFIX}/stations`);
  return list[0] && `/browse/stations/${encodeURIComponent(list[0].properties.id)}/`;
}

async function mainPages(): Promise<MainPage[]> {
  const list: (MainPage | undefined)[] = [
    { build: 'radar', path: '/', shot: 'home-radar' },
    { build: 'ts', path: '/', shot: 'home-timeseries' },
    { build: 'radar', path: '/docs/radar/', shot: 'docs-radar' },
    { build: 'ts', path: '/docs/timeseries/', shot: 'docs-timeseries' },
    { build: 'radar', path: '/browse/radars/', shot: 'browse-radars', timed: true },
    { build: 'ts', path: '/browse/stations/', shot: 'browse-stations', timed: true },
    { build: 'ts', path: (await firstStationPage()) ?? '', shot: 'station-page', timed: true },
    { build: 'radar', path: (await firstRadarPage()) ?? '', shot: 'radar-page', timed: true },
    { build: 'ts', path: (await firstTimeseriesPage()) ?? '', shot: 'timeseries-page', timed: true },
    { build: 'radar', path: '/browse/alarms/', shot: 'browse-alarms', timed: true },
    { build: 'radar', path: '/browse/files/', shot: 'browse-files' },
    { build: 'ts', path: '/search/', shot: 'search' },
  ];
  const out: MainPage[] = [];
  for (const p of list) if (p && p.path !== '' && (await exists(sites[p.build].base, p.path))) out.push(p);
  return out;
}

describe('the main pages', () => {
  let pages: MainPage[] = [];
  beforeAll(async () => {
    pages = await mainPages();
    console.log(`[browser] main pages: ${pages.map((p) => `${p.build}:${p.path}`).join(', ')}`);
  });

  test('screenshots at 1280×800 and 390×844 (test/artifacts/screenshots/), no horizontal scrolling on a phone', async () => {
    const overflow: string[] = [];
    // What a reader sees first, at each size; on the phone also the page's first map or chart, scrolled to.
    for (const [label, options] of [['1280', DESKTOP], ['390', PHONE]] as const) {
      const context = await browser.newContext(options);
      try {
        await inParallel(pages, 2, async (p) => {
          const tab = await openTab(context);
          try {
            await tab.visit(`${sites[p.build].base}${p.path}`);
            await tab.page.screenshot({ path: join(SCREENSHOTS, `${p.shot}-${label}.png`) });
            if (label === '390' && p.timed) {
              const big = await tab.page.locator('main svg').evaluateAll((svgs) => svgs.findIndex((e) => e.getBoundingClientRect().height > 150));
              if (big >= 0) await tab.page.locator('main svg').nth(big).screenshot({ path: join(SCREENSHOTS, `${p.shot}-${label}-figure.png`) });
            }
            const width = options.viewport!.width;
            const scrollWidth = await tab.page.evaluate(() => document.documentElement.scrollWidth);
            if (scrollWidth > width + 1) overflow.push(`${p.build}:${p.path} is ${scrollWidth} px wide at ${width} px`);
          } finally {
            await tab.page.close();
          }
        });
      } finally {
        await context.close();
      }
    }
    for (const p of pages) for (const w of ['1280', '390']) expect(existsSync(join(SCREENSHOTS, `${p.shot}-${w}.png`))).toBe(true);
    expect(overflow, `pages wider than the phone:\n${overflow.join('\n')}`).toEqual([]);
  });

  const [axeTest, axeTitle] = checked('axe', 'axe-core: no serious or critical violation');
  axeTest(axeTitle, async () => {
    const serious: string[] = [];
    const all: string[] = [];
    // axe is evaluated through the DevTools protocol (not a <script>), so the endpoint's CSP stays in force.
    const context = await browser.newContext(DESKTOP);
    try {
      await inParallel(pages, 2, async (p) => {
        const page = await context.newPage();
        try {
          await page.goto(`${sites[p.build].base}${p.path}`, { waitUntil: 'load' });
          await page.evaluate(axe.source);
          const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
          for (const v of result.violations) {
            const line = `${p.build}:${p.path} ${v.impact} ${v.id} (${v.nodes.length}×): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`;
            all.push(line);
            if (v.impact === 'serious' || v.impact === 'critical') serious.push(line);
          }
        } finally {
          await page.close();
        }
      });
    } finally {
      await context.close();
    }
    console.log(`[browser] axe findings on ${pages.length} pages:\n${all.length ? all.sort().join('\n') : '(none)'}`);
    expect(serious, `serious or critical axe violations:\n${serious.join('\n')}`).toEqual([]);
  });

  test('keyboard: the first Tab reaches a visible skip link to the main content', async () => {
    const bad: string[] = [];
    const context = await browser.newContext(DESKTOP);
    try {
      const tab = await openTab(context);
      for (const p of pages) {
        await tab.visit(`${sites[p.build].base}${p.path}`);
        await tab.page.keyboard.press('Tab');
        const focused = await tab.page.evaluate(() => {
          const e = document.activeElement as HTMLElement | null;
          const r = e?.getBoundingClientRect();
          return { tag: e?.tagName ?? '', text: e?.textContent?.trim() ?? '', href: e?.getAttribute('href') ?? '', visible: !!r && r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight };
        });
        const target = focused.href.startsWith('#') ? await tab.page.locator(`[id="${focused.href.slice(1)}"]`).count() : 0;
        if (focused.tag !== 'A' || !/skip/i.test(focused.text) || !focused.visible || target !== 1) bad.push(`${p.build}:${p.path}: first Tab focuses ${JSON.stringify(focused)}`);
      }
    } finally {
      await context.close();
    }
    expect(bad).toEqual([]);
  });

  test(`the map and chart pages load in under ${LOAD_BUDGET_MS} ms (navigation start to load event end)`, async (ctx) => {
    const timed = pages.filter((p) => p.timed);
    const figures: string[] = [];
    const slow: string[] = [];
    for (const p of timed) {
      const context = await browser.newContext(DESKTOP); // a cold cache, as a first visit
      try {
        const { loadMs } = await openPage(context, `${sites[p.build].base}${p.path}`);
        figures.push(`${p.build}:${p.path} ${Math.round(loadMs)} ms`);
        if (!(loadMs < LOAD_BUDGET_MS)) slow.push(`${p.build}:${p.path} ${Math.round(loadMs)} ms`);
      } finally {
        await context.close();
      }
    }
    console.log(`[browser] load times: ${figures.join(', ')}`);
    await ctx.annotate(`load times: ${figures.join(', ')}`);
    expect(slow, `pages over ${LOAD_BUDGET_MS} ms`).toEqual([]);
  });
});

