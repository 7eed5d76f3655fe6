/**
 * The developer's and the operator's pages in a real browser (Playwright driving the Chromium of lib/chromium.ts),
 * over the endpoint serving both demo builds:
 *
 * - the developer copies a curl line of the docs (with and without clipboard permission), runs it against the
 *   endpoint and gets the answer the page shows; the chart requests answer a PNG and a PDF;
 * - long docs pages have a side menu: sticky beside the content at 1280 px, collapsed above it at 390 px;
 *   the snapshot page shows no literal backticks;
 * - screenshots of each page family touched (test/artifacts/screenshots-docs/).
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { shellWords } from '../../site/lib/curl.ts';
import { jsonExcerpt } from '../../site/lib/json-excerpt.ts';
import { EXCERPT_LINES } from '../../site/lib/examples.ts';
import { describeProblems, DESKTOP, PHONE, watchPage } from '../helpers/browser.ts';
import type { Served } from '../helpers/servers.ts';
import { useSiteServers } from '../helpers/site-servers.ts';

const run = promisify(execFile);
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots-docs');

let browser: Browser;
let radar: Served;
let ts: Served;

useSiteServers(SCREENSHOTS, (s) => ({ browser, radar, ts } = s));

async function withPage<T>(options: BrowserContextOptions, fn: (page: Page) => Promise<T>, permissions: string[] = []): Promise<T> {
  const context = await browser.newContext(options);
  if (permissions.length > 0) await context.grantPermissions(permissions);
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Runs a curl line as a shell would read it; stdout as bytes. */
async function runCurl(line: string, cwd: string): Promise<Buffer> {
  const words = shellWords(line);
  expect(words[0]).toBe('curl');
  const { stdout } = await run('curl', [...words.slice(1), '--fail-with-body'], { cwd, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The section's curl line as copied by its button, the shown response and whether it is cut. */
async function copyFrom(page: Page, section: string): Promise<{ copied: string; status: string; shown: string | undefined; truncated: boolean }> {
  const box = page.locator(`${section} .curl`).first();
  await box.locator('button[data-copy]').click();
  const status = box.locator('[data-copy-status]');
  await expect.poll(() => status.textContent(), { timeout: 5000 }).not.toBe('');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = (await page.locator(`${section} pre[aria-label="Response"] code`).count()) > 0 ? await page.locator(`${section} pre[aria-label="Response"] code`).textContent() : undefined;
  const note = (await page.locator(`${section} p.muted`).allTextContents()).join(' ');
  return { copied, status: (await status.textContent()) ?? '', shown: shown ?? undefined, truncated: /first lines of/.test(note) };
}

const TMP = join(dirname(fileURLToPath(import.meta.url)), '..', '.tmp');

describe('the developer: copy a curl line, run it, get the shown answer', () => {
  test('radar docs: a whole answer and a cut one, copied with the button, run by curl, are what the page shows', async () => {
    await withPage(
      DESKTOP,
      async (page) => {
        const { problems } = watchPage(page, radar.url);
        await page.goto(`${radar.url}/docs/radar/`, { waitUntil: 'load' });
        // the placeholder origin became the page's own
        expect(await page.locator('[data-origin]').first().textContent()).toBe(radar.url);
        for (const section of ['#get-radarnet-mirror-v3-metadata-countries-id', '#get-radarnet-mirror-v3-files']) {
          const got = await copyFrom(page, section);
          expect(got.status).toBe('Copied.');
          expect(got.copied).toMatch(new RegExp(`^curl -sS '?${radar.url.replace(/[.]/g, '\\.')}/radarnet/mirror/v3/`));
          expect(got.shown, `${section} shows its answer`).toBeDefined();
          const body = (await runCurl(got.copied, TMP)).toString('utf8');
          if (got.truncated) expect(jsonExcerpt(body, EXCERPT_LINES, true).text).toBe(got.shown);
          else expect(JSON.parse(body)).toEqual(JSON.parse(got.shown!));
        }
        expect(describeProblems(problems)).toEqual([]);
      },
      ['clipboard-read', 'clipboard-write'],
    );
  });

  test('timeseries docs: every curl line with a shown answer runs to that answer; the chart requests answer a PNG and a PDF', async () => {
    await withPage(
      DESKTOP,
      async (page) => {
        const { problems } = watchPage(page, ts.url);
        await page.goto(`${ts.url}/docs/timeseries/`, { waitUntil: 'load' });
        const lines = await page.locator('[data-curl]').allTextContents();
        expect(lines.length).toBeGreaterThan(20);
        let checked = 0;
        for (const id of await page.locator('section.route').evaluateAll((els) => els.map((e) => e.id))) {
          const section = `#${id}`;
          if ((await page.locator(`${section} pre[aria-label="Response"]`).count()) === 0) continue;
          const got = await copyFrom(page, section);
          const body = (await runCurl(got.copied, TMP)).toString('utf8');
          if (got.truncated) expect(jsonExcerpt(body, EXCERPT_LINES, true).text, section).toBe(got.shown);
          else expect(JSON.parse(body), section).toEqual(JSON.parse(got.shown!));
          checked++;
        }
        expect(checked).toBeGreaterThan(10);
        const charts = page.locator('section.chart-example');
        expect(await charts.count()).toBe(3);
        const dir = join(TMP, `docs-curl-${process.pid}`);
        await mkdir(dir, { recursive: true });
        for (let i = 0; i < 3; i++) {
          const line = await charts.nth(i).locator('[data-curl]').textContent();
          const out = shellWords(line!).at(shellWords(line!).indexOf('-o') + 1)!;
          await runCurl(line!, dir);
          const bytes = (await import('node:fs/promises')).readFile(join(dir, out));
          const head = (await bytes).subarray(0, 5);
          if (out.endsWith('.png')) expect(head.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
          else expect(head.toString('latin1')).toBe('%PDF-');
        }
        expect(describeProblems(problems)).toEqual([]);
      },
      ['clipboard-read', 'clipboard-write'],
    );
  });

  test('without clipboard permission the button still works: the line is copied or selected, and the page has no error', async () => {
    await withPage(PHONE, async (page) => {
      const { problems } = watchPage(page, radar.url);
      await page.goto(`${radar.url}/docs/radar/`, { waitUntil: 'load' });
      const box = page.locator('#get-radarnet-mirror-v3-files .curl');
      await box.locator('button[data-copy]').click();
      const status = box.locator('[data-copy-status]');
      await expect.poll(() => status.textContent(), { timeout: 5000 }).toMatch(/^(Copied\.|Selected: press Ctrl\+C)/);
      if ((await status.textContent())!.startsWith('Selected')) {
        expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(await box.locator('[data-curl]').textContent());
      }
      expect(describeProblems(problems)).toEqual([]);
    });
  });
});

describe('long pages: a side menu', () => {
  test('at 1280 px it is open beside the content and stays in view while scrolling; at 390 px it is closed above it, opens, and closes when a link is followed', async () => {
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${radar.url}/docs/radar/`, { waitUntil: 'load' });
      const menu = page.locator('details[data-side-menu]');
      expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      // half-way down (at the very end the menu leaves with the end of main, as sticky boxes do)
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(5000);
      const box = (await menu.boundingBox())!;
      const main = (await page.locator('.side-content').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(-1);
      expect(box.y).toBeLessThan(800);
      expect(box.x + box.width).toBeLessThanOrEqual(main.x);
      // its links lead to sections of the page
      const hrefs = await menu.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      expect(hrefs.length).toBeGreaterThan(20);
      for (const h of hrefs) expect(await page.locator(h).count(), h).toBe(1);
    });
    await withPage(PHONE, async (page) => {
      await page.goto(`${radar.url}/docs/radar/`, { waitUntil: 'load' });
      const menu = page.locator('details[data-side-menu]');
      expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      await menu.locator('summary').click();
      expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      await menu.locator('a[href="#errors"]').click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#errors');
      expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });

  test('the snapshot page sets the code spans of its texts as code: no literal backtick', async () => {
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${ts.url}/docs/snapshot/`, { waitUntil: 'load' });
      const text = await page.locator('main').innerText();
      expect(text.length).toBeGreaterThan(1000);
      expect(text).not.toContain('`');
      expect(await page.locator('main td code').count()).toBeGreaterThan(20);
    });
  });
});

describe('the OpenAPI viewer', () => {
  test('renders every operation of both APIs from /openapi.json, asks no other host for anything, and no other page loads it', async () => {
    const doc = (await (await fetch(`${radar.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.some((o) => o.includes(' /radarnet/mirror/v3/')) && operations.some((o) => o.includes(' /api/v1/'))).toBe(true);
    for (const options of [DESKTOP, PHONE]) {
      await withPage(options, async (page) => {
        const elsewhere: string[] = [];
        page.on('request', (r) => {
          if (new URL(r.url()).origin !== radar.url && !r.url().startsWith('data:')) elsewhere.push(r.url());
        });
        const { problems } = watchPage(page, radar.url);
        await page.goto(`${radar.url}/docs/openapi/`, { waitUntil: 'load' });
        await page.locator('#swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
        // Swagger UI draws the operations near the viewport only: scroll through the page, collecting those drawn
        const shown = new Set<string>();
        for (let last = -1, i = 0; i < 400; i++) {
          const now = await page.locator('#swagger-ui .opblock').evaluateAll((els) =>
            els.map((e) => `${e.querySelector('.opblock-summary-method')?.textContent?.trim()} ${e.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
          );
          for (const o of now) shown.add(o);
          const y = await page.evaluate(() => window.scrollY);
          if (y === last && shown.size >= operations.length) break;
          if (y === last) await page.waitForTimeout(200);
          last = y;
          await page.mouse.wheel(0, (options.viewport?.height ?? 800) * 0.8);
          await page.waitForTimeout(60);
        }
        expect(new Set(shown)).toEqual(new Set(operations));
        // an operation opens, with its parameters
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.locator('#swagger-ui .opblock-summary').first().click();
        await page.locator('#swagger-ui .opblock.is-open .parameters-container, #swagger-ui .opblock.is-open .opblock-description-wrapper').first().waitFor();
        // its parameters are named, as the document names them (path-level $refs inlined: site/scripts/openapi-viewer.ts)
        const opened = page.locator('#swagger-ui .opblock.is-open');
        const method = (await opened.locator('.opblock-summary-method').first().textContent())!.trim().toLowerCase();
        const path = (await opened.locator('.opblock-summary-path').first().getAttribute('data-path'))!;
        const item = doc.paths[path] as Record<string, unknown> & { parameters?: unknown[] };
        const op = item[method] as { parameters?: unknown[] } | undefined;
        const declared = (item.parameters?.length ?? 0) + (op?.parameters?.length ?? 0);
        if (declared > 0) {
          await opened.locator('tr[data-param-name]').first().waitFor({ timeout: 15_000 });
          const names = await opened.locator('tr[data-param-name]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-param-name') ?? ''));
          expect(names.length).toBeGreaterThan(0);
          expect(names.every((n) => /^[A-Za-z_][\w.]*$/.test(n)), names.join(',')).toBe(true);
        }
        expect(await page.locator('#openapi-status').textContent()).toBe('');
        if (options === DESKTOP) await page.screenshot({ path: join(SCREENSHOTS, 'openapi-1280.png') });
        else await page.screenshot({ path: join(SCREENSHOTS, 'openapi-390.png') });
        expect(elsewhere).toEqual([]);
        expect(describeProblems(problems)).toEqual([]);
      });
    }
    // the bundle is for this page only
    await withPage(DESKTOP, async (page) => {
      for (const path of ['/', '/docs/radar/', '/docs/snapshot/', '/browse/radars/']) {
        const loaded: string[] = [];
        const listener = (r: { url(): string }) => void loaded.push(r.url());
        page.on('request', listener);
        await page.goto(`${radar.url}${path}`, { waitUntil: 'load' });
        page.off('request', listener);
        expect(loaded.filter((u) => /swagger/.test(u)), path).toEqual([]);
      }
    });
  }, 120_000);
});

describe('the radar API’s own HTML pages', () => {
  test('carry the site menu, a skip link and the main landmark, and fit a 390 px phone (static file and live answer)', async () => {
    const { SITE_NAV } = await import('../../core/http/site-nav.ts');
    await withPage(PHONE, async (page) => {
      for (const path of ['/radarnet/mirror/v3/files.html', '/radarnet/mirror/v3/transferred/files/alarm.html', '/superdarn/mirror/v3/radars?contentType=html', '/radarnet/mirror/v3/metadata/countries/1?contentType=html']) {
        const { problems } = watchPage(page, radar.url);
        const res = await page.goto(`${radar.url}${path}`, { waitUntil: 'load' });
        expect(res?.headers()['content-type'], path).toMatch(/^text\/html/);
        expect(await page.locator('nav[aria-label="Site"] a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), path).toEqual(SITE_NAV.map((n) => n.href));
        expect(await page.locator('main#main').count(), path).toBe(1);
        expect(await page.locator('main h1').count(), path).toBe(1);
        expect(await page.locator('a.skip').count(), path).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} scrolls sideways`).toBeLessThanOrEqual(390);
        expect(describeProblems(problems), path).toEqual([]);
        if (path.endsWith('files.html')) await page.screenshot({ path: join(SCREENSHOTS, 'api-html-390.png') });
      }
    });
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${radar.url}/radarnet/mirror/v3/files.html`, { waitUntil: 'load' });
      await page.screenshot({ path: join(SCREENSHOTS, 'api-html-1280.png') });
    });
  });
});

describe('the scientist and the operator: coverage bars and the alarms page', () => {
  test('each coverage bar of sas’s page opens the file finder for its days, radar and file type, which lists files', async () => {
    await withPage(DESKTOP, async (page) => {
      const { problems } = watchPage(page, radar.url);
      await page.goto(`${radar.url}/browse/radars/sas/`, { waitUntil: 'load' });
      const bars = await page.locator('g.coverage-series').evaluateAll((gs) =>
        gs.map((g) => ({ type: g.getAttribute('data-file-type'), hrefs: Array.from(g.querySelectorAll('a.bar-link')).map((a) => a.getAttribute('href')!) })),
      );
      expect(bars.length).toBeGreaterThan(0);
      for (const row of bars) {
        expect(row.hrefs.length, `${row.type}: its bars are links`).toBeGreaterThan(0);
        for (const h of row.hrefs) {
          const q = new URL(h, radar.url).searchParams;
          expect(new URL(h, radar.url).pathname).toBe('/browse/files/');
          expect(q.get('radar_code')).toBe('sas');
          expect(q.get('file_type')).toBe(row.type);
          expect(q.get('from')! <= q.get('to')!).toBe(true);
        }
      }
      await page.screenshot({ path: join(SCREENSHOTS, 'radar-1280.png') });
      const first = page.locator('a.bar-link').first();
      const href = await first.getAttribute('href');
      await first.click();
      await page.waitForURL((u) => u.pathname === '/browse/files/');
      expect(new URL(page.url()).search).toBe(new URL(href!, radar.url).search);
      await expect.poll(() => page.locator('#finder-results').getAttribute('data-count'), { timeout: 10_000 }).toMatch(/^[1-9]\d*$/);
      expect(describeProblems(problems)).toEqual([]);
    });
  });

  test('alarms: the by-day table is latest first, its cells open the finder for their day; the shared scale redraws the alarm charts and the address keeps it', async () => {
    await withPage(DESKTOP, async (page) => {
      const { problems } = watchPage(page, radar.url);
      await page.goto(`${radar.url}/browse/alarms/`, { waitUntil: 'load' });
      const rows = await page.locator('#by-time ~ .table-wrap tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({ day: tr.querySelector('th')!.textContent!.trim(), links: Array.from(tr.querySelectorAll('a')).map((a) => a.getAttribute('href')!) })),
      );
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.map((r) => r.day)).toEqual(rows.map((r) => r.day).sort().reverse());
      for (const r of rows) {
        expect(r.links.length, r.day).toBeGreaterThan(0);
        for (const h of r.links) expect(h).toBe(`/browse/files/?from=${r.day}&to=${r.day}`);
      }
      const maxes = () => page.locator('.alarm-category[data-alarm] .ymax').allTextContents();
      const own = await maxes();
      expect(new Set(own).size, 'the alarm charts have scales of their own to begin with').toBeGreaterThan(1);
      const okBefore = await page.locator('.alarm-category:not([data-alarm]) .ymax').textContent();
      await page.locator('#scale-shared').check();
      await expect.poll(() => page.evaluate(() => location.search)).toBe('?scale=shared');
      const shared = await maxes();
      expect(new Set(shared).size).toBe(1);
      expect(Number(shared[0]!.replaceAll(',', ''))).toBe(Math.max(...own.map((x) => Number(x.replaceAll(',', '')))));
      expect(await page.locator('.alarm-category:not([data-alarm]) .ymax').textContent()).toBe(okBefore);
      // a bar's height follows the shared scale: the tallest alarm bar of a smaller chart is now lower
      await page.locator('#categories').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'alarms-shared-1280.png') });
      await page.reload({ waitUntil: 'load' });
      expect(await page.locator('#scale-shared').isChecked()).toBe(true);
      expect(new Set(await maxes()).size).toBe(1);
      await page.locator('#scale-shared').uncheck();
      expect(await maxes()).toEqual(own);
      expect(await page.evaluate(() => location.search)).toBe('');
      expect(describeProblems(problems)).toEqual([]);
    });
  });
});

/** The pages of the families this work touched, on the build that has their data. */
const touched = (): { name: string; base: string; path: string }[] => [
  { name: 'docs-radar', base: radar.url, path: '/docs/radar/' },
  { name: 'docs-timeseries', base: ts.url, path: '/docs/timeseries/' },
  { name: 'docs-snapshot', base: ts.url, path: '/docs/snapshot/' },
  { name: 'docs-operators', base: ts.url, path: '/docs/operators/' },
  { name: 'docs-openapi', base: ts.url, path: '/docs/openapi/' },
  { name: 'api-html', base: radar.url, path: '/radarnet/mirror/v3/transferred/files.html' },
  { name: 'radar', base: radar.url, path: '/browse/radars/sas/' },
  { name: 'alarms', base: radar.url, path: '/browse/alarms/' },
];

/** What a link's label promises, by its words: the media type its answer must have. */
function promised(label: string): RegExp | undefined {
  if (/\bJSON\b/i.test(label)) return /^application\/json/;
  if (/\bCSV\b/i.test(label)) return /^text\/csv/;
  if (/checksum/i.test(label)) return /^text\/plain/;
  if (/\bPNG\b/.test(label)) return /^image\/png/;
  if (/\bPDF\b/.test(label)) return /^application\/pdf/;
  return undefined;
}

describe('every link returns what its label says; accessible in light and dark; looked at', () => {
  test('every same-origin link of every page of both builds answers 200, and one labelled JSON, CSV, checksum, PNG or PDF answers that type to a browser', async () => {
    const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const bad: string[] = [];
    let labelled = 0;
    let links = 0;
    for (const base of [radar.url, ts.url]) {
      const files = (await (await fetch(`${base}/site-files.json`)).json().catch(() => undefined)) as string[] | undefined;
      const pages = new Set<string>(['/docs/radar/', '/docs/timeseries/', '/docs/snapshot/', '/docs/operators/', '/docs/openapi/', '/', '/browse/alarms/', '/browse/availability/', '/browse/radars/', '/browse/stations/', '/browse/timeseries/', '/radarnet/mirror/v3/files.html']);
      // the per-radar and per-series pages: a few of each (each family is one template)
      for (const f of files ?? []) if (/^browse\/(radars|timeseries)\/[^/]+\/index\.html$/.test(f) && [...pages].filter((p) => p.startsWith(`/${f.split('/').slice(0, 2).join('/')}/`)).length < 4) pages.add(`/${f.replace(/index\.html$/, '')}`);
      await withPage(DESKTOP, async (page) => {
        const seen = new Map<string, string>();
        for (const p of pages) {
          const res = await page.goto(`${base}${p}`, { waitUntil: 'load' });
          if (res?.status() !== 200) continue; // a page of the other build's API
          await page.waitForTimeout(100);
          // in-page anchors (a menu entry named `snapshot.json` leads to its section, not to a file) are left out
          const found = await page.locator('a[href]:not([href^="#"])').evaluateAll((as) => as.map((a) => ({ href: (a as HTMLAnchorElement).href, label: `${a.getAttribute('aria-label') ?? ''} ${a.textContent ?? ''}`.trim() })));
          for (const l of found) {
            if (!/^https?:/.test(l.href)) continue; // mailto:, javascript: and the like
            const u = new URL(l.href);
            if (u.origin !== base) continue;
            u.hash = '';
            const key = `${u.href}\n${promised(l.label)?.source ?? ''}`;
            if (!seen.has(key)) seen.set(key, `${p}: "${l.label}"`);
          }
        }
        for (const [key, where] of seen) {
          const [href, want] = key.split('\n') as [string, string];
          links++;
          const res = await fetch(href, { headers: { Accept: BROWSER_ACCEPT }, redirect: 'follow' });
          const type = res.headers.get('content-type') ?? '';
          await res.arrayBuffer();
          if (res.status !== 200) bad.push(`${where} → ${href}: ${res.status}`);
          else if (want && !new RegExp(want).test(type)) bad.push(`${where} → ${href}: ${type}`);
          if (want) labelled++;
        }
      });
    }
    console.log(`[browser] ${links} links checked, ${labelled} of them labelled with a media type`);
    expect(labelled).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  }, 300_000);

  test.for(['light', 'dark'] as const)('axe: no serious or critical violation on the pages touched (%s)', { timeout: 180_000 }, async (scheme) => {
    const axe = (await import('axe-core')).default;
    const serious: string[] = [];
    await withPage({ ...DESKTOP, colorScheme: scheme }, async (page) => {
      for (const p of touched()) {
        await page.goto(`${p.base}${p.path}`, { waitUntil: 'load' });
        if (p.name === 'docs-openapi') {
          await page.locator('#swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
          // one operation open, with "Try it out" on: its parameters, inputs, responses and buttons are checked too
          await page.locator('#swagger-ui .opblock-summary-control').first().click();
          await page.locator('#swagger-ui .opblock.is-open .try-out__btn').first().click();
          await page.locator('#swagger-ui .opblock.is-open .execute').first().waitFor();
        } else await page.waitForTimeout(200);
        await page.evaluate(axe.source);
        // the whole page, the OpenAPI viewer's markup included (site/scripts/openapi-viewer.ts mends what axe finds in it)
        const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
        if (p.name === 'docs-openapi') await page.locator('#swagger-ui .opblock.is-open').first().screenshot({ path: join(SCREENSHOTS, `openapi-open-1280-${scheme}.png`) });
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') serious.push(`${p.path} ${v.impact} ${v.id} (${v.nodes.length}×): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        }
      }
    });
    expect(serious, `serious or critical axe violations in ${scheme}:\n${serious.join('\n')}`).toEqual([]);
  });

  test('screenshots at 1280 and 390 px, light and dark, of each page family touched; no sideways scrolling on a phone', async () => {
    const wide: string[] = [];
    for (const [width, options] of [['1280', DESKTOP], ['390', PHONE]] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await withPage({ ...options, colorScheme: scheme }, async (page) => {
          for (const p of touched()) {
            await page.goto(`${p.base}${p.path}`, { waitUntil: 'load' });
            if (p.name === 'docs-openapi') await page.locator('#swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
            else await page.waitForTimeout(150);
            if (width === '390' && (await page.evaluate(() => document.documentElement.scrollWidth)) > 390) wide.push(`${p.path} (${scheme})`);
            await page.screenshot({ path: join(SCREENSHOTS, `${p.name}-${width}-${scheme}.png`) });
          }
        });
      }
    }
    expect(wide).toEqual([]);
  }, 240_000);
});
