/** The series page's range picker (site/lib/series-range.ts) and the chart spec shared by page and script (site/lib/series-chart-spec.ts). */
import { describe, expect, test } from 'vitest';
import { renderChart, renderChartSvg } from '../../core/charts/index.ts';
import { addMonthsUtc, dayStart, rangeLinks, rangeOnLoad, rangeSpan, readRange, writeRange } from '../../site/lib/series-range.ts';
import { chartRefs, gapMarked, parseGetData, seriesChartSpec, type SeriesChartConfig } from '../../site/lib/series-chart-spec.ts';

const TAKEN = Date.parse('2024-03-31T00:00:00Z');
const DAY = 86_400_000;

describe('a range in the address that cannot be drawn', () => {
  test('draws the week, with a notice naming the refused range and why', () => {
    const got = rangeOnLoad(readRange(new URLSearchParams('range=custom&from=2024-01-10&to=2024-01-03')), TAKEN);
    expect(got.choice).toEqual({ key: 'week' });
    expect(got.span).toEqual({ start: TAKEN - 7 * DAY, end: TAKEN });
    expect(got.notice).toBe('The range in the address (2024-01-10 to 2024-01-03) was refused: The last day lies before the first. Shown instead: the week up to the snapshot.');
    expect(rangeOnLoad({ key: 'custom', from: '', to: '2024-01-03' }, TAKEN).notice).toBe('The range in the address (? to 2024-01-03) was refused: Choose the first day. Shown instead: the week up to the snapshot.');
  });

  test('a range that can be drawn is drawn as it is, without a notice', () => {
    const c = { key: 'custom', from: '2024-01-03', to: '2024-01-10' } as const;
    expect(rangeOnLoad(c, TAKEN)).toEqual({ choice: c, span: rangeSpan(c, TAKEN) });
    expect(rangeOnLoad({ key: 'month' }, TAKEN)).toEqual({ choice: { key: 'month' }, span: rangeSpan({ key: 'month' }, TAKEN) });
  });
});

describe('range spans end at the snapshot’s instant', () => {
  test('day, week, month (calendar, clamped), year', () => {
    expect(rangeSpan({ key: 'day' }, TAKEN)).toEqual({ start: TAKEN - DAY, end: TAKEN });
    expect(rangeSpan({ key: 'week' }, TAKEN)).toEqual({ start: TAKEN - 7 * DAY, end: TAKEN });
    expect(rangeSpan({ key: 'month' }, TAKEN)).toEqual({ start: Date.parse('2024-02-29T00:00:00Z'), end: TAKEN });
    expect(rangeSpan({ key: 'year' }, TAKEN)).toEqual({ start: Date.parse('2023-03-31T00:00:00Z'), end: TAKEN });
    expect(addMonthsUtc(Date.parse('2024-01-31T06:00:00Z'), 1)).toBe(Date.parse('2024-02-29T06:00:00Z'));
  });
  test('custom: whole UTC days; refused when reversed, unreadable or longer than the API allows', () => {
    expect(rangeSpan({ key: 'custom', from: '2024-01-03', to: '2024-01-10' }, TAKEN)).toEqual({ start: Date.parse('2024-01-03T00:00:00Z'), end: Date.parse('2024-01-11T00:00:00Z') });
    expect(rangeSpan({ key: 'custom', from: '2024-01-10', to: '2024-01-03' }, TAKEN)).toEqual({ problem: 'The last day lies before the first.' });
    expect(rangeSpan({ key: 'custom', from: '2024-02-30', to: '2024-03-03' }, TAKEN)).toHaveProperty('problem');
    expect(rangeSpan({ key: 'custom', from: '2022-01-01', to: '2024-01-01' }, TAKEN)).toHaveProperty('problem');
    expect(rangeSpan({ key: 'custom', from: '2023-01-01', to: '2024-01-01' }, TAKEN)).toEqual({ start: Date.parse('2023-01-01T00:00:00Z'), end: Date.parse('2024-01-02T00:00:00Z') });
    expect(dayStart('2024-13-01')).toBeNaN();
  });
});

describe('the address keeps the range', () => {
  test('read and written back; the week is the plain address; unknown values fall back to the week', () => {
    for (const c of [{ key: 'day' }, { key: 'month' }, { key: 'year' }, { key: 'custom', from: '2024-01-03', to: '2024-01-10' }] as const) {
      const q = writeRange(c);
      expect(readRange(new URLSearchParams(q))).toEqual(c);
    }
    expect(writeRange({ key: 'week' }, new URLSearchParams('range=month&x=1'))).toBe('?x=1');
    expect(writeRange({ key: 'month' })).toBe('?range=month');
    expect(readRange(new URLSearchParams('range=decade'))).toEqual({ key: 'week' });
  });
  test('the links carry the span; long spans are fetched generalized', () => {
    const api = '/api/v1/timeseries/ts_a';
    const week = rangeLinks(api, { start: TAKEN - 7 * DAY, end: TAKEN });
    const ts = encodeURIComponent('2024-03-24T00:00:00.000Z/2024-03-31T00:00:00.000Z');
    expect(week).toEqual({
      png: `${api}/getData.png?timespan=${ts}&expanded=true`,
      pdf: `${api}/getData.pdf?timespan=${ts}&expanded=true`,
      csv: `${api}/getData.csv?timespan=${ts}`,
      json: `${api}/getData.json?timespan=${ts}&expanded=true`,
      data: `${api}/getData.json?timespan=${ts}&expanded=true&format=flot`,
      generalized: false,
    });
    const year = rangeLinks(api, rangeSpan({ key: 'year' }, TAKEN) as { start: number; end: number });
    expect(year.generalized).toBe(true);
    expect(year.data).toMatch(/&generalize=true&generalizing_algorithm=LTTB&threshold=2000$/);
  });
});

describe('the chart spec from a getData answer', () => {
  const config: SeriesChartConfig = {
    id: 'ts_a',
    name: 'A (Water level [cm])',
    phenomenon: 'Water level',
    uom: 'cm',
    refColors: { ref_b: '#123456' },
    refs: [{ id: 'ref_a', label: 'Level A' }, { id: 'ref_b', label: 'Level B' }, { id: 'ref_c', label: 'Level C' }],
    statusIntervals: [{ lower: '0', upper: '500', color: '#00a000', name: 'normal' }, { lower: '500', color: '#ff0000', name: 'flood' }],
  };
  const span = { start: 0, end: 10 * 3_600_000 };
  const values = Array.from({ length: 11 }, (_, i) => ({ timestamp: i * 3_600_000, value: i === 5 || i === 6 ? null : 300 + i }));
  const body = { ts_a: { values, extra: { referenceValues: { ref_a: { values: values.map((v) => ({ timestamp: v.timestamp, value: 600 })) }, ref_b: { values: values.map((v) => ({ timestamp: v.timestamp, value: 400 })) } } } } };

  test('parsed keyed by id or plain; reference values as steps in their status colour', () => {
    const data = parseGetData(body, 'ts_a')!;
    expect(parseGetData(body.ts_a, 'ts_a')).toEqual(data);
    expect(parseGetData({ other: {} }, 'ts_a')).toBeUndefined();
    // flot: [t, v] pairs, referenceValues beside the values
    const flot = { ts_a: { values: values.map((v) => [v.timestamp, v.value]), referenceValues: Object.fromEntries(Object.entries(body.ts_a.extra.referenceValues).map(([k, r]) => [k, { values: r.values.map((v) => [v.timestamp, v.value]) }])) } };
    expect(parseGetData(flot, 'ts_a')).toEqual(data);
    const { refs, drawn } = chartRefs(config, data, span);
    expect(drawn).toEqual([
      { id: 'ref_a', label: 'Level A', color: '#ff0000', value: 600 },
      { id: 'ref_b', label: 'Level B', color: '#00a000', value: 400 },
    ]);
    expect(Array.from(refs[0]!.points.t)).toEqual([0]);
  });

  test('drawn at any width, with a geometry the crosshair can map back; the same SVG as renderChartSvg', () => {
    const data = parseGetData(body, 'ts_a')!;
    const { refs } = chartRefs(config, data, span);
    for (const width of [340, 1200]) {
      const spec = seriesChartSpec(config, gapMarked(data.values, undefined), refs, span, { width, height: 300 });
      const { svg, geometry } = renderChart(spec);
      expect(svg).toBe(renderChartSvg(spec));
      expect(svg).toContain(`width="${width}"`);
      expect(geometry.timespan).toEqual(span);
      expect(geometry.plot.right).toBeLessThan(width);
      expect(geometry.axes[0]!.domain[0]).toBeLessThanOrEqual(300);
      expect(geometry.axes[0]!.domain[1]).toBeGreaterThanOrEqual(310);
      expect(geometry.series).toEqual([{ id: 'ts_a', axis: 0, color: expect.stringMatching(/^#[0-9a-f]{6}$/i) }]);
    }
  });
});
