import { mulberry32 } from '../../build-scripts/demo/hash.ts';
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../core/http/errors.ts';
import { douglasPeucker, douglasPeuckerIndices, generalize, lttb, lttbIndices, parseGeneralizeOptions, toSeries, type TimeValue } from '../../core/timeseries/generalize.ts';

const rng = mulberry32;

type Shape = 'walk' | 'sine' | 'steps' | 'spikes';

/** A series of n points, minute steps from 2013-08-16, with a share of nulls in runs. */
function series(n: number, seed: number, shape: Shape, nullShare = 0): { t: Float64Array; v: Float64Array } {
  const r = rng(seed);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  let x = 0;
  let nullLeft = 0;
  for (let i = 0; i < n; i++) {
    t[i] = 1376611200000 + i * 60000;
    if (shape === 'walk') x += r() - 0.5;
    else if (shape === 'sine') x = 5 * Math.sin(i / 17) + 0.3 * r();
    else if (shape === 'steps') x = Math.floor(i / 23) % 3 === 0 ? 1 : -1;
    else x = r() < 0.02 ? 10 * r() : 0;
    if (nullLeft === 0 && r() < nullShare) nullLeft = 1 + Math.floor(r() * 4);
    v[i] = nullLeft > 0 ? NaN : x;
    if (nullLeft > 0) nullLeft--;
  }
  return { t, v };
}

/** Runs of values [from, to] and the first index of each null run. */
function structure(v: Float64Array): { runs: [number, number][]; gapStarts: number[] } {
  const runs: [number, number][] = [];
  const gapStarts: number[] = [];
  for (let i = 0; i < v.length; i++) {
    const isNull = Number.isNaN(v[i]!);
    const starts = i === 0 || isNull !== Number.isNaN(v[i - 1]!);
    if (isNull && starts) gapStarts.push(i);
    if (!isNull && starts) runs.push([i, i]);
    if (!isNull) runs[runs.length - 1]![1] = i;
  }
  return { runs, gapStarts };
}

/** What every generalization must keep: order, subset, ends, every gap as a gap with its edges. */
function expectWellFormed(v: Float64Array, idx: Int32Array): void {
  const n = v.length;
  if (n === 0) return void expect(idx.length).toBe(0);
  expect(idx[0]).toBe(0);
  expect(idx[idx.length - 1]).toBe(n - 1);
  const problems: string[] = [];
  for (let k = 1; k < idx.length; k++) if (!(idx[k]! > idx[k - 1]!)) problems.push(`not ascending at ${k}`);
  const kept = new Set(idx);
  const { runs, gapStarts } = structure(v);
  for (const [a, b] of runs) if (!kept.has(a) || !kept.has(b)) problems.push(`run ${a}..${b} lost an end`);
  for (const g of gapStarts) if (!kept.has(g)) problems.push(`gap at ${g} lost its marker`);
  for (let k = 1; k < idx.length; k++) {
    if (Number.isNaN(v[idx[k - 1]!]!) || Number.isNaN(v[idx[k]!]!)) continue;
    for (let j = idx[k - 1]! + 1; j < idx[k]!; j++) if (Number.isNaN(v[j]!)) problems.push(`gap at ${j} closed`);
  }
  expect(problems).toEqual([]);
}

/** When points are dropped: one marker per gap, plus the series' last point when it ends in a long gap. */
function expectMarkers(v: Float64Array, idx: Int32Array): void {
  const { gapStarts } = structure(v);
  const n = v.length;
  const tail = n >= 2 && Number.isNaN(v[n - 1]!) && Number.isNaN(v[n - 2]!) ? [n - 1] : [];
  expect(Array.from(idx).filter((i) => Number.isNaN(v[i]!))).toEqual([...gapStarts, ...tail]);
}

const SIZES = [0, 1, 2, 3, 4, 5, 10, 199, 200, 201, 1000, 5003];
const SHAPES: Shape[] = ['walk', 'sine', 'steps', 'spikes'];

describe('LTTB', () => {
  test('a small example by hand', () => {
    // threshold 4 on 6 points: buckets {1,2} and {3,4}; every = (6 - 2) / (4 - 2) = 2.
    // Bucket {1,2}: a = (0,0), next bucket's average c = (3.5, 3); doubled areas |(0-3.5)(1-0) - (0-1)(3-0)| = 0.5
    // for point 1 and |(0-3.5)(5-0) - (0-2)(3-0)| = 11.5 for point 2: keep 2.
    // Bucket {3,4}: a = (2,5), c = the last point (5,0); |(2-5)(2-5) - (2-3)(0-5)| = 4 for point 3 and
    // |(2-5)(4-5) - (2-4)(0-5)| = 7 for point 4: keep 4.
    const t = Float64Array.from([0, 1, 2, 3, 4, 5]);
    const v = Float64Array.from([0, 1, 5, 2, 4, 0]);
    expect(Array.from(lttbIndices(t, v, 4))).toEqual([0, 2, 4, 5]);
    expect(Array.from(lttbIndices(t, v, 3))).toEqual([0, 2, 5]);
    expect(Array.from(lttbIndices(t, v, 2))).toEqual([0, 5]);
  });

  test.each(SHAPES)('%s: ends kept, ≤ threshold, subset, ordered', (shape) => {
    for (const n of SIZES) {
      const s = series(n, n + 1, shape);
      for (const threshold of [2, 3, 10, 200, 1000, 10_000]) {
        const idx = lttbIndices(s.t, s.v, threshold);
        expectWellFormed(s.v, idx);
        expect(idx.length).toBe(Math.min(n, threshold));
      }
    }
  });

  test('threshold at or above the length keeps everything; below 2 counts as 2', () => {
    const s = series(50, 3, 'walk');
    expect(Array.from(lttbIndices(s.t, s.v, 50))).toEqual([...Array(50).keys()]);
    expect(Array.from(lttbIndices(s.t, s.v, Infinity))).toEqual([...Array(50).keys()]);
    expect(Array.from(lttbIndices(s.t, s.v, 1))).toEqual([0, 49]);
    expect(Array.from(lttbIndices(s.t, s.v, 0))).toEqual([0, 49]);
    expect(() => lttbIndices(s.t, s.v, NaN)).toThrow(RangeError);
  });

  test('a constant series: ends and one point per bucket', () => {
    const t = Float64Array.from({ length: 1000 }, (_, i) => i * 1000);
    const v = new Float64Array(1000).fill(7);
    const idx = lttbIndices(t, v, 10);
    expectWellFormed(v, idx);
    expect(idx.length).toBe(10);
  });

  test('gaps stay gaps, and the budget holds once it covers the skeleton', () => {
    for (const n of [10, 300, 5000]) {
      for (const share of [0.01, 0.1, 0.4]) {
        const s = series(n, n * 7 + Math.round(share * 100), 'walk', share);
        const { runs, gapStarts } = structure(s.v);
        const tail = Number.isNaN(s.v[n - 1]!) && Number.isNaN(s.v[n - 2]!) ? 1 : 0;
        const skeleton = gapStarts.length + tail + runs.reduce((sum, [a, b]) => sum + Math.min(b - a + 1, 2), 0);
        for (const threshold of [2, 20, 200, skeleton, skeleton + 1, skeleton + 57, n]) {
          const idx = lttbIndices(s.t, s.v, threshold);
          expectWellFormed(s.v, idx);
          if (threshold < n) expectMarkers(s.v, idx);
          // every value and marker kept once the budget covers them all; nothing dropped at threshold ≥ n
          const full = runs.reduce((sum, [a, b]) => sum + b - a + 1, 0) + gapStarts.length + tail;
          expect(idx.length).toBe(threshold >= n ? n : Math.min(full, Math.max(threshold, skeleton)));
        }
      }
    }
  });

  test('all null: the first and the last point', () => {
    const t = Float64Array.from([1, 2, 3, 4]);
    const v = Float64Array.from([NaN, NaN, NaN, NaN]);
    expect(Array.from(lttbIndices(t, v, 2))).toEqual([0, 3]);
    expect(Array.from(lttbIndices(t, v, 3))).toEqual([0, 3]);
    expect(Array.from(douglasPeuckerIndices(t, v, 0.1))).toEqual([0, 3]);
  });

  test('a gap at either end, a lone value between gaps', () => {
    const t = Float64Array.from({ length: 12 }, (_, i) => i);
    const v = Float64Array.from([NaN, NaN, 1, 2, 3, 4, NaN, 5, NaN, 6, NaN, NaN]);
    const idx = lttbIndices(t, v, 2);
    expect(Array.from(idx)).toEqual([0, 2, 5, 6, 7, 8, 9, 10, 11]); // the skeleton: more than 2 to keep every gap
    expectWellFormed(v, idx);
    expect(Array.from(lttbIndices(t, v, 10))).toEqual([0, 2, 3, 5, 6, 7, 8, 9, 10, 11]);
  });

  test('the object form keeps nulls and picks the same points', () => {
    const s = series(3000, 11, 'sine', 0.05);
    const points: TimeValue[] = Array.from(s.t, (t, i) => ({ timestamp: t, value: Number.isNaN(s.v[i]!) ? null : s.v[i]! }));
    const out = lttb(points, 100);
    expect(out).toEqual(Array.from(lttbIndices(s.t, s.v, 100), (i) => points[i]));
    expect(out.some((p) => p.value === null)).toBe(true);
    const typed = lttb(toSeries(points), 100);
    expect(Array.from(typed.t)).toEqual(out.map((p) => p.timestamp));
    expect(lttb([])).toEqual([]);
    expect(lttb([{ timestamp: 1, value: null }])).toEqual([{ timestamp: 1, value: null }]);
  });

  test('10^6 points to the default 200', () => {
    const s = series(1_000_000, 5, 'walk');
    const idx = lttbIndices(s.t, s.v, 200);
    expect(idx.length).toBe(200);
    expect(idx[0]).toBe(0);
    expect(idx[199]).toBe(999_999);
  });
});

/** Vertical distance of (t, v) from the segment between kept points a and b, as documented. */
function verticalDistance(t: Float64Array, v: Float64Array, a: number, b: number, j: number): number {
  if (t[b] === t[a]) {
    const lo = Math.min(v[a]!, v[b]!);
    const hi = Math.max(v[a]!, v[b]!);
    return v[j]! < lo ? lo - v[j]! : v[j]! > hi ? v[j]! - hi : 0;
  }
  return Math.abs(v[j]! - (v[a]! + ((v[b]! - v[a]!) * (t[j]! - t[a]!)) / (t[b]! - t[a]!)));
}

describe('Douglas-Peucker', () => {
  test('property: every dropped point lies within the tolerance of the kept line', () => {
    const r = rng(42);
    let dropped = 0;
    for (let trial = 0; trial < 120; trial++) {
      const n = 1 + Math.floor(r() * 3000);
      const shape = SHAPES[trial % SHAPES.length]!;
      const s = series(n, trial, shape, trial % 3 === 0 ? 0.05 : 0);
      if (trial % 5 === 0) for (let i = 1; i < n; i += 7) s.t[i] = s.t[i - 1]!; // repeated instants
      const tolerance = [0, 0.01, 0.1, 0.5, 2][trial % 5]!;
      const idx = douglasPeuckerIndices(s.t, s.v, tolerance);
      expectWellFormed(s.v, idx);
      expectMarkers(s.v, idx);
      let worst = 0;
      for (let k = 1; k < idx.length; k++) {
        const a = idx[k - 1]!;
        const b = idx[k]!;
        if (Number.isNaN(s.v[a]!) || Number.isNaN(s.v[b]!)) continue; // dropped nulls sit inside a kept gap (checked above)
        for (let j = a + 1; j < b; j++) worst = Math.max(worst, verticalDistance(s.t, s.v, a, b, j));
      }
      expect(worst).toBeLessThanOrEqual(tolerance + 1e-9);
      dropped += n - idx.length;
    }
    expect(dropped).toBeGreaterThan(10_000); // the property was not met by keeping everything
  });

  test('straight and constant lines keep only their ends', () => {
    const t = Float64Array.from({ length: 100 }, (_, i) => i * 60_000);
    expect(Array.from(douglasPeuckerIndices(t, new Float64Array(100).fill(3), 0))).toEqual([0, 99]);
    expect(Array.from(douglasPeuckerIndices(t, Float64Array.from(t, (x) => x / 60_000 / 4), 1e-9))).toEqual([0, 99]);
  });

  test('the tolerance is in value units, whatever the time scale', () => {
    const v = Float64Array.from([0, 0.05, 0, 0.2, 0]);
    for (const step of [1, 60_000, 86_400_000]) {
      const t = Float64Array.from(v, (_, i) => 1e12 + i * step);
      // 0.2 at 3 is kept; then point 2 lies 0.133 below the line from 0 to 0.2; point 1 only 0.05 above 0
      expect(Array.from(douglasPeuckerIndices(t, v, 0.1))).toEqual([0, 2, 3, 4]);
      expect(Array.from(douglasPeuckerIndices(t, v, 0.15))).toEqual([0, 3, 4]);
    }
  });

  test('degenerate inputs', () => {
    const e = new Float64Array(0);
    expect(Array.from(douglasPeuckerIndices(e, e, 0.1))).toEqual([]);
    expect(Array.from(douglasPeuckerIndices(Float64Array.of(1), Float64Array.of(5), 0.1))).toEqual([0]);
    expect(Array.from(douglasPeuckerIndices(Float64Array.of(1, 2), Float64Array.of(5, 9), 0.1))).toEqual([0, 1]);
    expect(Array.from(douglasPeuckerIndices(Float64Array.of(1, 2, 3), Float64Array.of(NaN, NaN, NaN), 0.1))).toEqual([0, 2]);
    expect(Array.from(douglasPeuckerIndices(Float64Array.of(1), Float64Array.of(NaN), 0.1))).toEqual([0]);
    expect(Array.from(douglasPeuckerIndices(Float64Array.of(1, 2, 3, 4), Float64Array.of(NaN, 1, 2, NaN), 0.1))).toEqual([0, 1, 2, 3]);
    expect(() => douglasPeuckerIndices(e, e, -1)).toThrow(RangeError);
    expect(() => douglasPeuckerIndices(e, e, NaN)).toThrow(RangeError);
    expect(douglasPeucker([])).toEqual([]);
  });

  test('10^6 points without recursion', () => {
    const s = series(1_000_000, 9, 'spikes');
    const idx = douglasPeuckerIndices(s.t, s.v, 0.1);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(999_999);
  });

  test('the object form', () => {
    const points: TimeValue[] = [
      { timestamp: 0, value: 0 },
      { timestamp: 1, value: 0.05 },
      { timestamp: 2, value: null },
      { timestamp: 3, value: null },
      { timestamp: 4, value: 1 },
      { timestamp: 5, value: 1.01 },
      { timestamp: 6, value: 1 },
    ];
    expect(douglasPeucker(points).map((p) => p.timestamp)).toEqual([0, 1, 2, 4, 6]);
    expect(generalize(points, { algorithm: 'dp', tolerance: 0.001 }).map((p) => p.timestamp)).toEqual([0, 1, 2, 4, 5, 6]);
    expect(generalize(points, { algorithm: 'lttb', threshold: 2 }).map((p) => p.timestamp)).toEqual([0, 1, 2, 4, 6]);
  });
});

describe('generalizing parameters', () => {
  const q = (s: string) => parseGeneralizeOptions(new URLSearchParams(s));

  test('defaults and choices', () => {
    expect(q('')).toEqual({ algorithm: 'lttb', threshold: 200 });
    expect(q('generalizing_algorithm=LTTB&threshold=50')).toEqual({ algorithm: 'lttb', threshold: 50 });
    expect(q('generalizing_algorithm=DP')).toEqual({ algorithm: 'dp', tolerance: 0.1 });
    expect(q('generalizing_algorithm=dp&tolerance_value=2.5')).toEqual({ algorithm: 'dp', tolerance: 2.5 });
  });

  test.each([
    ['generalizing_algorithm=fast', 'generalizing_algorithm'],
    ['threshold=1', 'threshold'],
    ['threshold=ten', 'threshold'],
    ['threshold=2.5', 'threshold'],
    ['generalizing_algorithm=DP&tolerance_value=-1', 'tolerance_value'],
    ['generalizing_algorithm=DP&tolerance_value=abc', 'tolerance_value'],
  ])('%s: 400 naming %s', (query, name) => {
    let err: unknown;
    try {
      q(query);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).userMessage).toContain(`'${name}'`);
    expect((err as HttpError).hints[0]).toMatch(new RegExp(`^A valid example: ${name}=`));
  });
});
