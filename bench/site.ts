/**
 * The docs and browsing site on the demo snapshot (30 days, both APIs, as `npm start` builds it): the Astro
 * build's time, the largest page, and how long the map and chart pages take to render in headless Chromium
 * (navigation to the load event, warm browser, median of 5).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import puppeteer from 'puppeteer-core';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { build } from '../build-scripts/build.ts';
import { buildSite } from '../build-scripts/site.ts';
import { BASE_ARGS, resolveChromium } from '../lib/chromium.ts';
import { serve } from '../server/main.ts';
import { median } from './stats.ts';

export interface SiteBench {
  pages: number;
  siteSeconds: number;
  largestPage: { path: string; kb: number };
  renderMs: Record<string, number>;
}

function htmlPages(dir: string, root = dir, out: { path: string; bytes: number }[] = []): { path: string; bytes: number }[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p === join(root, 'api') || p === join(root, 'radarnet')) continue;
      htmlPages(p, root, out);
    } else if (e.name.endsWith('.html')) out.push({ path: `/${relative(root, p)}`, bytes: statSync(p).size });
  }
  return out;
}

export async function runSiteBenchmarks(work: string, log: (l: string) => void): Promise<SiteBench> {
  const snap = join(work, 'site-snapshot');
  const out = join(work, 'site-dist');
  if (!existsSync(join(out, 'build.json'))) {
    log('site: generating and building the 30-day demo (both APIs) ...');
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: snap, apis: ['radarnet-mirror-v3', 'timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true });
  }
  log('site: the Astro build alone ...');
  const site = await buildSite({ buildFolder: out, quiet: true });
  const pages = htmlPages(join(out, 'site'));
  const largest = pages.reduce((a, b) => (b.bytes > a.bytes ? b : a));

  const s = await serve({ build: out, port: 0, host: '127.0.0.1' });
  const exe = await resolveChromium();
  const browser = await puppeteer.launch({ executablePath: exe.path, args: [...BASE_ARGS, ...exe.args], headless: exe.source === '@sparticuz/chromium' ? 'shell' : true });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const firstSeries = pages.find((p) => p.path.startsWith('/browse/timeseries/ts_'))?.path.replace(/index\.html$/, '') ?? '/browse/timeseries/';
    const targets: Record<string, string> = { 'radar map': '/browse/radars/', 'station map': '/browse/stations/', 'timeseries chart': firstSeries, 'alarms dashboard': '/browse/alarms/' };
    const renderMs: Record<string, number> = {};
    for (const [name, path] of Object.entries(targets)) {
      await page.goto(`${s.url}${path}`, { waitUntil: 'load' });
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await page.goto(`${s.url}${path}`, { waitUntil: 'load' });
        times.push(performance.now() - t0);
      }
      renderMs[`${name} (${path})`] = median(times);
    }
    return { pages: site.pages, siteSeconds: site.seconds, largestPage: { path: largest.path, kb: largest.bytes / 1024 }, renderMs };
  } finally {
    await browser.close();
    await s.close();
  }
}
