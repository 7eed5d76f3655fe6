/**
 * The search family's document (`<build>/site-data/search.json`): the site search's index, which the site
 * publishes as `/search-index.json` (site/pages/search-index.json.ts) and whose other texts the timeseries and
 * station tables filter by. Every radar (code, name, institute, country) and every resource of the timeseries
 * catalogue's collections (timeseries, stations, phenomena, procedures, offerings, features, categories,
 * services) with its label in the default locale and its labels in every other locale (the timeseries
 * document's `labels`). Computed here from the radars document and the tree's timeseries collections, written by
 * the build (build-scripts/site-data.ts). Pure.
 */
import { SINGULAR, type CollectionName } from '../timeseries/catalogue.ts';
import { TIMESERIES_PREFIX } from '../timeseries/routes.ts';
import type { Radar } from './radars.ts';
import { seriesPage, stationPage } from './stations.ts';

/** A kind of entry, in the order the results list them. */
export const ENTRY_TYPES = ['radar', 'timeseries', 'station', 'phenomenon', 'procedure', 'offering', 'feature', 'category', 'service'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** One entry: `[type, id, label, href, other texts]`: the label in the default locale, then every other text it is found by. */
export type IndexEntry = [EntryType, string, string, string, string[]];

export interface SearchIndex {
  /** Locales whose labels the index holds besides the default one. */
  locales: string[];
  entries: IndexEntry[];
}

/** Where an entry leads: its browse page where the site has one, else its record in the API. */
function hrefOf(collection: CollectionName, id: string, label: string): string {
  if (collection === 'timeseries') return seriesPage(id);
  if (collection === 'stations') return stationPage(id);
  if (collection === 'phenomena') return `/browse/timeseries/?q=${encodeURIComponent(label)}`;
  return `${TIMESERIES_PREFIX}/${collection}/${encodeURIComponent(id)}`;
}

export interface Member {
  id?: string;
  label?: string;
  properties?: { id: string; label: string };
}

/**
 * The index: radars (when the build has the radar tree) and the members of each timeseries collection the tree
 * holds (in COLLECTIONS order), sorted by kind, then label (English collation), then id. `labels`: by resource
 * id, its label per locale.
 */
export function searchIndexOf(radars: readonly Radar[], collections: readonly [CollectionName, readonly Member[]][], labels: readonly [string, [string, string][]][]): SearchIndex {
  const entries: IndexEntry[] = [];
  const locales = new Set<string>();
  for (const r of radars) {
    entries.push(['radar', r.code, `${r.name} (${r.code})`, `/browse/radars/${r.slug}/`, [r.code, r.name, r.institute, r.country].filter(Boolean)]);
  }
  const byId = new Map(labels.map(([id, byLocale]) => [id, byLocale]));
  for (const [c, members] of collections) {
    for (const m of members) {
      const id = m.id ?? m.properties?.id;
      const label = m.label ?? m.properties?.label;
      if (id === undefined || label === undefined) continue;
      const other = (byId.get(id) ?? []).filter(([locale, l]) => (locales.add(locale), l !== label)).map(([, l]) => l);
      entries.push([SINGULAR[c], id, label, hrefOf(c, id, label), [...new Set(other)]]);
    }
  }
  entries.sort((a, b) => ENTRY_TYPES.indexOf(a[0]) - ENTRY_TYPES.indexOf(b[0]) || a[2].localeCompare(b[2], 'en') || a[1].localeCompare(b[1]));
  return { locales: [...locales].sort(), entries };
}
