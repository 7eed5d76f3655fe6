/**
 * From a chart request to the document Chromium renders: the data of each series in the timespan (generalized
 * when asked), its style, its reference values, labels in the requested locale, then `renderChartSvg` and, for
 * a PDF, the report page. Pure apart from the `SeriesSource` it is handed.
 *
 * - Series name `"<feature> (<phenomenon> [<uom>])"`; y axis per unit `"<phenomenon> [<uom>]"` (DECISIONS.md); in every
 *   chart text the unit is typeset (`m3/s` → `m³/s`, core/units.ts), the JSON keeps the catalogue's `uom`.
 * - What is drawn is cut to the chart's pixel columns (a bar series to its bucket sums), and a report's value
 *   tables to REPORT_MAX_VALUES values in all (chart-points.ts); a line's gaps are marked first, so they stay gaps.
 * - A colour from rendering hints (no style in the request) is `colorHinted`: it gives way to a distinct
 *   palette colour where it collides with another series' colour (core/charts/colors.ts).
 * - Reference values drawn: those the series' style names in `referenceValueStyleProperties`, and every one
 *   of the series with `expanded=true`; in the colour the request's style gives, else the colour of the
 *   series' status interval the level (at the timespan's end) lies in, else the rendering hints' colour,
 *   else the chart's grey (core/charts/references.ts).
 *   Each is drawn as the value in force at the timespan's start, then its changes inside the timespan.
 */
import { resolveStyle } from '../charts/spec.ts';
import { renderChartSvg, type ChartReferenceValue, type ChartSeries, type ChartSpec } from '../charts/index.ts';
import { gapLimit, lttbBucketSize, markGaps } from '../charts/gaps.ts';
import { statusColor } from '../charts/references.ts';
import { typesetUnit } from '../units.ts';

export { statusColor };
import { chartPageHtml, type ChartDocument } from '../charts/page.ts';
import { renderReportHtml, reportChartHeight, type ReportSeries } from '../charts/report.ts';
import type { ChartStyle } from '../snapshot/timeseries-config.ts';
import type { Catalogue, RefValueRec, SeriesRec } from './catalogue.ts';
import type { ChartRequest } from './chart-request.ts';
import type { SeriesSource } from './data.ts';
import type { Points } from './data-body.ts';
import { bucketPoints, columnPoints, reportValuesPerSeries } from './chart-points.ts';
import { statusIntervalsOf } from './extras.ts';
import { generalize } from './generalize.ts';
import { labelIn, type Locale } from './locale.ts';
import type { Timespan } from './timespan.ts';

/** A series' name in charts: `"<feature> (<phenomenon> [<uom>])"` (DECISIONS.md), the unit typeset (core/units.ts). */
export function seriesLabel(feature: string, phenomenon: string, uom: string): string {
  return `${feature} (${phenomenon} [${typesetUnit(uom)}])`;
}

export function seriesName(cat: Catalogue, s: SeriesRec, locale: Locale): string {
  return seriesLabel(labelIn(cat.features[s.feature]!, locale), labelIn(cat.phenomena[s.phenomenon]!, locale), s.uom);
}

/** The style a series is drawn with when the request gives none: its rendering hints, if configured. */
export function defaultStyle(cat: Catalogue, s: SeriesRec): ChartStyle | undefined {
  const hints = cat.config.renderingHints;
  return hints.timeseries[s.id] ?? hints.phenomenon[cat.phenomena[s.phenomenon]!.id];
}

/** A step function's value in force at `span.start`, then its change points inside the span. */
export function stepsInSpan(steps: RefValueRec['steps'], span: Timespan): Points {
  const t: number[] = [];
  const v: number[] = [];
  let before = -1;
  for (let i = 0; i < steps.t.length; i++) {
    const at = steps.t[i]!;
    if (at <= span.start) before = i;
    else if (at <= span.end) {
      t.push(at);
      v.push(steps.v[i]!);
    }
  }
  if (before >= 0) {
    t.unshift(span.start);
    v.unshift(steps.v[before]!);
  }
  return { t: Float64Array.from(t), v: Float64Array.from(v) };
}


/** The value in force at the end of the points (the last one), or NaN. */
function endValue(p: Points): number {
  return p.v.length > 0 ? p.v[p.v.length - 1]! : NaN;
}

/**
 * The reference values drawn. Colour: one the request's style gives is kept; else the colour of the status
 * interval the level lies in (the provider's own reading of the level); else the rendering hints' colour.
 */
function referenceValues(cat: Catalogue, s: SeriesRec, style: ChartStyle | undefined, requested: boolean, req: ChartRequest): ChartReferenceValue[] {
  const named = style?.referenceValueStyleProperties ?? {};
  const intervals = statusIntervalsOf(cat, s);
  const out: ChartReferenceValue[] = [];
  for (const r of s.refs) {
    const rv = cat.refValues[r]!;
    const own = named[rv.id];
    if (!own && !req.expanded) continue;
    const points = stepsInSpan(rv.steps, req.span);
    const ownColor = own?.properties.color;
    const color = (requested ? ownColor : undefined) ?? statusColor(intervals, endValue(points)) ?? ownColor;
    out.push({ id: rv.id, label: labelIn(rv, req.locale), points, ...(color ? { color } : {}) });
  }
  return out;
}

interface Drawn {
  rec: SeriesRec;
  chart: ChartSeries;
  /** A report's values: the first of the timespan's (generalized when asked), and how many there are. */
  values: Points;
  total: number;
}

/** The CSV download of all a series' values in a report's timespan (named under a cut values table). */
export function allValuesHref(id: string, span: Timespan): string {
  return `/api/v1/timeseries/${encodeURIComponent(id)}/getData.csv?timespan=${new Date(span.start).toISOString()}/${new Date(span.end).toISOString()}`;
}

/**
 * The points a chart draws: long steps between raw values marked as gaps (core/charts/gaps.ts, with the
 * configured `noDataGapThreshold`), then generalized when asked, so generalized lines break where raw ones do.
 */
export function chartPoints(raw: Points, generalizeWith: ChartRequest['generalize'], noDataGapThreshold: number | undefined): Points {
  const bucketSize = generalizeWith?.algorithm === 'lttb' ? lttbBucketSize(raw.t.length, generalizeWith.threshold) : 1;
  const marked = markGaps(raw, gapLimit(raw, { noDataGapThreshold, bucketSize }));
  return generalizeWith ? generalize(marked, generalizeWith) : marked;
}

/**
 * Each series read, then cut to what is drawn (chart-points.ts): a line's gaps marked and generalized when asked
 * before it is cut to the pixel columns, a bar series summed by bucket; for a report, its first values
 * (generalized when asked). One series at a time, so no more than one series' raw points is held at once.
 */
async function drawnSeries(cat: Catalogue, source: SeriesSource, req: ChartRequest): Promise<Drawn[]> {
  const out: Drawn[] = [];
  const tableRows = reportValuesPerSeries(req.series.length);
  for (const { k, style: asked } of req.series) {
    const s = cat.timeseries[k]!;
    const raw = await source.read(s, req.span);
    const style = asked ?? defaultStyle(cat, s);
    // the kind and interval only (a colour is chosen for the whole chart, core/charts/colors.ts)
    const look = resolveStyle(style as ChartSeries['style'], '');
    // bar sums and a report's values are of the generalized values, without gap marks
    const generalized = req.generalize && (look.kind === 'bar' || req.kind === 'pdf') ? generalize(raw, req.generalize) : raw;
    const drawn =
      look.kind === 'bar'
        ? bucketPoints(generalized, look.interval)
        : columnPoints(chartPoints(raw, req.generalize, cat.config.noDataGapThreshold), req.span.start, req.span.end, req.width);
    const total = generalized.t.length;
    const values = req.kind === 'pdf' ? { t: generalized.t.slice(0, tableRows), v: generalized.v.slice(0, tableRows) } : { t: new Float64Array(0), v: new Float64Array(0) };
    const chart: ChartSeries = {
      id: s.id,
      name: seriesName(cat, s, req.locale),
      phenomenon: labelIn(cat.phenomena[s.phenomenon]!, req.locale),
      uom: s.uom,
      points: drawn,
      gapsMarked: true,
      ...(asked === undefined && style?.properties?.color !== undefined ? { colorHinted: true } : {}),
      ...(style ? { style: { chartType: style.chartType, properties: style.properties } as ChartSeries['style'] } : {}),
      referenceValues: referenceValues(cat, s, style, asked !== undefined, req),
    };
    out.push({ rec: s, chart, values, total });
  }
  return out;
}

export function chartSpec(req: ChartRequest, series: ChartSeries[]): ChartSpec {
  return {
    width: req.width,
    height: req.height,
    grid: req.grid,
    legend: req.legend,
    language: req.language,
    fitReferenceValues: req.fitReferenceValues,
    ...(req.title !== undefined ? { heading: req.title } : {}),
    series,
    timespan: { start: req.span.start, end: req.span.end },
  };
}

/** The HTML page (and its size or paper) that Chromium turns into the requested PNG or PDF. */
export async function chartDocument(cat: Catalogue, source: SeriesSource, req: ChartRequest): Promise<ChartDocument> {
  const drawn = await drawnSeries(cat, source, req);
  const charts = drawn.map((d) => d.chart);
  if (req.kind === 'png') return { kind: 'png', html: chartPageHtml(renderChartSvg(chartSpec(req, charts))), width: req.width, height: req.height };
  const title = req.title ?? drawn.map((d) => d.chart.name).join('; ');
  // the report's chart fills its page: as wide as asked, as tall as the page leaves room for
  const svg = renderChartSvg({ ...chartSpec(req, charts), height: reportChartHeight(req.paper, req.width, title) });
  const series: ReportSeries[] = drawn.map(({ rec: s, chart, values, total }) => ({
    id: s.id,
    name: chart.name,
    station: labelIn(cat.stations[s.station]!, req.locale),
    phenomenon: chart.phenomenon,
    procedure: labelIn(cat.procedures[s.procedure]!, req.locale),
    uom: s.uom,
    first: s.first && { t: s.first.timestamp, v: s.first.value },
    last: s.last && { t: s.last.timestamp, v: s.last.value },
    values,
    ...(total > values.t.length ? { more: { total, href: allValuesHref(s.id, req.span) } } : {}),
    referenceValues: s.refs.map((r) => {
      const rv = cat.refValues[r]!;
      const value = endValue(stepsInSpan(rv.steps, req.span));
      const color = chart.referenceValues?.find((c) => c.id === rv.id)?.color ?? statusColor(statusIntervalsOf(cat, s), value);
      return { name: labelIn(rv, req.locale), value, ...(color !== undefined ? { color } : {}) };
    }),
    statusIntervals: statusIntervalsOf(cat, s),
  }));
  const html = renderReportHtml({ title, language: req.language, paper: req.paper, timespan: req.span, chartSvg: svg, series });
  return { kind: 'pdf', html, paper: req.paper };
}
