/**
 * Whole-body compression (`npm run bench -- --only compress-whole`, issues 18 and 23): CPU and wall time of one
 * compression of a JSON body (getData's shape: timestamp and value pairs) of 64 KB to 8 MB, in each coding at
 * server/compression.ts's LEVELS, three ways, taking turns within each round so the machine's load falls on each
 * alike:
 *
 * - `pieces`: on libuv's thread pool with zlib's default 16 KB output buffer, one trip per 16 KB of output (the
 *   way compressWhole ran before issue 18's change);
 * - `now`: compressWhole as it is (one trip up to ONE_TRIP_MAX, pieces of PIECE_BYTES beyond);
 * - `sync`: compressWholeSync, on the event loop (what compressWholeOnce does up to SYNC_MAX; the loop is held
 *   for all of its wall time).
 *
 * CPU is the process's (process.cpuUsage: the event loop and the pool threads), which a loaded machine inflates
 * less than wall time. Medians of the rounds.
 */
import { loadavg } from 'node:os';
import { CODINGS, type Coding } from '../core/http/content-coding.ts';
import { compressWhole, compressWholeSync, LEVELS } from '../server/compression.ts';
import { median } from './stats.ts';

/** zlib's default output buffer (Z_DEFAULT_CHUNK), compressWhole's before issue 18's change. */
const ZLIB_DEFAULT_CHUNK = 16 * 1024;

export const SIZES = [64 * 1024, 256 * 1024, 1024 * 1024, 2_200_000, 8 * 1024 * 1024];
export const WAYS = ['pieces', 'now', 'sync'] as const;
type Way = (typeof WAYS)[number];

export interface CompressWholeRow {
  bytes: number;
  coding: Coding;
  compressedBytes: number;
  /** Median CPU ms and wall ms of one compression, by way. */
  ways: Record<Way, { cpuMs: number; wallMs: number }>;
}

export interface CompressWholeBench {
  levels: typeof LEVELS;
  rounds: number;
  loadBefore: string;
  loadAfter: string;
  rows: CompressWholeRow[];
}

/** A getData-like JSON body of exactly `bytes` bytes. */
export function jsonBody(bytes: number): Buffer {
  const parts: string[] = ['{"values":['];
  let length = parts[0]!.length;
  for (let i = 0, t = 1_672_531_200_000; length < bytes; i++, t += 600_000) {
    const p = `{"timestamp":${t},"value":${(Math.sin(i / 50) * 20 + 5).toFixed(2)}},`;
    parts.push(p);
    length += p.length;
  }
  return Buffer.from(`${parts.join('').slice(0, bytes - 2)}]}`);
}

async function once(way: Way, coding: Coding, body: Buffer): Promise<{ cpuMs: number; wallMs: number; out: Buffer }> {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const out = way === 'sync' ? compressWholeSync(coding, body) : await compressWhole(coding, body, way === 'pieces' ? ZLIB_DEFAULT_CHUNK : undefined);
  const wallMs = performance.now() - w0;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs, out };
}

export async function runCompressWholeBench(log: (l: string) => void, rounds = 15): Promise<CompressWholeBench> {
  const load = () => loadavg().map((x) => x.toFixed(1)).join(', ');
  const loadBefore = load();
  const rows: CompressWholeRow[] = [];
  for (const bytes of SIZES) {
    const body = jsonBody(bytes);
    for (const coding of CODINGS) {
      const seen: Record<Way, { cpu: number[]; wall: number[] }> = { pieces: { cpu: [], wall: [] }, now: { cpu: [], wall: [] }, sync: { cpu: [], wall: [] } };
      let compressedBytes = 0;
      for (const way of WAYS) await once(way, coding, body); // warm
      for (let r = 0; r < rounds; r++) {
        // the ways take turns, starting with a different one each round
        for (let k = 0; k < WAYS.length; k++) {
          const way = WAYS[(r + k) % WAYS.length]!;
          const m = await once(way, coding, body);
          seen[way].cpu.push(m.cpuMs);
          seen[way].wall.push(m.wallMs);
          compressedBytes = m.out.length;
        }
      }
      const ways = Object.fromEntries(WAYS.map((w) => [w, { cpuMs: median(seen[w].cpu), wallMs: median(seen[w].wall) }])) as CompressWholeRow['ways'];
      rows.push({ bytes, coding, compressedBytes, ways });
      log(`compress-whole: ${(bytes / 1024).toFixed(0)} KB ${coding} → ${(compressedBytes / 1024).toFixed(0)} KB: ${WAYS.map((w) => `${w} ${ways[w].cpuMs.toFixed(2)} ms CPU, ${ways[w].wallMs.toFixed(2)} ms wall`).join('; ')}`);
    }
  }
  return { levels: LEVELS, rounds, loadBefore, loadAfter: load(), rows };
}
