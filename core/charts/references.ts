/**
 * Reference values (warning levels): dash-dot step lines, distinct from every data line type, each labelled
 * at the plot's right end with its name and value. The y range fits the data (scales.ts), not the levels:
 * a level above or below it is not drawn across the plot but marked at the plot's edge, a small triangle
 * pointing out of the plot and its label, unless the chart asks for every level in range
 * (`fitReferenceValues`).
 *
 * Colours: the reference value's own (its style, or the colour of the status interval it lies in, as the
 * caller resolves it), else a neutral dark grey; pale colours (a yellow warning level) are darkened in hue
 * until they stand out from the white background (contrast ≥ 3:1, WCAG's figure for graphics).
 */
import type { ScaleLinear, ScaleTime } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { numberLocale, type Language } from './locale.ts';
import { isHexColor, pointCount, valueAt, type ChartPoints, type ChartReferenceValue } from './spec.ts';
import { el, esc, roundPath, text } from './svg.ts';
import { typesetUnit } from '../units.ts';

/** Reference values without a colour of their own. */
export const REFERENCE_GREY = '#595959';
/** Dash-dot: unlike the data's solid, dashed (4w 2w) and dotted lines. */
export const REFERENCE_DASH = '8 3 2 3';
const LABEL_GAP = 13;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG contrast ratio of `#rrggbb` against white. */
export function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const l = 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  return 1.05 / (l + 0.05);
}

/** The colour, darkened (towards black, same hue) until its contrast on white is at least 3:1. */
export function readableOnWhite(hex: string): string {
  let [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)) as [number, number, number];
  for (let i = 0; i < 40 && contrastOnWhite(toHex(r, g, b)) < 3; i++) {
    r = Math.floor(r * 0.93);
    g = Math.floor(g * 0.93);
    b = Math.floor(b * 0.93);
  }
  return toHex(r, g, b);
}

function toHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

export function referenceColor(ref: ChartReferenceValue): string {
  return readableOnWhite(isHexColor(ref.color) ? ref.color.toLowerCase() : REFERENCE_GREY);
}

/** The value in force at the end (the last non-null value), or NaN. */
export function lastValue(points: ChartPoints): number {
  for (let i = pointCount(points) - 1; i >= 0; i--) {
    const v = valueAt(points, i);
    if (!Number.isNaN(v)) return v;
  }
  return NaN;
}

/** "<name> <value> <uom>" in the chart's language, the unit typeset (m³/s; core/units.ts). */
export function referenceText(ref: ChartReferenceValue, uom: string, lang: Language): string {
  const v = lastValue(ref.points);
  if (Number.isNaN(v)) return ref.label;
  const n = numberLocale(lang).format(',.6~r')(v);
  return `${ref.label} ${uom === '' ? n : `${n} ${typesetUnit(uom)}`}`;
}

/** The dash-dot step line of a reference value, held to `end`; clipped to the plot by the caller. */
export function renderReferenceLine(
  ref: ChartReferenceValue,
  x: ScaleTime<number, number>,
  y: ScaleLinear<number, number>,
  end: number,
): string {
  const n = pointCount(ref.points);
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < n; i++) {
    t.push(ref.points.t[i]!);
    v.push(valueAt(ref.points, i));
  }
  if (n > 0 && t[n - 1]! < end && !Number.isNaN(v[n - 1]!)) {
    t.push(end);
    v.push(v[n - 1]!);
  }
  const idx = t.map((_, i) => i);
  const d = roundPath(line<number>().defined((i) => !Number.isNaN(v[i]!) && Number.isFinite(t[i]!)).x((i) => x(t[i]!)).y((i) => y(v[i]!)).curve(curveStepAfter)(idx) ?? '');
  if (d === '') return '';
  return el('path', {
    d,
    class: 'reference-value',
    'data-reference-value': ref.id,
    fill: 'none',
    stroke: referenceColor(ref),
    'stroke-width': 1.5,
    'stroke-dasharray': REFERENCE_DASH,
  }, el('title', {}, esc(ref.label)));
}

export interface RefLabel {
  ref: ChartReferenceValue;
  text: string;
  color: string;
  /** The level's y (may lie outside the plot). */
  y: number;
  /** Where the level lies against the y range. */
  where: 'in' | 'above' | 'below';
}

/**
 * Labels at the plot's right end, right-aligned just above their level; levels outside the y range at the
 * edge they lie beyond, with a triangle pointing out. Labels are moved apart to at least LABEL_GAP px.
 */
export function renderReferenceLabels(labels: RefLabel[], plot: { left: number; top: number; right: number; bottom: number }): string {
  if (labels.length === 0) return '';
  // in the order of the levels (highest first), each at its level or at the edge it lies beyond
  const placed = [...labels].sort((a, b) => a.y - b.y).map((l) => ({
    l,
    y: l.where === 'above' ? plot.top + 12 : l.where === 'below' ? plot.bottom - 4 : Math.min(plot.bottom - 4, Math.max(plot.top + 12, l.y - 4)),
  }));
  for (let i = 1; i < placed.length; i++) if (placed[i]!.y - placed[i - 1]!.y < LABEL_GAP) placed[i]!.y = placed[i - 1]!.y + LABEL_GAP;
  // pushed past the bottom: shift the stack back up
  const over = placed.length > 0 ? placed.at(-1)!.y - (plot.bottom - 4) : 0;
  if (over > 0) for (const p of placed) p.y -= over;
  const x = plot.right - 4;
  const parts = placed.map(({ l, y }) => {
    // off the scale: a triangle at the label's right pointing the way the level lies
    const cy = y - 4;
    const mark = l.where === 'in' ? ''
      : el('path', {
        class: 'reference-off-scale',
        d: l.where === 'above' ? `M${x - 8},${cy + 3}L${x - 4},${cy - 4}L${x},${cy + 3}Z` : `M${x - 8},${cy - 3}L${x - 4},${cy + 4}L${x},${cy - 3}Z`,
        fill: l.color,
      });
    return el('g', { class: `reference-label reference-${l.where}`, 'data-reference-value': l.ref.id },
      mark + text({
        x: l.where === 'in' ? x : x - 11, y, 'text-anchor': 'end', fill: l.color,
        stroke: '#ffffff', 'stroke-width': 3, 'paint-order': 'stroke', 'stroke-linejoin': 'round',
      }, l.text));
  });
  return el('g', { class: 'reference-labels' }, parts.join(''));
}

/**
 * The colour of the status interval `v` lies in (lower bound inclusive, upper exclusive, no upper: open),
 * the first in the configuration's order, or undefined.
 */
export function statusColor(intervals: readonly { lower: string; upper?: string; color: string }[], v: number): string | undefined {
  if (!Number.isFinite(v)) return undefined;
  for (const i of intervals) {
    const lo = Number(i.lower);
    const hi = i.upper === undefined ? Infinity : Number(i.upper);
    if ((Number.isNaN(lo) || v >= lo) && (Number.isNaN(hi) || v < hi)) return i.color;
  }
  return undefined;
}
