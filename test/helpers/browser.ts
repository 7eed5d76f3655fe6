/**
 * A real browser for the site tests: Playwright (playwright-core, no browser download) driving the Chromium
 * that lib/chromium.ts resolves (CHROMIUM_PATH, a system chromium, else the packed `@sparticuz/chromium`, a
 * headless shell: Playwright's own `--headless` flag suits it as is). One browser per test file, shared by
 * its tests; each page in a context of its own. Also a plain static file server, to try the site without
 * the endpoint, as a static host would serve it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { BASE_ARGS, resolveChromium, type ChromiumExecutable } from '../../lib/chromium.ts';

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

let shared: Promise<{ browser: Browser; exe: ChromiumExecutable }> | undefined;

/** Launches the resolved Chromium under Playwright. */
export async function launchBrowser(): Promise<{ browser: Browser; exe: ChromiumExecutable }> {
  const exe = await resolveChromium();
  const browser = await chromium.launch({ executablePath: exe.path, args: [...BASE_ARGS, ...exe.args], headless: true, timeout: 30_000 });
  return { browser, exe };
}

/** The browser of this test file (one per process), launched on first use. */
export function sharedBrowser(): Promise<{ browser: Browser; exe: ChromiumExecutable }> {
  shared ??= launchBrowser();
  return shared;
}

export async function closeSharedBrowser(): Promise<void> {
  if (!shared) return;
  const s = shared;
  shared = undefined;
  await (await s.catch(() => undefined))?.browser.close();
}

export interface PageProblems {
  /** `console.error` messages, including the browser's own (a CSP violation, a resource that failed). */
  consoleErrors: string[];
  /** Uncaught exceptions and unhandled rejections of the page's scripts. */
  pageErrors: string[];
  /** Same-origin requests that failed on the network or were answered with a status of 400 or more. */
  failedRequests: string[];
}

export interface OpenedPage {
  page: Page;
  response: Response | null;
  problems: PageProblems;
  /** Navigation start to the end of the load event, from the page's Navigation Timing, in ms. */
  loadMs: number;
}

export function noProblems(p: PageProblems): boolean {
  return p.consoleErrors.length + p.pageErrors.length + p.failedRequests.length === 0;
}

export function describeProblems(p: PageProblems): string[] {
  return [
    ...p.consoleErrors.map((m) => `console error: ${m}`),
    ...p.pageErrors.map((m) => `page error: ${m}`),
    ...p.failedRequests.map((m) => `failed request: ${m}`),
  ];
}

/** Starts collecting the problems of a page (before its navigation). */
export function watchPage(page: Page, origin: string): { problems: PageProblems; inFlight: () => number } {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  let inFlight = 0;
  const sameOrigin = (url: string) => {
    try {
      return new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
  page.on('console', (m) => {
    if (m.type() === 'error') {
      const at = m.location();
      problems.consoleErrors.push(`${m.text()}${at.url ? ` (${at.url}:${at.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (e) => problems.pageErrors.push(e.stack ?? e.message));
  page.on('request', () => void inFlight++);
  page.on('response', (res) => {
    if (res.status() >= 400 && sameOrigin(res.url())) problems.failedRequests.push(`${res.request().method()} ${res.url()}: ${res.status()}`);
  });
  page.on('requestfinished', () => void inFlight--);
  page.on('requestfailed', (r) => {
    inFlight--;
    // ERR_ABORTED: cut short by a navigation (a form submitted natively, a link followed), not refused
    if (sameOrigin(r.url()) && r.failure()?.errorText !== 'net::ERR_ABORTED') problems.failedRequests.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText ?? 'failed'}`);
  });
  return { problems, inFlight: () => inFlight };
}

/** Waits until no request has been in flight for `quietMs` (at most `maxMs`): the page's scripts' fetches are done. */
export async function settle(inFlight: () => number, quietMs = 100, maxMs = 3000): Promise<void> {
  const until = Date.now() + maxMs;
  let quietSince = Date.now();
  while (Date.now() < until) {
    if (inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Navigation start to the end of the load event of the page's document, ms. */
export function loadTime(page: Page): Promise<number> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return nav ? nav.loadEventEnd - nav.startTime : NaN;
  });
}

/** Opens `url` in a new page of `context`, waits for its load event and its scripts' requests, and reports. */
export async function openPage(context: BrowserContext, url: string): Promise<OpenedPage> {
  const page = await context.newPage();
  const { problems, inFlight } = watchPage(page, new URL(url).origin);
  const response = await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
  await settle(inFlight);
  return { page, response, problems, loadMs: await loadTime(page) };
}

/** A page reused for many visits (cheaper than a page per visit), each visit with its own problems. */
export interface Tab {
  page: Page;
  visit(url: string): Promise<Omit<OpenedPage, 'page'>>;
}

export async function openTab(context: BrowserContext): Promise<Tab> {
  const page = await context.newPage();
  let origin = '';
  let current: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  let inFlight = 0;
  const sameOrigin = (url: string) => url.startsWith(`${origin}/`) || url === origin;
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const at = m.location();
    current.consoleErrors.push(`${m.text()}${at.url ? ` (${at.url}:${at.lineNumber})` : ''}`);
  });
  page.on('pageerror', (e) => current.pageErrors.push(e.stack ?? e.message));
  page.on('request', () => void inFlight++);
  page.on('response', (res) => {
    if (res.status() >= 400 && sameOrigin(res.url())) current.failedRequests.push(`${res.request().method()} ${res.url()}: ${res.status()}`);
  });
  page.on('requestfinished', () => void inFlight--);
  page.on('requestfailed', (r) => {
    inFlight--;
    // a request of the previous document, cut short by this navigation, is not this page's problem
    if (sameOrigin(r.url()) && r.failure()?.errorText !== 'net::ERR_ABORTED') current.failedRequests.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText ?? 'failed'}`);
  });
  return {
    page,
    async visit(url) {
      origin = new URL(url).origin;
      const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
      current = problems;
      const response = await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
      await settle(() => inFlight, 50);
      return { response, problems, loadMs: await loadTime(page) };
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.sha1': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A plain static file server over a folder, as a static host serves the tree without the endpoint: a path is
 * a file, or a folder with an index.html; the query is ignored; anything else is 404. GET and HEAD only.
 */
export async function startStaticServer(root: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      let st = await stat(file).catch(() => undefined);
      if (st?.isDirectory()) {
        file = join(file, 'index.html');
        st = await stat(file).catch(() => undefined);
      }
      if (!st?.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': st.size });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    })().catch((e: unknown) => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
