/**
 * The site's users' tasks in a real browser (Playwright driving the Chromium of lib/chromium.ts), over the endpoint
 * serving both demo builds, each asserting the outcome, not the markup:
 *
 * - the scientist opens the file finder from sas's page (pre-filled), gets sas's files of a day of one type, and
 *   downloads their checksum report (each line in `sha1sum -c` format, only the chosen type, a file name) and CSV;
 *   every JSON link answers JSON to a browser; an error clears the last results;
 * - the hydrologist picks "month" on Köln's Rhine water level (over a 35-day demo of its own, so a month of data
 *   exists) and sees the warning levels labelled and a month of data, reads a value by keyboard, gets the month's
 *   PNG, CSV and JSON, fits a phone; and reaches the station's page from the breadcrumb;
 * - tables sort and filter, and the address keeps the state; unknown site paths get an HTML 404, API paths JSON;
 * - axe finds no serious or critical violation in light and dark colour schemes; every page stays under
 *   300 KB before images; screenshots at 1280 and 390 px, light and dark (test/artifacts/screenshots-tasks/).
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FileRecord } from '../../site/scripts/radar-finder.ts';
import { describeProblems, DESKTOP, PHONE, settle, watchPage } from '../helpers/browser.ts';
import { startEndpoint, type Served, json } from '../helpers/servers.ts';
import { useSiteServers } from '../helpers/site-servers.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { build } from '../../build-scripts/build.ts';
import { addMonthsUtc } from '../../site/lib/series-range.ts';

// a folder of its own: test/browser/site.test.ts empties test/artifacts/screenshots/ when it starts
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots-tasks');
const RADAR_PREFIX = '/radarnet/mirror/v3';
const MAX_PAGE_BYTES = 300 * 1024;

let browser: Browser;
let radar: Served;
let ts: Served;

useSiteServers(SCREENSHOTS, (s) => ({ browser, radar, ts } = s));

async function withPage<T>(options: BrowserContextOptions, fn: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ ...options, acceptDownloads: true });
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

describe('the scientist: a radar’s files of a day and their checksum list', () => {
  test('from sas’s page to the finder, pre-filled; one type’s files; their checksum report and CSV hold only that type', async () => {
    const base = radar.url;
    const all = (await json<FileRecord[]>(base, `${RADAR_PREFIX}/files.expanded.json`)).filter((f) => f.radar_code === 'sas');
    expect(all.length, 'the demo has files of sas').toBeGreaterThan(0);
    const day = all[Math.floor(all.length / 2)]!.file_start_datetime.slice(0, 10);
    const answer = await json<FileRecord[]>(base, `${RADAR_PREFIX}/files?radar_code=sas&timespan=${day}/${day}T23:59:59.999&expanded=true`);
    const types = [...new Set(answer.map((f) => f.file_type))].sort();
    expect(types.length, 'files of several types that day, so keeping one matters').toBeGreaterThan(1);
    const type = types[0]!;
    const want = answer.filter((f) => f.file_type === type);

    await withPage(DESKTOP, async (page) => {
      const { problems, inFlight } = watchPage(page, base);
      await page.goto(`${base}/browse/radars/sas/`, { waitUntil: 'load' });
      // the gaps of sas's file coverage, as the coverage collection gives them, each opening the finder for its days
      const cov = (await json<{ radar_code: string; coverage_type: string; start_datetime: string; end_datetime: string }[]>(base, `${RADAR_PREFIX}/coverage/temporal.json`)).filter((c) => c.radar_code === 'sas' && c.coverage_type === 'file');
      const merged: { start: number; end: number }[] = [];
      for (const c of cov.map((x) => ({ start: Date.parse(x.start_datetime), end: Date.parse(x.end_datetime) })).sort((a, b) => a.start - b.start)) {
        const last = merged.at(-1);
        if (last && c.start <= last.end) last.end = Math.max(last.end, c.end);
        else merged.push({ ...c });
      }
      const holes = merged.slice(1).map((m, i) => `${new Date(merged[i]!.end).toISOString()}/${new Date(m.start).toISOString()}`).reverse().slice(0, 50);
      const listed = await page.locator('table.gaps tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-start')}/${tr.getAttribute('data-end')}`));
      expect(listed).toEqual(holes);
      if (holes.length > 0) expect(await page.locator('table.gaps tbody tr a').first().getAttribute('href')).toMatch(/^\/browse\/files\/\?radar_code=sas&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
      await page.locator('main a', { hasText: 'File finder' }).first().click();
      await page.waitForURL(/\/browse\/files\//);
      expect(new URL(page.url()).searchParams.get('radar_code'), 'the link carries the radar').toBe('sas');
      const form = page.locator('main form#finder');
      expect(await form.locator('[name="radar_code"]').inputValue(), 'the form is pre-filled').toBe('sas');
      await settle(inFlight);

      await form.locator('[name="from"]').fill(day);
      await form.locator('[name="to"]').fill(day);
      await form.locator('[name="file_type"]').selectOption(type);
      await form.locator('[type="submit"]').click();
      const rows = page.locator('#finder-results table tbody tr');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(want.length);
      await settle(inFlight);
      const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('th')?.textContent ?? ''));
      expect(shown).toEqual(want.map((f) => baseName(f.file_path)));
      // the Status column is on screen at 1280 px: no sideways scroll of the results
      const wrap = page.locator('#finder-results .table-wrap');
      expect(await wrap.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the results table fits at 1280 px').toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-finder-sas-1280.png') });

      // the checksum report of the files shown: one `sha1sum -c` line per file with a checksum, nothing else
      const selection = page.locator('#finder-results [data-selection] a');
      const [sums] = await Promise.all([page.waitForEvent('download'), selection.filter({ hasText: 'checksum report' }).click()]);
      expect(sums.suggestedFilename()).toBe(`files-sas-${day}_${day}T235959.999Z-${type}.sha1`);
      const report = await readFile((await sums.path())!, 'utf8');
      const lines = report.split('\n').filter(Boolean);
      const withSum = want.filter((f) => f.checksum);
      expect(withSum.length, 'the demo has checksums').toBeGreaterThan(0);
      expect(lines).toHaveLength(withSum.length);
      lines.forEach((line, i) => {
        expect(line, 'sha1sum -c format').toMatch(/^\\?[0-9a-f]{40} {2}\S/);
        expect(line.startsWith(`${withSum[i]!.checksum}  `) || line.startsWith(`\\${withSum[i]!.checksum}  `)).toBe(true);
      });
      expect(report.endsWith('\n')).toBe(true);

      // the CSV of the files shown: the header and one row per file
      const [csv] = await Promise.all([page.waitForEvent('download'), selection.filter({ hasText: /^CSV$/ }).click()]);
      expect(csv.suggestedFilename()).toBe(`files-sas-${day}_${day}T235959.999Z-${type}.csv`);
      const csvLines = (await readFile((await csv.path())!, 'utf8')).split('\r\n').filter(Boolean);
      expect(csvLines).toHaveLength(1 + want.length);
      want.forEach((f, i) => expect(csvLines[i + 1]!.startsWith(`${f.id},`), `CSV row ${i + 1}`).toBe(true));

      // a file's JSON link answers JSON to the browser (not the route's HTML docs)
      const href = await page.locator('#finder-results tbody tr').first().locator('a', { hasText: 'JSON' }).getAttribute('href');
      const res = await page.request.get(`${base}${href}`, { headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
      expect(res.headers()['content-type']).toMatch(/^application\/json/);
      expect(((await res.json()) as { id: number }).id).toBe(want[0]!.id);
      // so do the whole answer's JSON links
      for (const a of await page.locator('#finder-results a', { hasText: /^JSON/ }).evaluateAll((as) => as.map((x) => (x as HTMLAnchorElement).getAttribute('href') ?? ''))) {
        if (a.startsWith('blob:')) continue;
        const r = await page.request.get(`${base}${a}`, { headers: { Accept: 'text/html' } });
        expect(r.headers()['content-type'], a).toMatch(/^application\/json/);
      }

      // an error clears the last results
      await form.locator('[name="from"]').fill('2024-12-31');
      await form.locator('[name="to"]').fill('2024-01-01');
      await form.locator('[type="submit"]').click();
      await expect.poll(() => page.locator('#finder-status').innerText()).toMatch(/after the last day/);
      expect(await page.locator('#finder-results *').count(), 'no stale results beside the error').toBe(0);
      expect(describeProblems(problems)).toEqual([]);
    });
  });

  test('without a type, the downloads are the endpoint’s own answers, each named', async () => {
    const base = radar.url;
    await withPage(DESKTOP, async (page) => {
      const all = (await json<FileRecord[]>(base, `${RADAR_PREFIX}/files.expanded.json`)).filter((f) => f.radar_code === 'sas');
      const day = all[0]!.file_start_datetime.slice(0, 10);
      await page.goto(`${base}/browse/files/?radar_code=sas&from=${day}&to=${day}`, { waitUntil: 'load' });
      await expect.poll(() => page.locator('#finder-results tbody tr').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const hrefs = await page.locator('#finder-results [data-selection] a').evaluateAll((as) => as.map((a) => ({ label: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
      expect(hrefs.map((h) => h.label)).toEqual(['JSON', 'JSON, expanded', 'CSV', 'CSV, expanded', 'checksum report']);
      for (const h of hrefs) {
        const res = await fetch(`${base}${h.href}`, { headers: { Accept: 'text/html' } });
        await res.arrayBuffer();
        expect(res.status, h.href).toBe(200);
        const type = res.headers.get('content-type') ?? '';
        if (h.label.startsWith('JSON')) expect(type, h.href).toMatch(/^application\/json/);
        else expect(res.headers.get('content-disposition'), h.href).toMatch(/^attachment; filename="files-sas-.*\.(csv|sha1)"$/);
        if (h.label.startsWith('CSV')) expect(type).toMatch(/^text\/csv/);
        if (h.label === 'checksum report') expect(type).toMatch(/^text\/plain/);
      }
    });
  });
});

describe('the scientist: which radars have data on which day', () => {
  test('the availability matrix: each cell the covered share of its day, opening the finder for that radar and day', async () => {
    const base = radar.url;
    const files = await json<FileRecord[]>(base, `${RADAR_PREFIX}/files.expanded.json`);
    await withPage(DESKTOP, async (page) => {
      const { problems, inFlight } = watchPage(page, base);
      await page.goto(`${base}/browse/`, { waitUntil: 'load' });
      await page.locator('main a', { hasText: 'Availability' }).first().click();
      await page.waitForURL(/\/browse\/availability\/$/);
      const cells = page.locator('table.availability tbody td a');
      expect(await cells.count()).toBeGreaterThan(0);
      // a cell of sas with files: its day and radar in the finder's address, and the finder lists files of that day
      const cell = page.locator('table.availability tbody tr', { has: page.locator('th', { hasText: /^sas$/ }) }).locator('td a:not([data-share="0.0000"])').first();
      const day = (await cell.getAttribute('data-day')) ?? undefined;
      expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await cell.innerText(), 'the cell says its share').toMatch(/^\d+/);
      const onDay = files.filter((f) => f.radar_code === 'sas' && f.file_start_datetime.slice(0, 10) <= day! && f.file_end_datetime.slice(0, 10) >= day!);
      expect(onDay.length, `sas has files on ${day}`).toBeGreaterThan(0);
      await cell.click();
      await page.waitForURL(/\/browse\/files\//);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ radar_code: 'sas', from: day, to: day });
      await expect.poll(() => page.locator('#finder-results tbody tr').count(), { timeout: 10_000 }).toBe(onDay.length);
      await settle(inFlight);
      expect(describeProblems(problems)).toEqual([]);
    });
  });
});

describe('the mirror operator: today’s alarms', () => {
  test('from the home page, the latest day’s alarm files in two clicks, each linked to its record', async () => {
    const base = radar.url;
    const alarms = await json<{ id: number; file_path: string; transfer_start_datetime: string }[]>(base, `${RADAR_PREFIX}/transferred/files/alarm.expanded.json`);
    expect(alarms.length, 'the demo has alarms').toBeGreaterThan(0);
    const day = alarms.map((a) => a.transfer_start_datetime.slice(0, 10)).sort().at(-1)!;
    const want = alarms.filter((a) => a.transfer_start_datetime.startsWith(day));
    await withPage(DESKTOP, async (page) => {
      const { problems } = watchPage(page, base);
      await page.goto(`${base}/`, { waitUntil: 'load' });
      await page.locator('nav[aria-label="Site"] a', { hasText: /^Alarms$/ }).click();
      await page.waitForURL(/\/browse\/alarms\/$/);
      expect(await page.locator('h2#latest').innerText()).toContain(day);
      const rows = page.locator('table.latest-alarms tbody tr');
      const ids = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-id'))));
      expect([...ids].sort((a, b) => a - b)).toEqual(want.map((a) => a.id).sort((a, b) => a - b));
      const first = want.find((a) => a.id === ids[0])!;
      expect(await rows.first().locator('th').innerText()).toBe(baseName(first.file_path));
      // latest first
      const starts = await rows.locator('td.date time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
      expect(starts).toEqual([...starts].sort().reverse());
      const [record] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('.json')), rows.first().locator('a', { hasText: 'JSON' }).click()]);
      expect(record.status()).toBe(200);
      // an id path of a category answers that file's instances in the category
      const instances = (await record.json()) as { id: number }[];
      expect(instances.length).toBeGreaterThan(0);
      expect(instances.every((r) => r.id === first.id)).toBe(true);
      expect(describeProblems(problems)).toEqual([]);
    });
  });
});

describe('the hydrologist: a gauge’s month against its warning levels', () => {
  const KOELN = 'ts_koeln_rhein_water_level';
  let month: Served;
  let root: string;
  beforeAll(async () => {
    // a month of data needs more days than the shared 8-day demo has: a timeseries demo of 35 days of its own
    root = join(TEST_TMP, `hydrologist-${process.pid}`);
    await writeDemoSnapshot({ from: '2024-01-01', days: 35, seed: 1, out: join(root, 'snapshot'), apis: ['timeseries-v1'], log: () => {} });
    await build({ snapshot: join(root, 'snapshot'), out: join(root, 'dist'), quiet: true, charts: false });
    month = await startEndpoint(join(root, 'dist'));
  }, 240_000);
  afterAll(async () => {
    await month?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  interface Meta { uom: string; station: { properties: { id: string; label: string } }; refValues: { referenceValueId: string; label: string; lastValue?: { value: number } }[] }
  type Values = { values: { timestamp: number; value: number | null }[] };

  test('picks “month”: the levels labelled, a month of data, a value read by keyboard, the month’s downloads; the station’s page from the breadcrumb', async () => {
    const base = month.url;
    const meta = await json<Meta>(base, `/api/v1/timeseries/${KOELN}`);
    expect(meta.refValues.length, 'Köln has warning levels').toBeGreaterThan(0);
    const taken = Date.parse('2024-02-05T00:00:00Z'); // the demo's taken_at: its first day plus 35 days
    const start = addMonthsUtc(taken, -1);
    expect(taken - start, 'a month is 31 days here').toBe(31 * 86_400_000);
    const timespan = `${new Date(start).toISOString()}/${new Date(taken).toISOString()}`;
    const answer = await json<Values>(base, `/api/v1/timeseries/${KOELN}/getData?timespan=${encodeURIComponent(timespan)}`);
    const values = answer.values.filter((v) => v.value !== null);
    expect(values[0]!.timestamp - start, 'the demo has data from the month’s first day').toBeLessThan(86_400_000);
    expect(taken - values.at(-1)!.timestamp, 'to its last hour').toBeLessThan(3_600_000);

    await withPage(DESKTOP, async (page) => {
      const { problems, inFlight } = watchPage(page, base);
      await page.goto(`${base}/browse/timeseries/${KOELN}/`, { waitUntil: 'load' });
      const figure = page.locator('[data-series-chart]');
      await expect.poll(() => figure.getAttribute('data-range')).toBe('week');
      await page.locator('form.ts-range label', { hasText: 'Month' }).click();
      await expect.poll(() => figure.getAttribute('data-range'), { timeout: 15_000 }).toBe('month');
      expect(new URL(page.url()).searchParams.get('range'), 'the address keeps the range').toBe('month');
      await settle(inFlight);
      expect(await page.locator('h2#chart').innerText()).toBe('The month up to the snapshot');

      // the chart: the month's span, every value of the month, drawn at the container's width
      const svg = page.locator('svg.ts-chart-live');
      expect(await svg.count()).toBe(1);
      expect(Number(await svg.getAttribute('data-start'))).toBe(start);
      expect(Number(await svg.getAttribute('data-end'))).toBe(taken);
      expect(Number(await figure.getAttribute('data-points')), 'every value of the month').toBe(values.length);
      const widths = await svg.evaluate((el) => [Number(el.getAttribute('width')), el.getBoundingClientRect().width, (el.parentElement as HTMLElement).clientWidth]);
      expect(widths[0]).toBe(widths[2]);
      expect(Math.abs(widths[1]! - widths[0]!)).toBeLessThan(1);
      expect(widths[0], 'wider than the old fixed 800 px at 1280').toBeGreaterThan(800);

      // the warning levels, each labelled with its name and value
      const labels = await svg.locator('g.reference-label text').allTextContents();
      for (const r of meta.refValues) {
        expect(labels.some((l) => l.includes(r.label) && l.includes(String(r.lastValue!.value))), `${r.label} labelled: ${labels.join(' | ')}`).toBe(true);
      }

      // the crosshair by keyboard: Home is the month's first value, End its last, an arrow the value before
      const wrap = page.locator('.ts-chart-wrap');
      await wrap.focus();
      const readout = page.locator('.ts-readout');
      const read = async () => ({ t: Number(await readout.getAttribute('data-t')), v: Number(await readout.getAttribute('data-v')), text: await readout.innerText() });
      await page.keyboard.press('Home');
      expect((await read()).t).toBe(values[0]!.timestamp);
      await page.keyboard.press('End');
      expect((await read()).t).toBe(values.at(-1)!.timestamp);
      expect(values.at(-1)!.timestamp - values[0]!.timestamp, 'the chart’s data span a month').toBeGreaterThan(30 * 86_400_000);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      const r = await read();
      const want = values.at(-3)!;
      expect(r.t).toBe(want.timestamp);
      expect(r.v).toBe(want.value);
      expect(r.text).toBe(`${new Date(want.timestamp).toISOString().slice(0, 16).replace('T', ' ')} UTC: Water level ${want.value} cm${r.text.endsWith(')') ? r.text.slice(r.text.indexOf(' (')) : ''}`);
      expect(await readout.getAttribute('aria-live')).toBe('polite');
      expect(await page.locator('svg.ts-chart-live .ts-crosshair line').count()).toBe(1);
      await page.keyboard.press('Escape');
      expect(await page.locator('svg.ts-chart-live .ts-crosshair').count()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-hydrologist-month-1280.png') });
      // drawn again at the new width when the window narrows
      await page.setViewportSize({ width: 700, height: 800 });
      await expect.poll(() => svg.evaluate((el) => Number(el.getAttribute('width')) === (el.parentElement as HTMLElement).clientWidth && Number(el.getAttribute('width')) < 700)).toBe(true);
      await page.setViewportSize({ width: 1280, height: 800 });

      // the month's downloads: what their labels say, for the month
      const links = Object.fromEntries(await page.locator('[data-range-link]').evaluateAll((as) => as.map((a) => [a.getAttribute('data-range-link') ?? '', a.getAttribute('href') ?? ''])));
      for (const [kind, type] of [['png', /^image\/png/], ['csv', /^text\/csv/], ['json', /^application\/json/]] as const) {
        expect(new URL(links[kind]!, base).searchParams.get('timespan'), kind).toBe(`${new Date(start).toISOString()}/${new Date(taken).toISOString()}`);
        const res = await fetch(`${base}${links[kind]}`, { headers: { Accept: 'text/html,*/*;q=0.8' } });
        expect(res.status, kind).toBe(200);
        expect(res.headers.get('content-type'), kind).toMatch(type);
        if (kind === 'json') expect(((await res.json()) as Record<string, Values>)[KOELN]!.values.filter((v) => v.value !== null).length).toBe(values.length);
        else await res.arrayBuffer();
      }
      expect(links['pdf']).toMatch(/\/getData\.pdf\?timespan=/);

      // the breadcrumb leads to the station's page: its series with last value and time, the map coloured by status
      await page.locator('nav[aria-label="Breadcrumb"] a', { hasText: meta.station.properties.label }).click();
      await page.waitForURL(new RegExp(`/browse/stations/${meta.station.properties.id}/$`));
      const row = page.locator(`table.ts-station-series tr[data-series="${KOELN}"]`);
      expect(await row.locator('td.last .value').innerText()).toMatch(/^\d+(\.\d+)? cm$/);
      expect(await row.locator('time').getAttribute('datetime')).toMatch(/^2024-02-04T23:50/);
      expect(await row.locator('td').nth(1).innerText()).not.toBe('none');
      expect(await page.locator(`.station-marker.station-current[data-station="${meta.station.properties.id}"]`).count()).toBe(1);
      expect(await page.locator('.station-marker[data-status]').count(), 'markers carry their status').toBeGreaterThan(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-hydrologist-station-1280.png'), fullPage: true });
      expect(describeProblems(problems)).toEqual([]);
    });

    // at 390 px: no sideways scroll, the chart at the screen's width, its text at least 11 px
    await withPage(PHONE, async (page) => {
      const { problems } = watchPage(page, base);
      await page.goto(`${base}/browse/timeseries/${KOELN}/?range=month`, { waitUntil: 'load' });
      const figure = page.locator('[data-series-chart]');
      await expect.poll(() => figure.getAttribute('data-range'), { timeout: 15_000 }).toBe('month');
      expect(await page.locator('input[name="range"][value="month"]').isChecked()).toBe(true);
      const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(fit.scroll, 'no sideways scroll').toBeLessThanOrEqual(fit.inner);
      const svg = page.locator('svg.ts-chart-live');
      const box = (await svg.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      const smallest = await svg.evaluate((el) => {
        const k = el.getBoundingClientRect().width / Number(el.getAttribute('width'));
        return Math.min(...Array.from(el.querySelectorAll('text'), (t) => parseFloat(getComputedStyle(t).fontSize) * k));
      });
      expect(smallest, 'chart text at least 11 px').toBeGreaterThanOrEqual(11);
      expect(await svg.locator('g.reference-label').count()).toBe(meta.refValues.length);
      await page.locator('.ts-chart-wrap').focus();
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('.ts-readout').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: Water level \d+ cm/);
      await page.locator('h2#chart').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-hydrologist-month-390.png') });
      await page.goto(`${base}/browse/stations/${meta.station.properties.id}/`, { waitUntil: 'load' });
      const fit2 = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(fit2.scroll, 'the station page has no sideways scroll').toBeLessThanOrEqual(fit2.inner);
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-hydrologist-station-390.png'), fullPage: true });
      expect(describeProblems(problems)).toEqual([]);
    });
  }, 120_000);

  test('a custom range: two days, kept in the address; a reversed one is refused in words', async () => {
    const base = month.url;
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${base}/browse/timeseries/${KOELN}/`, { waitUntil: 'load' });
      const figure = page.locator('[data-series-chart]');
      await expect.poll(() => figure.getAttribute('data-range')).toBe('week');
      await page.locator('form.ts-range label', { hasText: 'Custom' }).click();
      await page.locator('input[name="from"]').fill('2024-01-10');
      await page.locator('input[name="to"]').fill('2024-01-11');
      await page.locator('form.ts-range button[type="submit"]').click();
      await expect.poll(() => figure.getAttribute('data-range'), { timeout: 15_000 }).toBe('custom');
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ range: 'custom', from: '2024-01-10', to: '2024-01-11' });
      expect(Number(await page.locator('svg.ts-chart-live').getAttribute('data-start'))).toBe(Date.parse('2024-01-10T00:00:00Z'));
      expect(Number(await page.locator('svg.ts-chart-live').getAttribute('data-end'))).toBe(Date.parse('2024-01-12T00:00:00Z'));
      const two = await json<Values>(base, `/api/v1/timeseries/${KOELN}/getData?timespan=${encodeURIComponent('2024-01-10T00:00:00.000Z/2024-01-12T00:00:00.000Z')}`);
      expect(two.values.length, 'ten-minute values over two days').toBeGreaterThan(250);
      expect(Number(await figure.getAttribute('data-points'))).toBe(two.values.filter((v) => v.value !== null).length);
      await page.locator('input[name="to"]').fill('2024-01-01');
      await page.locator('form.ts-range button[type="submit"]').click();
      await expect.poll(() => page.locator('.ts-status').innerText()).toBe('The last day lies before the first.');
      // refused in the form: the address and the chart stay those of the two days
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ range: 'custom', from: '2024-01-10', to: '2024-01-11' });
      expect(Number(await page.locator('svg.ts-chart-live').getAttribute('data-start'))).toBe(Date.parse('2024-01-10T00:00:00Z'));
    });
  });

  test('a reversed range in the address: the week drawn live with a notice, the crosshair working', async () => {
    const base = month.url;
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${base}/browse/timeseries/${KOELN}/?range=custom&from=2024-01-11&to=2024-01-10`, { waitUntil: 'load' });
      const figure = page.locator('[data-series-chart]');
      await expect.poll(() => figure.getAttribute('data-range'), { timeout: 15_000 }).toBe('week');
      expect(await figure.getAttribute('data-refused')).toBe('true');
      expect(await page.locator('.ts-status').innerText()).toBe('The range in the address (2024-01-11 to 2024-01-10) was refused: The last day lies before the first. Shown instead: the week up to the snapshot.');
      expect(await page.locator('h2#chart').innerText()).toBe('The week up to the snapshot');
      const live = page.locator('svg.ts-chart-live');
      const end = Number(await live.getAttribute('data-end'));
      expect(end - Number(await live.getAttribute('data-start'))).toBe(7 * 86_400_000);
      expect(await page.locator('[data-range-link="csv"]').getAttribute('href')).toContain(encodeURIComponent(new Date(end).toISOString()));
      // the form keeps the refused dates, to correct them
      expect(await page.locator('input[name="from"]').inputValue()).toBe('2024-01-11');
      await page.locator('.ts-chart-wrap').focus();
      await expect.poll(() => page.locator('.ts-chart-wrap .ts-crosshair').count()).toBe(1);
      expect(await page.locator('.ts-readout').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: Water level \d+ cm/);
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-refused-range-1280.png') });
      // corrected in the form: drawn, the notice gone
      await page.locator('input[name="to"]').fill('2024-01-12');
      await page.locator('form.ts-range button[type="submit"]').click();
      await expect.poll(() => figure.getAttribute('data-range'), { timeout: 15_000 }).toBe('custom');
      expect(await figure.getAttribute('data-refused')).toBeNull();
      expect(await page.locator('.ts-status').innerText()).toBe('');
      await page.screenshot({ path: join(SCREENSHOTS, 'tasks-refused-range-corrected-1280.png') });
    });
  });
});

describe('tables, the 404 page', () => {
  test('the alarms page’s two tables sort and filter apart, each with its own parameters in the address', async () => {
    const base = radar.url;
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${base}/browse/alarms/`, { waitUntil: 'load' });
      const files = page.locator('table#latest-alarms');
      const radars = page.locator('table#alarms-by-radar');
      await expect.poll(() => files.getAttribute('data-ready')).toBe('true');
      await expect.poll(() => radars.getAttribute('data-ready')).toBe('true');
      // the by-radar table by "any alarm", fewest first: the counts ascend
      await radars.locator('th[data-key="any"] button').click();
      const counts = (await radars.locator('tbody tr:not([hidden]) td:nth-of-type(2)').allInnerTexts()).map((t) => Number(t.replace(/\D/g, '')));
      expect(counts.length).toBeGreaterThan(1);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      // the latest day's files filtered by one radar's code: only its rows, the other table untouched
      const codes = await files.locator('tbody tr td:nth-of-type(1)').allInnerTexts();
      const code = codes[0]!.trim();
      await page.locator('#latest-alarms-filter').fill(code);
      const kept = await files.locator('tbody tr:not([hidden]) td:nth-of-type(1)').allInnerTexts();
      expect(kept.length).toBe(codes.filter((c) => c.trim() === code).length);
      expect(await radars.locator('tbody tr:not([hidden])').count()).toBe(counts.length);
      const url = new URL(page.url());
      expect(Object.fromEntries(url.searchParams)).toEqual({ q: code, 'r-sort': 'any', 'r-order': 'asc' });
      // a bookmark gives both tables back as they were
      await page.goto(url.href, { waitUntil: 'load' });
      await expect.poll(() => radars.getAttribute('data-ready')).toBe('true');
      expect(await radars.locator('th[data-key="any"]').getAttribute('aria-sort')).toBe('ascending');
      expect(await files.locator('tbody tr:not([hidden])').count()).toBe(kept.length);
    });
  });

  test('the radars table sorts and filters, and the address keeps both', async () => {
    const base = radar.url;
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${base}/browse/radars/`, { waitUntil: 'load' });
      const table = page.locator('table#radars');
      await expect.poll(() => table.getAttribute('data-ready')).toBe('true');
      const visible = () => table.locator('tbody tr:not([hidden]) th').allInnerTexts();
      const total = (await visible()).length;
      await table.locator('th[data-key="from"] button').click();
      expect(await table.locator('th[data-key="from"]').getAttribute('aria-sort')).toBe('ascending');
      const from = await table.locator("tbody tr td.date:nth-of-type(6)").allInnerTexts();
      expect(from.filter(Boolean)).toEqual([...from.filter(Boolean)].sort());
      await table.locator('th[data-key="code"] button').click();
      await table.locator('th[data-key="code"] button').click();
      expect(await table.locator('th[data-key="code"]').getAttribute('aria-sort')).toBe('descending');
      const codes = await visible();
      expect(codes).toEqual([...codes].sort().reverse());
      await page.locator('#radars-filter').fill('saskatchewan');
      const kept = await visible();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(total);
      expect(kept).toContain('sas');
      const url = new URL(page.url());
      expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'saskatchewan', sort: 'code', order: 'desc' });
      // the dates fit on one line at 1280 px (no "1986-/10-01")
      const tall = await table.locator('td.date').evaluateAll((tds) => tds.filter((td) => !(td as HTMLElement).hidden && td.getBoundingClientRect().height > 2.2 * parseFloat(getComputedStyle(td).lineHeight)).length);
      expect(tall).toBe(0);
      // a bookmark of the state gives the same table
      await page.goto(url.href, { waitUntil: 'load' });
      await expect.poll(() => table.getAttribute('data-ready')).toBe('true');
      expect(await visible()).toEqual(kept);
      expect(await page.locator('#radars-filter').inputValue()).toBe('saskatchewan');
    });
  });

  test('the timeseries and stations tables filter diacritics-insensitively and show units typeset with the last value’s time', async () => {
    const base = ts.url;
    await withPage(DESKTOP, async (page) => {
      await page.goto(`${base}/browse/timeseries/?q=koeln`, { waitUntil: 'load' });
      const table = page.locator('table#timeseries');
      await expect.poll(() => table.getAttribute('data-ready')).toBe('true');
      const rows = await table.locator('tbody tr:not([hidden])').allInnerTexts();
      expect(rows.length).toBeGreaterThan(0);
      // the German label Köln, written without its umlaut, finds Cologne's series (and nothing else)
      expect(rows.every((r) => /Cologne/.test(r))).toBe(true);
      const text = (await table.locator('tbody').innerText());
      expect(text).not.toMatch(/m3\/s|ug\/m3/);
      await page.goto(`${base}/browse/timeseries/`, { waitUntil: 'load' });
      const all = await page.locator('table#timeseries tbody').innerText();
      expect(all).toContain('m³/s');
      expect(all).toContain('µg/m³');
      expect(await page.locator('table#timeseries tbody time').count()).toBeGreaterThan(0);
      await page.goto(`${base}/browse/stations/`, { waitUntil: 'load' });
      const stations = await page.locator('table#stations tbody').innerText();
      expect(stations).toContain('m³/s');
      expect(stations).not.toMatch(/m3\/s|ug\/m3/);
      expect(await page.locator('table#stations tbody time').count()).toBeGreaterThan(0);
    });
  });

  test('an unknown site path is an HTML page with status 404; an unknown API path keeps its JSON error', async () => {
    const base = radar.url;
    await withPage(DESKTOP, async (page) => {
      const res = await page.goto(`${base}/browse/radars/xyz/`, { waitUntil: 'load' });
      expect(res?.status()).toBe(404);
      expect(res?.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.locator('main h1').innerText()).toBe('Page not found');
      expect(await page.locator('nav[aria-label="Site"] a').count()).toBeGreaterThan(3);
    });
    for (const path of [`${RADAR_PREFIX}/nope`, '/superdarn/mirror/v3/nope', '/api/v1/nope']) {
      const res = await fetch(`${base}${path}`, { headers: { Accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(((await res.json()) as { statusCode: number }).statusCode).toBe(404);
    }
  });
});

describe('every page family: accessible in light and dark, light to load, looked at', () => {
  const pages = (): { name: string; base: string; path: string }[] => [
    { name: 'home', base: radar.url, path: '/' },
    { name: 'radars', base: radar.url, path: '/browse/radars/' },
    { name: 'radar', base: radar.url, path: '/browse/radars/sas/' },
    { name: 'finder', base: radar.url, path: '/browse/files/' },
    { name: 'alarms', base: radar.url, path: '/browse/alarms/' },
    { name: 'availability', base: radar.url, path: '/browse/availability/' },
    { name: 'search-radar', base: radar.url, path: '/search/?q=sas' },
    { name: 'stations', base: ts.url, path: '/browse/stations/' },
    { name: 'timeseries', base: ts.url, path: '/browse/timeseries/' },
    { name: 'series', base: ts.url, path: '/browse/timeseries/ts_koeln_rhein_water_level/' },
    { name: 'series-month', base: ts.url, path: '/browse/timeseries/ts_koeln_rhein_water_level/?range=month' },
    { name: 'station', base: ts.url, path: '/browse/stations/sta_koeln_rhein/' },
    { name: 'search-ts', base: ts.url, path: '/search/?q=koeln' },
    { name: 'docs-timeseries', base: ts.url, path: '/docs/timeseries/' },
    { name: 'not-found', base: radar.url, path: '/browse/radars/xyz/' },
  ];

  test.for(['light', 'dark'] as const)('axe: no serious or critical violation (%s)', { timeout: 120_000 }, async (scheme) => {
    const serious: string[] = [];
    await withPage({ ...DESKTOP, colorScheme: scheme }, async (page) => {
      for (const p of pages()) {
        await page.goto(`${p.base}${p.path}`, { waitUntil: 'load' });
        await page.waitForTimeout(200); // the scripts' results (search, tables)
        await page.evaluate(axe.source);
        const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') serious.push(`${p.path} ${v.impact} ${v.id} (${v.nodes.length}×): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        }
      }
    });
    expect(serious, `serious or critical axe violations in ${scheme}:\n${serious.join('\n')}`).toEqual([]);
  });

  test(`every page weighs under ${MAX_PAGE_BYTES / 1024} KB before images; screenshots at 1280 and 390 px, light and dark`, async () => {
    const heavy: string[] = [];
    const weights: string[] = [];
    for (const [width, options] of [['1280', DESKTOP], ['390', PHONE]] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await withPage({ ...options, colorScheme: scheme }, async (page) => {
          for (const p of pages()) {
            await page.goto(`${p.base}${p.path}`, { waitUntil: 'load' });
            await page.waitForTimeout(200); // the scripts' requests (the search index)
            // the bytes of the document and of every resource but images, as decoded (compression not counted)
            const bytes = await page.evaluate(() =>
              [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
                .filter((e) => (e as PerformanceResourceTiming).initiatorType !== 'img' && !/\.(png|jpe?g|gif|webp|avif|svg|ico)(\?|$)/.test(e.name))
                .reduce((n, e) => n + (e as PerformanceResourceTiming).decodedBodySize, 0),
            );
            if (width === '1280' && scheme === 'light') weights.push(`${p.name} ${(bytes / 1024).toFixed(0)} KB`);
            if (bytes > MAX_PAGE_BYTES) heavy.push(`${p.path}: ${bytes} bytes`);
            await page.screenshot({ path: join(SCREENSHOTS, `tasks-${p.name}-${width}-${scheme}.png`) });
          }
        });
      }
    }
    console.log(`[browser] page weights before images: ${weights.join(', ')}`);
    expect(heavy).toEqual([]);
  }, 180_000);
});
