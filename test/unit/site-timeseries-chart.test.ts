/**
 * The timeseries pages' chart (site/lib/timeseries-chart.ts): reference value steps recovered from the
 * expanded getData samples, the series count, and generalization of a week too dense for a small page.
 */
import { describe, expect, test } from 'vitest';
import { GENERALIZED_POINTS, stepsFromSamples, SVG_BUDGET, timeseriesChart } from '../../site/lib/timeseries-chart.ts';
import type { SeriesData, SeriesMeta } from '../../site/lib/timeseries.ts';

const DAY = 86_400_000;
const END = Date.UTC(2024, 1, 5);
const SPAN = { start: END - 7 * DAY, end: END };

function meta(refs: string[]): SeriesMeta {
  const il = (id: string) => ({ id, label: id });
  return {
    id: 'ts_x',
    label: 'Water level@X',
    uom: 'cm',
    station: { id: 'sta_x', label: 'X', lon: 7, lat: 50 },
    service: { id: 'srv_x' },
    offering: il('off_x'),
    feature: il('foi_x'),
    procedure: il('pro_x'),
    phenomenon: il('phe_x'),
    category: il('cat_x'),
    lastValue: undefined,
    refValues: refs.map((r) => ({ referenceValueId: r, label: `Level ${r}`, lastValue: { timestamp: SPAN.start - DAY, value: 600 } })),
  };
}

function week(stepMs: number, f: (i: number) => number | null): SeriesData['values'] {
  const out: SeriesData['values'] = [];
  for (let t = SPAN.start, i = 0; t <= SPAN.end; t += stepMs, i++) out.push({ timestamp: t, value: f(i) });
  return out;
}

describe('stepsFromSamples', () => {
  test('keeps each change, skips nulls, and starts at the span when the last change point lies before it', () => {
    const same = week(3_600_000, () => 600);
    const s = stepsFromSamples(same, SPAN, SPAN.start - DAY);
    expect(Array.from(s.t)).toEqual([SPAN.start]);
    expect(Array.from(s.v)).toEqual([600]);

    const changing = week(3_600_000, (i) => (i < 5 ? null : i < 50 ? 600 : 650));
    const c = stepsFromSamples(changing, SPAN, SPAN.start + 50 * 3_600_000);
    expect(Array.from(c.t)).toEqual([SPAN.start + 5 * 3_600_000, SPAN.start + 50 * 3_600_000]);
    expect(Array.from(c.v)).toEqual([600, 650]);

    expect(stepsFromSamples(week(3_600_000, () => null), SPAN, undefined).t.length).toBe(0);
  });
});

describe('timeseriesChart', () => {
  test('draws the series and each reference value with values, and counts them', () => {
    const values = week(600_000, (i) => 400 + Math.sin(i / 50) * 30);
    const refs = { ref_a: week(600_000, () => 600), ref_b: week(600_000, () => null) };
    const c = timeseriesChart(meta(['ref_a', 'ref_b', 'ref_c']), { values, refs }, SPAN, { chartType: 'line', properties: { color: '#1e90ff' }, referenceValueStyleProperties: { ref_a: { chartType: 'line', properties: { color: '#ff0000' } } } });
    expect(c.seriesCount).toBe(2);
    expect(c.refs.map((r) => [r.id, r.color, r.value])).toEqual([['ref_a', '#ff0000', 600]]);
    expect(c.svg).toMatch(/^<svg class="ts-chart" data-series-count="2" /);
    expect(c.svg.match(/<path [^>]*><title>/g)?.length).toBe(1);
    expect(c.svg).toContain('stroke="#ff0000"');
    expect(c.svg).toContain('stroke="#1e90ff"');
    expect(c.generalizedTo).toBeUndefined();
    expect(c.points).toBe(values.length);
  });

  test(`a week too dense for the page is generalized (LTTB) to about ${GENERALIZED_POINTS} points`, () => {
    const values = week(60_000, (i) => (i % 997 === 0 ? null : Math.sin(i / 7) * 10 + (i % 13)));
    const c = timeseriesChart(meta([]), { values, refs: {} }, SPAN, undefined);
    expect(c.points).toBe(values.length);
    expect(c.generalizedTo).toBeDefined();
    expect(c.generalizedTo!).toBeLessThanOrEqual(GENERALIZED_POINTS + 20);
    expect(c.svg.length).toBeLessThan(SVG_BUDGET);
    expect(c.seriesCount).toBe(1);
  });
});
