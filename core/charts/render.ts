/**
 * renderChartSvg: a chart as a standalone SVG string. Pure (no DOM, no I/O) and deterministic: the same
 * spec gives the same bytes; numbers are rounded to 2 decimals and ids are derived from the series ids.
 */
import { renderGrid, renderXAxis, renderYAxis } from './axes.ts';
import { renderBars } from './bars.ts';
import { renderLegend, type LegendReference } from './legend.ts';
import { renderLine } from './lines.ts';
import { lastValue, referenceColor, referenceText, renderReferenceLabels, renderReferenceLine, type RefLabel } from './references.ts';
import { CHART_STRINGS, isLanguage, type Language } from './locale.ts';
import { HEADING_HEIGHT, layout, type Layout, type PreparedSeries } from './scales.ts';
import { DEFAULTS, pointCount, type ChartSpec } from './spec.ts';
import { el, esc, hash, num, text } from './svg.ts';

function size(n: number | undefined, fallback: number): number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 50 ? Math.round(n) : fallback;
}

/** Rows the legend takes: one per series, one per reference value with a value. */
function legendRows(spec: ChartSpec): number {
  return spec.series.reduce((n, s) => n + 1 + (s.referenceValues ?? []).filter((r) => !Number.isNaN(lastValue(r.points))).length, 0);
}

/** Each reference value's label: its text, colour, and where its level lies against its axis' range. */
function referenceLabels(l: Layout, lang: Language): RefLabel[] {
  const out: RefLabel[] = [];
  for (const p of l.series) {
    const scale = l.axes[p.axis]!.scale;
    const [lo, hi] = (scale.domain() as [number, number]).slice().sort((a, b) => a - b) as [number, number];
    for (const ref of p.series.referenceValues ?? []) {
      const v = lastValue(ref.points);
      if (Number.isNaN(v)) continue;
      out.push({ ref, text: referenceText(ref, p.series.uom, lang), color: referenceColor(ref), y: scale(v), where: v > hi ? 'above' : v < lo ? 'below' : 'in' });
    }
  }
  return out;
}

function renderSeries(p: PreparedSeries, l: Layout, clipId: string): string {
  const axis = l.axes[p.axis]!;
  const body = p.style.kind === 'bar'
    ? renderBars(p.buckets, p.style, l.x, axis.scale, { start: +l.x.domain()[0]!, end: +l.x.domain()[1]! })
    : renderLine(p.points, p.style, l.x, axis.scale);
  const refs = (p.series.referenceValues ?? [])
    .map((r) => renderReferenceLine(r, l.x, axis.scale, +l.x.domain()[1]!))
    .join('');
  return el('g', {
    class: `series series-${p.style.kind}`,
    'data-series': p.series.id,
    'clip-path': `url(#${clipId})`,
  }, refs + body);
}

/**
 * Where a rendered chart put things, for a page that draws on top of it (the site's crosshair,
 * site/scripts/series-chart.ts): the plot's box, the time axis' span (a linear UTC scale over the plot's
 * width), each y axis' domain (linear, from the plot's bottom to its top) and each series' axis and colour.
 */
export interface ChartGeometry {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  timespan: { start: number; end: number };
  axes: { uom: string; domain: [number, number] }[];
  series: { id: string; axis: number; color: string }[];
}

/** A chart as a standalone SVG string (see renderChart). */
export function renderChartSvg(spec: ChartSpec): string {
  return renderChart(spec).svg;
}

/** A chart as a standalone SVG string, and its geometry. */
export function renderChart(spec: ChartSpec): { svg: string; geometry: ChartGeometry } {
  const width = size(spec.width, DEFAULTS.width);
  const height = size(spec.height, DEFAULTS.height);
  const grid = spec.grid ?? DEFAULTS.grid;
  const legend = spec.legend ?? DEFAULTS.legend;
  const lang: Language = isLanguage(spec.language) ? spec.language : DEFAULTS.language;
  const strings = CHART_STRINGS[lang];
  const heading = spec.heading?.trim() || undefined;
  const l = layout(width, height, spec.series, spec.timespan, legend ? legendRows(spec) : 0, heading ? HEADING_HEIGHT : 0,
    { noDataGapThreshold: spec.noDataGapThreshold }, spec.fitReferenceValues ?? false);
  const refLabels = referenceLabels(l, lang);
  const legendRefs: LegendReference[] = refLabels.map((r) => ({ id: r.ref.id, text: r.text, color: r.color }));

  const key = `sc-${hash(JSON.stringify(spec.series.map((s) => s.id)))}`;
  const clipId = `${key}-clip`;
  const title = spec.title ?? heading ?? (spec.series.length > 0 ? spec.series.map((s) => s.name).join('; ') : strings.chart);
  const { left, top, right, bottom } = l.plot;

  // Bars below lines; otherwise the spec's order.
  const ordered = [...l.series.filter((p) => p.style.kind === 'bar'), ...l.series.filter((p) => p.style.kind === 'line')];
  const hasData = spec.series.some((s) => pointCount(s.points) > 0);

  const parts = [
    el('title', { id: `${key}-title` }, esc(title)),
    el('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }),
    el('defs', {}, el('clipPath', { id: clipId }, el('rect', { x: left, y: top, width: right - left, height: bottom - top }))),
    heading ? text({ class: 'heading', x: width / 2, y: 24, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 'bold', fill: '#222222' }, heading) : '',
    grid ? renderGrid(l) : '',
    ...ordered.map((p) => renderSeries(p, l, clipId)),
    renderReferenceLabels(refLabels, l.plot),
    renderXAxis(l, lang),
    ...l.axes.map((a, i) => renderYAxis(a, i, l, lang)),
    legend ? renderLegend(l, legendRefs) : '',
    hasData ? '' : text({ x: (left + right) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle', fill: '#777777' }, strings.noData),
  ].filter((s) => s !== '');

  const geometry: ChartGeometry = {
    width,
    height,
    plot: { ...l.plot },
    timespan: { start: +l.x.domain()[0]!, end: +l.x.domain()[1]! },
    axes: l.axes.map((a) => ({ uom: a.uom, domain: a.scale.domain() as [number, number] })),
    series: l.series.map((p) => ({ id: p.series.id, axis: p.axis, color: p.style.color })),
  };
  const svg = el('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width,
    height,
    viewBox: `0 0 ${num(width)} ${num(height)}`,
    role: 'img',
    'aria-labelledby': `${key}-title`,
    'font-family': 'sans-serif',
    'font-size': 11,
  }, '\n' + parts.join('\n') + '\n') + '\n';
  return { svg, geometry };
}
