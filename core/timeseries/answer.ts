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
import type { TimeseriesProfile } from './profile.ts';
import type { CollectionParams, ItemParams } from './params.ts';
import { search } from './search.ts';
import { memberView } from './views.ts';

export interface Answer {
  body: string;
  /** `Link` header values (paging only). */
  links: string[];
}

export function indexAnswer(cat: Catalogue, expanded: boolean, profile: TimeseriesProfile = 'spec'): string {
  return JSON.stringify(collectionIndex(cat, expanded, profile));
}

/** `path` and `query` are the request's, for the paging links. */
export function collectionAnswer(cat: Catalogue, name: CollectionName, p: CollectionParams, path: string, query: URLSearchParams): Answer {
  const parts = collectionParts(cat, name, p, path, query);
  return { body: [...parts.pieces()].join(''), links: parts.links };
}

/** Members rendered at a time by `collectionParts`. */
export const PIECE_MEMBERS = 1000;

/**
 * A collection's body in pieces of `pieceMembers` members, which joined are `collectionAnswer`'s body (the
 * JSON array of the member views). The endpoint sends the pieces as they are made into bytes: the 100,000
 * stations of a large network (15.6 MB) were 100,000 view objects, a string and its bytes at once, 54 MB.
 */
export function collectionParts(cat: Catalogue, name: CollectionName, p: CollectionParams, path: string, query: URLSearchParams, pieceMembers = PIECE_MEMBERS): { links: string[]; pieces(): Generator<string> } {
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
  return {
    links,
    *pieces() {
      yield '[';
      for (let at = 0; at < order.length; at += pieceMembers) {
        const part = Array.from(order.subarray(at, at + pieceMembers), (i) => JSON.stringify(memberView(cat, name, i, view, options))).join(',');
        yield at === 0 ? part : `,${part}`;
      }
      yield ']';
    },
  };
}

export function itemAnswer(cat: Catalogue, name: CollectionName, i: number, p: ItemParams): string {
  return JSON.stringify(memberView(cat, name, i, 'item', { locale: p.locale, crs: p.crs, statusIntervals: p.statusIntervals, renderingHints: p.renderingHints }));
}

export function searchAnswer(cat: Catalogue, q: string, locale: Locale): string {
  return JSON.stringify(search(cat, q, locale));
}
