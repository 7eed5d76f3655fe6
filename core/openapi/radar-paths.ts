/**
 * The paths of the radar catalogue, one per route of RADAR_ROUTES, with GET and HEAD: the route's
 * description, the parameters it reads, and a 200 response in every representation the route produces.
 */
import { FORMAT_MEANINGS, MEDIA_TYPES } from '../radar/params.ts';
import { RESOURCES } from '../radar/resources.ts';
import { LIVE_ROUTES, RADAR_API, RADAR_PREFIX, RADAR_ROUTES, routeFormats, type RadarRoute } from '../radar/routes.ts';
import { errorRefs } from './error-responses.ts';
import { firstSentence, schemaRef, type JsonSchema } from './json-schema.ts';
import { changesParameterRefs, radarParameterRefs } from './radar-parameters.ts';
import { CHANGE_EXPANDED_FIELDS, CHANGES_PATH } from '../radar/changes.ts';
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

/** One entry of the change API's JSON answer. */
const CHANGE_ENTRY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['snapshot', 'taken_at', 'resource', 'id', 'change'],
  properties: {
    snapshot: { type: 'string', description: 'The snapshot the change was published in.' },
    taken_at: { type: 'string', format: 'date-time', description: 'When that snapshot was taken.' },
    resource: { type: 'string', description: 'The resource of the record (files, transferred, transfers, radars, coverage, ...).' },
    id: { type: 'integer', format: 'int64', description: 'The record\'s id.' },
    change: { type: 'string', enum: ['added', 'changed', 'removed'] },
    fields: { type: 'array', items: { type: 'string' }, description: 'Of a changed record: the fields (as the expanded record names them) whose values changed.' },
    ...Object.fromEntries(CHANGE_EXPANDED_FIELDS.map((f) => [f, { type: ['string', 'null'], description: `expanded=true: the record's ${f} (a removed record's last), null where its resource has none.` }])),
  },
};

function changesOperation(method: 'get' | 'head'): Record<string, unknown> {
  const route = LIVE_ROUTES.find((r) => r.path === CHANGES_PATH)!;
  const ok = 'application/json: an array of entries, oldest snapshot first, then by resource and id. text/csv: the same, one row each (fields as a JSON array). text/plain (checksumReport): the added and changed files with a checksum, each once (its latest), as sha1sum -c reads them.';
  return {
    tags: [RADAR_API_TAG],
    summary: `${method === 'head' ? 'Headers of: ' : ''}What changed since a snapshot.`,
    description: `${route.description} Answered live from the build's kept snapshot history (docs/changes.md).`,
    operationId: `radar_${method}_changes`,
    responses: {
      '200':
        method === 'head'
          ? { description: `As GET, without a body. ${ok}` }
          : { description: ok, content: { 'application/json': { schema: { type: 'array', items: CHANGE_ENTRY_SCHEMA } }, 'text/csv': { schema: { type: 'string' } }, 'text/plain': { schema: { type: 'string' } } } },
      ...errorRefs([400, 406, 410, 503]),
    },
  };
}

export function radarPaths(): Record<string, unknown> {
  return {
    ...Object.fromEntries(
      RADAR_ROUTES.map((route) => [
        radarOpenApiPath(route),
        { parameters: radarParameterRefs(route.path.endsWith('/:id')), get: operation('get', route), head: operation('head', route) },
      ]),
    ),
    [`${RADAR_PREFIX}${CHANGES_PATH}`]: { parameters: changesParameterRefs(), get: changesOperation('get'), head: changesOperation('head') },
  };
}
