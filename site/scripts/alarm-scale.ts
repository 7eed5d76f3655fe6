/**
 * The alarms page's scale option: "shared" redraws the alarm charts (`.alarm-category[data-alarm]`) on the
 * largest count of them all instead of each its own; the address keeps the choice (`?scale=shared`), so a
 * shared view can be bookmarked. Without script every chart keeps its own scale (as built).
 */

/** The height of a bar of `count` on a chart whose top is `max`, as the chart was built (at least 1 px when not 0). */
export function barHeight(count: number, max: number, plotHeight: number): number {
  const h = (count / Math.max(max, 1)) * plotHeight;
  return count > 0 ? Math.max(Math.round(h * 10) / 10, 1) : 0;
}

function redraw(svg: SVGSVGElement, max: number): void {
  const top = Number(svg.dataset['plotTop']);
  const H = Number(svg.dataset['plotHeight']);
  svg.querySelectorAll('rect[data-count]').forEach((r) => {
    const h = barHeight(Number(r.getAttribute('data-count')), max, H);
    r.setAttribute('height', String(h));
    r.setAttribute('y', String(Math.round((top + H - h) * 10) / 10));
  });
  const label = svg.querySelector('.ymax');
  if (label) label.textContent = max.toLocaleString('en');
}

export function initAlarmScale(): void {
  const form = document.querySelector<HTMLFormElement>('#scale-form');
  const box = document.querySelector<HTMLInputElement>('#scale-shared');
  if (!form || !box) return;
  const charts: SVGSVGElement[] = [];
  document.querySelectorAll('.alarm-category[data-alarm] svg.radar-bars').forEach((s) => charts.push(s as SVGSVGElement));
  const own = charts.map((s) => Number(s.dataset['max']));
  const shared = Math.max(1, ...own);
  const apply = (on: boolean) => charts.forEach((s, i) => redraw(s, on ? shared : own[i]!));
  form.hidden = false;
  box.checked = new URLSearchParams(location.search).get('scale') === 'shared';
  apply(box.checked);
  box.addEventListener('change', () => {
    apply(box.checked);
    const url = new URL(location.href);
    if (box.checked) url.searchParams.set('scale', 'shared');
    else url.searchParams.delete('scale');
    history.replaceState(null, '', url);
  });
}
