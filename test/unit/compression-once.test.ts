/** Whole bodies are compressed once per Buffer and coding (a file of the tree held in memory), in every coding. */
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CODINGS, type Coding } from '../../core/http/content-coding.ts';
import { compressWholeOnce, SYNC_MAX } from '../../server/compression.ts';

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
