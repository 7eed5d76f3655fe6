/**
 * The chart renderer: one warm headless Chromium per process with a pool of pages. A PNG is a screenshot
 * of an HTML page at the requested size; a PDF is Chromium's print of a report page.
 *
 * - The browser starts on the first render (or `warm()`), not at construction.
 * - At most `pages` renders run at once; more wait their turn in order.
 * - A render has a time limit. A render that fails because the browser crashed, hung or went away
 *   replaces the browser and is tried once more; a second failure is a `RenderFailed`.
 */
import type { Browser, Page } from 'puppeteer-core';
import type { ChartDocument } from '../core/charts/page.ts';
import { BASE_ARGS, resolveChromium, type ChromiumExecutable } from './chromium.ts';
import { reportAdmitted, reportRefused, waitClock } from './admission.ts';

/** What to render: a chart page to screenshot or a report to print (core/charts/page.ts). */
export type RenderJob = ChartDocument;

export interface RendererOptions {
  /** Pages rendering at once (default 2: one per core of the machines this runs on). */
  pages?: number;
  /** Time limit of one render attempt, ms (default 15 s). */
  timeoutMs?: number;
  /** The executable; default `resolveChromium()`. */
  executable?: ChromiumExecutable;
  /** Renders that may wait for a page (default 32); one more fails at once with `RendererBusy`. */
  maxWaiting?: number;
}

/** Too many renders are waiting: the caller should answer 503 rather than queue without bound. */
export class RendererBusy extends Error {
  constructor() {
    super('too many charts are waiting to be rendered');
    this.name = 'RendererBusy';
  }
}

export class RenderFailed extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RenderFailed';
  }
}

export class RenderTimeout extends RenderFailed {
  readonly ms: number;
  constructor(ms: number) {
    super(`rendering took longer than ${ms} ms`);
    this.name = 'RenderTimeout';
    this.ms = ms;
  }
}

interface PooledPage {
  page: Page;
  width: number;
  height: number;
}

/** A browser with its pages; replaced whole when anything goes wrong. */
interface Session {
  browser: Browser;
  idle: PooledPage[];
  pageCount: number;
  dead: boolean;
}

export class ChartRenderer {
  readonly pages: number;
  readonly timeoutMs: number;
  readonly maxWaiting: number;
  #executable: ChromiumExecutable | undefined;
  #session: Promise<Session> | undefined;
  /** The session #session resolved to, once it has. */
  #current: Session | undefined;
  #waiting: (() => void)[] = [];
  #busy = 0;
  #closed = false;
  /** Browsers launched so far (a replaced browser counts again). */
  launches = 0;

  constructor(options: RendererOptions = {}) {
    this.pages = Math.max(1, options.pages ?? 2);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxWaiting = options.maxWaiting ?? 32;
    this.#executable = options.executable;
  }

  /** Renders running and waiting for a page: the render queue (for the endpoint's metrics). */
  get load(): { busy: number; waiting: number } {
    return { busy: this.#busy, waiting: this.#waiting.length };
  }

  /** Starts the browser now rather than on the first render. */
  async warm(): Promise<void> {
    await this.#currentSession();
  }

  /** The browser's process id (for tests that kill it), once it runs. */
  async browserPid(): Promise<number | undefined> {
    return (await this.#currentSession()).browser.process()?.pid;
  }

  async render(job: RenderJob): Promise<Buffer> {
    if (this.#closed) throw new RenderFailed('the renderer is closed');
    await this.#slot();
    try {
      try {
        return await this.#attempt(job);
      } catch (first) {
        if (this.#closed) throw first;
        // The failed attempt marked its browser dead: the retry gets a new one.
        try {
          return await this.#attempt(job);
        } catch (second) {
          throw second instanceof RenderFailed ? second : new RenderFailed(`the browser failed twice: ${(second as Error).message}`, { cause: second });
        }
      }
    } finally {
      this.#release();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#discardSession();
  }

  // ---------- one attempt ----------

  async #attempt(job: RenderJob): Promise<Buffer> {
    const session = await this.#currentSession();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeout(this.timeoutMs)), this.timeoutMs);
    });
    const work = (async () => {
      const pooled = await this.#takePage(session);
      const out = await this.#draw(pooled, job);
      session.idle.push(pooled);
      return out;
    })();
    work.catch(() => {}); // after a timeout its rejection is nobody's
    try {
      return await Promise.race([work, limit]);
    } catch (e) {
      // A page that failed or timed out may be in any state: the whole browser is replaced.
      this.#retire(session);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async #draw(pooled: PooledPage, job: RenderJob): Promise<Buffer> {
    const { page } = pooled;
    if (job.kind === 'png') {
      if (pooled.width !== job.width || pooled.height !== job.height) {
        await page.setViewport({ width: job.width, height: job.height, deviceScaleFactor: 1 });
        pooled.width = job.width;
        pooled.height = job.height;
      }
      await page.setContent(job.html, { waitUntil: 'load' });
      const png = await page.screenshot({
        type: 'png',
        clip: { x: 0, y: 0, width: job.width, height: job.height },
        optimizeForSpeed: true,
        captureBeyondViewport: false,
      });
      return Buffer.from(png);
    }
    await page.setContent(job.html, { waitUntil: 'load' });
    // Untagged: the tags of a values table made a 5,000-value report 4.6 MB instead of 270 KB.
    const pdf = await page.pdf({ format: job.paper, printBackground: true, preferCSSPageSize: true, tagged: false });
    return Buffer.from(pdf);
  }

  // ---------- browser and pages ----------

  #currentSession(): Promise<Session> {
    if (this.#closed) return Promise.reject(new RenderFailed('the renderer is closed'));
    this.#session ??= this.#launch();
    const current = this.#session;
    return current.then(
      (s) => {
        if (!s.dead) return s;
        if (this.#session === current) this.#session = undefined;
        return this.#discard(s).then(() => this.#currentSession());
      },
      (e: unknown) => {
        if (this.#session === current) this.#session = undefined;
        throw new RenderFailed(`Chromium did not start: ${(e as Error).message}`, { cause: e });
      },
    );
  }

  async #launch(): Promise<Session> {
    const { default: puppeteer } = await import('puppeteer-core');
    this.#executable ??= await resolveChromium();
    const exe = this.#executable;
    const browser = await puppeteer.launch({
      executablePath: exe.path,
      args: [...BASE_ARGS, ...exe.args],
      // The packed build is a headless shell; a full Chromium runs its own (new) headless mode.
      headless: exe.source === '@sparticuz/chromium' ? 'shell' : true,
      // Our own time limit governs renders; signals are the owner's to handle.
      protocolTimeout: Math.max(30_000, this.timeoutMs * 2),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.launches++;
    const session: Session = { browser, idle: [], pageCount: 0, dead: false };
    browser.on('disconnected', () => {
      session.dead = true;
    });
    this.#current = session;
    return session;
  }

  async #takePage(session: Session): Promise<PooledPage> {
    const idle = session.idle.pop();
    if (idle && !idle.page.isClosed()) return idle;
    const page = await session.browser.newPage();
    session.pageCount++;
    page.on('error', () => {
      session.dead = true;
    });
    // Charts and reports are self-contained: nothing is fetched.
    await page.setJavaScriptEnabled(false);
    return { page, width: 0, height: 0 };
  }

  /** Marks a session dead, stops it being handed out and closes it in the background. */
  #retire(s: Session): void {
    s.dead = true;
    if (this.#current === s) {
      this.#current = undefined;
      this.#session = undefined;
    }
    void this.#discard(s);
  }

  async #discardSession(): Promise<void> {
    const current = this.#session;
    this.#session = undefined;
    this.#current = undefined;
    if (!current) return;
    const s = await current.catch(() => undefined);
    if (s) await this.#discard(s);
  }

  async #discard(s: Session): Promise<void> {
    s.dead = true;
    const proc = s.browser.process();
    await Promise.race([s.browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }

  // ---------- the queue ----------

  async #slot(): Promise<void> {
    if (this.#busy < this.pages) {
      this.#busy++;
      reportAdmitted('render', 0, false);
      return;
    }
    if (this.#waiting.length >= this.maxWaiting) {
      reportRefused('render');
      throw new RendererBusy();
    }
    const admitted = waitClock('render');
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    admitted();
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#busy--;
  }
}
