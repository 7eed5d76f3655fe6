/** The legend: one row per series below the time axis, a swatch in the series' style and its name; then the reference values. */
import { LEGEND_ROW, type Layout } from './scales.ts';
import { dashArray } from './lines.ts';
import { REFERENCE_DASH } from './references.ts';
import { el, text } from './svg.ts';

export interface LegendReference {
  id: string;
  text: string;
  color: string;
}

/** The legend: the series, then their reference values (a dash-dot swatch and "<name> <value> <uom>"). */
export function renderLegend(l: Layout, refs: readonly LegendReference[] = []): string {
  const top = l.plot.bottom + 56;
  const rows = l.series.map((p, i) => {
    const y = top + i * LEGEND_ROW + LEGEND_ROW / 2;
    const x = l.plot.left;
    const s = p.style;
    const swatch = s.kind === 'bar'
      ? el('rect', { x, y: y - 5, width: 20, height: 10, fill: s.color })
      : el('line', {
        x1: x, x2: x + 20, y1: y, y2: y, stroke: s.color, 'stroke-width': s.width,
        'stroke-dasharray': dashArray(s.lineType, s.width),
        'stroke-linecap': s.lineType === 'dotted' ? 'round' : undefined,
      }) + (s.lineType === 'solidWithDots' ? el('circle', { cx: x + 10, cy: y, r: s.width + 1, fill: s.color }) : '');
    return el('g', { class: 'legend-item', 'data-series': p.series.id },
      swatch + text({ x: x + 28, y: y + 4, fill: '#333333' }, p.series.name));
  });
  refs.forEach((r, k) => {
    const y = top + (l.series.length + k) * LEGEND_ROW + LEGEND_ROW / 2;
    const x = l.plot.left;
    rows.push(el('g', { class: 'legend-item legend-reference', 'data-reference-value': r.id },
      el('line', { x1: x, x2: x + 20, y1: y, y2: y, stroke: r.color, 'stroke-width': 1.5, 'stroke-dasharray': REFERENCE_DASH })
      + text({ x: x + 28, y: y + 4, fill: '#333333' }, r.text)));
  });
  return el('g', { class: 'legend' }, rows.join(''));
}
