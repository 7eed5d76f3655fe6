/**
 * The id files of the radar tree by route and variant: each such family of files is a tag of the tree state
 * (build-scripts/lib/tree-state.ts), named by its route's path and its variant's suffix (`/files/:id.expanded.json`),
 * so that a route added to RADAR_ROUTES, or removed, leaves every other tag as it was and the next build still
 * compares their files with the base's. In the state's tables a tag is a number, a digest of its name (`tagId`):
 * a number a row costs less than a name across millions of rows.
 */
import { RADAR_PREFIX, type RadarRoute } from '../radar/routes.ts';
import { routeVariants, staticFile, type Variant } from '../radar/static-tree.ts';

/** One route and variant of id files: its tag, and the path of the file of id k, `prefix + k + suffix`. */
export interface IdFileTag {
  tag: string;
  route: RadarRoute;
  v: Variant;
  prefix: string;
  suffix: string;
}

/** A tag's name: the route's path and the variant's suffix. */
export function tagName(route: RadarRoute, v: Variant): string {
  return `${route.path}${v.suffix}`;
}

/** A tag's number in the tree state's tables: the first 31 bits of its name's 32-bit FNV-1a hash (a non-negative INTEGER). */
export function tagId(tag: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(tag)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h >>> 1;
}

/** The tree-relative API path of the record of id `id` of an `/:id` route. */
export function idPath(route: RadarRoute, id: bigint | string): string {
  return `${RADAR_PREFIX}${route.path.slice(0, -':id'.length)}${id}`;
}

/** The id files of `routes` (RADAR_ROUTES): every `/:id` route in every variant it has, in the routes' order. */
export function idFileTags(routes: readonly RadarRoute[]): IdFileTag[] {
  const out: IdFileTag[] = [];
  for (const route of routes) {
    if (!route.path.endsWith('/:id')) continue;
    for (const v of routeVariants(route)) {
      const [prefix, suffix] = staticFile(idPath(route, '\u0000'), v).split('\u0000') as [string, string];
      out.push({ tag: tagName(route, v), route, v, prefix, suffix });
    }
  }
  return out;
}
