/**
 * Answers held only packed, sent over real sockets from reused Buffers (server/frame-unpacker.ts): a Buffer goes
 * back to the pool only once its socket is done with it, so many clients at once, fast, slow and compressed, each
 * get their answer's exact bytes, and the pool is used (nothing allocated per frame in identity).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, gunzipSync, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { describe, expect, test, vi } from 'vitest';
import { AnswerCache, PACK_FRAME } from '../../server/answer-cache.ts';
import { compressAnswers, LEVELS } from '../../server/compression.ts';

/** What a body packs to: zstd frames of PACK_FRAME bytes of it, at the held answers' level. */
function packedBytes(b: Buffer): number {
  let n = 0;
  for (let at = 0; at < b.length; at += PACK_FRAME) n += zstdCompressSync(b.subarray(at, at + PACK_FRAME), { params: { [constants.ZSTD_c_compressionLevel]: LEVELS.zstd } }).length;
  return n;
}

/** A catalogue-like answer of about `bytes` bytes, different for each `seed` (it packs about 5:1). */
function answer(seed: number, bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = `{"id":${seed * 1_000_000 + i},"file":"2024030${seed % 9}.${String(i % 24).padStart(2, '0')}00.00.${['sas', 'pgr', 'kap', 'han', 'inv'][(i * 7 + seed) % 5]}.rawacf.bz2","bytes":${(i * 7919 + seed * 31) % 99_991}},`;
    parts.push(s);
    n += s.length;
  }
  return Buffer.from(parts.join(''));
}

/**
 * GET `path`; `slow`: the client takes nothing for 150 ms, then reads. Meanwhile the socket's buffers fill and
 * the server's writes wait in node, holding their Buffers (a pooled one reused then would be sent changed).
 */
function get(base: string, path: string, opts: { coding?: string; slow?: boolean } = {}): Promise<{ body: Buffer; coding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: opts.coding ? { 'Accept-Encoding': opts.coding } : {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      if (opts.slow) {
        res.pause();
        setTimeout(() => res.resume(), 150);
      }
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), coding: res.headers['content-encoding'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('answers held only packed, sent from reused Buffers', () => {
  test('40 clients at once (fast, slow, gzip, zstd) over answers of 24 frames and of one: every body exact; the pool is used and nothing falls back', async () => {
    // long ones (6 MB: more than the sockets' buffers hold, so writes wait for a slow client) and ones of a
    // single frame (a compressor holds a piece that short until the answer ends: never a pooled one)
    const bodies = Array.from({ length: 12 }, (_, i) => answer(i, i % 2 === 0 ? 24 * PACK_FRAME - 1000 * i : 150_000 + 1000 * i));
    // a cache for each length, with room for its answers' frames (and for the last to be let in as if it packed
    // 4:1, PACK_GUESS) but not for a plain copy: every hit is unpacked
    const budget = (odd: number, slack: number) => bodies.reduce((n, b, i) => n + (i % 2 === odd ? packedBytes(b) : 0), slack);
    const caches = [new AnswerCache(budget(0, 2 ** 20), 8 * 2 ** 20), new AnswerCache(budget(1, 100_000), 8 * 2 ** 20)];
    const server = createServer((req, res) => {
      compressAnswers(req, res);
      const key = req.url!;
      res.setHeader('ETag', `"${key}"`);
      if (caches[Number(key.slice(1)) % 2]!.answer(req, res, key)) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(bodies[Number(key.slice(1))]);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < bodies.length; i++) expect((await get(base, `/${i}`)).body.equals(bodies[i]!)).toBe(true);
      await vi.waitFor(() => expect(caches.map((c) => c.packed)).toEqual([6, 6]));
      expect(caches.map((c) => c.size)).toEqual([6, 6]);
      const hits = caches[0]!.hits + caches[1]!.hits;
      const kinds = [{}, {}, { slow: true }, { coding: 'gzip' }, {}, { coding: 'zstd' }, { slow: true }, {}, { coding: 'gzip' }] as const;
      for (let round = 0; round < 3; round++) {
        const asks = Array.from({ length: 40 }, (_, c) => ({ i: (c * 7 + round * 5) % bodies.length, kind: kinds[(c + round) % kinds.length]! }));
        const got = await Promise.all(asks.map((a) => get(base, `/${a.i}`, a.kind)));
        got.forEach((g, c) => {
          const { i, kind } = asks[c]!;
          const coding = 'coding' in kind ? kind.coding : undefined;
          expect(g.coding).toBe(coding);
          const plain = coding === 'gzip' ? gunzipSync(g.body) : coding === 'zstd' ? zstdDecompressSync(g.body) : g.body;
          expect(plain.length, `answer ${i} to client ${c} (${JSON.stringify(kind)})`).toBe(bodies[i]!.length);
          expect(plain.equals(bodies[i]!), `answer ${i} to client ${c} (${JSON.stringify(kind)})`).toBe(true);
        });
      }
      expect(caches[0]!.hits + caches[1]!.hits).toBe(hits + 120);
      // a compressor may keep a piece past its write's callback: compressed answers are never sent lent Buffers
      const lends = caches.map((c) => c.unpacker.lends);
      const compressed = await Promise.all(bodies.map((_, i) => get(base, `/${i}`, { coding: i % 3 === 0 ? 'zstd' : 'gzip' })));
      compressed.forEach((g, i) => expect((g.coding === 'zstd' ? zstdDecompressSync(g.body) : gunzipSync(g.body)).equals(bodies[i]!)).toBe(true));
      expect(caches.map((c) => c.unpacker.lends)).toEqual(lends);
      // held packed only all along (no plain copy fitted beside the frames), and sent from the pools
      for (const [i, c] of caches.entries()) {
        expect(c.bytes).toBeLessThanOrEqual(budget(i, 0) + 1000);
        expect(c.unpacker.direct).toBe(true);
        expect(c.unpacker.fallbacks).toBe(0);
        expect(c.unpacker.free).toBeGreaterThan(0);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
