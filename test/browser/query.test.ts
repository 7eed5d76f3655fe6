/**
 * "Query in your browser" (/query/): DuckDB-WASM, self-hosted, under the site's CSP plus 'wasm-unsafe-eval' on the
 * query paths only, runs each example query in a real Chromium over the endpoints serving the demo builds, reading
 * the Parquet downloads from the host by HTTP range; each answer is checked against the API's. No request leaves
 * the host, no CSP violation, no failed request; the DuckDB files load on that page only.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { describeProblems, DESKTOP, watchPage } from '../helpers/browser.ts';
import { type Served, json } from '../helpers/servers.ts';
import { useSiteServers } from '../helpers/site-servers.ts';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots-query');
const R = '/radarnet/mirror/v3';

let browser: Browser;
let radar: Served;
let ts: Served;

useSiteServers(SCREENSHOTS, (s) => ({ browser, radar, ts } = s));

interface Ran {
  columns: string[];
  rows: string[][];
  params: Record<string, string>;
  /** Every request the page made, with its Range header when it had one. */
  requests: { url: string; range: string | undefined; status: number }[];
  problems: string[];
}

/** Opens /query/ on `base`, clicks the example `id` and reads the answer's table. */
async function runExample(base: string, id: string, shot: string): Promise<Ran> {
  const context = await browser.newContext(DESKTOP);
  try {
    const page: Page = await context.newPage();
    const watch = watchPage(page, base);
    const requests: Ran['requests'] = [];
    page.on('response', (res) => void requests.push({ url: res.url(), range: res.request().headers()['range'], status: res.status() }));
    await page.goto(`${base}/query/`, { waitUntil: 'load' });
    const button = page.locator(`button[data-example="${id}"]`);
    const params = JSON.parse((await button.getAttribute('data-params')) ?? '{}') as Record<string, string>;
    await button.click();
    await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('status')?.dataset['state'] ?? ''), undefined, { timeout: 120_000 });
    const status = (await page.locator('#status').textContent()) ?? '';
    if (status.startsWith('Error')) throw new Error(`${id}: ${status}`);
    const columns = await page.locator('#result thead th').allTextContents();
    const rows = await page.locator('#result tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    await page.screenshot({ path: join(SCREENSHOTS, `${shot}.png`), fullPage: true });
    return { columns, rows, params, requests, problems: describeProblems(watch.problems) };
  } finally {
    await context.close();
  }
}

function checkRequests(ran: Ran, base: string): void {
  expect(ran.problems).toEqual([]);
  const origin = new URL(base).origin;
  expect(ran.requests.filter((r) => new URL(r.url).origin !== origin)).toEqual([]);
  // the Parquet files were read by range, not whole
  const parquet = ran.requests.filter((r) => r.url.endsWith('.parquet'));
  expect(parquet.length).toBeGreaterThan(0);
  expect(parquet.some((r) => r.status === 206 && r.range !== undefined)).toBe(true);
}

describe('the examples answer what the API answers', () => {
  test('files of a radar on a day', async () => {
    const ran = await runExample(radar.url, 'radar-day', 'radar-day');
    checkRequests(ran, radar.url);
    const { radar: code, day } = ran.params;
    const api = await json<{ id: number; filename: string; file_size: string | number; file_start_datetime: string }[]>(
      radar.url,
      `${R}/files?radar_code=${code}&timespan=${day}T00:00:00Z/${day}T23:59:59Z&expanded=true`,
    );
    const simple = await json<{ id: number; filename: string }[]>(radar.url, `${R}/files?radar_code=${code}&timespan=${day}T00:00:00Z/${day}T23:59:59Z`);
    expect(api.length).toBeGreaterThan(0);
    expect(ran.columns.slice(0, 2)).toEqual(['id', 'filename']);
    expect(ran.rows.map((r) => [Number(r[0]), r[1]])).toEqual(simple.map((r) => [r.id, r.filename]));
    const start = ran.columns.indexOf('file_start_datetime');
    expect(ran.rows.map((r) => Date.parse(r[start]!))).toEqual(api.map((r) => Date.parse(r.file_start_datetime)));
  }, 180_000);

  test('alarms by category', async () => {
    const ran = await runExample(radar.url, 'alarms', 'alarms');
    checkRequests(ran, radar.url);
    const all = await json<{ id: number; transferred_file_status: string | null }[]>(radar.url, `${R}/transferred/files?expanded=true`);
    const byCategory = new Map<string, { alarms: number; files: Set<number> }>();
    for (const r of all) {
      if (r.transferred_file_status === null) continue;
      const c = byCategory.get(r.transferred_file_status) ?? { alarms: 0, files: new Set() };
      c.alarms++;
      c.files.add(r.id);
      byCategory.set(r.transferred_file_status, c);
    }
    expect(byCategory.size).toBeGreaterThan(0);
    expect(ran.columns).toEqual(['category', 'alarms', 'files']);
    expect(ran.rows).toEqual([...byCategory].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, v]) => [c, String(v.alarms), String(v.files.size)]));
  }, 180_000);

  test("a series' monthly means", async () => {
    const ran = await runExample(ts.url, 'monthly-means', 'monthly-means');
    checkRequests(ran, ts.url);
    const id = ran.params['series']!;
    const meta = await json<{ firstValue: { timestamp: number }; lastValue: { timestamp: number } }>(ts.url, `/api/v1/timeseries/${id}`);
    const span = `${new Date(meta.firstValue.timestamp).toISOString()}/${new Date(meta.lastValue.timestamp).toISOString()}`;
    const data = await json<{ values: { timestamp: number; value: number | null }[] }>(ts.url, `/api/v1/timeseries/${id}/getData?timespan=${encodeURIComponent(span)}`);
    const months = new Map<string, number[]>();
    for (const v of data.values) {
      if (v.value === null) continue;
      const m = new Date(v.timestamp).toISOString().slice(0, 7);
      months.set(m, [...(months.get(m) ?? []), v.value]);
    }
    expect(months.size).toBeGreaterThan(0);
    expect(ran.columns).toEqual(['month', 'mean', 'values']);
    expect(ran.rows.map((r) => r[0]!.slice(0, 7))).toEqual([...months.keys()].sort());
    for (const r of ran.rows) {
      const vals = months.get(r[0]!.slice(0, 7))!;
      expect(Number(r[2])).toBe(vals.length);
      expect(Number(r[1])).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 6);
    }
  }, 180_000);
});

describe('the DuckDB files are the query page\'s only', () => {
  test("the page and the worker carry 'wasm-unsafe-eval'; other pages do not, and load no DuckDB", async () => {
    const page = await fetch(`${radar.url}/query/`);
    expect(page.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    const worker = await fetch(`${radar.url}/query/duckdb/duckdb-browser-eh.worker.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    const home = await fetch(`${radar.url}/`);
    expect(home.headers.get('content-security-policy')).not.toContain('wasm');
    const context = await browser.newContext(DESKTOP);
    try {
      const p = await context.newPage();
      const urls: string[] = [];
      p.on('request', (r) => void urls.push(r.url()));
      for (const path of ['/', '/docs/downloads/', '/browse/radars/']) await p.goto(`${radar.url}${path}`, { waitUntil: 'load' });
      expect(urls.filter((u) => /duckdb|\.wasm/.test(u))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
