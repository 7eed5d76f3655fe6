/**
 * One OpenAPI 3.1 document of both APIs, made from the code's own route, parameter, resource and error
 * tables, so the document and the behaviour cannot drift. Pure and deterministic: the same code gives the
 * same document. The build writes it to OPENAPI_PATH.
 */
import { RADAR_API, RADAR_PREFIX } from '../radar/routes.ts';
import { RESOURCE_NAMES, RESOURCES } from '../radar/resources.ts';
import { COLLECTIONS } from '../timeseries/catalogue.ts';
import { COLLECTION_INFO } from '../timeseries/collection-index.ts';
import { TIMESERIES_API, TIMESERIES_PREFIX } from '../timeseries/routes.ts';
import { errorResponses, errorSchemas } from './error-responses.ts';
import { radarParameters } from './radar-parameters.ts';
import { RADAR_API_TAG, radarPaths, radarResourceTag } from './radar-paths.ts';
import { radarSchemas } from './radar-schemas.ts';
import { timeseriesParameters } from './timeseries-parameters.ts';
import { TIMESERIES_API_TAG, timeseriesCollectionTag, timeseriesPaths } from './timeseries-paths.ts';
import { timeseriesSchemas } from './timeseries-schemas.ts';

/** Where the build writes the document (site root relative). */
export const OPENAPI_PATH = '/openapi.json';

export interface OpenApiOptions {
  /** The server's base URL; default `/` (the paths are absolute: both APIs' prefixes are in them). */
  serverUrl?: string;
}

function tags(): { name: string; description: string }[] {
  return [
    { name: RADAR_API_TAG, description: RADAR_API.description },
    ...RESOURCE_NAMES.map((r) => ({ name: radarResourceTag(r), description: RESOURCES[r].meaning })),
    { name: TIMESERIES_API_TAG, description: TIMESERIES_API.description },
    ...COLLECTIONS.map((c) => ({ name: timeseriesCollectionTag(c), description: `${COLLECTION_INFO[c].label}: ${COLLECTION_INFO[c].description}` })),
  ];
}

export function openApiDocument(opts: OpenApiOptions = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: `${RADAR_API.title} ${RADAR_API.version} and ${TIMESERIES_API.title} ${TIMESERIES_API.version}`,
      version: `${RADAR_API.version}+${TIMESERIES_API.version}`,
      description: `${RADAR_API.title} (${RADAR_PREFIX}): ${RADAR_API.description}\n\n${TIMESERIES_API.title} (${TIMESERIES_PREFIX}): ${TIMESERIES_API.description}`,
    },
    servers: [{ url: opts.serverUrl ?? '/' }],
    tags: tags(),
    'x-tagGroups': [
      { name: RADAR_API_TAG, tags: [RADAR_API_TAG, ...RESOURCE_NAMES.map(radarResourceTag)] },
      { name: TIMESERIES_API_TAG, tags: [TIMESERIES_API_TAG, ...COLLECTIONS.map(timeseriesCollectionTag)] },
    ],
    paths: { ...radarPaths(), ...timeseriesPaths() },
    components: {
      schemas: { ...errorSchemas(), ...radarSchemas(), ...timeseriesSchemas() },
      parameters: { ...radarParameters(), ...timeseriesParameters() },
      responses: errorResponses(),
    },
  };
}
