/**
 * Chart specification types and their defaults (DECISIONS.md, timeseries: charts 800×500, grid on,
 * legend off, line width 2, lineType solid).
 */
import type { Language } from './locale.ts';

export type LineType = 'solid' | 'dashed' | 'dotted' | 'solidWithDots';
export type BarInterval = 'byHour' | 'byDay' | 'byWeek' | 'byMonth';

/** Times (ms since epoch) and values; a null or NaN value is a gap. */
export interface ChartPoints {
  t: Float64Array | readonly number[];
  v: Float64Array | readonly (number | null)[];
}

export interface LineStyle {
  chartType: 'line';
  properties?: { lineType?: LineType; width?: number; color?: string };
}
export interface BarStyle {
  chartType: 'bar';
  properties?: { interval?: BarInterval; width?: number; color?: string };
}
export type ChartStyle = LineStyle | BarStyle;

export interface ChartReferenceValue {
  id: string;
  label: string;
  points: ChartPoints;
  color?: string;
}

export interface ChartSeries {
  id: string;
  name: string;
  phenomenon: string;
  uom: string;
  points: ChartPoints;
  style?: ChartStyle;
  referenceValues?: ChartReferenceValue[];
  /**
   * True when long steps between values are already marked with nulls (gaps.ts `markGaps`, done before
   * generalizing); otherwise the chart marks them from these points.
   */
  gapsMarked?: boolean;
  /**
   * True when the style's colour comes from rendering hints rather than the request: it gives way to a
   * palette colour where another series of the chart has the same colour (colors.ts).
   */
  colorHinted?: boolean;
}

export interface ChartSpec {
  width?: number;
  height?: number;
  grid?: boolean;
  legend?: boolean;
  language?: Language;
  /** Accessible title; defaults to the heading, else the series names. */
  title?: string;
  /** A title drawn above the plot (pre-rendering configuration's `title`). */
  heading?: string;
  series: ChartSeries[];
  timespan: { start: number; end: number };
  /** Stretch the y range to every reference value drawn (default: fit the data, mark levels beyond it at the edge). */
  fitReferenceValues?: boolean;
  /** 52°North's `noDataGapThreshold` (general configuration), for series whose gaps are not marked (gaps.ts). */
  noDataGapThreshold?: number;
}

export const DEFAULTS = { width: 800, height: 500, grid: true, legend: false, language: 'en', lineWidth: 2, barWidth: 0.8 } as const;

export interface ResolvedLine { kind: 'line'; lineType: LineType; width: number; color: string }
export interface ResolvedBar { kind: 'bar'; interval: BarInterval; width: number; color: string }
export type ResolvedStyle = ResolvedLine | ResolvedBar;

const HEX = /^#[0-9a-fA-F]{6}$/;
const LINE_TYPES: readonly string[] = ['solid', 'dashed', 'dotted', 'solidWithDots'];
const INTERVALS: readonly string[] = ['byHour', 'byDay', 'byWeek', 'byMonth'];

export function isHexColor(color: unknown): color is string {
  return typeof color === 'string' && HEX.test(color);
}

function positive(n: number | undefined, fallback: number): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A style with defaults filled in and invalid values replaced, drawn in `color` (colors.ts `seriesColors`). */
export function resolveStyle(style: ChartStyle | undefined, color: string): ResolvedStyle {
  if (style?.chartType === 'bar') {
    const p = style.properties ?? {};
    const w = typeof p.width === 'number' && Number.isFinite(p.width) ? Math.min(1, Math.max(0, p.width)) : DEFAULTS.barWidth;
    const interval = p.interval !== undefined && INTERVALS.includes(p.interval) ? p.interval : 'byDay';
    return { kind: 'bar', interval, width: w, color };
  }
  const p = style?.properties ?? {};
  const lineType = p.lineType !== undefined && LINE_TYPES.includes(p.lineType) ? p.lineType : 'solid';
  return { kind: 'line', lineType, width: positive(p.width, DEFAULTS.lineWidth), color };
}

/** The value at i, or NaN for a gap (null, NaN, missing). */
export function valueAt(points: ChartPoints, i: number): number {
  const v = points.v[i];
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

export function pointCount(points: ChartPoints): number {
  return Math.min(points.t.length, points.v.length);
}
