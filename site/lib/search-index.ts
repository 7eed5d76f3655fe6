/**
 * The site search's index (`/search-index.json`, site/pages/search-index.json.ts), made when the site is built:
 * every radar (code, name, institute) and every resource of the timeseries catalogue (timeseries, stations,
 * phenomena, procedures, offerings, features, categories, services) with its labels in every locale. The search
 * page's script (site/scripts/site-search.ts) loads it and searches in the browser, so search works on a plain
 * static host too.
 *
 * Labels come from the static tree (the default locale) and, for the other locales, from the timeseries family's
 * document (`<build>/site-data/timeseries.json`, made by the build from its database's `labels` table). A tree
 * without its database (a copied site, a tree built elsewhere) has no such document: the default labels only.
 */
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { staticFile } from '../../core/timeseries/static-tree.ts';
import { COLLECTIONS, SINGULAR, type CollectionName } from '../../core/timeseries/catalogue.ts';
import { hasTree, readTreeJson, siteData, treeHas } from './data.ts';
import { radars } from './radars.ts';
import { seriesPage, stationPage } from './timeseries.ts';

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

/** The labels in every locale, by resource id, from the timeseries document; empty without one. */
function localeLabels(): Map<string, Map<string, string>> {
  return new Map((siteData('timeseries')?.labels ?? []).map(([id, byLocale]) => [id, new Map(byLocale)]));
}

interface Member {
  id?: string;
  label?: string;
  properties?: { id: string; label: string };
}

let made: Promise<SearchIndex> | undefined;

/** The index, made once per site build. */
export function searchIndex(): Promise<SearchIndex> {
  made ??= makeIndex();
  return made;
}

/** The texts an entry is found by besides its label (other locales, a radar's institute), by id; for a table's filter. */
export async function otherTexts(type: EntryType): Promise<Map<string, string[]>> {
  return new Map((await searchIndex()).entries.filter((e) => e[0] === type).map((e) => [e[1], e[4]]));
}

async function makeIndex(): Promise<SearchIndex> {
  const entries: IndexEntry[] = [];
  const locales = new Set<string>();
  if (hasTree('radarnet-mirror-v3')) {
    for (const r of radars()) {
      entries.push(['radar', r.code, `${r.name} (${r.code})`, `/browse/radars/${r.slug}/`, [r.code, r.name, r.institute, r.country].filter(Boolean)]);
    }
  }
  if (hasTree('timeseries-v1')) {
    const labels = localeLabels();
    for (const c of COLLECTIONS) {
      const rel = staticFile(`${TIMESERIES_PREFIX}/${c}`, false);
      if (!treeHas(rel)) continue;
      for (const m of readTreeJson<Member[]>(rel)) {
        const id = m.id ?? m.properties?.id;
        const label = m.label ?? m.properties?.label;
        if (id === undefined || label === undefined) continue;
        const other = [...(labels.get(id) ?? new Map<string, string>())].filter(([locale, l]) => (locales.add(locale), l !== label)).map(([, l]) => l);
        entries.push([SINGULAR[c], id, label, hrefOf(c, id, label), [...new Set(other)]]);
      }
    }
  }
  entries.sort((a, b) => ENTRY_TYPES.indexOf(a[0]) - ENTRY_TYPES.indexOf(b[0]) || a[2].localeCompare(b[2], 'en') || a[1].localeCompare(b[1]));
  return { locales: [...locales].sort(), entries };
}
