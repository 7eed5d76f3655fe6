/**
 * Route families: what the endpoint's metrics count requests by. A family is decided by the path's prefix alone,
 * never by the raw path or query, so the label has a handful of values however many paths a crawler tries.
 */
import { radarPrefixOf } from '../radar/routes.ts';
import { TIMESERIES_PREFIX } from '../timeseries/routes.ts';

/** The endpoint's own paths for operators: neither is in the static tree, both are answered by the endpoint. */
export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

export const ROUTE_FAMILIES = ['radar', 'timeseries', 'charts', 'site', 'health', 'metrics'] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

/**
 * - `radar`: the Radar Data Mirror Catalogue, under either prefix (/radarnet/mirror/v3, /superdarn/mirror/v3);
 * - `charts`: Timeseries API paths ending in `.png` or `.pdf` (charts and reports, rendered or pre-rendered);
 * - `timeseries`: the rest of /api/v1 (metadata, data, CSV and ZIP downloads);
 * - `health`, `metrics`: /healthz and /metrics;
 * - `site`: everything else: the docs site, and paths that are nothing (404).
 */
export function routeFamily(pathname: string): RouteFamily {
  if (pathname === HEALTH_PATH) return 'health';
  if (pathname === METRICS_PATH) return 'metrics';
  if (radarPrefixOf(pathname)) return 'radar';
  if (pathname === TIMESERIES_PREFIX || pathname.startsWith(`${TIMESERIES_PREFIX}/`)) return /\.(png|pdf)$/.test(pathname) ? 'charts' : 'timeseries';
  return 'site';
}
