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
import { renderChartSvg, type ChartSeries } from '../../core/charts/index.ts';
import type { ChartStyle } from '../../core/snapshot/timeseries-config.ts';
import { lttb } from '../../core/timeseries/generalize.ts';
import { seriesLabel } from '../../core/timeseries/chart-document.ts';
import type { Timespan } from '../../core/timeseries/timespan.ts';
import { chartRefs, gapMarked, seriesChartSpec, type DrawnRef, type SeriesChartConfig, type StatusInterval, type Steps } from './series-chart-spec.ts';
import type { SeriesData, SeriesMeta, TimeValue } from './timeseries.ts';

export { stepsFromSamples, type DrawnRef } from './series-chart-spec.ts';

export const SVG_BUDGET = 64 * 1024;
export const GENERALIZED_POINTS = 800;
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 450;

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
  /** What the page's script needs to draw the chart again (site/scripts/series-chart.ts). */
  config: SeriesChartConfig;
  /** The reference values drawn, as steps. */
  refSteps: { id: string; label: string; color?: string; t: number[]; v: number[] }[];
}

/** What the chart of a series needs besides its data (the page hands it to its script, series-chart.ts). */
export function seriesChartConfig(s: SeriesMeta, style: ChartStyle | undefined, noDataGapThreshold?: number, statusIntervals: readonly StatusInterval[] = []): SeriesChartConfig {
  const named = style?.referenceValueStyleProperties ?? {};
  const refColors: Record<string, string> = {};
  for (const [id, p] of Object.entries(named)) if (p.properties.color) refColors[id] = p.properties.color;
  return {
    id: s.id,
    name: seriesLabel(s.feature.label, s.phenomenon.label, s.uom),
    phenomenon: s.phenomenon.label,
    uom: s.uom,
    ...(style ? { style: { chartType: style.chartType, properties: style.properties } as ChartSeries['style'] & object } : {}),
    refColors,
    refs: s.refValues.map((r) => ({ id: r.referenceValueId, label: r.label, ...(r.lastValue ? { lastChange: r.lastValue.timestamp } : {}) })),
    statusIntervals: statusIntervals.map((i) => ({ lower: i.lower, ...(i.upper !== undefined ? { upper: i.upper } : {}), color: i.color, ...('name' in i && typeof i.name === 'string' ? { name: i.name } : {}) })),
    ...(noDataGapThreshold !== undefined ? { noDataGapThreshold } : {}),
  };
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
  statusIntervals: readonly StatusInterval[] = [],
): TimeseriesChart {
  const config = seriesChartConfig(s, style, noDataGapThreshold, statusIntervals);
  const { refs, drawn } = chartRefs(config, data, span);
  // long steps between values marked as gaps before any generalizing, as the endpoint's charts (chart-document.ts)
  const full = gapMarked(data.values, noDataGapThreshold);
  const spec = (points: Steps) => seriesChartSpec(config, points, refs, span, { width: CHART_WIDTH, height: CHART_HEIGHT });
  let svg = renderChartSvg(spec(full));
  let generalizedTo: number | undefined;
  if (svg.length > SVG_BUDGET && full.t.length > GENERALIZED_POINTS) {
    const g = lttb(full, GENERALIZED_POINTS);
    svg = renderChartSvg(spec(g));
    generalizedTo = g.t.length;
  }
  const seriesCount = 1 + refs.length;
  svg = svg.replace(/^<svg /, `<svg class="ts-chart" data-series-count="${seriesCount}" `);
  const refSteps = refs.map((r) => ({ id: r.id, label: r.label, ...(r.color ? { color: r.color } : {}), t: Array.from(r.points.t), v: Array.from(r.points.v, (x) => x ?? NaN) }));
  return { svg, seriesCount, refs: drawn, points: data.values.length, generalizedTo, ...extent(data.values), config, refSteps };
}
