/** The side menu of a long page (site/layouts/Page.astro `toc`), and the anchors of the routes it lists. */

export interface TocEntry {
  href: string;
  label: string;
  /** Set the label as code. */
  code?: boolean;
  children?: TocEntry[];
}

interface RouteLike {
  method: string;
  path: string;
}

/** The anchor of a route's section: `get-radarnet-mirror-v3-files-id`. */
export const routeAnchor = (r: RouteLike) => `${r.method}${r.path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-+$/, '');

/** A route's path without the API prefix, the method named unless GET: `/files/:id`, `POST /timeseries/getData`. */
export const routeShort = (r: RouteLike, prefix: string) =>
  `${r.method === 'GET' ? '' : `${r.method} `}${r.path.startsWith(prefix) ? r.path.slice(prefix.length) || '/' : r.path}`;

/** The menu entries of a route list: one per route, its short path as code. */
export function routeToc(routes: RouteLike[], prefix: string): TocEntry[] {
  return routes.map((r) => ({ href: `#${routeAnchor(r)}`, label: routeShort(r, prefix), code: true }));
}
