/**
 * The radar catalogue's docs, made from the code's own tables (RADAR_ROUTES, PARAM_DOCS, RESOURCES) with one
 * example per route against the build's static tree. Nothing here is written by hand but the labels.
 */
import { errorObject, HttpError, type ErrorBody } from '../../core/http/errors.ts';
import { FORMATS, MEDIA_TYPES, PARAM_DOCS, parseRadarParams, type ParamDoc } from '../../core/radar/params.ts';
import { RESOURCE_NAMES, RESOURCES, type FieldKind, type ResourceName } from '../../core/radar/resources.ts';
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
  /** The anchor of the resource's fields table on the page. */
  fields?: { href: string; label: string };
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
    ...(route.resource ? { fields: { href: `#${fieldsAnchor(route.resource)}`, label: route.resource } } : {}),
    mediaTypes: routeFormats(route).map((f) => MEDIA_TYPES[f]),
    example: withData ? example(route) : undefined,
  }));
}

/** How each field kind is written in the JSON answer. */
const KIND_TEXT: Record<FieldKind, string> = {
  int: 'integer',
  text: 'string',
  bool: 'boolean',
  datetime: 'string (ISO 8601 UTC, milliseconds)',
  digits: 'string of digits (a whole number kept exact)',
  json: 'object (GeoJSON geometry)',
};

export interface FieldDoc {
  name: string;
  type: string;
  nullable: boolean;
  /** The views that answer the field: `simple`, `expanded`, or both. */
  views: string;
}

export interface ResourceFieldsDoc {
  name: ResourceName;
  anchor: string;
  meaning: string;
  /** The resource answers one view only, for both values of `expanded`. */
  oneView: boolean;
  fields: FieldDoc[];
}

export const fieldsAnchor = (r: ResourceName) => `fields-${r.replaceAll('_', '-')}`;

/** Every resource of RESOURCES with its fields: the simple view's in order, then those only the expanded view has. */
export function radarFieldDocs(): ResourceFieldsDoc[] {
  return RESOURCE_NAMES.map((name) => {
    const r = RESOURCES[name];
    const oneView = r.expanded.length === 0;
    const simple = new Set(r.simple.map((f) => f.name));
    const expanded = new Set((oneView ? r.simple : r.expanded).map((f) => f.name));
    const seen = new Map<string, FieldDoc>();
    for (const f of [...r.simple, ...r.expanded]) {
      const views = [simple.has(f.name) ? 'simple' : '', expanded.has(f.name) ? 'expanded' : ''].filter(Boolean).join(', ');
      const before = seen.get(f.name);
      if (before) before.nullable ||= f.nullable === true;
      else seen.set(f.name, { name: f.name, type: KIND_TEXT[f.kind], nullable: f.nullable === true, views });
    }
    return { name, anchor: fieldsAnchor(name), meaning: r.meaning, oneView, fields: [...seen.values()] };
  });
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
