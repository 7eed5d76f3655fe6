/**
 * A small PNG decoder for tests (8-bit greyscale, RGB or RGBA, not interlaced: what Chromium writes):
 * the size and every pixel as RGBA, so a test can look for colours where the chart draws them.
 */
import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGBA, row by row. */
  rgba: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(b: Buffer): boolean {
  return b.length > 8 && b.subarray(0, 8).equals(SIGNATURE);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(buf: Buffer): Image {
  if (!isPng(buf)) throw new Error('not a PNG');
  let pos = 8;
  let width = 0, height = 0, depth = 0, colorType = 0, interlace = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8]!;
      colorType = data[9]!;
      interlace = data[12]!;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i]!;
      const a = i >= channels ? px[row + i - channels]! : 0;
      const b = y > 0 ? px[row - stride + i]! : 0;
      const c = y > 0 && i >= channels ? px[row - stride + i - channels]! : 0;
      const pred = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      px[row + i] = (x + pred) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * channels;
    const [r, g, b, al] =
      channels === 1 ? [px[s]!, px[s]!, px[s]!, 255]
      : channels === 2 ? [px[s]!, px[s]!, px[s]!, px[s + 1]!]
      : channels === 3 ? [px[s]!, px[s + 1]!, px[s + 2]!, 255]
      : [px[s]!, px[s + 1]!, px[s + 2]!, px[s + 3]!];
    rgba.set([r, g, b, al], p * 4);
  }
  return { width, height, rgba };
}

/** Whether the pixel at (x, y) is within `tolerance` of the colour `#rrggbb` in every channel. */
export function isColour(img: Image, x: number, y: number, hex: string, tolerance = 0): boolean {
  const i = (y * img.width + x) * 4;
  const c = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  return c.every((v, k) => Math.abs(img.rgba[i + k]! - v) <= tolerance);
}

/** The pixels of a colour, as [x, y] pairs. */
export function pixelsOf(img: Image, hex: string, tolerance = 0): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (isColour(img, x, y, hex, tolerance)) out.push([x, y]);
  return out;
}
