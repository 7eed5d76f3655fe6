/**
 * What of a series reaches the browser, and what a chart costs before any of it is read (docs/timeseries-api-notes.md,
 * "Chart admission"). Pure.
 *
 * - A line is cut to its pixel columns: per column of the chart's width, the lowest and the highest value of the
 *   column (in time order, once when they are one point). A gap stays a gap: a column that holds a null writes
 *   the lowest and highest of the run before its first null, one null, those of the rest after it, and a null
 *   when the column ends in one, so at most 6 points per column (gaps narrower than a column after its first gap
 *   are not drawn).
 *   A series with no more points than 2 per column is drawn as it is.
 * - A bar series is its sums per bucket (one point per bucket at the bucket's start): the chart sums each bucket
 *   again and gets the same sums.
 * - A PDF report's value tables hold at most REPORT_MAX_VALUES values in all, shared equally by its series, each
 *   table its first values in time order; the rest are named with the CSV download that holds them all.
 */
import { barBuckets } from '../charts/bars.ts';
import type { BarInterval } from '../charts/spec.ts';
import type { Points } from './data-body.ts';

/** Values in all the value tables of one PDF report. */
export const REPORT_MAX_VALUES = 5000;

/** The values table of each series in a report of `series` series holds at most this many values. */
export function reportValuesPerSeries(series: number): number {
  return Math.max(1, Math.floor(REPORT_MAX_VALUES / Math.max(1, series)));
}

/** The most points `columnPoints` writes per pixel column: two before its first gap, the gap, two after, a gap at its end. */
export const MAX_POINTS_PER_COLUMN = 6;

/**
 * A line's points cut to `columns` pixel columns over [start, end]: per column its lowest and highest value,
 * gaps kept (see above). Returns `points` itself when it has at most 2 points per column.
 */
export function columnPoints(points: Points, start: number, end: number, columns: number): Points {
  const n = Math.min(points.t.length, points.v.length);
  const cols = Math.max(1, Math.floor(columns));
  if (n <= 2 * cols) return points;
  const t: number[] = [];
  const v: number[] = [];
  const width = end > start ? end - start : 1;
  const emit = (i: number) => {
    t.push(points.t[i]!);
    v.push(points.v[i]!);
  };
  const emitGap = (at: number) => {
    if (v.length > 0 && Number.isNaN(v[v.length - 1]!)) return;
    t.push(at);
    v.push(NaN);
  };
  let column = -1;
  // the open run's lowest and highest point; whether the column had a gap; a gap after the column's last run
  let lo = -1;
  let hi = -1;
  let gapSeen = false;
  let pendingGap = NaN;
  const flush = () => {
    if (lo < 0) return;
    emit(Math.min(lo, hi));
    if (lo !== hi) emit(Math.max(lo, hi));
    lo = hi = -1;
  };
  const endColumn = () => {
    flush();
    if (!Number.isNaN(pendingGap)) emitGap(pendingGap);
    pendingGap = NaN;
    gapSeen = false;
  };
  for (let i = 0; i < n; i++) {
    const at = points.t[i]!;
    const c = Math.min(cols - 1, Math.max(0, Math.floor(((at - start) / width) * cols)));
    if (c !== column) {
      endColumn();
      column = c;
    }
    const value = points.v[i]!;
    if (Number.isNaN(value)) {
      if (!gapSeen) {
        // the run before the column's first gap ends there
        flush();
        emitGap(at);
        gapSeen = true;
      } else if (lo >= 0 && Number.isNaN(pendingGap)) pendingGap = at;
      continue;
    }
    // a gap between two runs after the column's first gap is narrower than the column: the runs are one
    pendingGap = NaN;
    if (lo < 0) {
      lo = hi = i;
      continue;
    }
    if (value < points.v[lo]!) lo = i;
    if (value > points.v[hi]!) hi = i;
  }
  endColumn();
  return { t: Float64Array.from(t), v: Float64Array.from(v) };
}

/** A bar series' sums per bucket, one point at each bucket's start (buckets of gaps only are left out). */
export function bucketPoints(points: Points, interval: BarInterval): Points {
  const buckets = barBuckets(points, interval);
  return { t: Float64Array.from(buckets, (b) => b.start), v: Float64Array.from(buckets, (b) => b.sum) };
}

/** What a chart is asked to be, as far as its cost goes. */
export interface ChartShape {
  kind: 'png' | 'pdf';
  series: number;
  width: number;
  height: number;
  legend: boolean;
  /** At most how many points each series has in the timespan, when known (else as many as its width allows). */
  pointsAtMost?: readonly number[];
}

/** At most how many points of all the series are drawn: each as many as it has, and no more than its columns take. */
export function drawnPointsAtMost(c: ChartShape): number {
  const perSeries = c.width * MAX_POINTS_PER_COLUMN;
  if (c.pointsAtMost === undefined) return c.series * perSeries;
  return c.pointsAtMost.reduce((sum, n) => sum + Math.min(n, perSeries), 0);
}

/**
 * The bytes a chart holds in the endpoint at its peak, estimated from its shape before anything is read: the
 * points drawn (as many as a series has in the timespan, by the series file's index in memory, and at most
 * MAX_POINTS_PER_COLUMN per column and series), about 60 bytes each in the SVG path, the
 * page and the message to the browser; a PNG's pixels (the screenshot comes back base64-encoded: about 2 bytes a
 * pixel at worst for a chart); a report's value rows (about 400 bytes each in HTML, message and PDF). A series'
 * raw points are read and cut one series at a time, so they add one series' worth (a year of 10-minute values,
 * 1 MB), counted in the fixed part.
 */
export function chartCost(c: ChartShape): number {
  const drawn = drawnPointsAtMost(c) * 60;
  const legend = c.legend ? c.series * 2000 : 0;
  const pixels = c.kind === 'png' ? c.width * c.height * 2 : 0;
  const rows = c.kind === 'pdf' ? Math.min(REPORT_MAX_VALUES, c.series * reportValuesPerSeries(c.series)) * 400 : 0;
  return 4 * 1024 * 1024 + drawn + legend + pixels + rows;
}
