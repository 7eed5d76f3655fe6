/**
 * The timeseries family's document (`<build>/site-data/timeseries.json`): what the series, station and search
 * pages show that the static tree does not hold, computed here from the catalogue the endpoint loads and written
 * by the build (build-scripts/site-data.ts) before Astro runs; the site only reads it.
 * - `extras`: per series, what the endpoint adds to its metadata with `status_intervals=true&rendering_hints=true`
 *   (first value, status intervals, rendering hints), the style it draws the series with when a request names
 *   none, and the general configuration's `noDataGapThreshold` (core/timeseries/extras.ts, chart-document.ts);
 * - `labels`: every resource's label in every locale (the catalogue's `labels` table), for the site search.
 * Pure: the catalogue and the label rows come in as values.
 */
import type { ChartStyle } from '../snapshot/timeseries-config.ts';
import type { Catalogue } from '../timeseries/catalogue.ts';
import { defaultStyle } from '../timeseries/chart-document.ts';
import { renderingHintsOf, statusIntervalsOf, type RenderingHintsView, type StatusIntervalView } from '../timeseries/extras.ts';

export interface SeriesExtras {
  /** Absent when the series has no value. */
  firstValue?: { timestamp: number; value: number } | undefined;
  statusIntervals: StatusIntervalView[];
  renderingHints?: RenderingHintsView | undefined;
  /** The style the endpoint draws the series with when a request names none (its rendering hints). */
  style?: ChartStyle | undefined;
  /** The general configuration's `noDataGapThreshold`: where chart lines break (core/charts/gaps.ts). */
  noDataGapThreshold?: number | undefined;
}

export interface TimeseriesData {
  /** Per series id, in the catalogue's order. */
  extras: [string, SeriesExtras][];
  /** Per resource id (sorted), its label per locale (sorted). */
  labels: [string, [string, string][]][];
}

/** The extras of every series of the catalogue. */
export function seriesExtrasOf(cat: Catalogue): [string, SeriesExtras][] {
  return cat.timeseries.map((s) => [
    s.id,
    {
      firstValue: s.first,
      statusIntervals: statusIntervalsOf(cat, s),
      renderingHints: renderingHintsOf(cat, s),
      style: defaultStyle(cat, s),
      noDataGapThreshold: cat.config.noDataGapThreshold,
    },
  ]);
}

/** Label rows (`resource_id`, `locale`, `label`) grouped by resource id, ids and locales sorted (code unit order). */
export function localeLabels(rows: Iterable<{ resourceId: string; locale: string; label: string }>): [string, [string, string][]][] {
  const by = new Map<string, Map<string, string>>();
  for (const r of rows) {
    let m = by.get(r.resourceId);
    if (!m) by.set(r.resourceId, (m = new Map()));
    m.set(r.locale, r.label);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...by].sort((a, b) => cmp(a[0], b[0])).map(([id, m]) => [id, [...m].sort((a, b) => cmp(a[0], b[0]))]);
}

/** The whole document. */
export function timeseriesData(cat: Catalogue | undefined, labelRows: Iterable<{ resourceId: string; locale: string; label: string }>): TimeseriesData {
  return { extras: cat ? seriesExtrasOf(cat) : [], labels: localeLabels(labelRows) };
}
