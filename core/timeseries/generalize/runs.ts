/**
 * Gaps in a series: a null value (NaN in the typed form) is a gap. The series is cut into segments in
 * time order: runs of non-null values, each simplified on its own, and gaps (maximal runs of nulls), each
 * kept as one marker, its first null point. A line drawn through the output therefore breaks exactly where
 * the input's does, and every run keeps its first and last point, so the gaps keep their exact extent.
 * The series' own first and last points are always kept: a series that ends in a gap of two or more nulls
 * also keeps its last null, so the output spans the same time range as the input.
 */

export interface Segments {
  /** Number of segments. */
  count: number;
  /** First index of each segment. */
  start: Int32Array;
  /** One past the last index of each segment. */
  end: Int32Array;
  /** 1 for a gap (nulls), 0 for a run of values. */
  gap: Uint8Array;
  /** Number of gap segments. */
  gaps: number;
}

/** Cuts `v` into runs of values and gaps, in order. */
export function segments(v: Float64Array): Segments {
  const n = v.length;
  let count = 0;
  let prev = -1; // 1 inside a gap, 0 inside a run
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    const g = x !== x ? 1 : 0; // NaN is the only value not equal to itself
    if (g !== prev) {
      count++;
      prev = g;
    }
  }
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  const gap = new Uint8Array(count);
  let gaps = 0;
  let k = -1;
  prev = -1;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    const g = x !== x ? 1 : 0;
    if (g !== prev) {
      if (k >= 0) end[k] = i;
      start[++k] = i;
      gap[k] = g;
      gaps += g;
      prev = g;
    }
  }
  if (k >= 0) end[k] = n;
  return { count, start, end, gap, gaps };
}

/** Whether the series ends in a gap of two or more nulls, whose last null is kept besides its first. */
export function endsInLongGap(seg: Segments): boolean {
  const k = seg.count - 1;
  return k >= 0 && seg.gap[k] === 1 && seg.end[k]! - seg.start[k]! >= 2;
}

/** True when `v` has no null (NaN) value: the fast path without segments. */
export function hasNoGaps(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (x !== x) return false;
  }
  return true;
}
