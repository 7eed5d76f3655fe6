/**
 * Deterministic pseudo-random numbers for the radar demo, as pure functions of
 * (seed, parts...): no state, no Math.random, so any row can be generated on its own.
 *
 * Two implementations with the same idea:
 * - `unit()` in JS, for the small choices made while building the small tables
 *   (radar profiles, blocklist re-dating, late files);
 * - the SQL macro `u(a, b, c, d)` (from `randomMacros()`), for the big tables generated
 *   inside DuckDB: DuckDB's `hash()` of (seed, a, b, c, d) mapped to [0, 1). `hash()` is
 *   stable for a given DuckDB version, which is what byte-identical output needs.
 */

import { fmix32 } from '../hash.ts';

const TWO_POW_32 = 4294967296;

function mixWord(h: number, word: number): number {
  let k = Math.imul(word | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** A number in [0, 1) that depends only on the seed and the integer parts (murmur3 mixing of 32-bit words). */
export function unit(seed: number, ...parts: number[]): number {
  let h = 0x9747b28c;
  for (const p of [seed, ...parts]) {
    const lo = p % TWO_POW_32;
    const hi = Math.floor(p / TWO_POW_32);
    h = mixWord(h, lo);
    h = mixWord(h, hi);
  }
  // Two rounds of finalisation so that neighbouring inputs give unrelated outputs.
  return fmix32(fmix32(h) ^ 0x5bd1e995) / TWO_POW_32;
}

/** A whole number in [0, n). */
export function pick(n: number, seed: number, ...parts: number[]): number {
  return Math.floor(unit(seed, ...parts) * n);
}

/** A stable string hash, for folding names into `unit()` parts. */
export function stringPart(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * SQL macros of the deterministic random numbers:
 * - `u(a, b, c, d)`: uniform in [0, 1);
 * - `gauss(a, b, c)`: standard normal (Box-Muller over two `u` draws with tags c and c + 1);
 * - `hit(r, s, span, tag, p, lmin, lmax)`: whether slot `s` lies in a random event of radar `r`.
 *   Time is cut into epochs of `span` slots; each epoch holds, with probability `p`, one event
 *   starting at a random slot of the epoch and lasting lmin..lmax slots (short ones more likely).
 *   An event may run into the next epoch (lmax <= span), so the previous epoch is checked too.
 */
export function randomMacros(seed: number): string[] {
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be a safe integer, not ${seed}`);
  return [
    `CREATE OR REPLACE MACRO u(a, b, c, d) AS hash(${seed}::BIGINT, a::BIGINT, b::BIGINT, c::BIGINT, d::BIGINT) / 18446744073709551616.0`,
    `CREATE OR REPLACE MACRO gauss(a, b, c) AS sqrt(-2 * ln(1 - u(a, b, c, 0))) * cos(2 * pi() * u(a, b, c + 1, 0))`,
    `CREATE OR REPLACE MACRO ev_hit(r, e, pos, span, tag, p, lmin, lmax) AS (
       u(r, e, tag, 0) < p
       AND pos >= floor(u(r, e, tag, 1) * span)
       AND pos < floor(u(r, e, tag, 1) * span) + lmin + floor(pow(u(r, e, tag, 2), 2) * (lmax - lmin + 1)))`,
    `CREATE OR REPLACE MACRO hit(r, s, span, tag, p, lmin, lmax) AS (
       ev_hit(r, s // span, s % span, span, tag, p, lmin, lmax)
       OR ev_hit(r, s // span - 1, s % span + span, span, tag, p, lmin, lmax))`,
  ];
}
