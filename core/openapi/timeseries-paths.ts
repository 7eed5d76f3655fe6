/**
 * The paths of the Timeseries API, one per entry of TIMESERIES_ROUTES: GET and HEAD (POST on getData), the
 * route's description, the parameters its table entry names, and its responses. Each documented path is
 * matched by the API's own path matcher, so a path the endpoint does not answer cannot be documented.
 */
import { REPRESENTATIONS, TIMESERIES_FORMATS } from '../formats/timeseries.ts';
import type { CollectionName } from '../timeseries/catalogue.ts';
import { COLLECTION_IDS, matchTimeseriesPath, TIMESERIES_API, TIMESERIES_PREFIX, TIMESERIES_ROUTES, type TimeseriesRoute } from '../timeseries/routes.ts';
import { errorRefs } from './error-responses.ts';
import { firstSentence, schemaRef as ref, type JsonSchema } from './json-schema.ts';
import { idParameter, intervalParameter, timeseriesParameterRefs } from './timeseries-parameters.ts';
import { POST_EXAMPLES, TIMESERIES_SCHEMA as S } from './timeseries-schemas.ts';

export const TIMESERIES_API_TAG = `${TIMESERIES_API.title} ${TIMESERIES_API.version}`;
export const timeseriesCollectionTag = (c: CollectionName) => `timeseries: ${c}`;

type Route = (typeof TIMESERIES_ROUTES)[number];

/** The route the endpoint matches for a documented path (its templates filled with examples). */
export function routeKind(route: Route): TimeseriesRoute {
  const collection = route.path.split('/')[1] as CollectionName;
  const example = COLLECTION_IDS[collection]?.example ?? 'x';
  const concrete = `${TIMESERIES_PREFIX}${route.path.replace('{id}', example).replace('{interval}', 'lastWeek')}`;
  const m = matchTimeseriesPath(concrete);
  if (!m) throw new Error(`the documented path ${route.path} is no path of the API`);
  return m.route;
}

function itemSchema(c: CollectionName, view: 'list' | 'item'): JsonSchema {
  const item = { services: S.service, offerings: S.offering, stations: S.station, timeseries: S.timeseries }[c as string] ?? S.member;
  if (c === 'stations' || c === 'timeseries' || view === 'item') return ref(item);
  return { anyOf: [ref(S.idLabel), ref(item)] };
}

const json = (schema: JsonSchema) => ({ [TIMESERIES_FORMATS.json.media.type]: { schema } });
/** The representations only the data paths produce (TIMESERIES_FORMATS): charts, reports, downloads; text ones as a string. */
const CHARTS = Object.fromEntries(
  REPRESENTATIONS.filter((r) => TIMESERIES_FORMATS[r].dataOnly).map((r) => [TIMESERIES_FORMATS[r].media.type, TIMESERIES_FORMATS[r].media.utf8 ? { schema: { type: 'string' } } : {}]),
);
const CHART_HEADERS = {
  'Content-Disposition': {
    description: 'Charts: attachment; filename="<ids>_<start>_<end>.<png|pdf>": the series ids (three, then _and_<n>_more) and the timespan in UTC (20240108T000000Z). CSV and ZIP: attachment; filename="<id>_<start>_<end>.<csv|zip>" (timeseries_... for several series).',
    schema: { type: 'string' },
  },
};
const PRERENDERED_HEADERS = { 'Content-Disposition': { description: 'attachment; filename="<id>_<interval>[_<qualifier>].png".', schema: { type: 'string' } } };
const LINK_HEADER = { Link: { description: 'Paging links (RFC 5988): self, first, last, prev, next; sent when offset or limit is given.', schema: { type: 'string' } } };

interface Shape {
  content: Record<string, unknown>;
  headers?: Record<string, unknown>;
  errors: number[];
  tag?: CollectionName;
}

function shape(r: TimeseriesRoute): Shape {
  const DATA = [ref(S.values), ref(S.valuesById), ref(S.highchart), { type: 'array', items: ref(S.highchart) }, ref(S.flot), ref(S.flotById)];
  switch (r.kind) {
    case 'index':
      return { content: json(ref(S.index)), errors: [400, 406, 503] };
    case 'search':
      return { content: json({ type: 'array', items: ref(S.searchItem) }), errors: [400, 406, 503] };
    case 'collection':
      return { content: json({ type: 'array', items: itemSchema(r.collection, 'list') }), headers: LINK_HEADER, errors: [400, 406, 503], tag: r.collection };
    case 'item':
      return { content: json(itemSchema(r.collection, 'item')), errors: [400, 404, 406, 503], tag: r.collection };
    case 'getData':
      return { content: { ...json({ anyOf: DATA }), ...CHARTS }, headers: CHART_HEADERS, errors: [400, 404, 406, 503], tag: 'timeseries' };
    case 'extras':
      return { content: json(ref(S.extras)), errors: [400, 404, 406, 503], tag: 'timeseries' };
    case 'chart':
      return { content: { 'image/png': {} }, headers: PRERENDERED_HEADERS, errors: [404, 406, 503], tag: 'timeseries' };
    case 'postData':
      return { content: { ...json({ anyOf: [ref(S.allTimeseries), ref(S.valuesById), { type: 'array', items: ref(S.highchart) }, ref(S.flotById)] }), ...CHARTS }, headers: CHART_HEADERS, errors: [400, 404, 406, 413, 503], tag: 'timeseries' };
  }
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return ['timeseries', method, ...(words.length ? words : ['index'])].join('_');
}

function operation(method: 'get' | 'head' | 'post', route: Route, s: Shape): Record<string, unknown> {
  const ok = method === 'head' ? { description: `As GET, without a body. ${route.description}` } : { description: route.description, content: s.content };
  return {
    tags: [TIMESERIES_API_TAG, ...(s.tag ? [timeseriesCollectionTag(s.tag)] : [])],
    summary: `${method === 'head' ? 'Headers of: ' : ''}${firstSentence(route.description)}`,
    description: route.description,
    operationId: operationId(method, route.path),
    ...(method === 'post'
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { anyOf: [ref(S.dataRequest), ref(S.renderRequest)] },
                examples: { data: { summary: 'Raw data (Accept: application/json)', value: POST_EXAMPLES.data }, render: { summary: 'A chart (Accept: image/png or application/pdf)', value: POST_EXAMPLES.render } },
              },
            },
          },
        }
      : {}),
    responses: { '200': { ...ok, ...(s.headers ? { headers: s.headers } : {}) }, ...errorRefs(s.errors) },
  };
}

export function timeseriesPaths(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of TIMESERIES_ROUTES) {
    const r = routeKind(route);
    const s = shape(r);
    const pathParams = [...('collection' in r && route.path.includes('{id}') ? [idParameter(r.collection)] : []), ...(r.kind === 'getData' || r.kind === 'chart' || r.kind === 'extras' ? [idParameter('timeseries')] : [])];
    if (r.kind === 'chart') pathParams.push(intervalParameter());
    const item = (paths[`${TIMESERIES_PREFIX}${route.path}`] ??= {});
    item['parameters'] = [...pathParams, ...timeseriesParameterRefs(route.query)];
    if (route.method === 'POST') item['post'] = operation('post', route, s);
    else Object.assign(item, { get: operation('get', route, s), head: operation('head', route, s) });
  }
  return paths;
}
