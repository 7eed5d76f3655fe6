/**
 * Labels in the requested locale, and collections sorted by them (DECISIONS.md: "sorted by label in the
 * requested locale").
 *
 * - No `locale` parameter: the default labels, the `label` column of the snapshot, which is English.
 * - `locale=de_AT`: the resource's `de_AT` label, else its `de` label, else the default label. A locale the
 *   provider has no labels for answers the default labels (no other fallback can be requested: spec).
 * - `Accept-Language` (when `locale` is absent): its ranges by quality (ties: in the header's order), the first
 *   that names English or a language the provider has labels for wins; English, `*`, or none known: the default
 *   labels, so such a request is still the static file's. Ranges that are no language code are skipped, and
 *   an unreadable header is no header: a header never makes a request fail.
 * - Sorting: `Intl.Collator` of the locale (of `en` without one, or when the runtime has no collation for
 *   it, so the order never depends on the machine's own locale), ties broken by id in code-unit order.
 *   Orders are computed once per collection and locale and kept.
 */
import type { Catalogue, CollectionName, Labelled } from './catalogue.ts';

/** A normalised locale: `de`, `de_AT`; undefined for the default labels. */
export type Locale = string | undefined;

export const DEFAULT_LOCALE_TAG = 'en';

/** `de`, `DE`, `de-at`, `de_AT` → `de`, `de_AT`; undefined when the text is not a language code. */
export function normaliseLocale(text: string): string | undefined {
  const m = /^([A-Za-z]{2,3})(?:[_-]([A-Za-z]{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  return m[2] === undefined ? m[1]!.toLowerCase() : `${m[1]!.toLowerCase()}_${m[2].toUpperCase()}`;
}

/**
 * The locale an `Accept-Language` header selects, given the locales the provider has labels for (normalised:
 * `de`, `de_AT`); undefined for the default labels.
 */
export function localeFromAcceptLanguage(header: string | undefined, available: ReadonlySet<string>): Locale {
  if (header === undefined || header.trim() === '') return undefined;
  const ranges: { tag: string; q: number; at: number }[] = [];
  header.split(',').forEach((part, at) => {
    const [tag = '', ...params] = part.split(';').map((p) => p.trim());
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(p);
      if (m) q = Math.min(1, Number(m[1]));
      else if (/^q\s*=/i.test(p)) q = 0;
    }
    if (tag !== '' && q > 0) ranges.push({ tag, q, at });
  });
  ranges.sort((a, b) => b.q - a.q || a.at - b.at);
  for (const { tag } of ranges) {
    if (tag === '*') return undefined;
    const locale = normaliseLocale(tag) ?? normaliseLocale(/^[A-Za-z]{2,3}(?=-)/.exec(tag)?.[0] ?? '');
    if (locale === undefined) continue;
    const language = locale.split('_')[0]!;
    if (language === DEFAULT_LOCALE_TAG) return undefined;
    if (available.has(locale) || available.has(language)) return locale;
  }
  return undefined;
}

export function labelIn(r: Labelled, locale: Locale): string {
  if (locale === undefined || r.labels === undefined) return r.label;
  const exact = r.labels.get(locale);
  if (exact !== undefined) return exact;
  const cut = locale.indexOf('_');
  return (cut > 0 ? r.labels.get(locale.slice(0, cut)) : undefined) ?? r.label;
}

const collators = new Map<string, Intl.Collator>();

/** The collator of a locale; `en` when the runtime does not know the locale. */
export function collatorFor(locale: Locale): Intl.Collator {
  const tag = (locale ?? DEFAULT_LOCALE_TAG).replace('_', '-');
  let c = collators.get(tag);
  if (!c) {
    const known = Intl.Collator.supportedLocalesOf([tag]).length > 0;
    c = new Intl.Collator(known ? tag : DEFAULT_LOCALE_TAG);
    collators.set(tag, c);
  }
  return c;
}

interface SortedOrder {
  /** Record positions in label order. */
  order: Int32Array;
  /** rank[position] = place in `order`. */
  rank: Int32Array;
}

const orders = new WeakMap<readonly Labelled[], Map<string, SortedOrder>>();

function sortedOrder(recs: readonly Labelled[], locale: Locale): SortedOrder {
  let perLocale = orders.get(recs);
  if (!perLocale) orders.set(recs, (perLocale = new Map()));
  const key = locale ?? '';
  let o = perLocale.get(key);
  if (!o) {
    const compare = collatorFor(locale).compare;
    const labels = recs.map((r) => labelIn(r, locale));
    const order = Int32Array.from(recs.keys()).sort((a, b) => compare(labels[a]!, labels[b]!) || (recs[a]!.id < recs[b]!.id ? -1 : recs[a]!.id > recs[b]!.id ? 1 : 0));
    const rank = new Int32Array(recs.length);
    order.forEach((p, i) => (rank[p] = i));
    o = { order, rank };
    perLocale.set(key, o);
  }
  return o;
}

/**
 * Positions of a collection's records in label order: all of them, or those of `subset` (positions, any
 * order, no repeats).
 */
export function sortByLabel(cat: Catalogue, name: CollectionName, locale: Locale, subset?: ArrayLike<number>): Int32Array {
  const recs: readonly Labelled[] = cat[name];
  const { order, rank } = sortedOrder(recs, locale);
  if (subset === undefined) return order;
  if (subset.length > recs.length >> 4) {
    const keep = new Uint8Array(recs.length);
    for (let i = 0; i < subset.length; i++) keep[subset[i]!] = 1;
    return order.filter((p) => keep[p] === 1);
  }
  return Int32Array.from(subset).sort((a, b) => rank[a]! - rank[b]!);
}
