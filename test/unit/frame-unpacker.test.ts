/**
 * Unpacking held answers' frames into reused Buffers (server/frame-unpacker.ts): the same bytes as node's
 * zstdDecompressSync, Buffers lent and given back once, and a frame that is not what it should be (corrupt, longer
 * than its body) never yields wrong bytes and leaves the next frame unpacked right.
 */
import { describe, expect, test } from 'vitest';
import { constants, zstdCompressSync } from 'node:zlib';
import { FrameUnpacker } from '../../server/frame-unpacker.ts';

const FRAME = 64 * 1024;

/** A catalogue-like text of about `bytes` bytes (it packs, and differs with `seed`). */
function text(seed: number, bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = `{"id":${seed * 100_000 + i},"name":"20240301.${String(i % 24).padStart(2, '0')}01.00.${['sas', 'pgr', 'kap', 'han'][(i + seed) % 4]}.rawacf.bz2","size":${(i * 7919 + seed) % 99_991}},`;
    parts.push(s);
    n += s.length;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

function frames(body: Buffer, frame = FRAME): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += frame) out.push(zstdCompressSync(body.subarray(at, at + frame), { params: { [constants.ZSTD_c_compressionLevel]: 1 } }));
  return out;
}

describe('FrameUnpacker', () => {
  test('on this node it unpacks into given Buffers; frame by frame and whole, the bytes are the body, the last frame short', () => {
    const u = new FrameUnpacker(FRAME, 4);
    expect(u.direct).toBe(true);
    const body = text(1, 3 * FRAME + 1234);
    const f = frames(body);
    expect(f).toHaveLength(4);
    const parts = f.map((x, i) => {
      const piece = u.take(x, Math.min(FRAME, body.length - i * FRAME));
      const copy = Buffer.from(piece);
      u.give(piece);
      return copy;
    });
    expect(Buffer.concat(parts).equals(body)).toBe(true);
    expect(u.whole(f, body.length).equals(body)).toBe(true);
    expect(u.fallbacks).toBe(0);
  });

  test('a Buffer given back is lent again, once: given twice it is pooled once; a Buffer it did not lend is ignored; at most `keep` are kept', () => {
    const u = new FrameUnpacker(FRAME, 2);
    const f = frames(text(2, FRAME));
    const a = u.take(f[0]!, FRAME);
    u.give(a);
    u.give(a);
    u.give(Buffer.alloc(FRAME + 1));
    expect(u.free).toBe(1);
    const b = u.take(f[0]!, FRAME);
    expect(b.buffer).toBe(a.buffer);
    expect(u.free).toBe(0);
    // while b is lent, another take gets other memory
    const c = u.take(f[0]!, FRAME);
    expect(c.buffer).not.toBe(b.buffer);
    const d = u.take(f[0]!, FRAME);
    for (const x of [b, c, d]) u.give(x);
    expect(u.free).toBe(2);
  });

  test('a corrupt frame throws, never yields wrong bytes; the next frame is unpacked right (the handle is replaced)', () => {
    const u = new FrameUnpacker(FRAME, 4);
    const body = text(3, 2 * FRAME);
    const f = frames(body);
    const bad = Buffer.from(f[0]!);
    bad.fill(0x55, 8, 40);
    expect(() => u.take(bad, FRAME)).toThrow();
    expect(u.fallbacks).toBe(1);
    expect(u.take(f[1]!, FRAME).equals(body.subarray(FRAME))).toBe(true);
    expect(u.whole(f, body.length).equals(body)).toBe(true);
    expect(u.fallbacks).toBe(1);
  });

  test('a frame holding more than its body is said to is refused, not cut short, and does not spill into the next', () => {
    const u = new FrameUnpacker(FRAME, 4);
    const body = text(4, 2 * FRAME);
    const f = frames(body);
    expect(() => u.take(f[0]!, FRAME - 10)).toThrow(/not 65526/);
    expect(() => u.whole([f[0]!], FRAME - 10)).toThrow(/not 65526/);
    expect(u.take(f[1]!, FRAME).equals(body.subarray(FRAME))).toBe(true);
  });

  test('without the handle (a node whose internals differ) every frame is unpacked by zstdDecompressSync: the same bytes', () => {
    const u = new FrameUnpacker(FRAME, 4, false);
    expect(u.direct).toBe(false);
    const body = text(5, 2 * FRAME + 7);
    const f = frames(body);
    expect(Buffer.concat(f.map((x, i) => u.take(x, Math.min(FRAME, body.length - i * FRAME)))).equals(body)).toBe(true);
    expect(u.whole(f, body.length).equals(body)).toBe(true);
    expect(u.fallbacks).toBe(6);
    expect(u.free).toBe(0);
  });
});
