/**
 * The site search's index (`/search-index.json`, site/pages/search-index.json.ts): the search family's document
 * (`<build>/site-data/search.json`, core/site-data/search.ts), made by the build before Astro runs from the
 * radars, the tree's timeseries collections and the labels of every locale of the build's timeseries database.
 * The search page's script (site/scripts/site-search.ts) loads it and searches in the browser, so search works on
 * a plain static host too. A tree without its database (a copied site, a tree built elsewhere) has the default
 * labels only.
 */
import type { EntryType, SearchIndex } from '../../core/site-data/search.ts';
import { siteData } from './data.ts';

export { ENTRY_TYPES, type EntryType, type IndexEntry, type SearchIndex } from '../../core/site-data/search.ts';

/** The index of this build (empty when the build wrote none). */
export async function searchIndex(): Promise<SearchIndex> {
  return siteData('search') ?? { locales: [], entries: [] };
}

/** The texts an entry is found by besides its label (other locales, a radar's institute), by id; for a table's filter. */
export async function otherTexts(type: EntryType): Promise<Map<string, string[]>> {
  return new Map((await searchIndex()).entries.filter((e) => e[0] === type).map((e) => [e[1], e[4]]));
}
