/**
 * The JSON representations of the resources (spec "Resources and their fields", shapes as in 52°North's
 * v1 examples). Three views: `list` (a collection member), `expanded` (a member with `expanded=true`) and
 * `item` (the resource at its own path). For every collection but stations and timeseries `expanded` is
 * `item`. Labels come in the requested locale.
 *
 * Choices the spec leaves open (docs/timeseries-api-notes.md):
 * - a station is `{type, properties, geometry}`; with a `crs` other than CRS84 its coordinates are in that
 *   CRS's axis order (EPSG:4326: [lat, lon]), as 52°North transforms output geometries;
 * - `lastValue`/`firstValue` are the series' last/first non-null values, left out for a series without any;
 *   a reference value's `lastValue` is its latest change point;
 * - a timeseries at its own path always carries `firstValue`, `lastValue` and `referenceValues` (the
 *   `refValues` items under 52°North's later name) beside the seed's `refValues`, as real clients read them
 *   (DECISIONS.md "Real clients"); list and expanded members do not, as in 52°North's examples;
 * - `status_intervals=true` adds `firstValue`, `lastValue`, `referenceValues` and `statusIntervals` (to
 *   members too); `rendering_hints=true` adds `renderingHints`; `force_latest_values=true` adds `lastValue`
 *   to list members.
 */
import type { Catalogue, CollectionName, Labelled, MemberRec, ValueAt } from './catalogue.ts';
import { fromLonLat, type Crs } from './geo/crs.ts';
import { labelIn, type Locale } from './locale.ts';
import { renderingHintsOf, statusIntervalsOf } from './extras.ts';

export type View = 'list' | 'expanded' | 'item';

export interface ViewOptions {
  locale: Locale;
  /** Output CRS of station geometries; undefined or CRS84: longitude, latitude as stored. */
  crs?: Crs | undefined;
  statusIntervals?: boolean;
  renderingHints?: boolean;
  /** List members of timeseries get `lastValue`. */
  lastValue?: boolean;
}

type Json = Record<string, unknown>;

const idLabel = (r: Labelled, locale: Locale) => ({ id: r.id, label: labelIn(r, locale) });

function geometry(cat: Catalogue, i: number, crs: Crs | undefined): Json {
  const s = cat.stations[i]!;
  const coordinates = crs === undefined || crs.code === 'CRS84' ? [s.lon, s.lat] : fromLonLat(crs, s.lon, s.lat);
  return { type: 'Point', coordinates };
}

function stationView(cat: Catalogue, i: number, view: View, o: ViewOptions): Json {
  const s = cat.stations[i]!;
  const properties: Json = idLabel(s, o.locale);
  if (view !== 'list') {
    const timeseries: Json = {};
    for (const k of cat.seriesOfStation[i]!) {
      const t = cat.timeseries[k]!;
      timeseries[t.id] = {
        phenomenon: idLabel(cat.phenomena[t.phenomenon]!, o.locale),
        service: idLabel(cat.services[t.service]!, o.locale),
        feature: idLabel(cat.features[t.feature]!, o.locale),
        offering: idLabel(cat.offerings[t.offering]!, o.locale),
        procedure: idLabel(cat.procedures[t.procedure]!, o.locale),
      };
    }
    properties['timeseries'] = timeseries;
  }
  return { type: 'Feature', properties, geometry: geometry(cat, i, o.crs) };
}

/** The station Feature of the simple view, as timeseries embed it (always CRS84). */
export function stationFeature(cat: Catalogue, i: number, locale: Locale): Json {
  return stationView(cat, i, 'list', { locale });
}

function parameters(cat: Catalogue, k: number, locale: Locale): Json {
  const t = cat.timeseries[k]!;
  const srv = cat.services[t.service]!;
  return {
    service: { id: srv.id, serviceUrl: srv.serviceUrl },
    offering: idLabel(cat.offerings[t.offering]!, locale),
    feature: idLabel(cat.features[t.feature]!, locale),
    procedure: idLabel(cat.procedures[t.procedure]!, locale),
    phenomenon: idLabel(cat.phenomena[t.phenomenon]!, locale),
    category: idLabel(cat.categories[t.category]!, locale),
  };
}

function refValueItems(cat: Catalogue, k: number, locale: Locale): Json[] {
  return cat.timeseries[k]!.refs.map((r) => {
    const rv = cat.refValues[r]!;
    const n = rv.steps.t.length;
    const lastValue: ValueAt | undefined = n > 0 ? { timestamp: rv.steps.t[n - 1]!, value: rv.steps.v[n - 1]! } : undefined;
    return { referenceValueId: rv.id, label: labelIn(rv, locale), ...(lastValue ? { lastValue } : {}) };
  });
}

function seriesView(cat: Catalogue, k: number, view: View, o: ViewOptions): Json {
  const t = cat.timeseries[k]!;
  const out: Json = idLabel(t, o.locale);
  if (view === 'item') out['uom'] = t.uom;
  out['station'] = stationFeature(cat, t.station, o.locale);
  const values = view === 'item' || o.statusIntervals;
  if (values && t.first) out['firstValue'] = t.first;
  if ((values || o.lastValue) && t.last) out['lastValue'] = t.last;
  if (view !== 'list') out['parameters'] = parameters(cat, k, o.locale);
  if (view === 'item') out['refValues'] = refValueItems(cat, k, o.locale);
  if (values) out['referenceValues'] = refValueItems(cat, k, o.locale);
  if (o.statusIntervals) out['statusIntervals'] = statusIntervalsOf(cat, t);
  if (o.renderingHints) {
    const hints = renderingHintsOf(cat, t);
    if (hints) out['renderingHints'] = hints;
  }
  return out;
}

function serviceRef(cat: Catalogue, r: MemberRec, locale: Locale): Json {
  const srv = cat.services[r.service]!;
  return { id: `../services/${srv.id}`, label: labelIn(srv, locale) };
}

/** The representation of member `i` of a collection in a view. */
export function memberView(cat: Catalogue, name: CollectionName, i: number, view: View, o: ViewOptions): Json {
  switch (name) {
    case 'stations':
      return stationView(cat, i, view, o);
    case 'timeseries':
      return seriesView(cat, i, view, o);
    case 'services': {
      const s = cat.services[i]!;
      if (view === 'list') return idLabel(s, o.locale);
      return { ...idLabel(s, o.locale), serviceUrl: s.serviceUrl, version: s.version, type: s.type, supportsFirstLatest: s.supportsFirstLatest, quantities: { ...s.quantities } };
    }
    case 'offerings': {
      const r = cat.offerings[i]!;
      if (view === 'list') return idLabel(r, o.locale);
      return { ...idLabel(r, o.locale), service: `../services/${cat.services[r.service]!.id}` };
    }
    default: {
      const r = cat[name][i]!;
      if (view === 'list') return idLabel(r, o.locale);
      return { ...idLabel(r, o.locale), service: serviceRef(cat, r, o.locale) };
    }
  }
}
