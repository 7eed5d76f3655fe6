/**
 * The Timeseries API's routes and parameters as the fuzz tests generate them: straight from the route table
 * (TIMESERIES_ROUTES, with the query parameters each reads) and the parameter docs (a valid example each),
 * with `{id}` filled by ids of the served catalogue (and some no resource has).
 */
import { TIMESERIES_PARAM_DOCS } from '../../core/openapi/timeseries-parameters.ts';
import { COLLECTIONS, type Catalogue, type CollectionName } from '../../core/timeseries/catalogue.ts';
import { COLLECTION_IDS, TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { PRERENDER_INTERVALS } from '../../core/snapshot/timeseries-config.ts';
import { RENDER_BODY_DOCS } from '../../core/timeseries/chart-request.ts';
import { POST_BODY_DOCS } from '../../core/timeseries/data-request.ts';

export interface TsRoute {
  method: 'GET' | 'POST';
  /** The table's path, `{id}` and `{interval}` as written there. */
  pattern: string;
  /** The parameters the route reads. */
  query: string[];
}

export const TS_ROUTES: TsRoute[] = TIMESERIES_ROUTES.map((r) => ({ method: r.method, pattern: r.path, query: r.query }));
export const TS_GET_ROUTES = TS_ROUTES.filter((r) => r.method === 'GET');
export const TS_POST_ROUTES = TS_ROUTES.filter((r) => r.method === 'POST');

/** A value each parameter accepts, from its documented example (`offset=0&limit=100` gives offset 0). */
export const TS_VALID: Record<string, string> = Object.fromEntries(
  TIMESERIES_PARAM_DOCS.map((d) => {
    const q = new URLSearchParams(d.example);
    return [d.name, q.get(d.name) ?? d.example.replace(`${d.name}=`, '')];
  }),
);
TS_VALID['fuzzUnknown'] = 'x';

/** The fields of the POST bodies (data and render requests) besides the query's parameters. */
export const BODY_FIELDS = [...new Set([...POST_BODY_DOCS, ...RENDER_BODY_DOCS].map((d) => d.name))];
export const BODY_EXAMPLES: Record<string, string> = Object.fromEntries([...POST_BODY_DOCS, ...RENDER_BODY_DOCS].map((d) => [d.name, d.example]));

/** A few ids of each collection of the catalogue, and one of the right form that none has. */
export function someIds(cat: Catalogue, n = 3): Record<CollectionName, string[]> {
  return Object.fromEntries(
    COLLECTIONS.map((c) => [c, [...[...cat.ids[c].keys()].slice(0, n), `${COLLECTION_IDS[c].prefix}_no_such_resource`]]),
  ) as Record<CollectionName, string[]>;
}

/** Every concrete path of a route: `{id}` as each of the ids of its collection, `{interval}` as each interval. */
export function pathsOf(route: TsRoute, ids: Record<CollectionName, string[]>): string[] {
  const collection = route.pattern.split('/')[1] as CollectionName;
  let paths = [route.pattern];
  if (route.pattern.includes('{id}')) paths = paths.flatMap((p) => ids[collection].map((id) => p.replace('{id}', encodeURIComponent(id))));
  if (route.pattern.includes('{interval}')) paths = paths.flatMap((p) => [...PRERENDER_INTERVALS, 'lastWeek_with_legend'].map((i) => p.replace('{interval}', i)));
  return paths.map((p) => `${TIMESERIES_PREFIX}${p}`);
}

/** Parameters a path cannot do without (search without q is 400): added, after the others, unless given. */
export function required(path: string, given: string[]): string {
  return path.endsWith('/search') && !given.includes('q') ? '&q=rhein' : '';
}
