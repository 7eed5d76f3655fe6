/**
 * Douglas-Peucker (Ramer 1972; Douglas & Peucker 1973), iterative with an explicit stack, so 10^6 points
 * cannot overflow the call stack.
 *
 * Metric: vertical distance in value units. A point (t, v) lies at |v - line(t)| from the segment between
 * two kept points, where line(t) interpolates linearly in time between them; time needs no scaling, and
 * `tolerance` means "value units", whatever the series' unit and sampling. Two kept points at the same
 * instant form a vertical segment: the distance is then how far v lies outside their value range.
 *
 * Bound: every dropped point lies within `tolerance` (≤) of the output polyline in that metric, measured
 * against the segment between its nearest kept neighbours. The first and last point of the series (and of
 * every run of values, see runs.ts) are always kept, and each gap keeps its first null as a marker.
 * Timestamps must be non-decreasing.
 */
import { hasNoGaps, segments } from './runs.ts';

/** Marks in `keep` the points DP keeps of the run `from ..= to`; `stack` holds at least 2·(to-from+1) ints. */
function dpRun(t: Float64Array, v: Float64Array, from: number, to: number, tolerance: number, keep: Uint8Array, stack: Int32Array): void {
  keep[from] = 1;
  keep[to] = 1;
  let sp = 0;
  stack[sp++] = from;
  stack[sp++] = to;
  while (sp > 0) {
    const b = stack[--sp]!;
    const a = stack[--sp]!;
    if (b - a < 2) continue;
    const ta = t[a]!;
    const va = v[a]!;
    const vb = v[b]!;
    const dt = t[b]! - ta;
    let maxD = -1;
    let idx = -1;
    if (dt > 0) {
      const slope = (vb - va) / dt;
      for (let j = a + 1; j < b; j++) {
        const d = Math.abs(v[j]! - (va + slope * (t[j]! - ta)));
        if (d > maxD) {
          maxD = d;
          idx = j;
        }
      }
    } else {
      const lo = Math.min(va, vb);
      const hi = Math.max(va, vb);
      for (let j = a + 1; j < b; j++) {
        const x = v[j]!;
        const d = x < lo ? lo - x : x > hi ? x - hi : 0;
        if (d > maxD) {
          maxD = d;
          idx = j;
        }
      }
    }
    if (maxD > tolerance) {
      keep[idx] = 1;
      stack[sp++] = a;
      stack[sp++] = idx;
      stack[sp++] = idx;
      stack[sp++] = b;
    }
  }
}

/** Indices (ascending) of the points Douglas-Peucker keeps at `tolerance` (value units, vertical distance). */
export function douglasPeuckerIndices(t: Float64Array, v: Float64Array, tolerance: number): Int32Array {
  if (!(tolerance >= 0)) throw new RangeError('Douglas-Peucker tolerance must be a number >= 0');
  const n = Math.min(t.length, v.length);
  const vals = v.length === n ? v : v.subarray(0, n);
  const keep = new Uint8Array(n);
  // Each pop pushes at most two pairs and at most one pair per kept point is pending at once: 2n + 2 ints suffice.
  const stack = new Int32Array(2 * n + 2);
  if (hasNoGaps(vals)) {
    if (n > 0) dpRun(t, vals, 0, n - 1, tolerance, keep, stack);
  } else {
    const seg = segments(vals);
    for (let k = 0; k < seg.count; k++) {
      if (seg.gap[k]) keep[seg.start[k]!] = 1;
      else dpRun(t, vals, seg.start[k]!, seg.end[k]! - 1, tolerance, keep, stack);
    }
  }
  if (n > 0) keep[n - 1] = 1; // a series ending in a gap keeps its last null as well as the gap's first
  let count = 0;
  for (let i = 0; i < n; i++) count += keep[i]!;
  const out = new Int32Array(count);
  for (let i = 0, p = 0; i < n; i++) if (keep[i]) out[p++] = i;
  return out;
}
