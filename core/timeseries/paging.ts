/**
 * Paging of collections with `offset` and `limit` (DECISIONS.md; 52°North v1): `offset` is the position of
 * the first member of the page (0 = the first), `limit` the number of members per page. Only when either
 * is given, the answer carries RFC 5988 `Link` headers, one per relation, each with the request's path and
 * its other parameters (in their order) followed by `offset` and `limit`:
 *
 * - `self`: the page asked for;
 * - `first` ("first page"): offset 0; `last` ("last page"): the page at the last multiple of `limit`
 *   that holds a member (offset 0 for an empty collection);
 * - `prev` ("previous page"): offset − limit (at least 0, at most the last page's), when offset > 0;
 * - `next` ("next page"): offset + limit, when a member lies there.
 *
 * Following `next` from `first` visits every member exactly once.
 */
import type { Paging } from './params.ts';

export interface PageSlice {
  /** Members [start, end) of the full, sorted list. */
  start: number;
  end: number;
  /** Values of the `Link` header, one per relation. */
  links: string[];
}

function link(path: string, query: URLSearchParams, offset: number, limit: number, rel: string, title?: string): string {
  const q = new URLSearchParams(query);
  q.delete('offset');
  q.delete('limit');
  q.append('offset', String(offset));
  q.append('limit', String(limit));
  return `<${path}?${q.toString()}>; rel="${rel}"${title === undefined ? '' : `; title="${title}"`}`;
}

export function pageOf(total: number, paging: Paging, path: string, query: URLSearchParams): PageSlice {
  const { offset, limit } = paging;
  const last = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  const links = [
    link(path, query, offset, limit, 'self'),
    link(path, query, 0, limit, 'first', 'first page'),
    link(path, query, last, limit, 'last', 'last page'),
  ];
  if (offset > 0) links.push(link(path, query, Math.min(Math.max(0, offset - limit), last), limit, 'prev', 'previous page'));
  if (offset + limit < total) links.push(link(path, query, offset + limit, limit, 'next', 'next page'));
  return { start: Math.min(offset, total), end: Math.min(offset + limit, total), links };
}
