/** Whole bodies are compressed once per Buffer and coding (a file of the tree held in memory), in every coding. */
import { createHook } from 'node:async_hooks';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CODINGS, type Coding } from '../../core/http/content-coding.ts';
import { chunkSizeFor, compressWhole, compressWholeOnce, ONE_TRIP_MAX, PIECE_BYTES, SYNC_MAX } from '../../server/compression.ts';

const DECODE: Record<Coding, (b: Buffer) => Buffer> = { zstd: zstdDecompressSync, br: brotliDecompressSync, gzip: gunzipSync };

describe('compressWholeOnce', () => {
  test.each(CODINGS)('%s: the same Buffer is compressed once; another Buffer of the same bytes again', async (coding) => {
    const body = Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, id) => ({ id, name: `file ${id}` }))));
    const a = await compressWholeOnce(coding, body);
    const b = await compressWholeOnce(coding, body);
    expect(b).toBe(a);
    expect(DECODE[coding](a).equals(body)).toBe(true);
    const copy = Buffer.from(body);
    const c = await compressWholeOnce(coding, copy);
    expect(c).not.toBe(a);
    expect(DECODE[coding](c).equals(body)).toBe(true);
  });

  test('each coding has its own form', async () => {
    const body = Buffer.from('x'.repeat(5000));
    const forms = await Promise.all(CODINGS.map((c) => compressWholeOnce(c, body)));
    expect(new Set(forms).size).toBe(CODINGS.length);
  });

  test.each(CODINGS)('%s: a body up to SYNC_MAX is compressed at once (no promise); a larger one on the thread pool, then held as bytes', async (coding) => {
    const small = Buffer.from('{"id":1,"name":"x"},'.repeat(1000));
    expect(Buffer.isBuffer(compressWholeOnce(coding, small))).toBe(true);
    const large = Buffer.from('{"id":12345,"sha1":"0123456789abcdef0123456789abcdef01234567"},'.repeat(Math.ceil((SYNC_MAX + 1) / 60)));
    expect(large.length).toBeGreaterThan(SYNC_MAX);
    const pending = compressWholeOnce(coding, large);
    expect(Buffer.isBuffer(pending)).toBe(false);
    const out = await pending;
    expect(DECODE[coding](out).equals(large)).toBe(true);
    expect(compressWholeOnce(coding, large)).toBe(out);
  });
});

describe('compressWhole: a large whole body goes to the thread pool in one trip (issue 18)', () => {
  /** getData's shape: 2.2 MB of timestamp and value pairs, about 300 KB compressed in each coding. */
  const body = Buffer.from(Array.from({ length: 52_000 }, (_, i) => `{"timestamp":${1_672_531_200_000 + i * 600_000},"value":${(Math.sin(i / 50) * 20 + 5).toFixed(2)}}`).join(','));

  /** Calls from libuv's thread pool back into JS for zlib's work (async_hooks' `before` on ZLIB resources) while `f` runs. */
  async function tripsOf<T>(f: () => Promise<T>): Promise<{ trips: number; out: T }> {
    const zlib = new Set<number>();
    let trips = 0;
    const hook = createHook({
      init: (id, type) => void (type === 'ZLIB' && zlib.add(id)),
      before: (id) => void (zlib.has(id) && trips++),
    }).enable();
    try {
      const out = await f();
      return { trips, out };
    } finally {
      hook.disable();
    }
  }

  test.each(CODINGS)('%s: 2.2 MB in one trip (and the stream end), not one per 16 KB of output; the bytes decode equal', async (coding) => {
    expect(body.length).toBeGreaterThan(2_000_000);
    expect(body.length).toBeLessThanOrEqual(ONE_TRIP_MAX);
    const now = await tripsOf(() => compressWhole(coding, body));
    expect(DECODE[coding](now.out).equals(body)).toBe(true);
    expect(now.out.length).toBeGreaterThan(16 * 1024 * 4);
    expect(now.trips).toBeLessThanOrEqual(2);
    // its own bytes, not a slice of the body-sized output buffer
    expect(now.out.buffer.byteLength).toBeLessThan(now.out.length + 64 * 1024);
    // the way it was: zlib's 16 KB output buffer, a trip per piece
    const before = await tripsOf(() => compressWhole(coding, body, 16 * 1024));
    expect(before.out.equals(now.out)).toBe(true);
    expect(before.trips).toBeGreaterThanOrEqual(Math.floor(now.out.length / (16 * 1024)));
  });

  test('beyond ONE_TRIP_MAX, pieces of PIECE_BYTES of output: a few trips, the bytes decode equal', async () => {
    const big = Buffer.concat([body, body, body]);
    expect(big.length).toBeGreaterThan(ONE_TRIP_MAX);
    expect(chunkSizeFor(big.length)).toBe(PIECE_BYTES);
    const r = await tripsOf(() => compressWhole('zstd', big));
    expect(zstdDecompressSync(r.out).equals(big)).toBe(true);
    expect(r.trips).toBeGreaterThanOrEqual(Math.ceil(r.out.length / PIECE_BYTES));
    expect(r.trips).toBeLessThanOrEqual(Math.ceil(r.out.length / PIECE_BYTES) + 1);
  });
});
