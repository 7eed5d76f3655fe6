/**
 * The metadata of a timeseries snapshot, in memory: every resource of the collections, cross-referenced by
 * position, with its labels in every locale. Built once (at endpoint start, and once by the build) from the
 * rows of the timeseries database; every metadata answer is computed from it. Observations are never here:
 * they stay in DuckDB (see lib/timeseries-store.ts).
 *
 * Pure: `makeCatalogue` takes plain rows (as the database returns them) and the parsed configuration.
 */
import type { TimeseriesConfig } from '../snapshot/timeseries-config.ts';
import { StationIndex } from './geo/station-index.ts';
import { normaliseLocale } from './locale.ts';

export const COLLECTIONS = ['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries'] as const;
export type CollectionName = (typeof COLLECTIONS)[number];
/**
 * The singular of each collection: what one member is (the site search's entry types), and, but for `timeseries`,
 * the field of a timeseries that points into the collection (the filter of the same name).
 */
export const SINGULAR = {
  services: 'service',
  categories: 'category',
  offerings: 'offering',
  features: 'feature',
  procedures: 'procedure',
  phenomena: 'phenomenon',
  stations: 'station',
  timeseries: 'timeseries',
} as const satisfies Record<CollectionName, string>;

/** A resource with a default (English) label and, by locale, its other labels. */
export interface Labelled {
  id: string;
  label: string;
  /** Labels by locale (`de`, `de_AT`, `en`, ...), from the snapshot's `labels` table. */
  labels: ReadonlyMap<string, string> | undefined;
}

/** The collections a service's `quantities` count: every one but services, in alphabetical order as 52°North writes them. */
export const QUANTITIES = ['categories', 'features', 'offerings', 'phenomena', 'procedures', 'stations', 'timeseries'] as const;
/** A service's `quantities`: how many members of each collection name it. */
export type Quantities = Record<(typeof QUANTITIES)[number], number>;

export interface ServiceRec extends Labelled {
  serviceUrl: string;
  version: string;
  type: string;
  supportsFirstLatest: boolean;
  /** Counts of the service's members in every collection (`quantities`), keys in alphabetical order as 52°North writes them. */
  quantities: Quantities;
}

/** A category, offering, feature, procedure or phenomenon: a label and its service (an index into services). */
export interface MemberRec extends Labelled {
  service: number;
}

export interface StationRec extends MemberRec {
  /** WGS84 degrees. */
  lon: number;
  lat: number;
}

/** A value at an instant, ms since the epoch. */
export interface ValueAt {
  timestamp: number;
  value: number;
}

export interface SeriesRec extends MemberRec {
  /** The series' integer key in the database's observations table. */
  sid: number;
  category: number;
  offering: number;
  feature: number;
  procedure: number;
  phenomenon: number;
  station: number;
  uom: string;
  /** First and last non-null value; undefined for a series without any. */
  first: ValueAt | undefined;
  last: ValueAt | undefined;
  /** Indices into refValues, by id. */
  refs: number[];
}

export interface RefValueRec extends Labelled {
  series: number;
  /** Change points, by time: a value holds from its timestamp until the next one. */
  steps: { t: Float64Array; v: Float64Array };
}

export interface Catalogue {
  /** The snapshot's `taken_at`, ms: every "now". */
  takenAt: number;
  config: TimeseriesConfig;
  services: ServiceRec[];
  categories: MemberRec[];
  offerings: MemberRec[];
  features: MemberRec[];
  procedures: MemberRec[];
  phenomena: MemberRec[];
  stations: StationRec[];
  timeseries: SeriesRec[];
  refValues: RefValueRec[];
  /** The locales labels are given in (normalised: `de`, `de_AT`), for `Accept-Language`. */
  locales: ReadonlySet<string>;
  /** Position of every id, per collection. */
  ids: Record<CollectionName, ReadonlyMap<string, number>>;
  /** Timeseries indices per station, ascending (by id). */
  seriesOfStation: number[][];
  stationIndex: StationIndex;
}

export function records(cat: Catalogue, name: CollectionName): readonly Labelled[] {
  return cat[name];
}

/** The position of `id` in a collection, or undefined. */
export function find(cat: Catalogue, name: CollectionName, id: string): number | undefined {
  return cat.ids[name].get(id);
}

// ---------- from rows ----------

type Row = Record<string, unknown>;

export interface CatalogueRows {
  services: Row[];
  categories: Row[];
  offerings: Row[];
  features: Row[];
  procedures: Row[];
  phenomena: Row[];
  stations: Row[];
  /** With sid, first_timestamp, first_value, last_timestamp, last_value (null when the series has no value). */
  timeseries: Row[];
  reference_values: Row[];
  /** reference_value_id, timestamp, value; ordered by both. */
  reference_value_observations: Row[];
  /** resource_id, locale, label. */
  labels: Row[];
}

const str = (r: Row, k: string): string => String(r[k]);
const num = (r: Row, k: string): number => Number(r[k]);

function idMap(rows: readonly { id: string }[]): Map<string, number> {
  return new Map(rows.map((r, i) => [r.id, i]));
}

function ref(map: ReadonlyMap<string, number>, id: unknown, what: string): number {
  const i = map.get(String(id));
  if (i === undefined) throw new Error(`timeseries database: unknown ${what} '${String(id)}'`);
  return i;
}

function valueAt(r: Row, prefix: 'first' | 'last'): ValueAt | undefined {
  const t = r[`${prefix}_timestamp`];
  const v = r[`${prefix}_value`];
  return t === null || t === undefined || v === null || v === undefined ? undefined : { timestamp: Number(t), value: Number(v) };
}

/** Builds the catalogue; rows of each resource table must come ordered by id. */
export function makeCatalogue(rows: CatalogueRows, config: TimeseriesConfig, takenAt: number): Catalogue {
  const labelsById = new Map<string, Map<string, string>>();
  for (const r of rows.labels) {
    const id = str(r, 'resource_id');
    let m = labelsById.get(id);
    if (!m) labelsById.set(id, (m = new Map()));
    m.set(str(r, 'locale'), str(r, 'label'));
  }
  const base = (r: Row): Labelled => ({ id: str(r, 'id'), label: str(r, 'label'), labels: labelsById.get(str(r, 'id')) });

  const services: ServiceRec[] = rows.services.map((r) => ({
    ...base(r),
    serviceUrl: str(r, 'service_url'),
    version: str(r, 'version'),
    type: str(r, 'type'),
    supportsFirstLatest: Boolean(r['supports_first_latest']),
    quantities: Object.fromEntries(QUANTITIES.map((q) => [q, 0])) as Quantities,
  }));
  const serviceIds = idMap(services);
  const member = (r: Row): MemberRec => ({ ...base(r), service: ref(serviceIds, r['service_id'], 'service') });
  const categories = rows.categories.map(member);
  const offerings = rows.offerings.map(member);
  const features = rows.features.map(member);
  const procedures = rows.procedures.map(member);
  const phenomena = rows.phenomena.map(member);
  const stations: StationRec[] = rows.stations.map((r) => ({ ...member(r), lon: num(r, 'longitude'), lat: num(r, 'latitude') }));
  const maps = {
    services: serviceIds,
    categories: idMap(categories),
    offerings: idMap(offerings),
    features: idMap(features),
    procedures: idMap(procedures),
    phenomena: idMap(phenomena),
    stations: idMap(stations),
  };
  const timeseries: SeriesRec[] = rows.timeseries.map((r) => ({
    ...member(r),
    sid: num(r, 'sid'),
    category: ref(maps.categories, r['category_id'], 'category'),
    offering: ref(maps.offerings, r['offering_id'], 'offering'),
    feature: ref(maps.features, r['feature_id'], 'feature'),
    procedure: ref(maps.procedures, r['procedure_id'], 'procedure'),
    phenomenon: ref(maps.phenomena, r['phenomenon_id'], 'phenomenon'),
    station: ref(maps.stations, r['station_id'], 'station'),
    uom: str(r, 'uom'),
    first: valueAt(r, 'first'),
    last: valueAt(r, 'last'),
    refs: [],
  }));
  const seriesIds = idMap(timeseries);

  const stepsById = new Map<string, { t: number[]; v: number[] }>();
  for (const r of rows.reference_value_observations) {
    const id = str(r, 'reference_value_id');
    let s = stepsById.get(id);
    if (!s) stepsById.set(id, (s = { t: [], v: [] }));
    s.t.push(num(r, 'timestamp'));
    s.v.push(num(r, 'value'));
  }
  const refValues: RefValueRec[] = rows.reference_values.map((r) => {
    const steps = stepsById.get(str(r, 'id'));
    return { ...base(r), series: ref(seriesIds, r['timeseries_id'], 'timeseries'), steps: { t: Float64Array.from(steps?.t ?? []), v: Float64Array.from(steps?.v ?? []) } };
  });
  refValues.forEach((rv, i) => timeseries[rv.series]!.refs.push(i));

  const seriesOfStation: number[][] = stations.map(() => []);
  timeseries.forEach((s, i) => seriesOfStation[s.station]!.push(i));
  const counted: Record<keyof Quantities, readonly MemberRec[]> = { categories, features, offerings, phenomena, procedures, stations, timeseries };
  for (const name of QUANTITIES) for (const m of counted[name]) services[m.service]!.quantities[name]++;

  return {
    takenAt,
    config,
    services,
    categories,
    offerings,
    features,
    procedures,
    phenomena,
    stations,
    timeseries,
    refValues,
    locales: new Set(rows.labels.map((r) => normaliseLocale(str(r, 'locale'))).filter((l) => l !== undefined)),
    ids: { ...maps, timeseries: seriesIds },
    seriesOfStation,
    stationIndex: new StationIndex(
      stations.map((s) => s.id),
      stations.map((s) => s.lon),
      stations.map((s) => s.lat),
    ),
  };
}
