/**
 * Gaps in a line: where two consecutive values lie further apart in time than the gap limit, the line
 * breaks (a null, NaN here, is put between them), as Highcharts' `gapSize`, Grafana's "connect null values:
 * threshold" and 52°North's `noDataGapThreshold` do. A null value breaks a line too.
 *
 * The limit is a multiple of the series' usual spacing, the median of the steps between consecutive values
 * (steps of zero, duplicates, left out):
 * - `noDataGapThreshold` configured (52°North's general configuration, `generalizer.noDataGapThreshold`):
 *   52°North counts missing values, "more than N no-data values" in a bucket of its LTTB generalizer, N
 *   absolute when above 1 and a fraction of the bucket size when at most 1. Here `m` missing values are
 *   allowed, m = N when N > 1, else N × the LTTB bucket size (the raw values per drawn point; 1 when not
 *   generalized with LTTB); a step of more than (m + 1) usual spacings breaks the line (with N = 5 and
 *   ten-minute values: more than an hour).
 * - not configured: a step of more than DEFAULT_GAP_FACTOR usual spacings breaks the line.
 *
 * Gaps are marked on the raw values, before generalizing: LTTB and Douglas-Peucker keep a null as a break
 * and the values on both sides of it (generalize/runs.ts), so generalized lines break where raw ones do.
 */
import { pointCount, valueAt, type ChartPoints } from './spec.ts';

/** Without a configured threshold: a step of more than this many usual spacings is a gap. */
export const DEFAULT_GAP_FACTOR = 3;

export interface GapRule {
  /** 52°North's `noDataGapThreshold`, if configured. */
  noDataGapThreshold?: number | undefined;
  /** Raw values per generalized point (LTTB's bucket size); 1 when not generalized. */
  bucketSize?: number | undefined;
}

/** The median of the positive steps between consecutive non-null values, or undefined (< 2 values). */
export function usualSpacing(points: ChartPoints): number | undefined {
  const n = pointCount(points);
  const steps: number[] = [];
  let prev = NaN;
  for (let i = 0; i < n; i++) {
    const t = points.t[i]!;
    if (Number.isNaN(valueAt(points, i)) || !Number.isFinite(t)) continue;
    if (!Number.isNaN(prev) && t > prev) steps.push(t - prev);
    prev = t;
  }
  if (steps.length === 0) return undefined;
  steps.sort((a, b) => a - b);
  const mid = steps.length >> 1;
  return steps.length % 2 === 1 ? steps[mid]! : (steps[mid - 1]! + steps[mid]!) / 2;
}

/** The number of usual spacings a step may span before it is a gap. */
export function gapFactor(rule: GapRule = {}): number {
  const n = rule.noDataGapThreshold;
  if (n === undefined || !Number.isFinite(n) || n < 0) return DEFAULT_GAP_FACTOR;
  const missing = n > 1 ? n : n * Math.max(1, rule.bucketSize ?? 1);
  return missing + 1;
}

/** The longest step (ms) a line may bridge, or undefined when the series has no usual spacing. */
export function gapLimit(points: ChartPoints, rule: GapRule = {}): number | undefined {
  const s = usualSpacing(points);
  return s === undefined ? undefined : s * gapFactor(rule);
}

/**
 * The points with a null (NaN) put halfway between any two consecutive values more than `limit` ms apart
 * (and not already separated by a null). The input itself when there is nothing to mark.
 */
export function markGaps<P extends ChartPoints>(points: P, limit: number | undefined): P | { t: Float64Array; v: Float64Array } {
  if (limit === undefined || !(limit > 0)) return points;
  const n = pointCount(points);
  const at: number[] = [];
  let prev = -1;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(valueAt(points, i)) || !Number.isFinite(points.t[i]!)) {
      prev = -1;
      continue;
    }
    if (prev >= 0 && points.t[i]! - points.t[prev]! > limit) at.push(i);
    prev = i;
  }
  if (at.length === 0) return points;
  const t = new Float64Array(n + at.length);
  const v = new Float64Array(n + at.length);
  let k = 0, o = 0;
  for (let i = 0; i < n; i++) {
    if (k < at.length && at[k] === i) {
      t[o] = (points.t[i - 1]! + points.t[i]!) / 2;
      v[o++] = NaN;
      k++;
    }
    t[o] = points.t[i]!;
    v[o++] = valueAt(points, i);
  }
  return { t, v };
}

/** LTTB's bucket size for `n` raw values reduced to `threshold` points (1 when nothing is dropped). */
export function lttbBucketSize(n: number, threshold: number): number {
  return threshold > 2 && n > threshold ? (n - 2) / (threshold - 2) : 1;
}
