/**
 * The stations family's document (`<build>/site-data/stations.json`): the timeseries and the stations of the
 * build for the browse pages (`/browse/stations/…`, `/browse/timeseries/…`, the station map, the site search),
 * and each series' and station's status, computed here from the static tree's collections (the expanded
 * timeseries and station collections, each series' metadata file, the services) and the series' status
 * intervals (the timeseries document's extras), and written by the build (build-scripts/site-data.ts); the site
 * only reads it. Pure: whether the tree holds a file is the caller's predicate.
 *
 * A series' status is the status interval its last value lies in, lower bound inclusive, upper exclusive
 * (core/charts/references.ts `statusColor`'s rule). A station's status is that of its most severe series.
 * Interval sets differ by phenomenon (water level "below warning level 1 … warning level 3", PM10 "good … very
 * poor"), so severity is a series' interval's place in its own set, ordered by lower bound: 0 for the lowest, 1
 * for the highest; ties go to the first series in the API's order. A series without intervals, or without a last
 * value in any of them, has no status.
 */
import { TIMESERIES_PREFIX } from '../timeseries/routes.ts';
import { staticFile } from '../timeseries/static-tree.ts';
import { treeHref, type TreeHas } from './links.ts';
import type { SeriesExtras } from './timeseries.ts';

export interface IdLabel {
  id: string;
  label: string;
}

export interface RefValueMeta {
  referenceValueId: string;
  label: string;
  lastValue?: { timestamp: number; value: number };
}

export interface SeriesMeta {
  id: string;
  label: string;
  uom: string;
  station: IdLabel & { lon: number | undefined; lat: number | undefined };
  service: { id: string; serviceUrl?: string; label?: string };
  offering: IdLabel;
  feature: IdLabel;
  procedure: IdLabel;
  phenomenon: IdLabel;
  category: IdLabel;
  lastValue: { timestamp: number; value: number } | undefined;
  refValues: RefValueMeta[];
}

export interface ListMember {
  id: string;
  label: string;
  station: { properties: IdLabel; geometry: { coordinates: number[] } | null };
  parameters: {
    service: { id: string; serviceUrl?: string };
    offering: IdLabel;
    feature: IdLabel;
    procedure: IdLabel;
    phenomenon: IdLabel;
    category: IdLabel;
  };
}

export interface Item {
  uom: string;
  lastValue?: { timestamp: number; value: number };
  refValues?: RefValueMeta[];
}

/** The folder of the browse page of a timeseries. */
export function seriesPage(id: string): string {
  return `/browse/timeseries/${encodeURIComponent(id)}/`;
}

/** A station's page (`/browse/stations/<id>/`). */
export function stationPage(id: string): string {
  return `/browse/stations/${encodeURIComponent(id)}/`;
}

export interface StationFeature {
  properties: {
    id: string;
    label: string;
    timeseries?: Record<string, { phenomenon?: { label?: string }; offering?: { label?: string }; service?: { id?: string; label?: string } }>;
  };
  geometry: { type: string; coordinates: number[] } | null;
}

export interface Series {
  id: string;
  label: string;
  /** Its browse page (`/browse/timeseries/<id>/`). */
  page: string;
  /** Its metadata file (`/api/v1/timeseries/<id>.json`). */
  href: string;
  /** Its data for the default timespan (`/api/v1/timeseries/<id>/getData.json`), when the tree holds it. */
  dataHref: string | undefined;
}

export interface Station {
  id: string;
  label: string;
  lon: number | undefined;
  lat: number | undefined;
  href: string;
  /** The service of its first timeseries (the map's marker kind). */
  service: { id: string; label: string } | undefined;
  series: Series[];
}

export interface SeriesStatus {
  name: string;
  color: string;
  /** 0 (the lowest interval of its set) to 1 (the highest). */
  severity: number;
}

/** The interval `v` lies in, with its severity; undefined when none holds it. */
export function statusOf(intervals: readonly { name: string; lower: string; upper?: string; color: string }[], v: number | undefined): SeriesStatus | undefined {
  if (v === undefined || !Number.isFinite(v)) return undefined;
  const sorted = [...intervals].sort((a, b) => Number(a.lower) - Number(b.lower));
  for (let k = 0; k < sorted.length; k++) {
    const i = sorted[k]!;
    const lo = Number(i.lower);
    const hi = i.upper === undefined ? Infinity : Number(i.upper);
    if ((Number.isNaN(lo) || v >= lo) && (Number.isNaN(hi) || v < hi)) return { name: i.name, color: i.color, severity: sorted.length > 1 ? k / (sorted.length - 1) : 0 };
  }
  return undefined;
}

/** The most severe of some statuses (the first of equals), or undefined. */
export function worstStatus(list: readonly (SeriesStatus | undefined)[]): SeriesStatus | undefined {
  let worst: SeriesStatus | undefined;
  for (const s of list) if (s && (!worst || s.severity > worst.severity)) worst = s;
  return worst;
}

export interface StationsData {
  /** Every timeseries, in the API's order (by label). */
  series: SeriesMeta[];
  /** Every station, in the API's order (by label). */
  stations: Station[];
  /** Each series' status by id (null: none), in the series' order. */
  seriesStatus: [string, SeriesStatus | null][];
  /** Each station's status by id (null: none), in order of the stations' first series. */
  stationStatus: [string, SeriesStatus | null][];
}

/** The timeseries: the expanded collection's members, each with its metadata file's unit, last value and reference values. */
export function seriesMetaOf(list: readonly ListMember[], itemOf: (id: string) => Item, services: readonly IdLabel[]): SeriesMeta[] {
  const serviceLabels = new Map(services.map((x) => [x.id, x.label]));
  return list.map((m) => {
    const item = itemOf(m.id);
    const c = m.station.geometry?.coordinates;
    return {
      id: m.id,
      label: m.label,
      uom: item.uom,
      station: { ...m.station.properties, lon: c?.[0], lat: c?.[1] },
      ...m.parameters,
      service: { ...m.parameters.service, ...(serviceLabels.has(m.parameters.service.id) ? { label: serviceLabels.get(m.parameters.service.id)! } : {}) },
      lastValue: item.lastValue,
      refValues: item.refValues ?? [],
    };
  });
}

/** The stations of the expanded station collection, each with its series and their files. */
export function stationsOf(features: readonly StationFeature[], has: TreeHas): Station[] {
  return features.map((f) => {
    const id = f.properties.id;
    const entries = Object.entries(f.properties.timeseries ?? {});
    const series = entries.map(([sid, s]) => {
      const base = `${TIMESERIES_PREFIX}/timeseries/${sid}`;
      const data = staticFile(`${base}/getData`, false);
      return {
        id: sid,
        label: s.phenomenon?.label ?? sid,
        page: seriesPage(sid),
        href: treeHref(staticFile(base, false)),
        dataHref: has(data) ? treeHref(data) : undefined,
      };
    });
    const srv = entries[0]?.[1].service;
    return {
      id,
      label: f.properties.label,
      lon: f.geometry?.coordinates[0],
      lat: f.geometry?.coordinates[1],
      href: treeHref(staticFile(`${TIMESERIES_PREFIX}/stations/${id}`, false)),
      service: srv?.id ? { id: srv.id, label: srv.label ?? srv.id } : undefined,
      series,
    };
  });
}

/** Each series' status, and each station's (its most severe series'), from the series' status intervals. */
export function statusesOf(series: readonly SeriesMeta[], extrasOf: (id: string) => SeriesExtras | undefined): Pick<StationsData, 'seriesStatus' | 'stationStatus'> {
  const bySeries = new Map(series.map((s) => [s.id, statusOf(extrasOf(s.id)?.statusIntervals ?? [], s.lastValue?.value)]));
  const byStation = new Map<string, SeriesStatus[]>();
  for (const s of series) {
    const st = bySeries.get(s.id);
    const list = byStation.get(s.station.id) ?? [];
    if (st) list.push(st);
    byStation.set(s.station.id, list);
  }
  return {
    seriesStatus: [...bySeries].map(([id, st]) => [id, st ?? null]),
    stationStatus: [...byStation].map(([id, list]) => [id, worstStatus(list) ?? null]),
  };
}
