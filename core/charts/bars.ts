/** Bar charts: sums per UTC bucket (byHour, byDay, byWeek from Monday, byMonth) drawn from zero. */
import { utcDay, utcHour, utcMonday, utcMonth, type CountableTimeInterval } from 'd3-time';
import type { ScaleLinear, ScaleTime } from 'd3-scale';
import { pointCount, valueAt, type BarInterval, type ChartPoints, type ResolvedBar } from './spec.ts';
import { el } from './svg.ts';

export interface Bucket {
  /** Bucket start and end (exclusive), ms since epoch, UTC. */
  start: number;
  end: number;
  /** Sum of the bucket's non-null values. */
  sum: number;
  /** Number of non-null values in the bucket. */
  count: number;
}

const INTERVALS: Readonly<Record<BarInterval, CountableTimeInterval>> = {
  byHour: utcHour,
  byDay: utcDay,
  byWeek: utcMonday,
  byMonth: utcMonth,
};

/**
 * Sums values per UTC bucket, ordered by start. Every bucket holding at least one non-null value is
 * included, the last (possibly partial) one too; buckets with only gaps are left out.
 */
export function barBuckets(points: ChartPoints, interval: BarInterval): Bucket[] {
  const iv = INTERVALS[interval];
  const byStart = new Map<number, Bucket>();
  const n = pointCount(points);
  for (let i = 0; i < n; i++) {
    const v = valueAt(points, i);
    const t = points.t[i]!;
    if (Number.isNaN(v) || !Number.isFinite(t)) continue;
    const start = +iv.floor(new Date(t));
    let b = byStart.get(start);
    if (b === undefined) byStart.set(start, (b = { start, end: +iv.offset(new Date(start), 1), sum: 0, count: 0 }));
    b.sum += v;
    b.count++;
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** `<rect>`s for the buckets; the bar's width is `style.width` of its bucket, centred in it. */
export function renderBars(
  buckets: readonly Bucket[],
  style: ResolvedBar,
  x: ScaleTime<number, number>,
  y: ScaleLinear<number, number>,
): string {
  const y0 = y(0);
  const out: string[] = [];
  for (const b of buckets) {
    const x0 = x(b.start), x1 = x(b.end);
    const w = (x1 - x0) * style.width;
    const yv = y(b.sum);
    out.push(el('rect', {
      x: x0 + (x1 - x0 - w) / 2,
      y: Math.min(y0, yv),
      width: w,
      height: Math.abs(y0 - yv),
      fill: style.color,
    }));
  }
  return out.join('');
}
