/**
 * The chart of a timeseries' default week for its browse page, drawn at site build time by the same chart
 * module as the endpoint's PNGs and PDFs (`renderChartSvg`, core/charts/), built as core/timeseries/
 * chart-document.ts builds it for `GET /timeseries/{id}/getData.png?expanded=true`: series name
 * `"<feature> (<phenomenon> [<uom>])"`, the series' rendering-hints style, every reference value as a thin
 * dash-dot step labelled with its name and value (in its status interval's colour, else the one its
 * `referenceValueStyleProperties` give, else grey: core/charts/references.ts), 800×450, grid, no legend.
 *
 * Points come from the tree's getData file; reference values from its expanded variant, whose values are
 * sampled at the served timestamps: the steps are recovered by keeping each change, and start at the
 * timespan's start when the reference value's last change point lies before it (as the endpoint draws them).
 * A chart whose SVG would exceed SVG_BUDGET bytes is generalized with LTTB (core/timeseries/generalize.ts)
 * to GENERALIZED_POINTS points and drawn again; long steps between values are marked as gaps first
 * (core/charts/gaps.ts, with the configuration's `noDataGapThreshold`), so the generalized line breaks there too.
 */
import { renderChartSvg, type ChartReferenceValue, type ChartSeries, type ChartSpec } from '../../core/charts/index.ts';
import type { ChartStyle } from '../../core/snapshot/timeseries-config.ts';
import { lttb, toSeries, type Series } from '../../core/timeseries/generalize.ts';
import { chartPoints, seriesLabel, statusColor } from '../../core/timeseries/chart-document.ts';
import type { Timespan } from '../../core/timeseries/timespan.ts';
import type { SeriesData, SeriesMeta, TimeValue } from './timeseries.ts';

export const SVG_BUDGET = 64 * 1024;
export const GENERALIZED_POINTS = 800;
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 450;

export interface DrawnRef {
  id: string;
  label: string;
  color: string | undefined;
  /** The value in force at the end of the timespan. */
  value: number | undefined;
}

export interface TimeseriesChart {
  /** The `<svg>` element, with `class="ts-chart"` and `data-series-count`. */
  svg: string;
  /** Series drawn: the timeseries and each reference value with a value in the timespan. */
  seriesCount: number;
  refs: DrawnRef[];
  points: number;
  /** Points drawn when generalized (LTTB), else undefined. */
  generalizedTo: number | undefined;
  min: number | undefined;
  max: number | undefined;
  last: TimeValue | undefined;
}

/** Change points of a step function sampled at the served timestamps. */
export function stepsFromSamples(samples: readonly TimeValue[], span: Timespan, lastChange: number | undefined): Series {
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]!.value;
    if (x === null || (v.length > 0 && v[v.length - 1] === x)) continue;
    t.push(samples[i]!.timestamp);
    v.push(x);
  }
  // the first value held since the span's start when no change point lies after it
  if (t.length === 1 && lastChange !== undefined && lastChange <= t[0]!) t[0] = Math.max(span.start, lastChange);
  return { t: Float64Array.from(t), v: Float64Array.from(v) };
}

function extent(values: readonly TimeValue[]): { min: number | undefined; max: number | undefined; last: TimeValue | undefined } {
  let min: number | undefined;
  let max: number | undefined;
  let last: TimeValue | undefined;
  for (const p of values) {
    if (p.value === null) continue;
    if (min === undefined || p.value < min) min = p.value;
    if (max === undefined || p.value > max) max = p.value;
    last = p;
  }
  return { min, max, last };
}

export function timeseriesChart(
  s: SeriesMeta,
  data: SeriesData,
  span: Timespan,
  style: ChartStyle | undefined,
  noDataGapThreshold?: number,
  statusIntervals: readonly { lower: string; upper?: string; color: string }[] = [],
): TimeseriesChart {
  const named = style?.referenceValueStyleProperties ?? {};
  const refs: ChartReferenceValue[] = [];
  const drawn: DrawnRef[] = [];
  for (const r of s.refValues) {
    const samples = data.refs[r.referenceValueId];
    if (!samples) continue;
    const points = stepsFromSamples(samples, span, r.lastValue?.timestamp);
    if (points.t.length === 0) continue;
    const color = statusColor(statusIntervals, points.v[points.v.length - 1] ?? NaN) ?? named[r.referenceValueId]?.properties.color;
    refs.push({ id: r.referenceValueId, label: r.label, points, ...(color ? { color } : {}) });
    drawn.push({ id: r.referenceValueId, label: r.label, color, value: points.v[points.v.length - 1] });
  }
  // long steps between values marked as gaps before any generalizing, as the endpoint's charts (chart-document.ts)
  const full = chartPoints(toSeries(data.values), undefined, noDataGapThreshold);
  const spec = (points: Series): ChartSpec => {
    const series: ChartSeries = {
      id: s.id,
      name: seriesLabel(s.feature.label, s.phenomenon.label, s.uom),
      phenomenon: s.phenomenon.label,
      uom: s.uom,
      points,
      gapsMarked: true,
      ...(style ? { style: { chartType: style.chartType, properties: style.properties } as ChartSeries['style'] } : {}),
      referenceValues: refs,
    };
    return { width: CHART_WIDTH, height: CHART_HEIGHT, grid: true, legend: false, language: 'en', series: [series], timespan: { start: span.start, end: span.end } };
  };
  let svg = renderChartSvg(spec(full));
  let generalizedTo: number | undefined;
  if (svg.length > SVG_BUDGET && full.t.length > GENERALIZED_POINTS) {
    const g = lttb(full, GENERALIZED_POINTS);
    svg = renderChartSvg(spec(g));
    generalizedTo = g.t.length;
  }
  const seriesCount = 1 + refs.length;
  svg = svg.replace(/^<svg /, `<svg class="ts-chart" data-series-count="${seriesCount}" `);
  return { svg, seriesCount, refs: drawn, points: data.values.length, generalizedTo, ...extent(data.values) };
}
