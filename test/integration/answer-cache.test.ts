/**
 * Answers held in memory (server/answer-cache.ts): a repeated request gets the same bytes and headers (in every
 * coding, HEAD and 304 too) without the handler; errors, large or cut-short answers and `liveOnly` endpoints hold
 * nothing; past the budget an answer goes in only if asked for more often than the least recently used answers it
 * would put out (a crowd going round more answers than fit keeps a fixed part held); after a hot swap the new build's bytes are sent, never a
 * held answer of the old one; a crowd asking for one answer at once makes it once.
 */
import { cpSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { AnswerCache, PACK_MIN } from '../../server/answer-cache.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent (compressed when it was). */
  body: Buffer;
}

function raw(base: string, path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const DECODE: Record<string, (b: Buffer) => Buffer> = { zstd: zstdDecompressSync, br: brotliDecompressSync, gzip: gunzipSync };
const decoded = (r: Raw) => (r.headers['content-encoding'] ? DECODE[r.headers['content-encoding']]!(r.body) : r.body);
/** The headers that describe the answer (not the wire: the date, a length a streamed first answer had not). */
const answerHeaders = (h: IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)));

describe('an endpoint holding answers', () => {
  let s: Served;
  beforeAll(async () => {
    s = await startEndpoint(inject('demoBuild'), { watchMs: 0 });
  });
  afterAll(() => s.close());
  const held = () => s.server.answers!;

  test.each([
    ['a tree file', '/radarnet/mirror/v3/radars'],
    ['a live query', '/radarnet/mirror/v3/files?timespan=2024-03-01T06:00:00Z/2024-03-01T18:00:00Z'],
    ['a live CSV download', '/radarnet/mirror/v3/files?timespan=2024-03-01T06:00:00Z/2024-03-01T09:00:00Z&contentType=csv'],
    ['a resident table', '/radarnet/mirror/v3/radars?bbox=-180,0,180,90&expanded=true'],
  ])('%s: the second answer comes from memory, the same bytes and headers in each coding; HEAD and 304 hold', async (_, path) => {
    for (const coding of [undefined, 'zstd', 'br', 'gzip']) {
      const headers: Record<string, string> = coding ? { 'Accept-Encoding': coding } : {};
      const hits = held().hits;
      const first = await raw(s.url, path, { headers });
      const second = await raw(s.url, path, { headers });
      expect(first.status).toBe(200);
      // the first in a coding is held already (the answer is held before compression, once for every coding)
      expect(held().hits, `${path} ${coding}`).toBe(hits + (coding ? 2 : 1));
      expect(second.status).toBe(200);
      expect(answerHeaders(second.headers)).toEqual(answerHeaders(first.headers));
      expect(decoded(second).equals(decoded(first))).toBe(true);
      expect(Number(second.headers['content-length'])).toBe(second.body.length);
      const head = await raw(s.url, path, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(answerHeaders(head.headers)).toEqual(answerHeaders(second.headers));
      expect(head.headers['content-length']).toBe(second.headers['content-length']);
      const etag = String(second.headers.etag);
      const notModified = await raw(s.url, path, { headers: { ...headers, 'If-None-Match': etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers.etag).toBe(etag);
    }
  });

  test.each([
    ['a tree file', '/radarnet/mirror/v3/radars', 'demoBuild'],
    ['a docs page', '/docs/radar/', 'demoBuild'],
    ['a pre-rendered chart (PNG: a file of the tree, held whatever its type)', '/api/v1/timeseries/ts_koeln_rhein_water_level/lastWeek', 'tsBuild'],
  ] as const)('%s: from the third request on, sent again as it went (replay): the same status, headers and bytes, in each coding; HEAD, 304 and Range go their way', async (_, path, buildName) => {
    const e = buildName === 'demoBuild' ? s : await startEndpoint(inject(buildName), { watchMs: 0 });
    try {
      const cache = e.server.answers!;
      for (const coding of [undefined, 'zstd', 'gzip, br']) {
        const headers: Record<string, string> = coding ? { 'Accept-Encoding': coding } : {};
        const first = await raw(e.url, path, { headers });
        const second = await raw(e.url, path, { headers });
        const [replayed, hits] = [cache.replayed, cache.hits];
        const third = await raw(e.url, path, { headers });
        expect(cache.replayed, `${path} ${coding}`).toBe(replayed + 1);
        // a replay is a hit as any other (the metrics count it)
        expect(cache.hits).toBe(hits + 1);
        for (const r of [first, second, third]) expect(r.status).toBe(200);
        expect(answerHeaders(third.headers)).toEqual(answerHeaders(second.headers));
        expect(answerHeaders(third.headers)).toEqual(answerHeaders(first.headers));
        expect(third.body.equals(second.body)).toBe(true);
        expect(Number(third.headers['content-length'])).toBe(third.body.length);
        expect(third.headers.date).toBeDefined();
        const head = await raw(e.url, path, { method: 'HEAD', headers });
        expect(cache.replayed).toBe(replayed + 2);
        expect(head.body.length).toBe(0);
        expect(answerHeaders(head.headers)).toEqual(answerHeaders(third.headers));
        expect(head.headers['content-length']).toBe(third.headers['content-length']);
        // a validator or a range is not replayed: 304 with the ETag sent, 206 of the file's bytes
        const notModified = await raw(e.url, path, { headers: { ...headers, 'If-None-Match': String(third.headers.etag) } });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.etag).toBe(third.headers.etag);
        expect(cache.replayed).toBe(replayed + 2);
      }
      expect(cache.wireForms).toBeGreaterThan(0);
      if (path.startsWith('/docs/')) {
        const part = await raw(e.url, path, { headers: { Range: 'bytes=0-9' } });
        expect(part.status).toBe(206);
        expect(part.body.length).toBe(10);
        expect(part.headers['content-range']).toMatch(/^bytes 0-9\/\d+$/);
      }
    } finally {
      if (e !== s) await e.close();
    }
  });

  test('a long answer (past PACK_MIN) is held packed: asked again it is sent the same bytes, unpacked, in each coding, HEAD too', async () => {
    const path = '/radarnet/mirror/v3/files?timespan=2024-03-01/2024-03-03&expanded=true';
    const packed = held().packed;
    const first = await raw(s.url, path);
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(PACK_MIN);
    // packed on the thread pool once it was sent
    await vi.waitFor(() => expect(held().packed).toBe(packed + 1));
    for (const coding of [undefined, 'zstd', 'br', 'gzip']) {
      const headers: Record<string, string> = coding ? { 'Accept-Encoding': coding } : {};
      const hits = held().hits;
      const again = await raw(s.url, path, { headers });
      expect(held().hits, String(coding)).toBe(hits + 1);
      expect(again.status).toBe(200);
      expect(again.headers['content-encoding']).toBe(coding);
      expect(decoded(again).equals(first.body)).toBe(true);
      expect(answerHeaders(again.headers)).toEqual({ ...answerHeaders(first.headers), ...(coding ? { 'content-encoding': coding, etag: again.headers.etag } : {}) });
      if (!coding) expect(Number(again.headers['content-length'])).toBe(first.body.length);
      const head = await raw(s.url, path, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    }
    // still one answer held packed, not made again
    expect(held().packed).toBe(packed + 1);
  });

  test('Accept names a different answer: each is held apart', async () => {
    const first = JSON.parse((await raw(s.url, '/radarnet/mirror/v3/radars')).body.toString()) as { id: number }[];
    const path = `/radarnet/mirror/v3/radars/${first[0]!.id}`;
    const json = await raw(s.url, path, { headers: { Accept: 'application/json' } });
    const csv = await raw(s.url, path, { headers: { Accept: 'text/csv' } });
    const csvAgain = await raw(s.url, path, { headers: { Accept: 'text/csv' } });
    const jsonAgain = await raw(s.url, path, { headers: { Accept: 'application/json' } });
    expect(json.headers['content-type']).toBe('application/json');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csvAgain.body.equals(csv.body)).toBe(true);
    expect(jsonAgain.body.equals(json.body)).toBe(true);
    expect(json.body.equals(csv.body)).toBe(false);
  });

  test('errors are not held: a 404 and a 400 are made again each time', async () => {
    const size = held().size;
    for (const path of ['/radarnet/mirror/v3/files/999999999', '/radarnet/mirror/v3/files?timespan=nonsense', '/radarnet/mirror/v3/nothing']) {
      const a = await raw(s.url, path);
      const b = await raw(s.url, path);
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(b.status).toBe(a.status);
      expect(b.headers['cache-control']).toBe('no-store');
    }
    expect(held().size).toBe(size);
  });

  test('a crowd asking for the same answer at once: one request makes it (one query), the others wait for it and get the same bytes from memory', async () => {
    const pool = s.build.radar!.pool;
    const path = '/radarnet/mirror/v3/files?timespan=2024-03-02T06:00:00Z/2024-03-02T18:00:00Z&expanded=true';
    const before = { hits: held().hits, misses: held().misses, waited: held().waited };
    // the connections held, as long queries would hold them: the first request waits for one, its answer unmade
    const releases: (() => void)[] = [];
    const holding = Array.from({ length: pool.size }, () => pool.with(() => new Promise<void>((r) => releases.push(r))));
    try {
      const crowd = Array.from({ length: 8 }, () => raw(s.url, path));
      for (let i = 0; i < 500 && (pool.gate.waiting < 1 || held().waited - before.waited < 7); i++) await new Promise((r) => setTimeout(r, 10));
      // one request waits for a connection; the seven others wait for it, not for a connection of their own
      expect(pool.gate.waiting).toBe(1);
      expect(held().waited - before.waited).toBe(7);
      for (const r of releases) r();
      await Promise.all(holding);
      const answers = await Promise.all(crowd);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.equals(answers[0]!.body)).toBe(true);
      }
      expect(Array.isArray(JSON.parse(answers[0]!.body.toString('utf8')))).toBe(true);
      expect(held().misses - before.misses).toBe(1);
      expect(held().hits - before.hits).toBe(7);
    } finally {
      for (const r of releases) r();
    }
  });

  test('an endpoint that answers by queries only (liveOnly) holds nothing', async () => {
    const live = await startEndpoint(inject('demoBuild'), { liveOnly: true, watchMs: 0 });
    try {
      expect(live.server.answers).toBeUndefined();
    } finally {
      await live.close();
    }
  });
});

describe('AnswerCache', () => {
  test('past the budget an answer asked for more often than the least recently used puts it out, a one-off does not; an answer over the entry limit, an error, a cut-short one are not held; pieces are held whole', async () => {
    let cache = new AnswerCache(3000, 2000);
    const made: string[] = [];
    const server = createServer((req, res) => {
      const key = req.url!;
      if (cache.answer(req, res, key)) return;
      made.push(key);
      const n = Number(/\d+/.exec(key)?.[0] ?? 0);
      if (key.startsWith('/error')) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('no');
      } else if (key.startsWith('/cut')) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('a'.repeat(100));
        setTimeout(() => res.destroy(), 10);
      } else if (key.startsWith('/pieces')) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('one,');
        res.write(Buffer.from('two,'));
        res.end('three');
      } else if (key.startsWith('/png')) {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 3 });
        res.end('png');
      } else {
        const body = Buffer.alloc(n, key[1]!);
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length, 'X-Key': key });
        res.end(body);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const getText = async (p: string) => (await raw(base, p).catch(() => ({ status: 0, headers: {}, body: Buffer.alloc(0) }))) as Raw;
    try {
      for (const p of ['/a1000', '/b1000', '/c1000']) await getText(p);
      expect(cache.bytes).toBe(3000);
      const again = await getText('/a1000');
      expect(again.headers['x-key']).toBe('/a1000');
      expect(made).toEqual(['/a1000', '/b1000', '/c1000']);
      // over the budget: asked for once, /d1000 does not put out answers asked for as often (b, c: once each)
      await getText('/d1000');
      expect(cache.declined).toBe(1);
      await getText('/d1000');
      expect(cache.declined).toBe(2);
      expect(made).toEqual(['/a1000', '/b1000', '/c1000', '/d1000', '/d1000']);
      // asked for more often than /b1000, the least recently used: it goes, /d1000 is held
      await getText('/d1000');
      expect(cache.bytes).toBe(3000);
      await getText('/d1000');
      await getText('/a1000');
      await getText('/c1000');
      await getText('/b1000');
      expect(made).toEqual(['/a1000', '/b1000', '/c1000', '/d1000', '/d1000', '/d1000', '/b1000']);
      for (const p of ['/e2500', '/e2500', '/error', '/error', '/cut', '/cut', '/png', '/png']) await getText(p);
      expect(made.slice(7)).toEqual(['/e2500', '/e2500', '/error', '/error', '/cut', '/cut', '/png', '/png']);
      // a cache with room: an answer written in pieces is held whole
      cache = new AnswerCache(3000, 2000);
      const pieces = await getText('/pieces');
      const piecesAgain = await getText('/pieces');
      expect(piecesAgain.body.toString()).toBe('one,two,three');
      expect(pieces.body.toString()).toBe('one,two,three');
      expect(made.filter((m) => m === '/pieces')).toEqual(['/pieces']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('a hot swap', () => {
  const dir = join(TEST_TMP, `answer-cache-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a file changed in the new build is sent as it is now, never as the old build had it; its ETag is new', async () => {
    mkdirSync(join(dir, 'builds'), { recursive: true });
    const original = realpathSync(inject('demoBuild'));
    const [a, b] = [join(dir, 'builds', 'A'), join(dir, 'builds', 'B')];
    cpSync(original, a, { recursive: true });
    cpSync(original, b, { recursive: true });
    const file = join('site', 'radarnet', 'mirror', 'v3', 'radars.json');
    // the new build names the file anew (as a build does: it replaces names, never writes into a served file)
    unlinkSync(join(b, file));
    writeFileSync(join(b, file), '[{"changed":true}]\n');
    const link = join(dir, 'dist');
    symlinkSync(a, link);
    const s = await startEndpoint(link, { watchMs: 50 });
    try {
      const path = '/radarnet/mirror/v3/radars';
      const old1 = await raw(s.url, path);
      const old2 = await raw(s.url, path);
      expect(old2.body.equals(old1.body)).toBe(true);
      expect(s.server.answers!.size).toBeGreaterThan(0);
      symlinkSync(b, `${link}.new`);
      renameSync(`${link}.new`, link);
      const deadline = Date.now() + 10_000;
      while (s.build.folder !== b && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(s.build.folder).toBe(b);
      const now = await raw(s.url, path);
      expect(now.body.toString()).toBe('[{"changed":true}]\n');
      expect(now.headers.etag).not.toBe(old1.headers.etag);
      const revalidated = await raw(s.url, path, { headers: { 'If-None-Match': String(old1.headers.etag) } });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.toString()).toBe('[{"changed":true}]\n');
      const head = await raw(s.url, path, { method: 'HEAD' });
      expect(Number(head.headers['content-length'])).toBe(now.body.length);
      const zstd = await raw(s.url, path, { headers: { 'Accept-Encoding': 'zstd' } });
      expect(decoded(zstd).toString()).toBe('[{"changed":true}]\n');
    } finally {
      await s.close();
    }
  }, 60_000);
});
