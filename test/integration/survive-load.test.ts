/**
 * Issue 18, "no request can crash the process", against real endpoint processes started as the npm scripts start
 * them (ENDPOINT_NODE_FLAGS, under the supervisor): the crash mix leaves the endpoint answering and every request
 * 200 or 503 with Retry-After, also when renders run out of time and their browser is discarded while more arrive
 * (the bench's crash mix 3, which once killed the worker); a worker that dies is replaced within 2 s; a killed
 * endpoint leaves no browser;
 * a build that cannot be opened at start is one line and exit 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { errorBodySchema } from '../../core/http/errors.ts';
import { startEndpointProcess } from '../../bench/radar.ts';
import { ENDPOINT_NODE_ENV, ENDPOINT_NODE_FLAGS } from '../../server/node-flags.ts';
import { freePort } from '../helpers/nginx.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { readPdf } from '../helpers/pdf.ts';
import { decodePng } from '../helpers/png.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  for (const c of childrenOf(pid)) out.push(c, ...descendantsOf(c));
  return out;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    // a zombie is gone for our purpose: its memory is freed
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The endpoint processes of a supervisor: its node children (their browsers are their children). */
function workersOf(supervisor: number): number[] {
  return childrenOf(supervisor).filter((p) => commandOf(p).includes('server/main.ts'));
}

/** The browser an endpoint process runs (its child that is not node), if it runs one. */
function browserMain(worker: number): number | undefined {
  return childrenOf(worker).find((p) => isAlive(p) && !commandOf(p).includes('server/main.ts'));
}

/** A process's browser processes (Chromium and its helpers) below it. */
function browsersBelow(pid: number): number[] {
  return descendantsOf(pid).filter((p) => !commandOf(p).includes('server/main.ts'));
}

async function until<T>(what: string, get: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000, every = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The stderr an endpoint process writes after it started (startEndpointProcess keeps reading it). */
function stderrOf(child: ChildProcess): () => string {
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += String(d)));
  return () => log;
}

const TS = 'ts_koeln_rhein_water_level';

describe('supervised: npm run serve without --workers', () => {
  test('a worker killed outright is replaced and the port answers again within 2 s', async () => {
    const port = await freePort();
    const supervisor = await startEndpointProcess(inject('tsBuild'), port);
    try {
      const url = `http://127.0.0.1:${port}/api/v1/timeseries/${TS}/getData?timespan=P1D/2024-01-08TZ&locale=de`;
      expect((await (await fetch(url)).arrayBuffer()).byteLength).toBeGreaterThan(0);
      const [worker] = await until('one worker', () => workersOf(supervisor.pid!).length === 1 && workersOf(supervisor.pid!));
      process.kill(worker!, 'SIGKILL');
      const killedAt = performance.now();
      // each try bounded: a connection taken while the worker died may never be answered
      await until('the port answering again', async () => (await fetch(url, { signal: AbortSignal.timeout(300) }).then((r) => r.status, () => 0)) === 200, 10_000, 20);
      expect(performance.now() - killedAt).toBeLessThan(2000);
      const [next] = workersOf(supervisor.pid!);
      expect(next).toBeDefined();
      expect(next).not.toBe(worker);
    } finally {
      await stop(supervisor);
    }
  }, 60_000);
});

describe('supervised: npm start', () => {
  test('serves its build under the same supervisor: a worker killed outright is replaced and the port answers again within 2 s', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, ...ENDPOINT_NODE_ENV };
    delete env['SNAPCAT_TIMESERIES_PROFILE'];
    // the test build is already a build of the snapshot in the default profile: npm start serves it as it is
    const start = spawn(process.execPath, [...ENDPOINT_NODE_FLAGS, 'build-scripts/start.ts', '--snapshot', inject('tsSnapshot'), '--out', inject('tsBuild'), '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const log = stderrOf(start);
    try {
      await until('npm start serving', () => log().includes('snapcat serving'), 60_000);
      expect(log()).toContain('is already a build of');
      const url = `http://127.0.0.1:${port}/api/v1/stations?locale=de`;
      expect((await (await fetch(url)).arrayBuffer()).byteLength).toBeGreaterThan(0);
      const [worker] = await until('one worker', () => workersOf(start.pid!).length === 1 && workersOf(start.pid!));
      process.kill(worker!, 'SIGKILL');
      const killedAt = performance.now();
      await until('the port answering again', async () => (await fetch(url, { signal: AbortSignal.timeout(300) }).then((r) => r.status, () => 0)) === 200, 10_000, 20);
      expect(performance.now() - killedAt).toBeLessThan(2000);
      expect(workersOf(start.pid!)).not.toContain(worker);
    } finally {
      await stop(start);
    }
  }, 120_000);
});

test('a build whose database is corrupt: one line naming it, exit code 1, no stack trace and no restarts', async () => {
  const dir = mkdtempSync(join(TEST_TMP, 'corrupt-'));
  try {
    const build = join(dir, 'build');
    const good = realpathSync(inject('tsBuild'));
    mkdirSync(build);
    cpSync(join(good, 'build.json'), join(build, 'build.json'));
    cpSync(join(good, 'data'), join(build, 'data'), { recursive: true });
    const db = readdirSync(join(build, 'data')).find((f) => f.endsWith('.duckdb'))!;
    writeFileSync(join(build, 'data', db), Buffer.alloc(300_000, 0x5a));
    const child = spawn(process.execPath, [...ENDPOINT_NODE_FLAGS, 'server/main.ts', '--build', build, '--port', String(await freePort())], {
      cwd: ROOT,
      env: { ...process.env, ...ENDPOINT_NODE_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const err = stderrOf(child);
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    const lines = err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^snapcat: cannot serve ${build.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*${db}.*not a valid DuckDB database`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

describe('the browser dies with its endpoint', () => {
  test('kill -9 of the endpoint process leaves none of its browser processes; nor does kill -9 of the supervisor', async () => {
    const port = await freePort();
    const supervisor = await startEndpointProcess(inject('tsBuild'), port);
    const chart = async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/timeseries/${TS}/getData.png?timespan=P1D/2024-01-08TZ&width=200&height=100`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    };
    try {
      await chart();
      const [worker] = workersOf(supervisor.pid!);
      const browsers = browsersBelow(worker!);
      expect(browsers.length).toBeGreaterThan(0);
      expect(browsers.some((p) => /chrom|headless/i.test(commandOf(p)))).toBe(true);
      process.kill(worker!, 'SIGKILL');
      await until('the browser processes of the killed endpoint to exit', () => browsers.every((p) => !isAlive(p)), 10_000);

      // the replacement renders with a browser of its own; kill -9 of the supervisor takes both down
      await until('a new worker', () => workersOf(supervisor.pid!).length === 1);
      await until('the new worker answering', async () => (await fetch(`http://127.0.0.1:${port}/api/v1/`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0)) === 200);
      await chart();
      const [second] = workersOf(supervisor.pid!);
      const all = [second!, ...browsersBelow(second!)];
      expect(all.length).toBeGreaterThan(1);
      supervisor.kill('SIGKILL');
      await until('the endpoint process and its browser to exit', () => all.every((p) => !isAlive(p)), 15_000);
    } finally {
      await stop(supervisor);
    }
  }, 120_000);
});

describe('the crash mix of issue 18', () => {
  test('four 100-series one-year PDFs and two 4000×4000 PNGs with a legend at once: each 200 or 503 with Retry-After, and the endpoint answers on', async () => {
    const port = await freePort();
    const supervisor = await startEndpointProcess(inject('tsBuild'), port);
    const log = stderrOf(supervisor);
    const base = `http://127.0.0.1:${port}/api/v1`;
    try {
      const [worker] = await until('one worker', () => workersOf(supervisor.pid!).length === 1 && workersOf(supervisor.pid!));
      const ids = ((await (await fetch(`${base}/timeseries?limit=100`)).json()) as { id: string }[]).map((t) => t.id);
      expect(ids).toHaveLength(100);
      const post = (accept: string, extra: object) => fetch(`${base}/timeseries/getData`, {
        method: 'POST',
        headers: { Accept: accept, 'Content-Type': 'application/json' },
        body: JSON.stringify({ timespan: 'P1Y/2024-01-31TZ', timeseries: ids, ...extra }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) }));
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => post('application/pdf', {})),
        ...Array.from({ length: 2 }, () => post('image/png', { width: 4000, height: 4000, legend: true })),
      ]);
      for (const [i, a] of answers.entries()) {
        expect([200, 503], `answer ${i}: ${a.status} ${a.body.subarray(0, 300).toString()}`).toContain(a.status);
        if (a.status === 503) {
          expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(errorBodySchema.parse(JSON.parse(a.body.toString())).statusCode).toBe(503);
        } else if (i < 4) {
          const pdf = await readPdf(a.body);
          const text = pdf.text.join(' ');
          // 100 series share the 5,000 values of the tables: each table is cut and names the CSV
          expect(text.includes('All values as CSV')).toBe(true);
          // (the PDF's text may break the long path anywhere)
          expect(text.replace(/\s+/g, '').includes(`/api/v1/timeseries/${ids[0]}/getData.csv?timespan=`)).toBe(true);
        } else {
          const png = decodePng(a.body);
          expect([png.width, png.height]).toEqual([4000, 4000]);
        }
      }
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      // the same process answers on: nothing crashed and nothing was restarted
      expect((await fetch(`${base}/stations`)).status).toBe(200);
      expect(workersOf(supervisor.pid!)).toEqual([worker]);
      expect(log()).not.toMatch(/exited|was killed|heap out of memory|FATAL|ECONNRESET/);
    } finally {
      await stop(supervisor);
    }
  }, 240_000);

  test('renders running out of time, their browser discarded while more renders arrive (mix 2, then mix 3 as its first renders time out): every answer 200 or 503 with Retry-After, and the same process answers on', async () => {
    const port = await freePort();
    // a lowered time limit makes the 100-series reports run out of time on any machine (they take seconds)
    const supervisor = await startEndpointProcess(inject('tsBuild'), port, 1, ENDPOINT_NODE_FLAGS, { SNAPCAT_RENDER_TIMEOUT_MS: '1500' });
    const log = stderrOf(supervisor);
    const base = `http://127.0.0.1:${port}/api/v1`;
    const stopped: number[] = [];
    try {
      const [worker] = await until('one worker', () => workersOf(supervisor.pid!).length === 1 && workersOf(supervisor.pid!));
      const ids = ((await (await fetch(`${base}/timeseries?limit=100`)).json()) as { id: string }[]).map((t) => t.id);
      const post = (accept: string, extra: object) => fetch(`${base}/timeseries/getData`, {
        method: 'POST',
        headers: { Accept: accept, 'Content-Type': 'application/json' },
        body: JSON.stringify({ timespan: 'P1Y/2024-01-31TZ', timeseries: ids, ...extra }),
        signal: AbortSignal.timeout(60_000),
      }).then(
        async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: Buffer.from(await r.arrayBuffer()) }),
        // a connection reset (the process died) is an answer of its own, and the test's failure
        (e: Error) => ({ status: 0, retryAfter: null, body: Buffer.from(e.message) }),
      );
      const pdf = () => post('application/pdf', {});
      const png = () => post('image/png', { width: 4000, height: 4000, legend: true });
      const small = () => fetch(`${base}/timeseries/${TS}/getData.png?timespan=P1D/2024-01-08TZ&width=200&height=100`, { signal: AbortSignal.timeout(30_000) }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
      const answers: Awaited<ReturnType<typeof post>>[] = [];
      for (let round = 0; round < 2; round++) {
        // a browser too busy to answer, as on the loaded machine where the renders took 5-18 s: it is stopped
        // (SIGSTOP) while mix 2 renders, so the renders run out of time, and the browser, asked to close, does not
        // within the 2 s it is given and is killed with the endpoint's messages unread in its pipe
        await until('a browser started', async () => {
          if (!workersOf(supervisor.pid!).includes(worker!)) throw new Error(`the endpoint process died:\n${log()}`);
          return (await small()) === 200 && browserMain(worker!);
        }, 30_000, 500);
        const browser = browserMain(worker!)!;
        const mix2 = [pdf(), pdf(), png(), png()];
        await new Promise((r) => setTimeout(r, 300));
        process.kill(browser, 'SIGSTOP');
        stopped.push(browser);
        // the first answer of mix 2 is a render that ran out of time: its browser is being discarded now
        await Promise.race(mix2);
        const mix3 = [pdf(), pdf(), pdf(), pdf(), png(), png()];
        answers.push(...(await Promise.all([...mix2, ...mix3])));
      }
      for (const [i, a] of answers.entries()) {
        expect([200, 503], `answer ${i}: ${a.status} ${a.body.subarray(0, 300).toString()}`).toContain(a.status);
        if (a.status === 503) {
          expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
          expect(errorBodySchema.parse(JSON.parse(a.body.toString())).statusCode).toBe(503);
        }
      }
      // the path under test was taken: renders ran out of time and browsers were discarded and started anew
      expect(answers.some((a) => a.status === 503 && a.body.toString().includes('took longer than 1500 ms'))).toBe(true);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(Number(/^snapcat_chart_browser_launches_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
      // the same process answers on, charts included (a small one fits the limit once a browser has started)
      expect((await fetch(`${base}/stations`)).status).toBe(200);
      await until('a small chart drawn', async () => (await small()) === 200, 30_000, 500);
      expect(workersOf(supervisor.pid!)).toEqual([worker]);
      expect(log()).not.toMatch(/exited|was killed|heap out of memory|FATAL|ECONNRESET|Unhandled/);
    } finally {
      for (const p of stopped) if (isAlive(p)) process.kill(p, 'SIGCONT');
      await stop(supervisor);
    }
  }, 300_000);
});
