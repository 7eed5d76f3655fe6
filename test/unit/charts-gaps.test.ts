import { describe, expect, test } from 'vitest';
import { DEFAULT_GAP_FACTOR, gapFactor, gapLimit, lttbBucketSize, markGaps, usualSpacing } from '../../core/charts/gaps.ts';
import { renderChartSvg, type ChartSpec } from '../../core/charts/index.ts';
import { layout } from '../../core/charts/scales.ts';
import { chartPoints } from '../../core/timeseries/chart-document.ts';
import { GAP, gapSpec, H, MIN, tenMinutes } from '../helpers/chart-cases.ts';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const paths = (svg: string) => [...svg.matchAll(/<path d="([^"]*)"([^>]*)>/g)].map((m) => ({ d: m[1]!, attrs: m[2]! }));
/** The x coordinates of the path's subpaths: [first x, last x] of each "M…L…" run. */
function runs(d: string): [number, number][] {
  return d.split('M').filter(Boolean).map((r) => {
    const xs = r.split('L').map((p) => Number(p.split(',')[0]));
    return [xs[0]!, xs.at(-1)!];
  });
}

describe('gap limit', () => {
  test('usual spacing is the median step between values; nulls and duplicates left out', () => {
    expect(usualSpacing({ t: [0, 10, 20, 30, 100], v: [1, 2, 3, 4, 5] })).toBe(10);
    expect(usualSpacing({ t: [0, 10, 10, 20, 25], v: [1, 2, 2, 3, 4] })).toBe(10); // steps 10, 10, 5: median 10
    expect(usualSpacing({ t: [0, 10, 20, 40], v: [1, null, 3, 4] })).toBe(20);
    expect(usualSpacing({ t: [0], v: [1] })).toBeUndefined();
  });

  test("noDataGapThreshold: N > 1 missing values, N <= 1 a fraction of LTTB's bucket, unset the default factor", () => {
    expect(gapFactor({})).toBe(DEFAULT_GAP_FACTOR);
    expect(gapFactor({ noDataGapThreshold: 5 })).toBe(6);
    expect(gapFactor({ noDataGapThreshold: 0.2, bucketSize: 20 })).toBe(5);
    expect(gapFactor({ noDataGapThreshold: 0.5 })).toBe(1.5);
    expect(lttbBucketSize(1000, 200)).toBeCloseTo(998 / 198);
    expect(lttbBucketSize(100, 200)).toBe(1);
    const tm = tenMinutes(T0, T0 + 10 * H, () => 1);
    expect(gapLimit(tm, { noDataGapThreshold: 5 })).toBe(60 * MIN);
    expect(gapLimit(tm)).toBe(30 * MIN);
  });

  test('markGaps puts a null halfway into each step longer than the limit, not beside an existing null', () => {
    const m = markGaps({ t: [0, 10, 20, 60, 70, 120, 200], v: [1, 2, 3, 4, null, 6, 7] }, 30);
    expect(Array.from(m.t)).toEqual([0, 10, 20, 40, 60, 70, 120, 160, 200]);
    expect(Array.from(m.v, (x) => (Number.isNaN(x) ? null : x))).toEqual([1, 2, 3, null, 4, null, 6, null, 7]);
    const same = { t: [0, 10, 20], v: [1, 2, 3] };
    expect(markGaps(same, 30)).toBe(same);
    expect(markGaps(same, undefined)).toBe(same);
  });
});

describe('lines break at gaps', () => {
  const spec = gapSpec();
  const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 1);
  const gapX = [l.x(GAP.from), l.x(GAP.to)] as const;

  function assertBreak(svg: string): void {
    const line = paths(svg).find((p) => p.attrs.includes('stroke="#0072b2"'))!;
    const r = runs(line.d);
    expect(r).toHaveLength(2);
    // the first run ends at the last value before the gap, the second starts at the first after it
    expect(r[0]![1]).toBeCloseTo(gapX[0], 1);
    expect(r[1]![0]).toBeCloseTo(gapX[1], 1);
  }

  test('an 81 h hole in ten-minute values: two runs, no segment across the hole', () => {
    assertBreak(renderChartSvg(spec));
  });

  test('a configured noDataGapThreshold sets the limit: 5 lets a 50 min hole join, not a 70 min one', () => {
    const s = (hole: number): ChartSpec => ({
      ...spec, noDataGapThreshold: 5,
      series: [{ ...spec.series[0]!, points: tenMinutes(T0, T0 + 12 * H, () => 50, [[T0 + 3 * H + 1, T0 + 3 * H + hole * MIN - 1]]) }],
      timespan: { start: T0, end: T0 + 12 * H },
    });
    expect(runs(paths(renderChartSvg(s(50)))[0]!.d)).toHaveLength(1);
    expect(runs(paths(renderChartSvg(s(70)))[0]!.d)).toHaveLength(2);
  });

  test('generalized (LTTB and Douglas-Peucker) after marking: the break stays where the raw line breaks', () => {
    const raw = spec.series[0]!.points;
    const series = { t: Float64Array.from(raw.t), v: Float64Array.from(raw.v as number[]) };
    for (const g of [{ algorithm: 'lttb' as const, threshold: 60 }, { algorithm: 'dp' as const, tolerance: 2 }]) {
      const pts = chartPoints(series, g, 5);
      expect(pts.t.length).toBeLessThan(series.t.length / 4);
      assertBreak(renderChartSvg({ ...spec, series: [{ ...spec.series[0]!, points: pts, gapsMarked: true }] }));
    }
  });

  test('marked series are not marked again: generalized points far apart stay joined', () => {
    const pts = { t: [T0, T0 + H, T0 + 10 * H, T0 + 11 * H], v: [1, 2, 3, 4] };
    const base = { ...spec, timespan: { start: T0, end: T0 + 11 * H } };
    expect(runs(paths(renderChartSvg({ ...base, series: [{ ...spec.series[0]!, points: pts }] }))[0]!.d)).toHaveLength(2);
    expect(runs(paths(renderChartSvg({ ...base, series: [{ ...spec.series[0]!, points: pts, gapsMarked: true }] }))[0]!.d)).toHaveLength(1);
  });

  test('bars leave the buckets of the hole empty', () => {
    const raw = spec.series[0]!.points;
    const bar: ChartSpec = { ...spec, series: [{ ...spec.series[0]!, points: raw, style: { chartType: 'bar', properties: { interval: 'byDay', color: '#009e73' } } }] };
    const svg = renderChartSvg(bar);
    const lb = layout(bar.width!, bar.height!, bar.series, bar.timespan, 1);
    const bars = [...svg.matchAll(/<rect x="([^"]*)" y="[^"]*" width="([^"]*)" height="[^"]*" fill="#009e73"/g)].map((m) => +m[1]! + +m[2]! / 2);
    // days 22, 23, 24 (part), 28 (part); 25, 26, 27 hold no value; 29 00:00 is the span's end value
    const days = bars.map((x) => new Date(+lb.x.invert(x)).toISOString().slice(0, 10));
    expect(days).not.toContain('2024-01-25');
    expect(days).not.toContain('2024-01-26');
    expect(days).not.toContain('2024-01-27');
    expect(days).toContain('2024-01-24');
    expect(days).toContain('2024-01-28');
  });

  test('null values break a line too', () => {
    const svg = renderChartSvg({ ...spec, timespan: { start: T0, end: T0 + 5 * H }, series: [{ ...spec.series[0]!, points: { t: [0, 1, 2, 3, 4, 5].map((i) => T0 + i * H), v: [1, 2, null, 4, 5, 6] } }] });
    expect(runs(paths(svg)[0]!.d)).toHaveLength(2);
  });
});


describe('dense dashed and dotted lines', () => {
  test('are drawn through at most one point per 4 px (LTTB), keeping the gap; solid lines keep every point', async () => {
    const { denseSpec } = await import('../helpers/chart-cases.ts');
    const spec = denseSpec();
    const svg = renderChartSvg(spec);
    const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 2);
    const width = l.plot.right - l.plot.left;
    const ps = paths(svg).filter((p) => p.attrs.includes('stroke-dasharray'));
    expect(ps).toHaveLength(2);
    for (const p of ps) {
      const vertices = p.d.split(/[ML]/).filter(Boolean).length;
      expect(vertices).toBeLessThanOrEqual(Math.floor(width / 4) + 2);
      expect(vertices).toBeGreaterThan(width / 8);
    }
    expect(runs(ps[0]!.d)).toHaveLength(2); // the dotted series' gap is kept
    const solid = renderChartSvg({ ...spec, series: [{ ...spec.series[1]!, style: { chartType: 'line', properties: { lineType: 'solid' } } }] });
    expect(paths(solid)[0]!.d.split(/[ML]/).filter(Boolean).length).toBe(spec.series[1]!.points.t.length);
  });
});
