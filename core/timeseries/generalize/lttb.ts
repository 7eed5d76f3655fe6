/**
 * Largest-Triangle-Three-Buckets (Steinarsson 2013, "Downsampling Time Series for Visual Representation"):
 * keeps the first and last point and, from each of `threshold - 2` equal-count buckets in between, the point
 * forming the largest triangle with the previously kept point and the average of the next bucket.
 *
 * Gaps (see runs.ts): the output is at most `threshold` points whenever `threshold` is at least the skeleton
 * (one marker per gap, the first and last point of every run of values, and the last point of the series); below that the skeleton alone
 * is returned, since dropping any of it would close a gap or move a gap's edge. The budget left after the
 * skeleton goes to the runs in proportion to their interior points (largest remainder, earlier run first on
 * ties); each run is then reduced with LTTB on its own. A threshold below 2 counts as 2.
 */
import { endsInLongGap, hasNoGaps, segments } from './runs.ts';

/** LTTB of the run `from .. from + len - 1` to `m` points (3 <= m < len); writes indices at `out[pos]`. */
function lttbRun(t: Float64Array, v: Float64Array, from: number, len: number, m: number, out: Int32Array, pos: number): number {
  const every = (len - 2) / (m - 2);
  const base = t[from]!; // times relative to the run's start keep the sums well inside double precision
  let a = from;
  out[pos++] = from;
  for (let i = 0; i < m - 2; i++) {
    const avgStart = from + Math.floor((i + 1) * every) + 1;
    const avgEnd = from + Math.min(Math.floor((i + 2) * every) + 1, len);
    let sx = 0;
    let sy = 0;
    for (let j = avgStart; j < avgEnd; j++) {
      sx += t[j]! - base;
      sy += v[j]!;
    }
    const cnt = avgEnd - avgStart;
    const cx = sx / cnt;
    const cy = sy / cnt;
    const rangeStart = from + Math.floor(i * every) + 1;
    const rangeEnd = from + Math.floor((i + 1) * every) + 1;
    const ax = t[a]! - base;
    const ay = v[a]!;
    let maxArea = -1;
    let pick = rangeStart;
    for (let j = rangeStart; j < rangeEnd; j++) {
      // twice the triangle's area; the factor does not change the choice
      const area = Math.abs((ax - cx) * (v[j]! - ay) - (ax - (t[j]! - base)) * (cy - ay));
      if (area > maxArea) {
        maxArea = area;
        pick = j;
      }
    }
    out[pos++] = pick;
    a = pick;
  }
  out[pos++] = from + len - 1;
  return pos;
}

/** Writes the kept indices of a run of `len` values reduced to `m` points; returns the new position. */
function keepRun(t: Float64Array, v: Float64Array, from: number, len: number, m: number, out: Int32Array, pos: number): number {
  if (m >= len || len <= 2) {
    for (let j = from; j < from + len; j++) out[pos++] = j;
    return pos;
  }
  if (m <= 2) {
    out[pos++] = from;
    out[pos++] = from + len - 1;
    return pos;
  }
  return lttbRun(t, v, from, len, m, out, pos);
}

/** Sizes per run: the skeleton (min(len, 2)) plus a proportional share of what the budget leaves. */
function runBudgets(lens: number[], extra: number): number[] {
  const interior = lens.map((len) => Math.max(0, len - 2));
  const total = interior.reduce((s, x) => s + x, 0);
  const share = interior.map((x) => (total === 0 ? 0 : (extra * x) / total));
  const sizes = share.map((s, i) => Math.min(lens[i]!, 2) + Math.floor(s));
  let left = extra - share.reduce((s, x) => s + Math.floor(x), 0);
  const order = share.map((_, i) => i).sort((p, q) => share[q]! - Math.floor(share[q]!) - (share[p]! - Math.floor(share[p]!)) || p - q);
  for (const i of order) {
    if (left <= 0) break;
    if (sizes[i]! < lens[i]!) {
      sizes[i]!++;
      left--;
    }
  }
  return sizes;
}

/** Indices (ascending) of the points LTTB keeps; see the module comment for gaps and the budget. */
export function lttbIndices(t: Float64Array, v: Float64Array, threshold: number): Int32Array {
  const n = Math.min(t.length, v.length);
  if (Number.isNaN(threshold)) throw new RangeError('LTTB threshold must be a number');
  const m = Math.max(2, Math.floor(threshold));
  if (m >= n) return Int32Array.from({ length: n }, (_, i) => i);
  if (hasNoGaps(v)) {
    const out = new Int32Array(m);
    keepRun(t, v, 0, n, m, out, 0);
    return out;
  }
  const seg = segments(v.length === n ? v : v.subarray(0, n));
  const lens: number[] = [];
  const tail = endsInLongGap(seg);
  let skeleton = seg.gaps + (tail ? 1 : 0);
  for (let k = 0; k < seg.count; k++) {
    if (seg.gap[k]) continue;
    const len = seg.end[k]! - seg.start[k]!;
    lens.push(len);
    skeleton += Math.min(len, 2);
  }
  const sizes = runBudgets(lens, Math.max(0, m - skeleton));
  const out = new Int32Array(Math.max(m, skeleton));
  let pos = 0;
  let r = 0;
  for (let k = 0; k < seg.count; k++) {
    if (seg.gap[k]) out[pos++] = seg.start[k]!;
    else {
      pos = keepRun(t, v, seg.start[k]!, lens[r]!, sizes[r]!, out, pos);
      r++;
    }
  }
  if (tail) out[pos++] = n - 1;
  return out.slice(0, pos);
}
