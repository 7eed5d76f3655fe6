/**
 * Limits that keep the endpoint answering: a query past its time limit is interrupted in DuckDB and answered
 * 503 with the JSON error body; requests waiting for a connection are bounded (503 at once beyond); a client
 * that stops reading a streamed answer is disconnected, which ends the query.
 */
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, inject, test } from 'vitest';
import { RADAR_DB_FILE } from '../../build-scripts/radar/build-radar.ts';
import { HttpError } from '../../core/http/errors.ts';
import { writePieces } from '../../server/respond.ts';
import { ConnectionPool } from '../../server/served-build.ts';
import { get, startEndpoint } from '../helpers/servers.ts';

describe('query time limit', () => {
  test('a live query past the limit is 503 with the JSON error body; static files still answer', async () => {
    const s = await startEndpoint(inject('tsBuild'), { queryTimeoutMs: 1 });
    const many = JSON.parse((await get(s.url, '/api/v1/timeseries')).text).slice(0, 100).map((x: { id: string }) => x.id);
    const body = JSON.stringify({ timespan: 'P8D/2024-01-09TZ', timeseries: many });
    try {
      const res = await fetch(`${s.url}/api/v1/timeseries/getData`, { method: 'POST', body });
      const r = { status: res.status, type: res.headers.get('content-type'), headers: res.headers, text: await res.text() };
      expect(r.status).toBe(503);
      expect(r.type).toBe('application/json');
      expect(r.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(r.text).userMessage).toMatch(/took longer than 0.001 s and was stopped/);
      expect((await get(s.url, '/api/v1/stations')).status).toBe(200);
    } finally {
      await s.close();
    }
    const normal = await startEndpoint(inject('tsBuild'));
    try {
      expect((await fetch(`${normal.url}/api/v1/timeseries/getData`, { method: 'POST', body })).status).toBe(200);
    } finally {
      await normal.close();
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
      void writePieces(res, pieces(), 300);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // never reads
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const t0 = Date.now();
    expect(await outcome).toBe('destroyed');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(produced).toBeLessThan(10_000);
    socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
