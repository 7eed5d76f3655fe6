/**
 * A burst beyond capacity, over HTTP (issue 18, "overload keeps goodput"): at both gates, the DuckDB connections
 * and the chart renderer's pages, every refusal is a 503 with Retry-After and the JSON error body, on a connection
 * kept alive, and every request let in completes with its answer. The gates are held by the test (as long queries
 * or renders would hold them) so that the queue stands whatever the machine's speed; nothing here is timed beyond
 * "refused, not answered late".
 */
import { Agent, request } from 'node:http';
import { describe, expect, inject, test } from 'vitest';
import { ChartRenderer } from '../../lib/chart-renderer.ts';
import { isPng } from '../helpers/png.ts';
import { startEndpoint } from '../helpers/servers.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function ask(url: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until a gate's queue stands (its waiters stay: outside a standing queue they may wait 10 s); fails after `ms`. */
async function standingWithin(standing: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!standing()) {
    if (performance.now() > deadline) throw new Error(`the queue did not stand within ${ms} ms`);
    await sleep(20);
  }
}

/** A refusal as the contract has it: 503, Retry-After in whole seconds, the JSON error body, keep-alive kept. */
function expectRefusal(a: Answer): void {
  expect(a.status).toBe(503);
  expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(a.headers['connection']).not.toBe('close');
  const body = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
  expect(body).toMatchObject({ statusCode: 503, reason: 'Service Unavailable' });
  expect(typeof body.userMessage).toBe('string');
  expect(Array.isArray(body.hints)).toBe(true);
  expect(Number(a.headers['content-length'])).toBe(a.body.length);
}

/** Refusals of one kind and Retry-After are the same bytes (made once and reused, server/respond.ts). */
function expectSameBytesPerKind(refusals: Answer[]): void {
  const byKind = new Map<string, string>();
  for (const a of refusals) {
    const key = `${String(a.headers['retry-after'])} ${String(JSON.parse(a.body.toString('utf8')).userMessage)}`;
    const seen = byKind.get(key);
    if (seen === undefined) byKind.set(key, a.body.toString('utf8'));
    else expect(a.body.toString('utf8')).toBe(seen);
  }
}

describe('a burst beyond capacity', () => {
  test('live queries: the standing queue refuses with 503 + Retry-After + the JSON body; those let in get their answer', async () => {
    const s = await startEndpoint(inject('demoBuild'));
    const pool = s.build.radar!.pool;
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const releases: (() => void)[] = [];
    const held = Array.from({ length: pool.size }, () => pool.with(() => new Promise<void>((r) => releases.push(r))));
    const hour = (i: number) => {
      const t = Date.UTC(2024, 2, 1) + i * 3_600_000;
      const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
      return `${s.url}/radarnet/mirror/v3/files?timespan=${iso(t)}/${iso(t + 3_600_000)}`;
    };
    try {
      // a first wave waits behind the held connections; the queue is not emptied for longer than its interval
      const first = Array.from({ length: 24 }, (_, i) => ask(hour(i), agent));
      // (on a loaded machine the 24 may take a while to reach the gate: the interval counts from the first's arrival)
      await standingWithin(() => pool.gate.standing, 8000);
      // a second wave arrives at the standing queue: the first wave, past the target, is refused from the head
      const second = Array.from({ length: 24 }, (_, i) => ask(hour(100 + i), agent));
      const firstAnswers = await Promise.all(first);
      for (const a of firstAnswers) expectRefusal(a);
      expectSameBytesPerKind(firstAnswers);
      // the connections come free: the second wave is let in (newest first) or refused at the target, nothing else
      for (const r of releases) r();
      await Promise.all(held);
      const answers = await Promise.all(second);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length).toBeGreaterThan(0);
      for (const a of ok) expect(Array.isArray(JSON.parse(a.body.toString('utf8')))).toBe(true);
      for (const a of answers.filter((x) => x.status !== 200)) expectRefusal(a);
      // and the overload over, the next request is answered
      expect((await ask(hour(500), agent)).status).toBe(200);
    } finally {
      for (const r of releases) r();
      agent.destroy();
      await s.close();
    }
  });

  test('charts: the render queue refuses the same way, after waiting, not at once; the charts let in are drawn', async () => {
    const renderer = new ChartRenderer({ pages: 1, targetMs: 200, intervalMs: 300 });
    const s = await startEndpoint(inject('tsBuild'), { renderer });
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const chart = (i: number) => `${s.url}/api/v1/timeseries/ts_koeln_rhein_water_level/getData.png?width=${300 + i}&height=200`;
    try {
      await renderer.warm();
      // the one page held, as a long render would hold it
      const page = await renderer.admit();
      const t0 = performance.now();
      const first = Array.from({ length: 12 }, (_, i) => ask(chart(i), agent));
      await sleep(450);
      expect(renderer.gate.standing).toBe(true);
      const second = Array.from({ length: 6 }, (_, i) => ask(chart(100 + i), agent));
      const firstAnswers = await Promise.all(first);
      // refused once the queue stood, not at once (issue 18: the surplus got its 503 straight away)
      expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
      for (const a of firstAnswers) {
        expectRefusal(a);
        expect(JSON.parse(a.body.toString('utf8')).userMessage).toMatch(/Too many charts/);
      }
      expectSameBytesPerKind(firstAnswers);
      page.release();
      const answers = await Promise.all(second);
      const ok = answers.filter((a) => a.status === 200);
      expect(ok.length).toBeGreaterThan(0);
      for (const a of ok) expect(isPng(a.body)).toBe(true);
      for (const a of answers.filter((x) => x.status !== 200)) expectRefusal(a);
    } finally {
      agent.destroy();
      await s.close();
      await renderer.close();
    }
  });
});
