/**
 * Line series (solid, dashed, dotted, solidWithDots; gaps stay gaps); reference values are references.ts.
 * Dense dashed and dotted lines are thinned with the API's LTTB (core/timeseries/generalize/lttb.ts, pure).
 */
import { line } from 'd3-shape';
import type { ScaleLinear, ScaleTime } from 'd3-scale';
import { pointCount, valueAt, type ChartPoints, type ResolvedLine } from './spec.ts';
import { el, roundPath } from './svg.ts';
import { lttbIndices } from '../timeseries/generalize/lttb.ts';

/** The `stroke-dasharray` for a line type and width, or undefined for a continuous line. */
export function dashArray(lineType: ResolvedLine['lineType'], width: number): string | undefined {
  if (lineType === 'dashed') return `${4 * width} ${2 * width}`;
  if (lineType === 'dotted') return `0 ${2 * width}`;
  return undefined;
}

function pathOf(
  points: ChartPoints,
  x: ScaleTime<number, number>,
  y: ScaleLinear<number, number>,
): string {
  const idx = Array.from({ length: pointCount(points) }, (_, i) => i);
  const gen = line<number>()
    .defined((i) => !Number.isNaN(valueAt(points, i)) && Number.isFinite(points.t[i]!))
    .x((i) => x(points.t[i]!))
    .y((i) => y(valueAt(points, i)));
  return roundPath(gen(idx) ?? '');
}

/** Dashed and dotted lines get at most one point per this many px (LTTB), so the pattern stays readable. */
export const DASH_PX_PER_POINT = 4;

/**
 * The points a dashed or dotted line is drawn through: over dense data (more than one point per
 * DASH_PX_PER_POINT px) a dash pattern on a zigzag of sub-pixel segments turns into noise, so the path is
 * thinned with LTTB (gaps kept, generalize/runs.ts) to one point per DASH_PX_PER_POINT px. Solid lines and
 * the dots of solidWithDots keep every point.
 */
export function patternPoints(points: ChartPoints, lineType: ResolvedLine['lineType'], plotWidth: number): ChartPoints {
  if (lineType !== 'dashed' && lineType !== 'dotted') return points;
  const n = pointCount(points);
  const budget = Math.max(2, Math.floor(plotWidth / DASH_PX_PER_POINT));
  if (n <= budget) return points;
  const t = Float64Array.from({ length: n }, (_, i) => points.t[i]!);
  const v = Float64Array.from({ length: n }, (_, i) => valueAt(points, i));
  const idx = lttbIndices(t, v, budget);
  return { t: Float64Array.from(idx, (i) => t[i]!), v: Float64Array.from(idx, (i) => v[i]!) };
}

export function renderLine(
  points: ChartPoints,
  style: ResolvedLine,
  x: ScaleTime<number, number>,
  y: ScaleLinear<number, number>,
): string {
  const [r0, r1] = x.range() as [number, number];
  const d = pathOf(patternPoints(points, style.lineType, Math.abs(r1 - r0)), x, y);
  const parts: string[] = [];
  if (d !== '') {
    parts.push(el('path', {
      d,
      fill: 'none',
      stroke: style.color,
      'stroke-width': style.width,
      'stroke-dasharray': dashArray(style.lineType, style.width),
      'stroke-linecap': style.lineType === 'dotted' ? 'round' : undefined,
      'stroke-linejoin': 'round',
    }));
  }
  // solidWithDots: a circle at every point; other types: at isolated points only (between gaps), which a
  // path alone would not show.
  const all = style.lineType === 'solidWithDots';
  const dots: string[] = [];
  const n = pointCount(points);
  const defined = (i: number) => i >= 0 && i < n && !Number.isNaN(valueAt(points, i));
  for (let i = 0; i < n; i++) {
    if (!defined(i) || (!all && (defined(i - 1) || defined(i + 1)))) continue;
    dots.push(el('circle', { cx: x(points.t[i]!), cy: y(valueAt(points, i)), r: all ? style.width + 1 : style.width }));
  }
  if (dots.length > 0) parts.push(el('g', { class: 'dots', fill: style.color }, dots.join('')));
  return parts.join('');
}
