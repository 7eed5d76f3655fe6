/**
 * The radar catalogue's docs, made from the code's own tables (RADAR_ROUTES, PARAM_DOCS, RESOURCES) with one
 * example per route against the build's static tree. Nothing here is written by hand but the labels.
 */
import { errorObject, HttpError, type ErrorBody } from '../../core/http/errors.ts';
import { FORMATS, MEDIA_TYPES, PARAM_DOCS, parseRadarParams, type ParamDoc } from '../../core/radar/params.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { RADAR_PREFIX, RADAR_ROUTES, routeFormats, type RadarRoute } from '../../core/radar/routes.ts';
import { routeVariants, staticFile, VARIANTS, type Variant } from '../../core/radar/static-tree.ts';
import { hasTree } from './data.ts';
import { fileExample, firstId, liveExample, type Example } from './examples.ts';

export interface RouteDoc {
  method: 'GET';
  /** The full path, `:id` kept: `/radarnet/mirror/v3/files/:id`. */
  path: string;
  description: string;
  /** What the route's resource is. */
  resource: string | undefined;
  mediaTypes: string[];
  example: Example | undefined;
}

const VARIANT_LABELS: Record<string, string> = {
  '.json': 'JSON',
  '.expanded.json': 'JSON, expanded=true',
  '.csv': 'CSV',
  '.expanded.csv': 'CSV, expanded=true',
  '.sha1': 'checksum report',
  '.html': 'HTML docs',
};

const JSON_VARIANT = VARIANTS.find((v) => v.suffix === '.json')!;

function variantLinks(apiPath: string, variants: Variant[]): { label: string; rel: string }[] {
  return variants.filter((v) => v !== JSON_VARIANT).map((v) => ({ label: VARIANT_LABELS[v.suffix] ?? v.suffix, rel: staticFile(apiPath, v) }));
}

function example(route: RadarRoute): Example {
  const variants = routeVariants(route);
  if (!route.path.endsWith('/:id')) {
    const apiPath = route.shape === 'index' ? `${RADAR_PREFIX}/` : `${RADAR_PREFIX}${route.path}`;
    return fileExample(`GET ${apiPath}`, staticFile(apiPath, JSON_VARIANT), variantLinks(apiPath, variants));
  }
  const collection = `${RADAR_PREFIX}${route.path.slice(0, -'/:id'.length)}`;
  const id = firstId(staticFile(collection, JSON_VARIANT));
  if (id === undefined) {
    return liveExample(`GET ${collection}/:id`, `This snapshot has no record at ${collection}, so there is no example of one.`);
  }
  const apiPath = `${collection}/${id}`;
  return fileExample(`GET ${apiPath}`, staticFile(apiPath, JSON_VARIANT), variantLinks(apiPath, variants));
}

/** Every route of the table, with an example when the build holds the radar catalogue's files. */
export function radarRouteDocs(): RouteDoc[] {
  const withData = hasTree('radarnet-mirror-v3');
  return RADAR_ROUTES.map((route) => ({
    method: 'GET',
    path: route.shape === 'index' ? `${RADAR_PREFIX}/` : `${RADAR_PREFIX}${route.path}`,
    description: route.description,
    resource: route.resource && RESOURCES[route.resource].meaning,
    mediaTypes: routeFormats(route).map((f) => MEDIA_TYPES[f]),
    example: withData ? example(route) : undefined,
  }));
}

export function radarParamDocs(): ParamDoc[] {
  return PARAM_DOCS;
}

export const RADAR_MEDIA_TYPES = FORMATS.map((f) => ({ format: f, mediaType: MEDIA_TYPES[f] }));

/** A real error body: what the parameter parser answers for a timespan that ends before it starts. */
export function radarErrorExample(): { request: string; status: number; body: ErrorBody } {
  const query = 'timespan=2024-01-02/2024-01-01';
  try {
    parseRadarParams(new URLSearchParams(query));
  } catch (e) {
    if (e instanceof HttpError) return { request: `GET ${RADAR_PREFIX}/files?${query}`, status: e.status, body: errorObject(e) };
    throw e;
  }
  throw new Error(`the radar parameters accepted ${query}: pick another error example`);
}
