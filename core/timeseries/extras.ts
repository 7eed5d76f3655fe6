/**
 * Provider knowledge attached to timeseries metadata (52°North's status interval and rendering hint
 * extensions), from the snapshot's configuration files: configured per phenomenon or per timeseries, a
 * timeseries entry winning over its phenomenon's.
 *
 * - `statusIntervals`: `[{lower, upper?, name, color}]`, bounds as strings, in the order of the file; an
 *   empty array when nothing is configured for the series.
 * - `renderingHints`: `{chartType, properties}` and, when the style names any, `referenceValueStyleProperties`
 *   (by reference value id) next to `properties`, as the configuration file writes them; undefined (the
 *   field is left out) when nothing is configured. Widths are numbers, as in the style options.
 * - `GET /timeseries/{id}/extras` (52°North v1.10.8 "extras metadata"): an object of the extras the series
 *   has, `license` (the snapshot's license text), `statusIntervals`, `renderingHints`, in that order, each
 *   left out when the series has none (no license configured, no interval, no hint), so a series without
 *   any answers `{}`. `fields` (comma-separated names) keeps only those asked for.
 */
import type { ChartStyle, StatusInterval } from '../snapshot/timeseries-config.ts';
import type { Catalogue, SeriesRec } from './catalogue.ts';

export interface StatusIntervalView {
  lower: string;
  upper?: string;
  name: string;
  color: string;
}

export function statusIntervalsOf(cat: Catalogue, s: SeriesRec): StatusIntervalView[] {
  const cfg = cat.config.statusIntervals;
  const list: StatusInterval[] = cfg.timeseries[s.id] ?? cfg.phenomenon[cat.phenomena[s.phenomenon]!.id] ?? [];
  return list.map((i) => ({ lower: i.lower, ...(i.upper !== undefined ? { upper: i.upper } : {}), name: i.name, color: i.color }));
}

export interface RenderingHintsView {
  chartType: ChartStyle['chartType'];
  properties: ChartStyle['properties'];
  referenceValueStyleProperties?: ChartStyle['referenceValueStyleProperties'];
}

export function renderingHintsOf(cat: Catalogue, s: SeriesRec): RenderingHintsView | undefined {
  const cfg = cat.config.renderingHints;
  const style = cfg.timeseries[s.id] ?? cfg.phenomenon[cat.phenomena[s.phenomenon]!.id];
  if (!style) return undefined;
  const refs = style.referenceValueStyleProperties;
  return { chartType: style.chartType, properties: style.properties, ...(Object.keys(refs).length > 0 ? { referenceValueStyleProperties: refs } : {}) };
}

/** The extras 52°North's v1 API names, in the order the extras path writes them. */
export const EXTRAS_FIELDS = ['license', 'statusIntervals', 'renderingHints'] as const;
export type ExtrasField = (typeof EXTRAS_FIELDS)[number];

/** The body of `GET /timeseries/{id}/extras`: the extras of `fields` (all when undefined) the series has. */
export function extrasOf(cat: Catalogue, s: SeriesRec, fields: readonly ExtrasField[] | undefined): Record<string, unknown> {
  const wanted = (f: ExtrasField) => fields === undefined || fields.includes(f);
  const out: Record<string, unknown> = {};
  if (wanted('license') && cat.config.license !== undefined) out['license'] = cat.config.license;
  if (wanted('statusIntervals')) {
    const intervals = statusIntervalsOf(cat, s);
    if (intervals.length > 0) out['statusIntervals'] = intervals;
  }
  if (wanted('renderingHints')) {
    const hints = renderingHintsOf(cat, s);
    if (hints) out['renderingHints'] = hints;
  }
  return out;
}
