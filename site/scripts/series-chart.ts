/**
 * The interactive chart of a series page (site/components/TimeseriesChart.astro): the chart module of the PNGs
 * and PDFs (core/charts/, `renderChart`) draws the SVG in the browser at the width of its container, again on
 * every resize; a range picker (day, week, month, year, custom: site/lib/series-range.ts) chooses the timespan,
 * kept in the address, and points the PNG, PDF, CSV and JSON links at it; a crosshair reads the time and value
 * under the pointer, or by keyboard on the focused chart (arrow keys one value, Page Up/Down a tenth of the
 * span, Home/End, Escape hides it), into a polite live region.
 *
 * Data: the week (the default) from the tree's getData file, its reference values as steps the page carries;
 * other ranges from the endpoint (`getData.json?timespan=…&expanded=true`, same origin; LTTB-generalized beyond
 * 40 days). Without this script the page keeps the week's chart drawn at build time.
 */
import { renderChart, type ChartGeometry, type ChartReferenceValue } from '../../core/charts/index.ts';
import { gapLimit } from '../../core/charts/gaps.ts';
import { columnPoints } from '../../core/timeseries/chart-points.ts';
import { chartRefs, gapMarked, parseGetData, seriesChartSpec, typedPoints, type SeriesChartConfig, type Steps, type TimeValue } from '../lib/series-chart-spec.ts';
import { isoDay, rangeLinks, rangeOnLoad, rangeSpan, rangeTitle, readRange, writeRange, type RangeChoice, type Span } from '../lib/series-range.ts';

interface PageConfig {
  chart: SeriesChartConfig;
  /** The typeset unit (m³/s). */
  unit: string;
  takenAt: number;
  /** `/api/v1/timeseries/<id>` */
  api: string;
  /** The tree's getData file of the week, if any. */
  weekData?: string;
  /** The week's reference values as steps, by id. */
  weekRefs: { id: string; label: string; color?: string; t: number[]; v: number[] }[];
}

interface Drawn {
  span: Span;
  /** Raw values (no nulls), for the crosshair. */
  raw: Steps;
  /** The points drawn (gaps marked). */
  points: Steps;
  refs: ChartReferenceValue[];
  generalized: boolean;
  /** Beyond this distance from the nearest value there is no value (the gap rule). */
  gap: number;
}

const root = document.querySelector<HTMLElement>('[data-series-chart]');
if (root) init(root);

function fmtTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

function fmtValue(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** Index of the value nearest to `t` (times ascending), or -1. */
function nearest(t: Float64Array, at: number): number {
  if (t.length === 0) return -1;
  let lo = 0;
  let hi = t.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && at - t[lo - 1]! <= t[lo]! - at ? lo - 1 : lo;
}

function init(root: HTMLElement): void {
  // the page's data in an attribute: the site's pages carry no inline script, not even a JSON one
  const config = JSON.parse(root.dataset['seriesChart'] ?? '{}') as PageConfig;
  const wrap = root.querySelector<HTMLElement>('.ts-chart-wrap')!;
  const readout = root.querySelector<HTMLElement>('.ts-readout')!;
  const status = root.querySelector<HTMLElement>('.ts-status')!;
  const summary = root.querySelector<HTMLElement>('.ts-summary')!;
  const form = root.querySelector<HTMLFormElement>('form.ts-range')!;
  const custom = form.querySelector<HTMLElement>('.ts-custom')!;
  const heading = document.getElementById('chart');
  const links = root.querySelectorAll<HTMLAnchorElement>('[data-range-link]');
  const unit = config.unit;
  const c = config.chart;

  let drawn: Drawn | undefined;
  let geometry: ChartGeometry | undefined;
  let cursor = -1;
  let renderedWidth = 0;
  let request = 0;

  root.classList.add('ts-live');
  form.hidden = false;
  wrap.setAttribute('role', 'group');
  wrap.setAttribute('aria-roledescription', 'chart');
  wrap.setAttribute('aria-label', `Chart of ${c.name}. Arrow keys move the crosshair from value to value; Page Up and Page Down by a tenth of the span; Home and End; Escape hides it.`);
  wrap.setAttribute('aria-describedby', readout.id);

  function render(): void {
    const width = Math.floor(wrap.clientWidth);
    if (!drawn || width < 50) return;
    renderedWidth = width;
    const height = Math.round(Math.min(450, Math.max(300, width * 0.56)));
    const { span } = drawn;
    const bar = c.style?.chartType === 'bar';
    const points = bar ? drawn.points : (columnPoints(drawn.points, span.start, span.end, width) as Steps);
    const { svg, geometry: g } = renderChart(seriesChartSpec(c, points, drawn.refs, span, { width, height }));
    geometry = g;
    wrap.innerHTML = svg.replace(/^<svg /, `<svg class="ts-chart ts-chart-live" data-series-count="${1 + drawn.refs.length}" data-start="${span.start}" data-end="${span.end}" `);
    if (cursor >= 0) showCursor(cursor, false);
  }

  function summarise(d: Drawn, choice: RangeChoice): void {
    const v = d.raw.v;
    let min = Infinity;
    let max = -Infinity;
    for (const x of v) {
      if (x < min) min = x;
      if (x > max) max = x;
    }
    const n = v.length;
    const range = `from ${fmtTime(d.span.start)} to ${fmtTime(d.span.end)}`;
    const last = n > 0 ? `, last ${fmtValue(v[n - 1]!)} ${unit} at ${fmtTime(d.raw.t[n - 1]!)}` : '';
    summary.textContent = n === 0
      ? `No values ${range}.`
      : `${rangeTitle(choice)}: ${n} ${d.generalized ? 'points (generalized with LTTB)' : 'values'} ${range}: lowest ${fmtValue(min)} ${unit}, highest ${fmtValue(max)} ${unit}${last}.` +
        (d.refs.length > 0 ? ` Dash-dot, labelled at the right: ${d.refs.length === 1 ? 'the reference value' : `${d.refs.length} reference values`}; a level beyond the axis is marked at its edge.` : '');
  }

  function statusName(v: number): string | undefined {
    for (const i of c.statusIntervals) {
      const lo = Number(i.lower);
      const hi = i.upper === undefined ? Infinity : Number(i.upper);
      if ((Number.isNaN(lo) || v >= lo) && (Number.isNaN(hi) || v < hi)) return i.name;
    }
    return undefined;
  }

  function clearCursor(): void {
    cursor = -1;
    wrap.querySelector('.ts-crosshair')?.remove();
    readout.textContent = 'Point at the chart, or focus it and use the arrow keys, to read a value.';
  }

  /** The crosshair at value i (snapped to it), and its words in the readout. */
  function showCursor(i: number, announce = true): void {
    if (!drawn || !geometry || i < 0 || i >= drawn.raw.t.length) return;
    cursor = i;
    const svg = wrap.querySelector('svg');
    if (!svg) return;
    const { plot, timespan, axes } = geometry;
    const t = drawn.raw.t[i]!;
    const v = drawn.raw.v[i]!;
    const x = plot.left + ((t - timespan.start) / (timespan.end - timespan.start)) * (plot.right - plot.left);
    const [d0, d1] = axes[0]!.domain;
    const y = plot.bottom - ((v - d0) / (d1 - d0)) * (plot.bottom - plot.top);
    const ns = 'http://www.w3.org/2000/svg';
    svg.querySelector('.ts-crosshair')?.remove();
    const g = document.createElementNS(ns, 'g');
    g.setAttribute('class', 'ts-crosshair');
    g.setAttribute('pointer-events', 'none');
    const line = document.createElementNS(ns, 'line');
    for (const [k, val] of [['x1', x], ['x2', x], ['y1', plot.top], ['y2', plot.bottom]] as const) line.setAttribute(k, String(val));
    line.setAttribute('stroke', '#222222');
    line.setAttribute('stroke-width', '1');
    g.append(line);
    if (y >= plot.top - 0.5 && y <= plot.bottom + 0.5) {
      const dot = document.createElementNS(ns, 'circle');
      dot.setAttribute('cx', String(x));
      dot.setAttribute('cy', String(y));
      dot.setAttribute('r', '4.5');
      dot.setAttribute('fill', geometry.series[0]?.color ?? '#222222');
      dot.setAttribute('stroke', '#ffffff');
      dot.setAttribute('stroke-width', '2');
      g.append(dot);
    }
    svg.append(g);
    if (announce) {
      const st = statusName(v);
      const text = `${fmtTime(t)}: ${c.phenomenon} ${fmtValue(v)} ${unit}${st ? ` (${st})` : ''}`;
      if (readout.textContent !== text) readout.textContent = text;
      readout.dataset['t'] = String(t);
      readout.dataset['v'] = String(v);
    }
  }

  function pointerAt(clientX: number): void {
    if (!drawn || !geometry) return;
    const svg = wrap.querySelector('svg');
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    const px = ((clientX - box.left) / box.width) * geometry.width;
    const { plot, timespan } = geometry;
    if (px < plot.left || px > plot.right) return;
    const at = timespan.start + ((px - plot.left) / (plot.right - plot.left)) * (timespan.end - timespan.start);
    const i = nearest(drawn.raw.t, at);
    if (i < 0 || Math.abs(drawn.raw.t[i]! - at) > drawn.gap / 2) {
      wrap.querySelector('.ts-crosshair')?.remove();
      cursor = -1;
      readout.textContent = `${fmtTime(at)}: no value (a gap in the data)`;
      return;
    }
    showCursor(i);
  }

  wrap.addEventListener('pointermove', (e) => pointerAt(e.clientX));
  wrap.addEventListener('pointerdown', (e) => pointerAt(e.clientX));
  wrap.addEventListener('pointerleave', () => {
    if (document.activeElement !== wrap) clearCursor();
  });
  wrap.addEventListener('focus', () => {
    if (drawn && cursor < 0) showCursor(drawn.raw.t.length - 1);
  });
  wrap.addEventListener('keydown', (e) => {
    if (!drawn) return;
    const n = drawn.raw.t.length;
    if (n === 0) return;
    const page = Math.max(1, Math.round(n / 10));
    const from = cursor < 0 ? n - 1 : cursor;
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowLeft': case 'ArrowDown': next = from - 1; break;
      case 'ArrowRight': case 'ArrowUp': next = from + 1; break;
      case 'PageDown': next = from - page; break;
      case 'PageUp': next = from + page; break;
      case 'Home': next = 0; break;
      case 'End': next = n - 1; break;
      case 'Escape':
        clearCursor();
        e.preventDefault();
        return;
      default: return;
    }
    e.preventDefault();
    showCursor(Math.max(0, Math.min(n - 1, next)));
  });

  new ResizeObserver(() => {
    if (Math.floor(wrap.clientWidth) !== renderedWidth) requestAnimationFrame(render);
  }).observe(wrap);

  function setLinks(span: Span): void {
    const l = rangeLinks(config.api, span);
    for (const a of Array.from(links)) {
      const kind = a.dataset['rangeLink'] as 'png' | 'pdf' | 'csv' | 'json';
      a.href = l[kind];
    }
  }

  /** Draws a choice; `notice` (a refused range in the address) stays in the status line once it is drawn. */
  async function load(choice: RangeChoice, notice?: string): Promise<void> {
    const got = rangeSpan(choice, config.takenAt);
    if ('problem' in got) {
      status.textContent = got.problem;
      return;
    }
    const span = got;
    if (heading) heading.textContent = rangeTitle(choice);
    setLinks(span);
    const my = ++request;
    status.textContent = 'Loading…';
    root.setAttribute('aria-busy', 'true');
    try {
      const week = choice.key === 'week' && config.weekData !== undefined;
      const link = rangeLinks(config.api, span);
      const res = await fetch(week ? config.weekData! : link.data, { headers: { Accept: 'application/json' } });
      const body = (await res.json()) as unknown;
      if (my !== request) return;
      if (!res.ok) {
        const msg = (body as { userMessage?: string; reason?: string } | null)?.userMessage ?? (body as { reason?: string } | null)?.reason ?? res.statusText;
        throw new Error(`the endpoint answered ${res.status}: ${msg}`);
      }
      const data = parseGetData(body, c.id);
      if (!data) throw new Error('the answer holds no values');
      const values = data.values.filter((p): p is TimeValue & { value: number } => p.value !== null && Number.isFinite(p.value));
      const raw = typedPoints(values);
      let refs: ChartReferenceValue[];
      if (week) {
        refs = config.weekRefs.map((r) => ({ id: r.id, label: r.label, points: { t: Float64Array.from(r.t), v: Float64Array.from(r.v) }, ...(r.color ? { color: r.color } : {}) }));
      } else {
        refs = chartRefs(c, data, span).refs;
      }
      const gap = gapLimit(raw, { noDataGapThreshold: c.noDataGapThreshold, bucketSize: 1 }) ?? Infinity;
      drawn = { span, raw, points: gapMarked(data.values, c.noDataGapThreshold), refs, generalized: !week && link.generalized, gap };
      cursor = -1;
      render();
      summarise(drawn, choice);
      clearCursor();
      status.textContent = notice ?? '';
      root.dataset['range'] = choice.key;
      if (notice !== undefined) root.dataset['refused'] = 'true';
      else delete root.dataset['refused'];
      root.dataset['points'] = String(raw.t.length);
    } catch (e) {
      if (my !== request) return;
      drawn = undefined;
      wrap.innerHTML = '';
      summary.textContent = '';
      status.textContent = `Could not load the data: ${(e as Error).message}.`;
    } finally {
      if (my === request) root.removeAttribute('aria-busy');
    }
  }

  function choiceFromForm(): RangeChoice {
    const data = new FormData(form);
    const key = String(data.get('range') ?? 'week') as RangeChoice['key'];
    return key === 'custom' ? { key, from: String(data.get('from') ?? ''), to: String(data.get('to') ?? '') } : { key };
  }

  function showForm(choice: RangeChoice): void {
    for (const r of Array.from(form.querySelectorAll<HTMLInputElement>('input[name="range"]'))) r.checked = r.value === choice.key;
    custom.hidden = choice.key !== 'custom';
    const from = form.querySelector<HTMLInputElement>('input[name="from"]')!;
    const to = form.querySelector<HTMLInputElement>('input[name="to"]')!;
    const span = rangeSpan(choice, config.takenAt);
    if (choice.key === 'custom') {
      from.value = choice.from ?? '';
      to.value = choice.to ?? '';
    } else if (!('problem' in span)) {
      // custom starts from the range shown
      from.value = isoDay(span.start);
      to.value = isoDay(span.end - 1);
    }
  }

  /**
   * A choice from the form (`push`): refused in words when it cannot be drawn, the address and the chart left as
   * they are; else kept in the address and drawn. A choice from the address (first load, back and forward): one
   * that cannot be drawn draws the week with a notice naming the refused range (rangeOnLoad), so the chart, its
   * crosshair, heading, summary and links all tell of the week.
   */
  function choose(choice: RangeChoice, push: boolean): void {
    showForm(choice);
    if (push) {
      const got = rangeSpan(choice, config.takenAt);
      if ('problem' in got) {
        status.textContent = got.problem;
        return;
      }
      history.pushState(null, '', `${location.pathname}${writeRange(choice, new URLSearchParams(location.search))}${location.hash}`);
      void load(choice);
      return;
    }
    const shown = rangeOnLoad(choice, config.takenAt);
    void load(shown.choice, shown.notice);
  }

  form.addEventListener('change', (e) => {
    const target = e.target as HTMLInputElement;
    if (target.name !== 'range') return;
    const choice = choiceFromForm();
    custom.hidden = choice.key !== 'custom';
    if (choice.key !== 'custom') choose(choice, true);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    choose(choiceFromForm(), true);
  });
  window.addEventListener('popstate', () => choose(readRange(new URLSearchParams(location.search)), false));

  choose(readRange(new URLSearchParams(location.search)), false);
}
