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
  /** 52°North's `noDataGapThreshold` (general configuration), for series whose gaps are not marked (gaps.ts). */
  noDataGapThreshold?: number;
}

/** Stable default palette (by series position) for styles without a valid colour. */
export const PALETTE = [
  '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
  '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf',
] as const;

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

export function colorOr(color: string | undefined, index: number): string {
  return isHexColor(color) ? color.toLowerCase() : PALETTE[index % PALETTE.length]!;
}

function positive(n: number | undefined, fallback: number): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The style of the series at `index`, with defaults filled in and invalid values replaced. */
export function resolveStyle(style: ChartStyle | undefined, index: number): ResolvedStyle {
  if (style?.chartType === 'bar') {
    const p = style.properties ?? {};
    const w = typeof p.width === 'number' && Number.isFinite(p.width) ? Math.min(1, Math.max(0, p.width)) : DEFAULTS.barWidth;
    const interval = p.interval !== undefined && INTERVALS.includes(p.interval) ? p.interval : 'byDay';
    return { kind: 'bar', interval, width: w, color: colorOr(p.color, index) };
  }
  const p = style?.properties ?? {};
  const lineType = p.lineType !== undefined && LINE_TYPES.includes(p.lineType) ? p.lineType : 'solid';
  return { kind: 'line', lineType, width: positive(p.width, DEFAULTS.lineWidth), color: colorOr(p.color, index) };
}

/** The value at i, or NaN for a gap (null, NaN, missing). */
export function valueAt(points: ChartPoints, i: number): number {
  const v = points.v[i];
  return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
}

export function pointCount(points: ChartPoints): number {
  return Math.min(points.t.length, points.v.length);
}
