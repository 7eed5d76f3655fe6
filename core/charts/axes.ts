/** Axes and grid: the UTC time axis, one y axis per unit, grid lines at the ticks. */
import { precisionFixed } from 'd3-format';
import { CHART_STRINGS, numberLocale, type Language } from './locale.ts';
import { tickLabels } from './time-axis.ts';
import { yTickCount, type Layout, type YAxis } from './scales.ts';
import { el, num, text } from './svg.ts';

const AXIS_COLOR = '#333333';
const GRID_COLOR = '#e0e0e0';
const TICK = 5;

export function xTicks(l: Layout): Date[] {
  return l.time.ticks;
}

export function yTicks(a: YAxis, l: Layout): number[] {
  return a.scale.ticks(yTickCount(l.plot.bottom - l.plot.top));
}

export function renderGrid(l: Layout): string {
  const lines: string[] = [];
  for (const t of xTicks(l)) {
    const x = l.x(t);
    lines.push(el('line', { x1: x, x2: x, y1: l.plot.top, y2: l.plot.bottom }));
  }
  const first = l.axes[0];
  if (first !== undefined) {
    for (const v of yTicks(first, l)) {
      const y = first.scale(v);
      lines.push(el('line', { x1: l.plot.left, x2: l.plot.right, y1: y, y2: y }));
    }
  }
  return el('g', { class: 'grid', stroke: GRID_COLOR, 'stroke-width': 1 }, lines.join(''));
}

/** The time axis: a tick and label at each tick, the date or year below where it changes (time-axis.ts). */
export function renderXAxis(l: Layout, lang: Language): string {
  const labels = tickLabels(l.time, lang);
  const y = l.plot.bottom;
  const parts = [el('line', { x1: l.plot.left, x2: l.plot.right, y1: y, y2: y, stroke: AXIS_COLOR })];
  l.time.ticks.forEach((t, i) => {
    const x = l.x(t);
    const { label, context } = labels[i]!;
    parts.push(el('line', { x1: x, x2: x, y1: y, y2: y + TICK, stroke: AXIS_COLOR }));
    parts.push(text({ x, y: y + TICK + 12, 'text-anchor': 'middle' }, label));
    if (context !== undefined) parts.push(text({ class: 'tick-context', x, y: y + TICK + 25, 'text-anchor': 'middle', 'font-weight': 'bold' }, context));
  });
  parts.push(text({ class: 'axis-title', x: (l.plot.left + l.plot.right) / 2, y: y + 46, 'text-anchor': 'middle' },
    CHART_STRINGS[lang].timeAxis));
  return el('g', { class: 'axis axis-x', fill: AXIS_COLOR }, parts.join(''));
}

function valueFormat(a: YAxis, ticks: readonly number[], lang: Language): (n: number) => string {
  const [d0, d1] = a.scale.domain() as [number, number];
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : Math.abs(d1 - d0) / 5 || 1;
  return numberLocale(lang).format(`,.${precisionFixed(step)}f`);
}

/** A y axis; with several axes, one holding a single series is drawn in that series' colour. */
export function renderYAxis(a: YAxis, index: number, l: Layout, lang: Language): string {
  const ticks = yTicks(a, l);
  const fmt = valueFormat(a, ticks, lang);
  const dir = a.side === 'left' ? -1 : 1;
  const color = a.color ?? AXIS_COLOR;
  const parts = [el('line', { x1: a.x, x2: a.x, y1: l.plot.top, y2: l.plot.bottom, stroke: color, 'stroke-width': a.color ? 2 : undefined })];
  for (const v of ticks) {
    const y = a.scale(v);
    parts.push(el('line', { x1: a.x, x2: a.x + dir * TICK, y1: y, y2: y, stroke: color }));
    parts.push(text({ x: a.x + dir * (TICK + 3), y: y + 4, 'text-anchor': dir < 0 ? 'end' : 'start' }, fmt(v)));
  }
  const tx = a.x + dir * 52;
  const ty = (l.plot.top + l.plot.bottom) / 2;
  parts.push(text({
    class: 'axis-title', x: tx, y: ty, 'text-anchor': 'middle',
    transform: `rotate(${dir < 0 ? -90 : 90} ${num(tx)} ${num(ty)})`,
  }, a.label));
  return el('g', { class: `axis axis-y axis-y-${index}`, fill: color }, parts.join(''));
}
