/**
 * The filters (`service`, `category`, `station`, `phenomenon`, `offering`, `feature`, `procedure`), combined
 * with AND, as 52°North applies them: a member of a collection is selected when at least one timeseries
 * refers to it and matches every filter given. Without filters a collection is all of its table (members
 * without timeseries included). An id that does not exist matches nothing (an empty list, not an error).
 * Stations also take `bbox` and `near` (geo/), ANDed with the filters.
 */
import { SINGULAR, type Catalogue, type CollectionName, type SeriesRec } from './catalogue.ts';
import { selectStations } from './geo/select.ts';
import type { GeoQuery } from './geo/params.ts';
import { FILTERS, type FilterName, type Filters } from './params.ts';

const COLLECTION_OF: Record<FilterName, CollectionName> = {
  service: 'services',
  category: 'categories',
  station: 'stations',
  phenomenon: 'phenomena',
  offering: 'offerings',
  feature: 'features',
  procedure: 'procedures',
};

export function hasFilters(filters: Filters): boolean {
  return FILTERS.some((f) => filters[f] !== undefined);
}

/** Positions of the filters' resources; undefined when one names no existing resource. */
function resolve(cat: Catalogue, filters: Filters): [FilterName, number][] | undefined {
  const out: [FilterName, number][] = [];
  for (const f of FILTERS) {
    const id = filters[f];
    if (id === undefined) continue;
    const i = cat.ids[COLLECTION_OF[f]].get(id);
    if (i === undefined) return undefined;
    out.push([f, i]);
  }
  return out;
}

/** Does the timeseries match every filter? */
export function seriesMatches(cat: Catalogue, s: SeriesRec, filters: Filters): boolean {
  const r = resolve(cat, filters);
  return r !== undefined && r.every(([f, i]) => s[f] === i);
}

/** Positions of the timeseries matching all filters, ascending. */
export function matchingSeries(cat: Catalogue, filters: Filters): Int32Array {
  const r = resolve(cat, filters);
  if (!r) return new Int32Array(0);
  const out: number[] = [];
  const all = cat.timeseries;
  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    if (r.every(([f, k]) => s[f] === k)) out.push(i);
  }
  return Int32Array.from(out);
}

/**
 * Positions of a collection's selected members, ascending; undefined means every member (nothing given).
 */
export function selectMembers(cat: Catalogue, name: CollectionName, filters: Filters, geo?: GeoQuery): Int32Array | undefined {
  let selected: Int32Array | undefined;
  if (hasFilters(filters)) {
    const series = matchingSeries(cat, filters);
    if (name === 'timeseries') selected = series;
    else {
      const field: keyof SeriesRec & FilterName = SINGULAR[name];
      const mark = new Uint8Array(cat[name].length);
      for (const i of series) mark[cat.timeseries[i]![field] as number] = 1;
      const out: number[] = [];
      mark.forEach((m, i) => m && out.push(i));
      selected = Int32Array.from(out);
    }
  }
  if (name === 'stations' && geo && (geo.bbox || geo.near)) {
    const near = selectStations(cat.stationIndex, { bbox: geo.bbox, near: geo.near })!;
    selected = selected === undefined ? near : intersect(selected, near);
  }
  return selected;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return Int32Array.from(out);
}
