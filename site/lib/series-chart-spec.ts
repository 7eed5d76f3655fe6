/**
 * A timeseries' chart spec from its getData answer, shared by the page drawn at build time
 * (site/lib/timeseries-chart.ts) and the interactive chart in the browser (site/scripts/series-chart.ts).
 * Pure and free of Node: it is bundled into the page's script.
 *
 * As the endpoint draws `getData.png?expanded=true` (core/timeseries/chart-document.ts): series name
 * `"<feature> (<phenomenon> [<uom>])"`, the series' rendering-hints style, every reference value as a step
 * labelled with its name and value, in the colour of the status interval its level lies in, else the one its
 * `referenceValueStyleProperties` give, else grey; long steps between values marked as gaps (core/charts/gaps.ts,
 * with the configuration's `noDataGapThreshold`) before anything is thinned, so a thinned line breaks there too.
 *
 * Reference values come from the expanded answer, whose values are sampled at the served timestamps: the steps
 * are recovered by keeping each change, and start at the timespan's start when the reference value's last change
 * point lies before it.
 */
import type { ChartReferenceValue, ChartSeries, ChartSpec, ChartStyle } from '../../core/charts/index.ts';
import { gapLimit, markGaps } from '../../core/charts/gaps.ts';
import { statusColor } from '../../core/charts/references.ts';

export interface TimeValue {
  timestamp: number;
  value: number | null;
}

export interface SeriesData {
  values: TimeValue[];
  /** Reference values sampled at the served timestamps, by id (empty when the answer is not expanded). */
  refs: Record<string, TimeValue[]>;
}

export interface Steps {
  t: Float64Array;
  v: Float64Array;
}

export interface StatusInterval {
  name?: string;
  lower: string;
  upper?: string;
  color: string;
}

/** What the page knows of a series at build time: everything the chart needs besides its data. */
export interface SeriesChartConfig {
  id: string;
  /** `"<feature> (<phenomenon> [<uom>])"` */
  name: string;
  phenomenon: string;
  uom: string;
  style?: ChartStyle;
  /** Colours the style's `referenceValueStyleProperties` give, by reference value id. */
  refColors: Record<string, string>;
  refs: { id: string; label: string; lastChange?: number }[];
  statusIntervals: StatusInterval[];
  noDataGapThreshold?: number;
}

export interface DrawnRef {
  id: string;
  label: string;
  color: string | undefined;
  /** The value in force at the end of the timespan. */
  value: number | undefined;
}

type Served = TimeValue | [number, number | null];

function asTimeValues(list: readonly Served[]): TimeValue[] {
  return list.map((p) => (Array.isArray(p) ? { timestamp: p[0], value: p[1] } : p));
}

/**
 * The body of a getData answer as SeriesData, or undefined: tvp (`values` of `{timestamp, value}`,
 * `extra.referenceValues`) or flot (`[t, v]` pairs, `referenceValues`), plain or keyed by the series' id.
 */
export function parseGetData(json: unknown, id: string): SeriesData | undefined {
  if (json === null || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  type Body = { values?: Served[]; extra?: { referenceValues?: Record<string, { values: Served[] }> }; referenceValues?: Record<string, { values: Served[] }> };
  const body = (Array.isArray(o['values']) ? o : o[id]) as Body | undefined;
  if (!body || !Array.isArray(body.values)) return undefined;
  const refs: Record<string, TimeValue[]> = {};
  for (const [rid, r] of Object.entries(body.extra?.referenceValues ?? body.referenceValues ?? {})) if (Array.isArray(r?.values)) refs[rid] = asTimeValues(r.values);
  return { values: asTimeValues(body.values), refs };
}

/** Change points of a step function sampled at the served timestamps. */
export function stepsFromSamples(samples: readonly TimeValue[], span: { start: number; end: number }, lastChange: number | undefined): Steps {
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

/** `{timestamp, value}` points as typed arrays, NaN for null. */
export function typedPoints(values: readonly TimeValue[]): Steps {
  const t = new Float64Array(values.length);
  const v = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    t[i] = values[i]!.timestamp;
    const x = values[i]!.value;
    v[i] = x === null ? NaN : x;
  }
  return { t, v };
}

/** The values with long steps between them marked as gaps (the endpoint's rule, unthinned). */
export function gapMarked(values: readonly TimeValue[], noDataGapThreshold: number | undefined): Steps {
  const raw = typedPoints(values);
  return markGaps(raw, gapLimit(raw, { noDataGapThreshold, bucketSize: 1 })) as Steps;
}

/** The reference values drawn (those with a value in the span), as chart reference values and as listed. */
export function chartRefs(c: SeriesChartConfig, data: SeriesData, span: { start: number; end: number }): { refs: ChartReferenceValue[]; drawn: DrawnRef[] } {
  const refs: ChartReferenceValue[] = [];
  const drawn: DrawnRef[] = [];
  for (const r of c.refs) {
    const samples = data.refs[r.id];
    if (!samples) continue;
    const points = stepsFromSamples(samples, span, r.lastChange);
    if (points.t.length === 0) continue;
    const color = statusColor(c.statusIntervals, points.v[points.v.length - 1] ?? NaN) ?? c.refColors[r.id];
    refs.push({ id: r.id, label: r.label, points, ...(color ? { color } : {}) });
    drawn.push({ id: r.id, label: r.label, color, value: points.v[points.v.length - 1] });
  }
  return { refs, drawn };
}

/** The chart of one series: its points (gaps already marked), reference values, span and size; grid on, no legend. */
export function seriesChartSpec(
  c: SeriesChartConfig,
  points: Steps,
  refs: ChartReferenceValue[],
  span: { start: number; end: number },
  size: { width: number; height: number },
): ChartSpec {
  const series: ChartSeries = {
    id: c.id,
    name: c.name,
    phenomenon: c.phenomenon,
    uom: c.uom,
    points,
    gapsMarked: true,
    ...(c.style ? { style: c.style } : {}),
    referenceValues: refs,
  };
  return { width: size.width, height: size.height, grid: true, legend: false, language: 'en', series: [series], timespan: { start: span.start, end: span.end } };
}
