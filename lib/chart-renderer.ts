/**
 * The chart renderer: one warm headless Chromium per process with a pool of pages. A PNG is a screenshot
 * of an HTML page at the requested size; a PDF is Chromium's print of a report page.
 *
 * - The browser starts on the first render (or `warm()`), not at construction.
 * - A chart is let in by an admission gate (lib/admission.ts) before its document is even made: at most `pages`
 *   at once and at most `budgetBytes` of their estimated cost (core/timeseries/chart-points.ts `chartCost`);
 *   more wait their turn in order, up to `maxWaiting` of them for up to `maxWaitMs` (or, while the queue stands,
 *   RENDER_TARGET_MS, newest first), else `RendererBusy` with the queue's drain time as Retry-After.
 * - A render has one time limit from the moment it is let in, retry included: a render that fails because the
 *   browser crashed or went away replaces the browser and is tried once more in the time left; one that ran out
 *   of time is not tried again. Either way the slot is free by the limit, which the 503 names (issue 18: the 503
 *   must say how long the slot was held). The discarded browser may live on for up to 3 s (#discard), beside the
 *   next render's new one: its memory is outside the admission budget, as a browser's memory always is.
 * - A discarded browser cannot take this process with it: its pipes keep an 'error' listener of ours for as long
 *   as they live (guardBrowserProcess; issue 18's crash mix 3 was an unhandled `read ECONNRESET` on one).
 * - The browser is connected by a pipe, not a socket: when the endpoint process dies, even by `kill -9`, the pipe
 *   closes and Chromium exits with it (no browser left behind).
 */
import type { Browser, Page } from 'puppeteer-core';
import type { ChartDocument } from '../core/charts/page.ts';
import { AdmissionGate, AdmissionRefused, type Admitted } from './admission.ts';
import { BASE_ARGS, resolveChromium, type ChromiumExecutable } from './chromium.ts';

/** What to render: a chart page to screenshot or a report to print (core/charts/page.ts). */
export type RenderJob = ChartDocument;

export interface RendererOptions {
  /** Pages rendering at once (default 2: one per core of the machines this runs on). */
  pages?: number;
  /** Time limit of a render from the moment it is let in, its retry included, ms (default 15 s). */
  timeoutMs?: number;
  /** The executable; default `resolveChromium()`. */
  executable?: ChromiumExecutable;
  /** Renders that may wait to be let in (default 512: a bound on memory, not on load); one more fails at once with `RendererBusy`. */
  maxWaiting?: number;
  /** How long a render may wait to be let in, ms (default 10 s); then `RendererBusy`. */
  maxWaitMs?: number;
  /** Summed estimated cost of the renders let in at once, bytes (default 192 MiB). */
  budgetBytes?: number;
  /** The longest wait while the render queue stands, ms (default RENDER_TARGET_MS); lib/admission.ts. */
  targetMs?: number;
  /** How long the render queue must go without going well (empty, or its oldest let in within the target) to stand, ms (default RENDER_INTERVAL_MS). */
  intervalMs?: number;
}

/**
 * The render queue sheds by time as the DuckDB pool's does (lib/admission.ts, one policy): once for 5 s it has
 * neither been empty nor let its oldest chart in within 1 s, and its oldest has waited 1 s, a chart waits at most 1 s, newest first. Renders hold a page for 0.1-0.5 s (a small PNG) to a few
 * seconds (a 100-series PDF), so the interval is longer than the pool's: four large PDFs at once (issue 18's crash
 * mix) queue for about two renders' time, a burst, and all are drawn; fifty clients asking for charts again and
 * again keep the queue standing, and the surplus gets its 503 after a second's wait, with a Retry-After of the
 * queue's drain time, instead of at once (issue 18: 364 charts drawn against 26,980 × 503 at 50 connections).
 */
export const RENDER_TARGET_MS = 1000;
export const RENDER_INTERVAL_MS = 5000;
/** Renders that may wait: each holds its parsed request (a POST body of at most 64 KB), not its document. */
export const RENDER_MAX_WAITING = 512;

/** The cost a render is let in with when its caller names none (a default-sized chart of a few series). */
export const DEFAULT_RENDER_COST = 8 * 1024 * 1024;

/** Too many renders are waiting, or one waited too long: the caller should answer 503 with `Retry-After`. */
export class RendererBusy extends Error {
  readonly retryAfterS: number;
  constructor(retryAfterS = 1, message = 'too many charts are waiting to be rendered') {
    super(message);
    this.name = 'RendererBusy';
    this.retryAfterS = retryAfterS;
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

/** Images larger than this (HTML characters, or pixels) are drawn on a page that is closed afterwards. */
export const LARGE_IMAGE = { chars: 1_000_000, pixels: 4_000_000 };

/**
 * Whether a job's page is closed after it is drawn, not pooled: a pooled page kept the memory of its largest
 * render for good (measured: a report of 5,000 values, even of one series, left its browser 300-600 MB larger;
 * a 4000×4000 image 350-400 MB). So every report, and every large image, gets a page of its own; a fresh page
 * costs some 50 ms.
 */
export function leavesLargeRemains(job: RenderJob): boolean {
  if (job.kind === 'pdf') return true;
  return job.html.length > LARGE_IMAGE.chars || job.width * job.height > LARGE_IMAGE.pixels;
}

/**
 * Keeps a browser's pipes from killing this process. puppeteer listens for 'error' on the CDP pipes (fds 3 and 4)
 * only while its connection is open: closing the browser disposes those listeners, and a browser that then exits
 * with bytes of ours still unread in its pipe (killed while closing, as a discarded browser is after 2 s, or
 * crashed) makes node report `read ECONNRESET` on the pipe as an 'error' event that nobody handles: the process
 * exits (issue 18's crash mix 3, right after a render timed out and its browser was discarded). So every stdio
 * stream of the browser process, and the process itself, keeps a listener of ours for as long as they live; an
 * error there only marks the browser dead (it is replaced before the next render).
 */
export function guardBrowserProcess(browser: Browser, onError: (e: Error) => void): void {
  const proc = browser.process();
  if (!proc) return;
  proc.on('error', onError);
  for (const stream of proc.stdio) stream?.on('error', onError);
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
  /** Its discard, once begun (#discard). */
  gone?: Promise<void>;
}

export class ChartRenderer {
  readonly pages: number;
  readonly timeoutMs: number;
  readonly maxWaiting: number;
  readonly gate: AdmissionGate;
  #executable: ChromiumExecutable | undefined;
  #session: Promise<Session> | undefined;
  /** The session #session resolved to, once it has. */
  #current: Session | undefined;
  #closed = false;
  /** Browsers launched so far (a replaced browser counts again). */
  launches = 0;

  constructor(options: RendererOptions = {}) {
    this.pages = Math.max(1, options.pages ?? 2);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxWaiting = options.maxWaiting ?? RENDER_MAX_WAITING;
    this.gate = new AdmissionGate({
      concurrency: this.pages,
      budget: options.budgetBytes ?? 192 * 1024 * 1024,
      maxWaiting: this.maxWaiting,
      maxWaitMs: options.maxWaitMs ?? 10_000,
      what: 'charts',
      gate: 'render',
      targetMs: options.targetMs ?? RENDER_TARGET_MS,
      intervalMs: options.intervalMs ?? RENDER_INTERVAL_MS,
    });
    this.#executable = options.executable;
  }

  /** Renders let in and waiting to be: the render queue (for the endpoint's metrics). */
  get load(): { busy: number; waiting: number } {
    return { busy: this.gate.inUse, waiting: this.gate.waiting };
  }

  /** Starts the browser now rather than on the first render. */
  async warm(): Promise<void> {
    await this.#currentSession();
  }

  /** The browser's process id (for tests that kill it), once it runs. */
  async browserPid(): Promise<number | undefined> {
    return (await this.#currentSession()).browser.process()?.pid;
  }

  /**
   * Lets a render of `cost` bytes in (waiting its turn), before its document is made; `RendererBusy` when it
   * cannot be let in. Release the admission when done with it (render() does not).
   */
  async admit(cost = DEFAULT_RENDER_COST): Promise<Admitted> {
    if (this.#closed) throw new RenderFailed('the renderer is closed');
    try {
      return await this.gate.acquire(cost);
    } catch (e) {
      if (e instanceof AdmissionRefused) throw this.#busy(e);
      throw e;
    }
  }

  /** A refusal, one per kind and Retry-After, made once (no stack trace per refused chart; lib/admission.ts). */
  readonly #busyErrors = new Map<string, RendererBusy>();
  #busy(e: AdmissionRefused): RendererBusy {
    const key = `${e.why} ${e.retryAfterS}`;
    let b = this.#busyErrors.get(key);
    if (!b) this.#busyErrors.set(key, (b = new RendererBusy(e.retryAfterS, e.why === 'full' ? 'too many charts are waiting to be rendered' : 'no render slot came free in time')));
    return b;
  }


  /**
   * Renders a job; with `admitted`, as part of that admission (its time limit counts from then), else let in
   * with DEFAULT_RENDER_COST for this render alone.
   */
  async render(job: RenderJob, admitted?: Admitted): Promise<Buffer> {
    if (this.#closed) throw new RenderFailed('the renderer is closed');
    const own = admitted === undefined;
    const a = admitted ?? (await this.admit());
    const deadline = a.since + this.timeoutMs;
    try {
      try {
        return await this.#attempt(job, deadline);
      } catch (first) {
        // A render that ran out of time would run out again; the time is the client's answer, not two of it.
        if (first instanceof RenderTimeout) throw first;
        // Whatever else ended the attempt (a browser discarded under it: puppeteer's ProtocolError, "Target
        // closed"), the caller gets one of the renderer's own reasons, each a 503 for the endpoint.
        if (performance.now() >= deadline) throw new RenderTimeout(this.timeoutMs);
        if (this.#closed) throw first instanceof RenderFailed ? first : new RenderFailed(`the renderer closed during the render: ${(first as Error).message}`, { cause: first });
        // The failed attempt marked its browser dead: the retry gets a new one.
        try {
          return await this.#attempt(job, deadline);
        } catch (second) {
          throw second instanceof RenderFailed ? second : new RenderFailed(`the browser failed twice: ${(second as Error).message}`, { cause: second });
        }
      }
    } finally {
      if (own) a.release();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#discardSession();
  }

  // ---------- one attempt ----------

  async #attempt(job: RenderJob, deadline: number): Promise<Buffer> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeout(this.timeoutMs)), Math.max(0, deadline - performance.now()));
    });
    let session: Session | undefined;
    const work = (async () => {
      session = await this.#currentSession();
      const pooled = await this.#takePage(session);
      const out = await this.#draw(pooled, job);
      if (leavesLargeRemains(job)) {
        // its renderer would keep the memory of a large page (a few hundred MB) for as long as the page lives
        session.pageCount--;
        await pooled.page.close().catch(() => {});
      } else session.idle.push(pooled);
      return out;
    })();
    work.catch(() => {}); // after a timeout its rejection is nobody's
    try {
      return await Promise.race([work, limit]);
    } catch (e) {
      // A page that failed or timed out may be in any state: the whole browser is replaced.
      if (session) void this.#retire(session);
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
      // CDP over a pipe (fds 3 and 4): Chromium exits when it closes, that is when this process dies in any way.
      pipe: true,
    });
    this.launches++;
    const session: Session = { browser, idle: [], pageCount: 0, dead: false };
    const markDead = () => {
      session.dead = true;
    };
    browser.on('disconnected', markDead);
    guardBrowserProcess(browser, markDead);
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

  /** Marks a session dead, stops it being handed out and closes it in the background; resolves when it is gone. */
  #retire(s: Session): Promise<void> {
    s.dead = true;
    if (this.#current === s) {
      this.#current = undefined;
      this.#session = undefined;
    }
    return this.#discard(s);
  }

  async #discardSession(): Promise<void> {
    const current = this.#session;
    this.#session = undefined;
    this.#current = undefined;
    if (!current) return;
    const s = await current.catch(() => undefined);
    if (s) await this.#discard(s);
  }

  /**
   * Closes a session's browser: asked to close, killed if it has not within 2 s (a browser busy with a render that
   * ran out of time may not answer), and waited for (1 s at most after the kill). Never rejects. Once per session:
   * a render's retire and the next render's look at a dead session share the one discard.
   */
  #discard(s: Session): Promise<void> {
    s.dead = true;
    s.gone ??= (async () => {
      const proc = s.browser.process();
      const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
      await Promise.race([s.browser.close().catch(() => {}), wait(2000)]);
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise<void>((r) => proc.once('exit', () => r()));
        proc.kill('SIGKILL');
        await Promise.race([exited, wait(1000)]);
      }
    })().catch(() => {});
    return s.gone;
  }
}
