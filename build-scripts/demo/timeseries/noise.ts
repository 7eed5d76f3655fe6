/**
 * Deterministic pseudo-random numbers inside DuckDB SQL, as macros. Every number is a pure
 * function of (seed, key, stream, index): no state, so any row can be computed on its own, in
 * any order, and the same seed gives the same values.
 *
 * `hash(a, b, c, d)` of DuckDB combines the hashes of its arguments by multiplying and XOR-ing,
 * so two streams that differ only in one argument would differ by a constant XOR (strongly
 * correlated). Hashing the combined hash once more mixes all bits, making streams independent
 * (measured correlation below 0.001).
 */

export const NOISE_MACROS = [
  // uniform in (0, 1), 53 bits
  `CREATE OR REPLACE MACRO rnd(s, a, b, i) AS
     ((hash(hash(s::BIGINT, a::BIGINT, b::BIGINT, i::BIGINT)) >> 11)::DOUBLE + 0.5) / 9007199254740992.0`,
  // standard normal (Box-Muller)
  `CREATE OR REPLACE MACRO snd(s, a, b, i) AS
     sqrt(-2 * ln(rnd(s, a, b, 2 * i))) * cos(6.283185307179586 * rnd(s, a, b, 2 * i + 1))`,
  `CREATE OR REPLACE MACRO smoothstep01(f) AS f * f * (3 - 2 * f)`,
  // value noise in [-1, 1]: random values at integer x, joined by a smooth step; x in knot units
  `CREATE OR REPLACE MACRO vnoise(s, a, b, x) AS
     (2 * rnd(s, a, b, floor(x)) - 1) * (1 - smoothstep01(x - floor(x)))
     + (2 * rnd(s, a, b, floor(x) + 1) - 1) * smoothstep01(x - floor(x))`,
];

/** Stream numbers: one per use, so no two uses share random numbers. */
export const STREAM = {
  levelBasin: 1,
  levelLocal: 2,
  floodOccurs: 3,
  floodTime: 4,
  floodSize: 5,
  white: 6,
  nullValue: 7,
  synoptic: 11,
  tempLocal: 12,
  wetRegime: 13,
  wetLocal: 14,
  rainOccurs: 15,
  rainAmount: 16,
  pmEpisode: 17,
  pmNoise: 18,
  humidityLocal: 19,
  waterTempBasin: 20,
  waterTempLocal: 21,
  spell: 22,
} as const;

/** Keys of the large-scale weather fields (north and south), shared by all weather stations. */
export const FIELD = { north: 101, south: 102 } as const;

/** A number as a SQL literal that DuckDB reads as DOUBLE (never in exponent-free integer form that could overflow). */
export function num(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return Number.isInteger(x) ? `${x}.0` : String(x);
}
