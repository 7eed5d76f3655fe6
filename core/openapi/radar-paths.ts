/**
 * The paths of the radar catalogue, one per route of RADAR_ROUTES, with GET and HEAD: the route's
 * description, the parameters it reads, and a 200 response in every representation the route produces.
 */
import { FORMAT_MEANINGS, MEDIA_TYPES } from '../radar/params.ts';
import { RESOURCES } from '../radar/resources.ts';
import { RADAR_API, RADAR_PREFIX, RADAR_ROUTES, routeFormats, type RadarRoute } from '../radar/routes.ts';
import { errorRefs } from './error-responses.ts';
import { firstSentence, schemaRef, type JsonSchema } from './json-schema.ts';
import { radarParameterRefs } from './radar-parameters.ts';
import { RADAR_INDEX_SCHEMA, radarRecordSchema } from './radar-schemas.ts';

export const RADAR_API_TAG = `${RADAR_API.title} ${RADAR_API.version}`;
export const radarResourceTag = (resource: string) => `radar: ${resource}`;

/** The OpenAPI path of a route: `/radarnet/mirror/v3/files/{id}`. */
export const radarOpenApiPath = (route: RadarRoute) => `${RADAR_PREFIX}${route.path.replace(/:id$/, '{id}')}`;

function jsonSchema(route: RadarRoute): JsonSchema {
  if (route.shape === 'index') return schemaRef(RADAR_INDEX_SCHEMA);
  const one = radarRecordSchema(route.resource!);
  return route.shape === 'one' ? one : { type: 'array', items: one };
}

function operationId(method: string, route: RadarRoute): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return ['radar', method, ...(words.length ? words : ['index'])].join('_');
}

function operation(method: 'get' | 'head', route: RadarRoute): Record<string, unknown> {
  const formats = routeFormats(route);
  const r = route.resource && RESOURCES[route.resource];
  const ok = formats.map((f) => `${MEDIA_TYPES[f]}: ${FORMAT_MEANINGS[f]}`).join(' ');
  const statuses = [400, 406, ...(route.shape === 'one' || route.shape === 'instances' ? [404] : []), ...(route.shape === 'index' ? [] : [503])];
  return {
    tags: [RADAR_API_TAG, ...(route.resource ? [radarResourceTag(route.resource)] : [])],
    summary: `${method === 'head' ? 'Headers of: ' : ''}${firstSentence(route.description)}`,
    description: `${route.description}${r ? ` ${r.meaning}` : ''}`,
    operationId: operationId(method, route),
    responses: {
      '200':
        method === 'head'
          ? { description: `As GET, without a body. ${ok}` }
          : { description: ok, content: Object.fromEntries(formats.map((f) => [MEDIA_TYPES[f], { schema: f === 'json' ? jsonSchema(route) : { type: 'string' } }])) },
      ...errorRefs(statuses),
    },
  };
}

export function radarPaths(): Record<string, unknown> {
  return Object.fromEntries(
    RADAR_ROUTES.map((route) => [
      radarOpenApiPath(route),
      { parameters: radarParameterRefs(route.path.endsWith('/:id')), get: operation('get', route), head: operation('head', route) },
    ]),
  );
}
