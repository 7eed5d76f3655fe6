/** Whole bodies are compressed once per Buffer and coding (a file of the tree held in memory), in every coding. */
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CODINGS, type Coding } from '../../core/http/content-coding.ts';
import { compressWholeOnce } from '../../server/compression.ts';

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
});
