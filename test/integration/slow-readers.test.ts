/**
 * A slow client never holds a database connection (issue 18 part 2): four clients reading a large streamed
 * answer slowly hold no DuckDB connection while they read (counted through the pool's gate and /metrics); a
 * one-hour query answers meanwhile; what waits for them is spooled (memory, then a temporary file of each
 * answer's own) and removed when they are done or gone; the bytes are those a fast client gets; HEAD and
 * compressed answers are unchanged.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { Spooler } from '../../lib/spool.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { sampleValue } from '../helpers/prometheus.ts';

const BIG = '/radarnet/mirror/v3/files?distinct=true&expanded=true&contentType=csv';
const ONE_HOUR = '/radarnet/mirror/v3/files?timespan=2024-03-01T06:00:00Z/2024-03-01T07:00:00Z';

let s: Served;
let spooler: Spooler;
const root = join(TEST_TMP, `slow-readers-${process.pid}`);
const dir = join(root, 'spool');

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  // 40 days of the demo catalogue, database only: its answer is about 12 MB, far more than the ~4 MB a client's
  // socket takes before it reads (so without the spool each reader would hold its connection)
  await writeDemoSnapshot({ from: '2024-03-01', days: 40, seed: 7, out: join(root, 'snapshot'), apis: ['radarnet-mirror-v3'], log: () => {} });
  await build({ snapshot: join(root, 'snapshot'), out: join(root, 'build'), quiet: true, dbOnly: true });
  // small bounds, so that answers spill: 16 KiB in memory per answer, 64 KiB for all of them
  spooler = new Spooler({ dir, memoryBytes: 16 * 1024, budgetBytes: 64 * 1024 });
  s = await startEndpoint(join(root, 'build'), { spooler });
}, 180_000);
afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

async function until<T>(what: string, f: () => T | false | Promise<T | false>, ms = 15_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v !== false) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A GET whose body is read only when asked: it takes the head and the first bytes, then stops reading. */
function slowReader(path: string, base = s.url): { started: Promise<number>; readAll(): Promise<Buffer>; abort(): void } {
  const url = new URL(path, base);
  const parts: Buffer[] = [];
  let res!: import('node:http').IncomingMessage;
  const req = request(url, { agent: false });
  const started = new Promise<number>((resolve, reject) => {
    req.on('response', (r) => {
      res = r;
      r.once('data', (d: Buffer) => {
        parts.push(d);
        r.pause();
        resolve(r.statusCode!);
      });
    });
    req.on('error', reject);
  });
  req.end();
  return {
    started,
    readAll: () =>
      new Promise<Buffer>((resolve, reject) => {
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve(Buffer.concat(parts)));
        res.on('error', reject);
        res.resume();
      }),
    abort: () => req.destroy(),
  };
}

describe('slow readers', () => {
  test('four slow readers hold no connection while they read; a one-hour query answers meanwhile; the bytes are whole', async () => {
    const expected = await get(s.url, BIG);
    expect(expected.status).toBe(200);
    expect(expected.body.length).toBeGreaterThan(8 * 1024 * 1024);
    const pool = s.build.radar!.pool;
    const readers = Array.from({ length: 4 }, () => slowReader(BIG));
    expect(await Promise.all(readers.map((r) => r.started))).toEqual([200, 200, 200, 200]);
    // every answer was made: the connections are back while the clients have not read it
    await until('the connections back', () => pool.load.busy === 0 && spooler.load.open === 4).catch((e) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify({ pool: pool.load, spool: spooler.load, bytes: expected.body.length })}`);
    });
    expect(pool.load).toEqual({ busy: 0, waiting: 0 });
    const metrics = (await get(s.url, '/metrics')).text;
    expect(sampleValue(metrics, 'snapcat_admission_busy', { gate: 'duckdb' })).toBe(0);
    expect(sampleValue(metrics, 'snapcat_spool_answers')).toBe(4);
    // what they have not read waits in their spools, past memory in files (whose names are gone already)
    expect(spooler.load.spilledBytes).toBeGreaterThan(0);
    expect(spooler.load.files).toBeGreaterThan(0);
    expect(spooler.load.memoryBytes).toBeLessThanOrEqual(64 * 1024);
    expect(readdirSync(dir)).toEqual([]);
    const hour = await get(s.url, ONE_HOUR);
    expect(hour.status).toBe(200);
    expect(hour.text.length).toBeGreaterThan(2);
    // two read on to the end and get every byte; two go away
    const [a, b] = await Promise.all([readers[0]!.readAll(), readers[1]!.readAll()]);
    expect(a.equals(expected.body)).toBe(true);
    expect(b.equals(expected.body)).toBe(true);
    readers[2]!.abort();
    readers[3]!.abort();
    await until('every spool closed', () => spooler.load.open === 0 && spooler.load.files === 0);
    expect(spooler.load.memoryBytes).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a client gone before the query is done stops it and gives its connection back', async () => {
    const pool = s.build.radar!.pool;
    const r = slowReader(BIG);
    expect(await r.started).toBe(200);
    r.abort();
    await until('the spool closed and the connection back', () => spooler.load.open === 0 && pool.load.busy === 0);
    expect(spooler.load.files).toBe(0);
  });

  test('HEAD and a compressed answer of a spooled stream', async () => {
    const expected = await get(s.url, BIG);
    const head = await fetch(`${s.url}${BIG}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(expected.type);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const gz = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(new URL(BIG, s.url), { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).equals(expected.body)).toBe(true);
    await until('every spool closed', () => spooler.load.open === 0);
  });
});

describe('the disk that answers waiting for slow clients may hold', () => {
  test('a new streamed answer is refused (503, Retry-After, the JSON error) while half the budget is held, and answered once it is free; an answer past the whole budget is cut, not the disk filled', async () => {
    // how much one slow reader of BIG leaves on disk here (the socket takes some of the answer first)
    const probe = slowReader(BIG);
    expect(await probe.started).toBe(200);
    await until('the answer spooled', () => s.build.radar!.pool.load.busy === 0 && spooler.load.open === 1 && spooler.load.diskBytes);
    const onDisk = spooler.load.diskBytes;
    probe.abort();
    await until('the probe closed', () => spooler.load.open === 0);
    expect(onDisk).toBeGreaterThan(1024 * 1024);

    // a budget of 1.5 times that: one reader holds more than half of it, and all of its answer fits
    const roomy = new Spooler({ dir, memoryBytes: 16 * 1024, budgetBytes: 64 * 1024, diskBytes: Math.round(onDisk * 1.5) });
    const e1 = await startEndpoint(join(root, 'build'), { spooler: roomy });
    try {
      const holder = slowReader(BIG, e1.url);
      expect(await holder.started).toBe(200);
      await until('the holder spooled', () => roomy.full && e1.build.radar!.pool.load.busy === 0).catch((e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify({ onDisk, spool: roomy.load, pool: e1.build.radar!.pool.load })}`);
      });
      expect(sampleValue((await get(e1.url, '/metrics')).text, 'snapcat_spool_disk_bytes')).toBe(roomy.load.diskBytes);
      const refused = await get(e1.url, BIG);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(JSON.parse(refused.text)).toMatchObject({ statusCode: 503 });
      // a small answer is read whole and needs no spool: still answered
      expect((await get(e1.url, ONE_HOUR)).status).toBe(200);
      const whole = await holder.readAll();
      expect(whole.equals((await get(s.url, BIG)).body)).toBe(true);
      await until('the holder closed', () => roomy.load.open === 0);
      expect(roomy.load.diskBytes).toBe(0);
      expect((await get(e1.url, BIG)).status).toBe(200);
    } finally {
      await e1.close();
    }

    // a budget of half of it: the answer cannot be held whole for a slow client, so it is cut
    const tight = new Spooler({ dir, memoryBytes: 16 * 1024, budgetBytes: 64 * 1024, diskBytes: Math.round(onDisk / 2) });
    const e2 = await startEndpoint(join(root, 'build'), { spooler: tight });
    try {
      const cut = slowReader(BIG, e2.url);
      expect(await cut.started).toBe(200);
      const got = await cut.readAll().then(
        (b) => b.length,
        () => -1,
      );
      expect(got, 'the cut answer ends early or with an error').not.toBe((await get(s.url, BIG)).body.length);
      await until('the cut spool closed', () => tight.load.open === 0);
      expect(tight.load.diskBytes).toBe(0);
      expect(readdirSync(dir)).toEqual([]);
      expect((await get(e2.url, ONE_HOUR)).status).toBe(200);
    } finally {
      await e2.close();
    }
  });
});
