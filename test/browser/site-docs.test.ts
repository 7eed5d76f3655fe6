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
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { shellWords } from '../../site/lib/curl.ts';
import { jsonExcerpt } from '../../site/lib/json-excerpt.ts';
import { EXCERPT_LINES } from '../../site/lib/examples.ts';
import { closeSharedBrowser, describeProblems, DESKTOP, PHONE, sharedBrowser, watchPage } from '../helpers/browser.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

const run = promisify(execFile);
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots-docs');

let browser: Browser;
let radar: Served;
let ts: Served;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = (await sharedBrowser()).browser;
  [radar, ts] = await Promise.all([startEndpoint(inject('demoBuild')), startEndpoint(inject('tsBuild'))]);
}, 120_000);

afterAll(async () => {
  await closeSharedBrowser();
  await Promise.all([radar?.close(), ts?.close()]);
});

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
