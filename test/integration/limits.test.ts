/**
 * Limits that keep the endpoint answering: a query past its time limit is interrupted in DuckDB and answered
 * 503 with the JSON error body; requests waiting for a connection are bounded (503 at once beyond); a client
 * that stops reading a streamed answer is disconnected, which ends the query.
 */
import { createServer, request } from 'node:http';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, inject, test } from 'vitest';
import { RADAR_DB_FILE } from '../../lib/radar-catalogue.ts';
import { HttpError } from '../../core/http/errors.ts';
import { writePieces } from '../../server/respond.ts';
import { BULK_AT_ONCE, ConnectionPool } from '../../lib/duckdb-pool.ts';
import { readFor, stalledGet } from '../helpers/stalled-client.ts';
import { startEndpoint } from '../helpers/servers.ts';

describe('query time limit', () => {
  test('a query past the limit is stopped: 503 with Retry-After and the reason, as the error body says it', async () => {
    // (the Timeseries API reads observations from its series file, not DuckDB, and the demo catalogue's queries
    // finish within a millisecond: a query of DuckDB's own stands for a slow one)
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 1, { queryTimeoutMs: 1 });
    try {
      const slow = pool.with((c) => c.runAndReadAll('SELECT count(*) FROM range(5000000000) a, range(10) b'));
      await expect(slow).rejects.toMatchObject({ status: 503, userMessage: 'The query took longer than 0.001 s and was stopped', headers: { 'Retry-After': '5' } });
    } finally {
      pool.close();
    }
  });

  test('an interrupted connection goes back to the pool and answers the next query', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 1, { queryTimeoutMs: 50 });
    try {
      const slow = pool.with((c) => c.runAndReadAll('SELECT count(*) FROM range(5000000000) a, range(10) b'));
      await expect(slow).rejects.toMatchObject({ status: 503 });
      const ok = await pool.with((c) => c.runAndReadAll('SELECT 1 AS x'));
      expect(ok.getRows()).toEqual([[1]]);
    } finally {
      pool.close();
    }
  });
});

describe('bounded waiting', () => {
  test('beyond maxWaiting a request is 503 at once, not queued', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 1, { maxWaiting: 1 });
    try {
      let release!: () => void;
      const holding = pool.with(() => new Promise<void>((r) => (release = r)));
      const waiting = pool.with(async () => 'second');
      let error: unknown;
      try {
        await pool.with(async () => 'third');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(503);
      expect((error as HttpError).headers['Retry-After']).toBe('1');
      release();
      await holding;
      expect(await waiting).toBe('second');
    } finally {
      pool.close();
    }
  });
});

describe('waiting counts against the time limit', () => {
  test('a request that no connection comes free for within its time limit is refused then: 503 with Retry-After', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 1, { queryTimeoutMs: 200 });
    try {
      let release!: () => void;
      const holding = pool.with(() => new Promise<void>((r) => (release = r)));
      const t0 = performance.now();
      await expect(pool.with(async () => 'never')).rejects.toMatchObject({ status: 503, userMessage: 'The catalogue could not start this query in time (its limit is 0.2 s)', headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) } });
      const waited = performance.now() - t0;
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(5000);
      expect(pool.load).toEqual({ busy: 1, waiting: 0 });
      release();
      await holding;
      expect(await pool.with(async () => 'next')).toBe('next');
    } finally {
      pool.close();
    }
  });

  test('a bulk answer waiting for its turn waits within the same limit', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 2, { queryTimeoutMs: 200 });
    try {
      let release!: () => void;
      const holding = pool.with(() => new Promise<void>((r) => (release = r)), { bulk: true });
      await expect(pool.with(async () => 'never', { bulk: true })).rejects.toMatchObject({ status: 503 });
      // a small answer does not wait behind it
      expect(await pool.with(async () => 'small')).toBe('small');
      release();
      await holding;
    } finally {
      pool.close();
    }
  });
});

describe('refused over HTTP', () => {
  test('a live query no connection comes free for within the limit: 503 at once then, Retry-After, the JSON error body, keep-alive kept', async () => {
    const s = await startEndpoint(inject('demoBuild'), { queryTimeoutMs: 300 });
    const pool = s.build.radar!.pool;
    const releases: (() => void)[] = [];
    // every connection held (as a long query would hold it)
    const held = Array.from({ length: pool.size }, () => pool.with(() => new Promise<void>((r) => releases.push(r))));
    try {
      const t0 = performance.now();
      const r = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const req = request(`${s.url}/radarnet/mirror/v3/files?timespan=2024-03-01T06:00:00Z/2024-03-01T07:00:00Z`, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += String(d)));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
      const waited = performance.now() - t0;
      expect(r.status).toBe(503);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.headers['connection']).not.toBe('close');
      expect(JSON.parse(r.body)).toMatchObject({ statusCode: 503, reason: 'Service Unavailable', userMessage: 'The catalogue could not start this query in time (its limit is 0.3 s)' });
      // the wait counted against the 0.3 s limit: refused then, not after a query's own 0.3 s more
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(3000);
    } finally {
      for (const r of releases) r();
      await Promise.all(held);
      await s.close();
    }
  });
});

describe('bulk lane', () => {
  test(`at most ${BULK_AT_ONCE} bulk answers run at once; the next waits its turn, and a small one does not wait`, async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 4);
    try {
      const order: string[] = [];
      const releases: (() => void)[] = [];
      const bulk = (name: string) =>
        pool.with(
          async (c) => {
            order.push(`${name} runs`);
            await c.runAndReadAll('SELECT 1');
            await new Promise<void>((r) => releases.push(r));
            order.push(`${name} done`);
          },
          { bulk: true },
        );
      const first = Array.from({ length: BULK_AT_ONCE }, (_, i) => bulk(`bulk ${i + 1}`));
      const waiting = bulk('bulk waiting');
      await new Promise((r) => setTimeout(r, 50));
      expect(order).toEqual(Array.from({ length: BULK_AT_ONCE }, (_, i) => `bulk ${i + 1} runs`));
      // a connection is free, and a small answer takes it at once
      expect(await pool.with(async (c) => (await c.runAndReadAll('SELECT 42 AS x')).getRows())).toEqual([[42]]);
      releases.shift()!();
      await first[0];
      await new Promise((r) => setTimeout(r, 50));
      expect(order.slice(-2)).toEqual(['bulk 1 done', 'bulk waiting runs']);
      for (const r of releases.splice(0)) r();
      await Promise.all([...first, waiting]);
      // every turn was handed back: as many bulk answers run at once again
      const again = Array.from({ length: BULK_AT_ONCE }, (_, i) => bulk(`again ${i + 1}`));
      await new Promise((r) => setTimeout(r, 50));
      expect(order.filter((o) => o.startsWith('again'))).toHaveLength(BULK_AT_ONCE);
      for (const r of releases.splice(0)) r();
      await Promise.all(again);
    } finally {
      pool.close();
    }
  });

  test('a bulk answer that leaves the lane (its client is slow) lets the next one run while it goes on', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 4);
    try {
      const order: string[] = [];
      let finishSlow!: () => void;
      const slow = pool.with(
        async (_c, _answering, leaveLane) => {
          order.push('slow runs');
          leaveLane();
          leaveLane(); // a second call hands nothing more on
          await new Promise<void>((r) => (finishSlow = r));
          order.push('slow done');
        },
        { bulk: true },
      );
      const next = Array.from({ length: BULK_AT_ONCE + 1 }, (_, i) => pool.with(async () => void order.push(`next ${i + 1} runs`), { bulk: true }));
      await Promise.all(next);
      expect(order).toEqual(['slow runs', ...next.map((_, i) => `next ${i + 1} runs`)]);
      finishSlow();
      await slow;
      // the turns add up: BULK_AT_ONCE at once again, no more
      const releases: (() => void)[] = [];
      const running: string[] = [];
      const held = Array.from({ length: BULK_AT_ONCE + 1 }, (_, i) => pool.with(async () => { running.push(String(i)); await new Promise<void>((r) => releases.push(r)); }, { bulk: true }));
      await new Promise((r) => setTimeout(r, 50));
      expect(running).toHaveLength(BULK_AT_ONCE);
      while (releases.length) releases.shift()!();
      await new Promise((r) => setTimeout(r, 50));
      for (const r of releases.splice(0)) r();
      await Promise.all(held);
    } finally {
      pool.close();
    }
  });

  test('a bulk answer that fails hands its turn on', async () => {
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 2);
    try {
      for (let i = 0; i < BULK_AT_ONCE + 2; i++) await expect(pool.with(() => Promise.reject(new Error('broken')), { bulk: true })).rejects.toThrow('broken');
      expect(await pool.with(async () => 'ran', { bulk: true })).toBe('ran');
    } finally {
      pool.close();
    }
  });
});

describe('stalled clients', () => {
  test('a client that stops reading a streamed answer is disconnected and the stream stops', async () => {
    let produced = 0;
    let finished: (v: string) => void;
    const outcome = new Promise<string>((r) => (finished = r));
    const server = createServer((_req, res) => {
      async function* pieces() {
        try {
          for (;;) {
            produced++;
            yield 'x'.repeat(64 * 1024);
          }
        } finally {
          finished(res.destroyed ? 'destroyed' : 'ended');
        }
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      void writePieces(res, pieces(), { stallMs: 300 });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const socket = stalledGet(port); // never reads
    const t0 = Date.now();
    expect(await outcome).toBe('destroyed');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(produced).toBeLessThan(10_000);
    socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('a client that keeps the answer waiting is reported slow once, well before it is dropped; a reading one never', async () => {
    const slowCalls: number[] = [];
    const server = createServer((_req, res) => {
      async function* pieces() {
        for (let i = 0; i < 200; i++) yield 'x'.repeat(64 * 1024);
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const t0 = Date.now();
      void writePieces(res, pieces(), { stallMs: 5000, slowMs: 200, onSlowClient: () => slowCalls.push(Date.now() - t0) });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // reads all 12.5 MB as it comes: never slow
    const whole = await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
    expect(whole.byteLength).toBe(200 * 64 * 1024);
    expect(slowCalls).toEqual([]);
    // reads nothing for 1.5 s, then everything: slow once, about 200 ms in
    const socket = stalledGet(port);
    await new Promise((r) => setTimeout(r, 1500));
    expect(slowCalls).toHaveLength(1);
    expect(slowCalls[0]).toBeGreaterThanOrEqual(190);
    expect(slowCalls[0]).toBeLessThan(1500);
    const got = await readFor(socket, 1000);
    expect(got).toBeGreaterThan(200 * 64 * 1024);
    expect(slowCalls).toHaveLength(1);
    socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
