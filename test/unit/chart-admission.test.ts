/** What of a series reaches the browser, a chart's cost, the bounded report tables and the admission gate. */
import { describe, expect, test } from 'vitest';
import { barBuckets } from '../../core/charts/bars.ts';
import { renderReportHtml } from '../../core/charts/report.ts';
import { bucketPoints, chartCost, columnPoints, drawnPointsAtMost, MAX_POINTS_PER_COLUMN, REPORT_MAX_VALUES, reportValuesPerSeries } from '../../core/timeseries/chart-points.ts';
import { AdmissionGate, AdmissionRefused } from '../../lib/admission.ts';
import { ChartRenderer, leavesLargeRemains, RendererBusy } from '../../lib/chart-renderer.ts';

function series(n: number, value: (i: number) => number, step = 600_000, t0 = 0) {
  return { t: Float64Array.from({ length: n }, (_, i) => t0 + i * step), v: Float64Array.from({ length: n }, (_, i) => value(i)) };
}

/** The runs of defined values, as [first t, last t] pairs. */
function runs(p: { t: ArrayLike<number>; v: ArrayLike<number> }): [number, number][] {
  const out: [number, number][] = [];
  let open: [number, number] | undefined;
  for (let i = 0; i < p.t.length; i++) {
    if (Number.isNaN(p.v[i]!)) {
      open = undefined;
      continue;
    }
    if (!open) out.push((open = [p.t[i]!, p.t[i]!]));
    else open[1] = p.t[i]!;
  }
  return out;
}

describe('columnPoints: a line cut to its pixel columns', () => {
  const year = series(52_560, (i) => Math.sin(i / 500) * 100 + (i % 7));
  const span = { start: 0, end: 52_559 * 600_000 };

  test('a series that fits is drawn as it is', () => {
    const small = series(1000, (i) => i);
    expect(columnPoints(small, 0, 999 * 600_000, 800)).toBe(small);
  });

  test.each([50, 800, 4000])('a year of 10-minute values at %i px: at most 2 points a column, every column\'s extremes kept', (width) => {
    const out = columnPoints(year, span.start, span.end, width);
    expect(out.t.length).toBeLessThanOrEqual(2 * width);
    expect(Math.min(...out.v)).toBe(Math.min(...year.v));
    expect(Math.max(...out.v)).toBe(Math.max(...year.v));
    // in time order, every point one of the series'
    for (let i = 1; i < out.t.length; i++) expect(out.t[i]!).toBeGreaterThan(out.t[i - 1]!);
    const at = new Map(Array.from(year.t, (t, i) => [t, year.v[i]!]));
    for (let i = 0; i < out.t.length; i++) expect(out.v[i]).toBe(at.get(out.t[i]!));
    // per column, its lowest and highest value are there
    const col = (t: number) => Math.min(width - 1, Math.floor(((t - span.start) / (span.end - span.start)) * width));
    const lo = new Map<number, number>(), hi = new Map<number, number>();
    for (let i = 0; i < year.t.length; i++) {
      const c = col(year.t[i]!);
      lo.set(c, Math.min(lo.get(c) ?? Infinity, year.v[i]!));
      hi.set(c, Math.max(hi.get(c) ?? -Infinity, year.v[i]!));
    }
    const outLo = new Map<number, number>(), outHi = new Map<number, number>();
    for (let i = 0; i < out.t.length; i++) {
      const c = col(out.t[i]!);
      outLo.set(c, Math.min(outLo.get(c) ?? Infinity, out.v[i]!));
      outHi.set(c, Math.max(outHi.get(c) ?? -Infinity, out.v[i]!));
    }
    expect(outLo).toEqual(lo);
    expect(outHi).toEqual(hi);
  });

  test('a gap stays a gap: gaps wider than a column are kept where they are, with no line across them', () => {
    // gaps of 3 days every 20 days, and one at the end of the span
    const gappy = series(52_560, (i) => (i % 2880 >= 2000 && i % 2880 < 2432) || i >= 52_000 ? NaN : i % 97);
    const out = columnPoints(gappy, span.start, span.end, 800);
    expect(out.t.length).toBeLessThanOrEqual(MAX_POINTS_PER_COLUMN * 800);
    const before = runs(gappy);
    const after = runs(out);
    expect(after.length).toBe(before.length);
    // each run drawn lies within its run of the series, and no drawn run crosses a gap of the series
    after.forEach(([a, b], i) => {
      expect(a).toBeGreaterThanOrEqual(before[i]![0]);
      expect(b).toBeLessThanOrEqual(before[i]![1]);
    });
    expect(Number.isNaN(out.v[out.v.length - 1]!)).toBe(true);
  });

  test('points alternating with nulls stay within the bound', () => {
    const alternating = series(52_560, (i) => (i % 2 === 0 ? i : NaN));
    const out = columnPoints(alternating, span.start, span.end, 800);
    expect(out.t.length).toBeLessThanOrEqual(MAX_POINTS_PER_COLUMN * 800);
    expect(Array.from(out.v).some((v) => Number.isNaN(v))).toBe(true);
  });
});

test('bucketPoints: a bar series as its sums per bucket gives the same bars', () => {
  const hourly = series(24 * 400, (i) => (i % 50 === 0 ? NaN : (i % 13) / 4), 3_600_000, Date.UTC(2024, 0, 1));
  for (const interval of ['byHour', 'byDay', 'byWeek', 'byMonth'] as const) {
    const sums = bucketPoints(hourly, interval);
    expect(barBuckets(sums, interval).map((b) => [b.start, b.end, b.sum])).toEqual(barBuckets(hourly, interval).map((b) => [b.start, b.end, b.sum]));
  }
  expect(bucketPoints(hourly, 'byDay').t.length).toBe(400);
});

describe('a report\'s values tables are bounded', () => {
  test.each([1, 2, 3, 100])('%i series share %i values', (n) => {
    expect(reportValuesPerSeries(n) * n).toBeLessThanOrEqual(REPORT_MAX_VALUES);
    expect(reportValuesPerSeries(n)).toBeGreaterThanOrEqual(Math.floor(REPORT_MAX_VALUES / n));
  });

  test('a cut table names how many values there are and the CSV download holding them all', () => {
    const html = renderReportHtml({
      title: 't', language: 'en', paper: 'A4', timespan: { start: 0, end: 1 }, chartSvg: '<svg></svg>',
      series: [{
        id: 'ts_a', name: 'A', station: 's', phenomenon: 'p', procedure: 'q', uom: 'm', first: undefined, last: undefined,
        values: series(50, (i) => i), more: { total: 52_560, href: '/api/v1/timeseries/ts_a/getData.csv?timespan=x/y' },
      }],
    });
    expect(html).toContain('The first 50 of 52,560 values in this timespan. All values as CSV: <span class="href">/api/v1/timeseries/ts_a/getData.csv?timespan=x/y</span>');
    expect(html.match(/<tr><td>/g)).toHaveLength(50);
  });
});

test('a chart\'s cost grows with its series, size and kind, and does not depend on its points', () => {
  const base = { kind: 'png' as const, series: 1, width: 800, height: 500, legend: false };
  expect(chartCost({ ...base, series: 100 })).toBeGreaterThan(chartCost(base));
  expect(chartCost({ ...base, width: 4000, height: 4000 })).toBeGreaterThan(chartCost(base));
  expect(chartCost({ ...base, legend: true, series: 100 })).toBeGreaterThan(chartCost({ ...base, series: 100 }));
  expect(chartCost({ ...base, kind: 'pdf', series: 100 })).toBeGreaterThan(chartCost({ ...base, series: 100 }) - 800 * 500 * 2);
});

test('points known from the index lower the cost, and never count more than the columns take', () => {
  const base = { kind: 'png' as const, series: 3, width: 800, height: 500, legend: false };
  expect(drawnPointsAtMost(base)).toBe(3 * 800 * MAX_POINTS_PER_COLUMN);
  expect(drawnPointsAtMost({ ...base, pointsAtMost: [10, 0, 1e6] })).toBe(10 + 0 + 800 * MAX_POINTS_PER_COLUMN);
  expect(chartCost({ ...base, pointsAtMost: [10, 0, 20] })).toBeLessThan(chartCost(base));
  expect(chartCost({ ...base, pointsAtMost: [1e9, 1e9, 1e9] })).toBe(chartCost(base));
});

describe('AdmissionGate', () => {
  const gate = (over: Partial<ConstructorParameters<typeof AdmissionGate>[0]> = {}) => new AdmissionGate({ concurrency: 2, budget: 100, maxWaiting: 2, maxWaitMs: 200, ...over });

  test('lets in up to its concurrency and budget, then in arrival order as room comes free', async () => {
    const g = gate();
    const a = await g.acquire(60);
    const order: string[] = [];
    const b = g.acquire(60).then((x) => (order.push('b'), x)); // over the budget with a: waits
    const c = g.acquire(10).then((x) => (order.push('c'), x)); // would fit, but b is ahead
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    expect(g.waiting).toBe(2);
    a.release();
    (await b).release();
    (await c).release();
    expect(order).toEqual(['b', 'c']);
    expect(g.used).toBe(0);
    expect(g.peakCost).toBeLessThanOrEqual(100);
  });

  test('a job costing more than the budget is let in alone', async () => {
    const g = gate();
    const big = await g.acquire(1e9);
    expect(g.used).toBe(100);
    const small = g.acquire(1);
    let in_ = false;
    void small.then(() => (in_ = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(in_).toBe(false);
    big.release();
    (await small).release();
  });

  test('beyond the waiting cap: refused at once; past the wait deadline: refused; both with Retry-After seconds', async () => {
    const g = gate({ concurrency: 1 });
    const a = await g.acquire(1);
    const w1 = g.acquire(1);
    const w2 = g.acquire(1);
    const full = await g.acquire(1).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(AdmissionRefused);
    expect((full as AdmissionRefused).why).toBe('full');
    expect((full as AdmissionRefused).retryAfterS).toBeGreaterThanOrEqual(1);
    const late = await w1.catch((e: unknown) => e);
    expect((late as AdmissionRefused).why).toBe('deadline');
    await w2.catch(() => {});
    expect(g.waiting).toBe(0);
    a.release();
    expect(g.inUse).toBe(0);
  });
});

test('every report and every large image is drawn on a page closed afterwards; small images reuse pooled pages', () => {
  const png = (width: number, height: number, chars = 10_000) => ({ kind: 'png' as const, html: 'x'.repeat(chars), width, height });
  expect(leavesLargeRemains({ kind: 'pdf', html: '<p>', paper: 'A4' })).toBe(true);
  expect(leavesLargeRemains(png(800, 500))).toBe(false);
  expect(leavesLargeRemains(png(2000, 2000))).toBe(false);
  expect(leavesLargeRemains(png(4000, 4000))).toBe(true);
  expect(leavesLargeRemains(png(800, 500, 1_000_001))).toBe(true);
});

test('a chart refused is refused with one error object per kind and Retry-After (no stack trace per refusal), and says when to come back', async () => {
  // admission alone starts no browser: nothing here touches Chromium
  const r = new ChartRenderer({ pages: 1, maxWaiting: 0 });
  const held = await r.admit();
  const refusals = await Promise.all([r.admit(), r.admit(), r.admit()].map((p) => p.then(() => undefined, (e: unknown) => e)));
  expect(refusals[0]).toBeInstanceOf(RendererBusy);
  expect((refusals[0] as RendererBusy).retryAfterS).toBeGreaterThanOrEqual(1);
  expect(refusals[1]).toBe(refusals[0]);
  expect(refusals[2]).toBe(refusals[0]);
  held.release();
  // the place is free again: the next chart goes in
  (await r.admit()).release();
  await r.close();
});
