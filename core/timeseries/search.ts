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

/**
 * The lower-cased labels of a collection in a locale, joined into one text (each label ends with a NUL) with
 * the offset each label starts at: one indexOf over the text finds the matches of a query far faster than a
 * substring test per label (100,000 stations: about 0.5 ms against 6 ms).
 */
interface FoldedLabels {
  text: string;
  starts: Int32Array;
}

const folded = new WeakMap<readonly Labelled[], Map<string, FoldedLabels>>();

function foldedLabels(recs: readonly Labelled[], locale: Locale): FoldedLabels {
  let perLocale = folded.get(recs);
  if (!perLocale) folded.set(recs, (perLocale = new Map()));
  let labels = perLocale.get(locale ?? '');
  if (!labels) {
    const lower = recs.map((r) => labelIn(r, locale).toLowerCase());
    const starts = new Int32Array(lower.length + 1);
    for (let i = 0; i < lower.length; i++) starts[i + 1] = starts[i]! + lower[i]!.length + 1;
    perLocale.set(locale ?? '', (labels = { text: lower.join('\0') + '\0', starts }));
  }
  return labels;
}

/** The indexes of the labels that contain `needle` (which holds no NUL), in collection order. */
function matching(labels: FoldedLabels, needle: string): number[] {
  const { text, starts } = labels;
  const hits: number[] = [];
  const count = starts.length - 1;
  let i = 0;
  for (let at = text.indexOf(needle); at >= 0 && i < count; at = text.indexOf(needle, starts[i]!)) {
    // the label holding offset `at`: the last start at or before it
    let lo = i;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    hits.push(lo);
    i = lo + 1;
  }
  return hits;
}

export function search(cat: Catalogue, q: string, locale: Locale): SearchItem[] {
  const needle = q.toLowerCase();
  const out: SearchItem[] = [];
  for (const g of SEARCH_GROUPS) {
    const recs: readonly Labelled[] = cat[g.collection];
    // a NUL in the query could match across two labels of the joined text: then label by label
    const hits = needle.includes('\0') ? recs.flatMap((r, i) => (labelIn(r, locale).toLowerCase().includes(needle) ? [i] : [])) : matching(foldedLabels(recs, locale), needle);
    for (const i of sortByLabel(cat, g.collection, locale, hits)) {
      const r = recs[i]!;
      out.push({ id: r.id, label: labelIn(r, locale), type: g.type, href: `./${g.collection}/${r.id}` });
    }
  }
  return out;
}
