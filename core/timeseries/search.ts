/**
 * `GET /api/v1/search?q=` (DECISIONS.md): a case-insensitive substring match of `q` on the labels in the
 * requested locale; the results grouped timeseries, phenomena, procedures, offerings, stations, features,
 * categories, each group in label order; every item `{id, label, type, href: "./<collection>/<id>"}`.
 * Case is folded with Unicode lower-casing, independent of any locale. Search is not paged.
 */
import type { Catalogue, CollectionName, Labelled } from './catalogue.ts';
import { labelIn, sortByLabel, type Locale } from './locale.ts';

export const SEARCH_GROUPS: { collection: CollectionName; type: string }[] = [
  { collection: 'timeseries', type: 'timeseries' },
  { collection: 'phenomena', type: 'phenomenon' },
  { collection: 'procedures', type: 'procedure' },
  { collection: 'offerings', type: 'offering' },
  { collection: 'stations', type: 'station' },
  { collection: 'features', type: 'feature' },
  { collection: 'categories', type: 'category' },
];

export interface SearchItem {
  id: string;
  label: string;
  type: string;
  href: string;
}

const folded = new WeakMap<readonly Labelled[], Map<string, string[]>>();

function foldedLabels(recs: readonly Labelled[], locale: Locale): string[] {
  let perLocale = folded.get(recs);
  if (!perLocale) folded.set(recs, (perLocale = new Map()));
  let labels = perLocale.get(locale ?? '');
  if (!labels) perLocale.set(locale ?? '', (labels = recs.map((r) => labelIn(r, locale).toLowerCase())));
  return labels;
}

export function search(cat: Catalogue, q: string, locale: Locale): SearchItem[] {
  const needle = q.toLowerCase();
  const out: SearchItem[] = [];
  for (const g of SEARCH_GROUPS) {
    const recs: readonly Labelled[] = cat[g.collection];
    const labels = foldedLabels(recs, locale);
    const hits: number[] = [];
    labels.forEach((l, i) => l.includes(needle) && hits.push(i));
    for (const i of sortByLabel(cat, g.collection, locale, hits)) {
      const r = recs[i]!;
      out.push({ id: r.id, label: labelIn(r, locale), type: g.type, href: `./${g.collection}/${r.id}` });
    }
  }
  return out;
}
