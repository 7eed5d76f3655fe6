import { describe, expect, test } from 'vitest';
import { renderChartSvg, tickLabels, timeTicks, type ChartSpec } from '../../core/charts/index.ts';
import { readableOnWhite } from '../../core/charts/references.ts';
import { layout } from '../../core/charts/scales.ts';
import { D, H, monthlySpec, MONTHLY_SPAN, twoUnitsSpec, weeklySpec, WEEKLY_SPAN } from '../helpers/chart-cases.ts';

const iso = (d: Date) => d.toISOString();
const labelsOf = (svg: string) => {
  const axis = /<g class="axis axis-x"[^\n]*/.exec(svg)![0];
  const ticks = [...axis.matchAll(/<text x="[^"]*" y="[^"]*" text-anchor="middle">([^<]*)<\/text>/g)].map((m) => m[1]!);
  const context = [...axis.matchAll(/class="tick-context"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
  return { ticks, context };
};

describe('time axis', () => {
  test('weekly bars: ticks on Mondays only (ISO weeks), the axis spans exactly the timespan', () => {
    const spec = weeklySpec();
    const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 1);
    expect(l.x.domain().map(Number)).toEqual([WEEKLY_SPAN.start, WEEKLY_SPAN.end]);
    expect(l.time.ticks.length).toBeGreaterThanOrEqual(3);
    for (const t of l.time.ticks) {
      expect(t.getUTCDay(), iso(t)).toBe(1);
      expect(+t % D).toBe(0);
    }
  });

  test('monthly bars: ticks on the 1st of months; never weeks', () => {
    const spec = monthlySpec();
    const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 1);
    expect(l.x.domain().map(Number)).toEqual([MONTHLY_SPAN.start, MONTHLY_SPAN.end]);
    expect(l.time.ticks.map((t) => iso(t).slice(0, 10))).toEqual(['2023-12-01', '2024-01-01', '2024-02-01', '2024-03-01']);
  });

  test('partial buckets at both ends are cut at the axis and marked; whole ones are not', () => {
    for (const spec of [weeklySpec(), monthlySpec()]) {
      const svg = renderChartSvg(spec);
      const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 1);
      const group = /<g class="series series-bar"[^\n]*/.exec(svg)![0];
      const rects = [...group.matchAll(/<rect (class="bar-partial" )?x="([^"]*)" y="[^"]*" width="([^"]*)"/g)]
        .map((m) => ({ partial: m[1] !== undefined, x: +m[2]!, w: +m[3]! }));
      expect(rects.length).toBeGreaterThanOrEqual(4);
      expect(rects[0]!.partial).toBe(true);
      expect(rects.at(-1)!.partial).toBe(true);
      expect(rects.slice(1, -1).every((r) => !r.partial)).toBe(true);
      expect(rects[0]!.x).toBeCloseTo(l.plot.left, 1);
      expect(rects.at(-1)!.x + rects.at(-1)!.w).toBeCloseTo(l.plot.right, 1);
      // a partial bar is narrower than a whole one
      expect(rects.at(-1)!.w).toBeLessThan(rects[1]!.w);
    }
  });

  test('one tick format per zoom level; the year (or date) shown at least once', () => {
    const cases: [ChartSpec, RegExp, RegExp][] = [
      [weeklySpec(), /^\d{1,2} [A-Z][a-z]{2}$/, /^\d{4}$/],
      [monthlySpec(), /^[a-z]{3}$/, /^\d{4}$/],
      [twoUnitsSpec(), /^\d{2}:\d{2}$/, /^\d{1,2}\. Jan 2024$/],
    ];
    for (const [spec, tick, context] of cases) {
      const { ticks, context: ctx } = labelsOf(renderChartSvg(spec));
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      for (const t of ticks) expect(t).toMatch(tick);
      expect(ctx.length).toBeGreaterThanOrEqual(1);
      for (const c of ctx) expect(c).toMatch(context);
    }
    expect(labelsOf(renderChartSvg(monthlySpec())).context).toEqual(['2023', '2024']);
    expect(labelsOf(renderChartSvg(twoUnitsSpec())).context).toEqual(['27. Jan 2024', '28. Jan 2024']);
  });

  test('labels in the requested language', () => {
    const span = { start: Date.parse('2024-03-04T00:00:00Z'), end: Date.parse('2024-03-25T00:00:00Z') };
    const t = timeTicks(span.start, span.end, 700);
    expect(t.level).toBe('day');
    const first = (lang: 'en' | 'de' | 'nl') => tickLabels(t, lang)[0]!;
    expect(first('en')).toEqual({ label: '4 Mar', context: '2024' });
    expect(first('de')).toEqual({ label: '4. Mär', context: '2024' });
    expect(first('nl')).toEqual({ label: '4 mrt', context: '2024' });
  });

  test('the tick step leaves room for the labels and follows the span', () => {
    const start = Date.parse('2024-01-01T00:00:00Z');
    expect(timeTicks(start, start + 6 * H, 700).level).toBe('time');
    expect(timeTicks(start, start + 7 * D, 700).level).toBe('day');
    expect(timeTicks(start, start + 200 * D, 700).level).toBe('month');
    expect(timeTicks(start, start + 3000 * D, 700).level).toBe('year');
    for (const days of [1, 3, 7, 30, 90, 365, 3000]) expect(timeTicks(start, start + days * D, 700).ticks.length).toBeLessThanOrEqual(8);
  });
});

describe('several units', () => {
  test('each axis carries its series\' colour; one unit keeps the neutral axis', () => {
    const svg = renderChartSvg(twoUnitsSpec());
    // the data's path (a reference value's dash-dot path comes first in the discharge's group)
    const stroke = (cls: string) => new RegExp(`<g class="series series-line" data-series="${cls}"[^>]*>[\\s\\S]*?<path d="[^"]*" fill="none" stroke="(#[0-9a-f]{6})"`).exec(svg)![1]!;
    const a = stroke('ts_regensburg_donau_water_level'), b = stroke('ts_regensburg_donau_discharge');
    expect(a).not.toBe(b);
    // the series' colour, darkened where pale to stay readable as text
    expect(svg).toMatch(new RegExp(`<g class="axis axis-y axis-y-0" fill="${readableOnWhite(a)}">`));
    expect(svg).toMatch(new RegExp(`<g class="axis axis-y axis-y-1" fill="${readableOnWhite(b)}">`));
    const one = renderChartSvg({ ...twoUnitsSpec(), series: [twoUnitsSpec().series[0]!] });
    expect(one).toContain('<g class="axis axis-y axis-y-0" fill="#333333">');
  });
});
