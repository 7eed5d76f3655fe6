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

/** A timespan missing less than this of a bucket covers it whole (an inclusive end written as 23:59:59). */
const SLACK = 1000;
/** A bar narrower than this (a bucket barely inside the timespan) is widened to it, so it stays visible. */
const MIN_PARTIAL_WIDTH = 2;

/**
 * `<rect>`s for the buckets; the bar's width is `style.width` of its bucket, centred in it. A bucket reaching
 * past the timespan (`span`, the axis' extent) by more than a second holds only the values inside it: its bar
 * is cut at the axis' edge and marked as partial (class `bar-partial`, paler fill, dashed outline).
 */
export function renderBars(
  buckets: readonly Bucket[],
  style: ResolvedBar,
  x: ScaleTime<number, number>,
  y: ScaleLinear<number, number>,
  span: { start: number; end: number },
): string {
  const y0 = y(0);
  const [left, right] = [x(span.start), x(span.end)];
  const out: string[] = [];
  for (const b of buckets) {
    const x0 = x(b.start), x1 = x(b.end);
    const w = (x1 - x0) * style.width;
    let a = x0 + (x1 - x0 - w) / 2;
    let z = a + w;
    const yv = y(b.sum);
    const partial = b.start < span.start - SLACK || b.end > span.end + SLACK;
    if (partial) {
      a = Math.max(a, left);
      z = Math.min(z, right);
      if (z - a < MIN_PARTIAL_WIDTH) {
        if (b.end > span.end) a = z - MIN_PARTIAL_WIDTH;
        else z = a + MIN_PARTIAL_WIDTH;
      }
    }
    out.push(el('rect', {
      ...(partial ? { class: 'bar-partial' } : {}),
      x: a,
      y: Math.min(y0, yv),
      width: z - a,
      height: Math.abs(y0 - yv),
      fill: style.color,
      ...(partial ? { 'fill-opacity': 0.45, stroke: style.color, 'stroke-width': 1, 'stroke-dasharray': '3 2' } : {}),
    }));
  }
  return out.join('');
}
