/**
 * Compressed answers through a real endpoint (server/compression.ts): for zstd, br and gzip, every format
 * (radar JSON, CSV, checksum report, HTML route doc, docs site page, timeseries JSON), from the static tree
 * and live, decompresses to exactly the bytes the endpoint sends uncompressed (and, from the tree, to the
 * file); whole answers carry the compressed Content-Length, streamed ones go chunked; each coding has its own
 * ETag and revalidates; HEAD answers GET's headers; PNG, small answers and refused codings stay identity; a
 * large streamed answer read slowly arrives whole; a client that stops reading a compressed stream is
 * dropped, and one that keeps it waiting is reported slow; the young-garbage cadence counts the pieces and the
 * compressed bytes; a handler failing after its head (the body held) still destroys the answer.
 */
import { pbkdf2, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { youngGarbage } from '../../server/young-garbage.ts';
import { CODINGS, etagInCoding, type Coding } from '../../core/http/content-coding.ts';
import { compressAnswers, HOLD_BYTES } from '../../server/compression.ts';
import { sendError, writePieces } from '../../server/respond.ts';
import { HttpError } from '../../core/http/errors.ts';
import { startTreeAndLive, type Served } from '../helpers/servers.ts';
import { readFor, stalledGet } from '../helpers/stalled-client.ts';

let radar: { fromTree: Served; live: Served; site: string; close(): Promise<void> };
let ts: { fromTree: Served; live: Served; site: string; close(): Promise<void> };

beforeAll(async () => {
  [radar, ts] = await Promise.all([startTreeAndLive(inject('demoBuild')), startTreeAndLive(inject('tsBuild'))]);
});
afterAll(async () => {
  await Promise.all([radar.close(), ts.close()]);
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire. */
  wire: Buffer;
}

/** One request by node:http (no decompression of its own); `pauseMs` after each piece read. */
function raw(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; pauseMs?: number } = {}): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (opts.pauseMs) {
          res.pause();
          setTimeout(() => res.resume(), opts.pauseMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const DECODE: Record<Coding, (b: Buffer) => Buffer> = { zstd: zstdDecompressSync, br: brotliDecompressSync, gzip: gunzipSync };

const varyOf = (r: Raw) => String(r.headers['vary'] ?? '').split(/\s*,\s*/);

const R = '/radarnet/mirror/v3';
const T = '/api/v1';

/**
 * [name, server, path, the tree file it is (from the tree), whether the endpoint streams it (tree files over
 * 256 KB are piped from disk; smaller ones are sent whole from memory)]
 */
const CASES: [string, () => Served, string, (() => string) | undefined, boolean][] = [
  ['radar CSV collection from the tree (a file over 256 KB, piped)', () => radar.fromTree, `${R}/transferred/files?contentType=csv&expanded=true`, () => join(radar.site, 'radarnet/mirror/v3/transferred/files.expanded.csv'), true],
  ['radar JSON collection from the tree', () => radar.fromTree, `${R}/files`, () => join(radar.site, 'radarnet/mirror/v3/files.json'), false],
  ['radar JSON from the tree (a small file, from memory)', () => radar.fromTree, `${R}/radars`, () => join(radar.site, 'radarnet/mirror/v3/radars.json'), false],
  ['radar CSV from the tree', () => radar.fromTree, `${R}/radars?contentType=csv&expanded=true`, () => join(radar.site, 'radarnet/mirror/v3/radars.expanded.csv'), false],
  ['radar checksum report from the tree', () => radar.fromTree, `${R}/files?contentType=checksumReport`, () => join(radar.site, 'radarnet/mirror/v3/files.sha1'), false],
  ['radar JSON, live query, streamed', () => radar.live, `${R}/files?timespan=1990/2100`, undefined, true],
  ['radar CSV, live query, streamed', () => radar.live, `${R}/transferred/files?timespan=1990/2100&expanded=true&contentType=csv`, undefined, true],
  ['radar checksum report, live query (radar_code: made whole, written as pieces)', () => radar.live, `${R}/files?radar_code=sas&contentType=checksumReport`, undefined, true],
  ['radar HTML route doc', () => radar.live, `${R}/files?contentType=html`, undefined, false],
  ['docs site HTML page', () => radar.fromTree, '/docs/radar/', () => join(radar.site, 'docs/radar/index.html'), false],
  ['timeseries JSON from the tree', () => ts.fromTree, `${T}/timeseries?expanded=true`, () => join(ts.site, 'api/v1/timeseries.expanded.json'), false],
  ['timeseries JSON, live', () => ts.live, `${T}/timeseries?expanded=true&locale=de`, undefined, false],
  ['timeseries getData, live', () => ts.live, `${T}/timeseries/ts_koeln_rhein_water_level/getData?timespan=P2D/2024-01-08TZ`, undefined, false],
];

describe('compressed answers decompress to exactly the uncompressed bytes', () => {
  test.each(CASES.flatMap(([name, server, path, file, streamed]) => CODINGS.map((c) => [`${name}, ${c}`, server, path, file, streamed, c] as const)))(
    '%s',
    async (_, server, path, file, streamed, coding) => {
      const base = server().url;
      const [plain, enc] = await Promise.all([raw(base, path), raw(base, path, { headers: { 'Accept-Encoding': coding } })]);
      expect(plain.status).toBe(200);
      expect(plain.wire.length).toBeGreaterThanOrEqual(1024);
      expect(plain.headers['content-encoding']).toBeUndefined();
      if (file) {
        expect(plain.wire.equals(readFileSync(file()))).toBe(true);
        expect(plain.wire.length > 256 * 1024).toBe(streamed);
      }
      expect(enc.status).toBe(200);
      expect(enc.headers['content-encoding']).toBe(coding);
      expect(enc.headers['content-type']).toBe(plain.headers['content-type']);
      expect(DECODE[coding](enc.wire).equals(plain.wire)).toBe(true);
      expect(enc.wire.length).toBeLessThan(plain.wire.length / 2);
      for (const r of [plain, enc]) expect(varyOf(r)).toEqual(expect.arrayContaining(['Accept', 'Accept-Encoding']));
      expect(enc.headers['etag']).toBe(etagInCoding(String(plain.headers['etag']), coding));
      // an answer written in pieces is held until it passes HOLD_BYTES: a shorter one goes whole, with its length
      if (streamed && plain.wire.length >= HOLD_BYTES) {
        expect(enc.headers['transfer-encoding']).toBe('chunked');
        expect(enc.headers['content-length']).toBeUndefined();
      } else {
        expect(enc.headers['content-length']).toBe(String(enc.wire.length));
      }
    },
  );
});

describe('negotiation through the endpoint', () => {
  test.each([
    ['gzip, deflate, br, zstd', 'zstd'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.9, gzip', 'gzip'],
    ['gzip;q=0.5, identity', undefined],
    ['gzip;q=0', undefined],
    ['*;q=0.1', 'zstd'],
    ['*, zstd;q=0', 'br'],
    ['deflate', undefined],
    ['', undefined],
  ])('Accept-Encoding %j: %s', async (header, coding) => {
    const r = await raw(radar.fromTree.url, `${R}/radars`, { headers: { 'Accept-Encoding': header } });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe(coding);
    expect(varyOf(r)).toContain('Accept-Encoding');
  });

  test('a streamed answer that turns out under 1 KB goes uncompressed, with its length', async () => {
    const r = await raw(radar.live.url, `${R}/files?timespan=1990/1991`, { headers: { 'Accept-Encoding': 'gzip, br, zstd' } });
    expect(r.status).toBe(200);
    expect(r.wire.toString()).toBe('[]');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['content-length']).toBe('2');
  });

  test('answers under 1 KB stay identity unless identity is refused; PNG never is compressed', async () => {
    const small = await raw(radar.fromTree.url, `${R}/no-such-path`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(small.status).toBe(404);
    expect(small.wire.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.wire.toString())).toMatchObject({ statusCode: 404 });
    const refused = await raw(radar.fromTree.url, `${R}/no-such-path`, { headers: { 'Accept-Encoding': 'gzip, identity;q=0' } });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(refused.wire).toString())).toEqual(JSON.parse(small.wire.toString()));
    const png = await raw(ts.fromTree.url, `${T}/timeseries/ts_koeln_rhein_water_level/lastWeek`, { headers: { 'Accept-Encoding': 'gzip, br, zstd' } });
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.wire.subarray(1, 4).toString()).toBe('PNG');
    expect(varyOf(png)).toContain('Accept-Encoding');
  });
});

describe('caching and HEAD per coding', () => {
  test.each([
    ['from the tree', () => ts.fromTree, `${T}/stations?expanded=true`],
    ['live', () => ts.live, `${T}/stations?expanded=true&locale=de`],
    ['live, streamed', () => radar.live, `${R}/transferred/files?timespan=1990/2100&expanded=true&contentType=csv`],
  ])('%s: each coding its own ETag, 304 for it; HEAD has the headers of GET', async (_, server, path) => {
    const base = server().url;
    const tags = new Set<string>();
    for (const coding of [undefined, ...CODINGS]) {
      const headers: Record<string, string> = coding ? { 'Accept-Encoding': coding } : {};
      const get = await raw(base, path, { headers });
      const etag = String(get.headers['etag']);
      tags.add(etag);
      const again = await raw(base, path, { headers: { ...headers, 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers['etag']).toBe(etag);
      expect(again.wire.length).toBe(0);
      expect(varyOf(again)).toEqual(expect.arrayContaining(['Accept', 'Accept-Encoding']));
      const head = await raw(base, path, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.wire.length).toBe(0);
      // (node sends no Transfer-Encoding on HEAD)
      for (const h of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary']) expect(head.headers[h], h).toBe(get.headers[h]);
    }
    expect(tags.size).toBe(1 + CODINGS.length);
  });
});

describe('a large streamed answer, compressed end to end', () => {
  test.each(CODINGS)('%s: read slowly, it is the tree file to the byte', async (coding) => {
    const path = `${R}/transferred/files?timespan=1990/2100&expanded=true&contentType=csv`;
    const expected = readFileSync(join(radar.site, 'radarnet/mirror/v3/transferred/files.expanded.csv'));
    expect(expected.length).toBeGreaterThan(512 * 1024);
    const r = await raw(radar.live.url, path, { headers: { 'Accept-Encoding': coding }, pauseMs: 2 });
    expect(r.headers['content-encoding']).toBe(coding);
    expect(DECODE[coding](r.wire).equals(expected)).toBe(true);
  });
});

/** A server that streams `pieces` through writePieces with compression installed, as the endpoint does. */
async function streamingServer(pieces: () => AsyncGenerator<string>, pacing: Parameters<typeof writePieces>[2]) {
  const server = createServer((req, res) => {
    compressAnswers(req, res);
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    void writePieces(res, pieces(), pacing);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** 64 KB of text that compresses about 2:1 (hex of random bytes), so the compressed stream fills the socket. */
const hexPiece = () => randomBytes(32 * 1024).toString('hex');

describe('back-pressure through the compressor', () => {
  test.each(CODINGS)('%s: a client that stops reading is disconnected and the stream stops', async (coding) => {
    let produced = 0;
    let finished: (v: string) => void;
    const outcome = new Promise<string>((r) => (finished = r));
    let destroyed: () => boolean = () => false;
    const { server, port } = await streamingServer(async function* () {
      try {
        for (;;) {
          produced++;
          yield hexPiece();
        }
      } finally {
        finished(destroyed() ? 'destroyed' : 'ended');
      }
    }, { stallMs: 300 });
    server.on('request', (_req, res) => (destroyed = () => res.destroyed));
    const socket = stalledGet(port, { 'Accept-Encoding': coding }); // never reads
    const t0 = Date.now();
    expect(await outcome).toBe('destroyed');
    expect(Date.now() - t0).toBeLessThan(5000);
    // bounded by the socket's and the compressor's buffers, not by the producer
    expect(produced).toBeLessThan(500);
    socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('a client that keeps a compressed answer waiting is reported slow once; a reading one never', async () => {
    const slowCalls: number[] = [];
    const total = 200;
    let t0 = 0;
    const { server, port } = await streamingServer(
      async function* () {
        for (let i = 0; i < total; i++) yield hexPiece();
      },
      { stallMs: 5000, slowMs: 200, onSlowClient: () => slowCalls.push(Date.now() - t0) },
    );
    server.on('request', () => (t0 = Date.now()));
    const whole = await raw(`http://127.0.0.1:${port}`, '/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(whole.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(whole.wire).length).toBe(total * 64 * 1024);
    expect(slowCalls).toEqual([]);
    const socket = stalledGet(port, { 'Accept-Encoding': 'zstd' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(slowCalls).toHaveLength(1);
    expect(slowCalls[0]).toBeGreaterThanOrEqual(190);
    expect(slowCalls[0]).toBeLessThan(1500);
    const got = await readFor(socket, 1500);
    expect(got).toBeGreaterThan(total * 32 * 1024);
    expect(slowCalls).toHaveLength(1);
    socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('young-garbage accounting through the compressor', () => {
  test.each(CODINGS)('%s: the pieces written and the compressed bytes sent are both counted', async (coding) => {
    const streamed = vi.spyOn(youngGarbage, 'streamed');
    try {
      const total = 40;
      const { server, port } = await streamingServer(async function* () {
        for (let i = 0; i < total; i++) yield hexPiece();
      }, {});
      streamed.mockClear();
      const r = await raw(`http://127.0.0.1:${port}`, '/', { headers: { 'Accept-Encoding': coding } });
      expect(r.headers['content-encoding']).toBe(coding);
      const counted = streamed.mock.calls.reduce((n, [bytes]) => n + bytes, 0);
      expect(counted).toBe(total * 64 * 1024 + r.wire.length);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    } finally {
      streamed.mockRestore();
    }
  });
});

describe('failures while the body is held', () => {
  test('a handler that fails after its head is destroyed, as without compression (no second head)', async () => {
    const server = createServer((req, res) => {
      compressAnswers(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[1,');
      expect(res.headersSent).toBe(true);
      sendError(req, res, new HttpError(503, 'The query failed'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await expect(raw(`http://127.0.0.1:${port}`, '/', { headers: { 'Accept-Encoding': 'gzip' } })).rejects.toThrow(/socket hang up|ECONNRESET|aborted/);
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('large whole answers (issue 18: one trip to the thread pool, the event loop kept free)', () => {
  /** getData's shape, `bytes` long. */
  const jsonOf = (bytes: number) => {
    const parts: string[] = [];
    let n = 0;
    for (let i = 0; n < bytes; i++) {
      const p = `{"timestamp":${1_672_531_200_000 + i * 600_000},"value":${(Math.sin(i / 50) * 20 + 5).toFixed(2)}},`;
      parts.push(p);
      n += p.length;
    }
    return Buffer.from(`[${parts.join('').slice(0, bytes - 2)}]`);
  };
  const year = jsonOf(2_200_000);
  const huge = jsonOf(8 * 1024 * 1024);
  let server: ReturnType<typeof createServer>;
  let base = '';
  /** Resolved when /huge's handler hands its body to end() (its compression starts there). */
  let hugeEnded: () => void = () => {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      compressAnswers(req, res);
      const body = req.url === '/year' ? year : req.url === '/huge' ? huge : Buffer.from('{"small":true}');
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length, ETag: '"b"' });
      res.end(body);
      if (req.url === '/huge') hugeEnded();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test.each(CODINGS)('%s: a 2.2 MB body handed to end() is sent compressed whole: its length, one piece, decoded equal', async (coding) => {
    expect(year.length).toBeGreaterThan(HOLD_BYTES);
    const r = await raw(base, '/year', { headers: { 'Accept-Encoding': coding } });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe(coding);
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect(r.headers['content-length']).toBe(String(r.wire.length));
    expect(r.headers['etag']).toBe(etagInCoding('"b"', coding));
    expect(varyOf(r)).toContain('Accept-Encoding');
    expect(DECODE[coding](r.wire).equals(year)).toBe(true);
  });

  test.each(CODINGS)('%s: a small request is answered while an 8 MB body compresses', async (coding) => {
    // The pool's threads are first given work of their own (as DuckDB's queries take them), ~100 ms each: the
    // compression then waits behind it, so the small request is sure to come while the 8 MB body is pending, on
    // a loaded machine too. Compressed on the event loop instead, the body's head would be out before it.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const poolBusy = Array.from({ length: threads }, () => new Promise((r) => pbkdf2('p', 's', 60_000, 64, 'sha512', r)));
    const ended = new Promise<void>((r) => (hugeEnded = r));
    let hugeHeadAt = Infinity;
    const hugeDone = new Promise<Raw>((resolve, reject) => {
      const u = new URL(base);
      const req = request({ host: u.hostname, port: u.port, path: '/huge', headers: { 'Accept-Encoding': coding }, agent: false }, (res) => {
        hugeHeadAt = performance.now();
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    await ended;
    // the 8 MB body is being compressed now (its head waits for it): a small answer must not wait for it
    const small = await raw(base, '/small');
    const smallAt = performance.now();
    expect(small.status).toBe(200);
    expect(JSON.parse(small.wire.toString())).toEqual({ small: true });
    expect(hugeHeadAt).toBe(Infinity);
    const big = await hugeDone;
    expect(smallAt).toBeLessThan(hugeHeadAt);
    expect(big.headers['content-length']).toBe(String(big.wire.length));
    expect(DECODE[coding](big.wire).equals(huge)).toBe(true);
    await Promise.all(poolBusy);
  });
});
