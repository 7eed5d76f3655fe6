/** Layout and scales: the plot area, the UTC x scale and one y scale per unit of measure. */
import { scaleLinear, scaleUtc, type ScaleLinear, type ScaleTime } from 'd3-scale';
import { barBuckets, type Bucket } from './bars.ts';
import { seriesColors } from './colors.ts';
import { readableOnWhite } from './references.ts';
import { timeTicks, type TimeTicks } from './time-axis.ts';
import { gapLimit, markGaps, type GapRule } from './gaps.ts';
import { pointCount, resolveStyle, valueAt, type ChartPoints, type ChartSeries, type ResolvedStyle } from './spec.ts';
import { typesetUnit } from '../units.ts';

export interface PreparedSeries {
  series: ChartSeries;
  /** The points drawn: the series' own, with gaps marked (gaps.ts) unless the series says they are. */
  points: ChartPoints;
  index: number;
  style: ResolvedStyle;
  /** Bar buckets (bar series only). */
  buckets: Bucket[];
  axis: number;
}

export interface YAxis {
  uom: string;
  label: string;
  scale: ScaleLinear<number, number>;
  /** x position of the axis line. */
  x: number;
  side: 'left' | 'right';
  /** With several axes, the colour of the axis' series when it has one (line, ticks, words; darkened to 3:1 on white if pale). */
  color?: string;
}

export interface Layout {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  x: ScaleTime<number, number>;
  axes: YAxis[];
  series: PreparedSeries[];
  /** The time axis' ticks (time-axis.ts): at bucket starts of the first bar series, if any. */
  time: TimeTicks;
}

export const AXIS_OFFSET = 70;
const MARGIN = { left: 70, top: 20, right: 20, bottom: 58 };
export const LEGEND_ROW = 18;
/** Room for a heading above the plot. */
export const HEADING_HEIGHT = 24;

/** How many y ticks to ask d3 for, given the plot height (also used to make the domain nice). */
export function yTickCount(plotHeight: number): number {
  return Math.max(2, Math.floor(plotHeight / 60));
}

function extendByPoints(ext: [number, number], p: ChartPoints): void {
  const n = pointCount(p);
  for (let i = 0; i < n; i++) {
    const v = valueAt(p, i);
    if (Number.isNaN(v)) continue;
    if (v < ext[0]) ext[0] = v;
    if (v > ext[1]) ext[1] = v;
  }
}

/** The y range of an axis: its data (bars from zero); reference values only when `fitRefs` or there is no data. */
function yDomain(series: readonly PreparedSeries[], fitRefs: boolean): [number, number] {
  const ext: [number, number] = [Infinity, -Infinity];
  for (const s of series) {
    if (s.style.kind === 'bar') {
      ext[0] = Math.min(ext[0], 0);
      ext[1] = Math.max(ext[1], 0);
      for (const b of s.buckets) {
        ext[0] = Math.min(ext[0], b.sum);
        ext[1] = Math.max(ext[1], b.sum);
      }
    } else {
      extendByPoints(ext, s.series.points);
    }
  }
  if (fitRefs || ext[0] > ext[1]) for (const s of series) for (const r of s.series.referenceValues ?? []) extendByPoints(ext, r.points);
  if (ext[0] > ext[1]) return [0, 1];
  if (ext[0] === ext[1]) {
    const d = Math.abs(ext[0]) * 0.1 || 1;
    return [ext[0] - d, ext[1] + d];
  }
  return ext;
}

export function layout(
  width: number,
  height: number,
  series: readonly ChartSeries[],
  timespan: { start: number; end: number },
  legendRows: number,
  headingHeight = 0,
  gapRule: GapRule = {},
  fitRefs = false,
): Layout {
  const units: string[] = [];
  const colors = seriesColors(series);
  const prepared: PreparedSeries[] = series.map((s, index) => {
    const style = resolveStyle(s.style, colors[index]!);
    let axis = units.indexOf(s.uom);
    if (axis < 0) axis = units.push(s.uom) - 1;
    const buckets = style.kind === 'bar' ? barBuckets(s.points, style.interval) : [];
    const points = style.kind === 'line' && !s.gapsMarked ? markGaps(s.points, gapLimit(s.points, gapRule)) : s.points;
    return { series: s, points, index, style, buckets, axis };
  });
  const rightAxes = Math.max(0, units.length - 1);
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top + headingHeight,
    right: width - MARGIN.right - rightAxes * AXIS_OFFSET,
    bottom: height - MARGIN.bottom - legendRows * LEGEND_ROW,
  };
  if (plot.right <= plot.left) plot.right = plot.left + 1;
  if (plot.bottom <= plot.top) plot.bottom = plot.top + 1;
  // The axis spans exactly the timespan; a bucket reaching past it is drawn cut at its edge (bars.ts).
  const start = timespan.start;
  const end = timespan.end > timespan.start ? timespan.end : timespan.start + 1;
  const x = scaleUtc().domain([start, end]).range([plot.left, plot.right]);
  const axes: YAxis[] = units.map((uom, i) => {
    const members = prepared.filter((p) => p.axis === i);
    const phenomena = [...new Set(members.map((m) => m.series.phenomenon))].join(', ');
    const scale = scaleLinear().domain(yDomain(members, fitRefs)).range([plot.bottom, plot.top]).nice(yTickCount(plot.bottom - plot.top));
    const side = i === 0 ? 'left' : 'right';
    const ax = i === 0 ? plot.left : plot.right + (i - 1) * AXIS_OFFSET;
    const color = units.length > 1 && members.length === 1 ? readableOnWhite(members[0]!.style.color) : undefined;
    return { uom, label: `${phenomena} [${typesetUnit(uom)}]`, scale, x: ax, side, ...(color !== undefined ? { color } : {}) };
  });
  const firstBar = prepared.find((p) => p.style.kind === 'bar')?.style;
  const time = timeTicks(start, end, plot.right - plot.left, firstBar?.kind === 'bar' ? firstBar.interval : undefined);
  return { width, height, plot, x, axes, series: prepared, time };
}
