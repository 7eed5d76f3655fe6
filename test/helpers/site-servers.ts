/**
 * The browser tests' shared setup: the file's browser, and an endpoint over each demo build (the radar demo and
 * the timeseries demo of the global setup), started before the file's tests and closed after them. Each file
 * keeps its own screenshots folder (test/browser/site.test.ts empties test/artifacts/screenshots/ when it starts).
 */
import { mkdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeSharedBrowser, sharedBrowser } from './browser.ts';
import { startEndpoint, type Served } from './servers.ts';

export interface SiteServers {
  browser: Browser;
  /** The endpoint over the radar demo build. */
  radar: Served;
  /** The endpoint over the timeseries demo build. */
  ts: Served;
}

/** Registers the file's beforeAll/afterAll; `ready` gets the browser and both endpoints once they run. */
export function useSiteServers(screenshots: string, ready: (s: SiteServers) => void): void {
  const started: Served[] = [];
  beforeAll(async () => {
    await mkdir(screenshots, { recursive: true });
    const browser = (await sharedBrowser()).browser;
    const [radar, ts] = await Promise.all(
      [inject('demoBuild'), inject('tsBuild')].map(async (build) => {
        const s = await startEndpoint(build);
        started.push(s);
        return s;
      }),
    );
    ready({ browser, radar: radar!, ts: ts! });
  }, 120_000);
  afterAll(async () => {
    await closeSharedBrowser();
    await Promise.all(started.map((s) => s.close()));
  });
}
