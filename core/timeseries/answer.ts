/**
 * Metadata answers, as JSON text: the index, a collection (filtered, sorted by label, paged), one resource,
 * and search. The build writes these texts into the static tree and the endpoint sends them, so both give
 * the same bytes.
 */
import type { Catalogue, CollectionName } from './catalogue.ts';
import { collectionIndex } from './collection-index.ts';
import { selectMembers } from './filters.ts';
import { sortByLabel, type Locale } from './locale.ts';
import { pageOf } from './paging.ts';
import type { CollectionParams, ItemParams } from './params.ts';
import { search } from './search.ts';
import { memberView } from './views.ts';

export interface Answer {
  body: string;
  /** `Link` header values (paging only). */
  links: string[];
}

export function indexAnswer(cat: Catalogue, expanded: boolean): string {
  return JSON.stringify(collectionIndex(cat, expanded));
}

/** `path` and `query` are the request's, for the paging links. */
export function collectionAnswer(cat: Catalogue, name: CollectionName, p: CollectionParams, path: string, query: URLSearchParams): Answer {
  const selected = selectMembers(cat, name, p.filters, p.geo);
  let order = sortByLabel(cat, name, p.locale, selected);
  let links: string[] = [];
  if (p.paging) {
    const page = pageOf(order.length, p.paging, path, query);
    order = order.subarray(page.start, page.end);
    links = page.links;
  }
  const crs = name === 'stations' ? p.geo?.crs : undefined;
  const options = { locale: p.locale, crs, statusIntervals: p.statusIntervals, renderingHints: p.renderingHints, lastValue: p.forceLatestValues };
  const view = p.expanded ? 'expanded' : 'list';
  const members = Array.from(order, (i) => memberView(cat, name, i, view, options));
  return { body: JSON.stringify(members), links };
}

export function itemAnswer(cat: Catalogue, name: CollectionName, i: number, p: ItemParams): string {
  return JSON.stringify(memberView(cat, name, i, 'item', { locale: p.locale, crs: p.crs, statusIntervals: p.statusIntervals, renderingHints: p.renderingHints }));
}

export function searchAnswer(cat: Catalogue, q: string, locale: Locale): string {
  return JSON.stringify(search(cat, q, locale));
}
