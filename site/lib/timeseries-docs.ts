/**
 * The Timeseries API's docs, made from the code's own tables (TIMESERIES_ROUTES, PARAM_DOCS) with one
 * example per route against the build's static tree.
 */
import { errorObject, HttpError, type ErrorBody } from '../../core/http/errors.ts';
import { COLLECTIONS } from '../../core/timeseries/catalogue.ts';
import { PDF_TYPE, PNG_TYPE } from '../../core/timeseries/charts.ts';
import { PARAM_DOCS, readParam, type ParamDoc } from '../../core/timeseries/params.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { staticFile } from '../../core/timeseries/static-tree.ts';
import { openApiDocument } from '../../core/openapi/document.ts';
import { propertyRows, refsIn, type JsonSchema, type PropertyRow } from './schema-props.ts';
import { buildInfo, hasTree, readTreeStart, treeHas, treeHref, treeList } from './data.ts';
import { curlOf, fileExample, firstId, liveExample, type Example } from './examples.ts';
import type { CurlRequest } from './curl.ts';
import { STYLE_EXAMPLE } from '../../core/timeseries/chart-request.ts';

export const JSON_TYPE = 'application/json';

export interface RouteDoc {
  method: 'GET' | 'POST';
  /** The full path, placeholders kept: `/api/v1/stations/{id}`. */
  path: string;
  description: string;
  mediaTypes: string[];
  example: Example | undefined;
  /** A pre-rendered chart the example links to (chart routes). */
  image?: { src: string; alt: string };
}

const ENDPOINT_ONLY = 'The static tree has no file for this request: the endpoint answers it.';

function jsonExample(apiPath: string): Example {
  return fileExample(`GET ${apiPath}`, staticFile(apiPath, false), [{ label: 'JSON, expanded=true', rel: staticFile(apiPath, true) }]);
}

function firstSeries(): string | undefined {
  return firstId(staticFile(`${TIMESERIES_PREFIX}/timeseries`, false));
}

/** The first pre-rendered chart of the tree (`api/v1/timeseries/<id>/<interval>.png`), if the build made any. */
function firstChart(): { id: string; name: string; rel: string } | undefined {
  const dir = 'api/v1/timeseries';
  for (const id of treeList(dir, 'folders')) {
    const png = treeList(`${dir}/${id}`, 'files').find((n) => n.endsWith('.png'));
    if (png) return { id, name: png.slice(0, -'.png'.length), rel: `${dir}/${id}/${png}` };
  }
  return undefined;
}

function example(method: 'GET' | 'POST', path: string): Pick<RouteDoc, 'example' | 'image'> {
  const segs = path.split('/').filter((s) => s !== '');
  if (segs.length === 0) return { example: jsonExample(`${TIMESERIES_PREFIX}/`) };
  const [a, b, c] = segs;
  if (a === 'search') return { example: liveExample(`GET ${TIMESERIES_PREFIX}/search?q=${encodeURIComponent(firstLabelWord() ?? 'a')}`, ENDPOINT_ONLY) };
  if (method === 'POST') {
    const ids = [firstSeries() ?? 'ts_example'];
    const body = JSON.stringify({ timespan: `PT24H/${buildInfo().snapshot.taken_at}`, timeseries: ids }, null, 2);
    return { example: liveExample(`POST ${TIMESERIES_PREFIX}/${segs.join('/')}`, ENDPOINT_ONLY, body) };
  }
  if (!(COLLECTIONS as readonly string[]).includes(a!)) return { example: undefined };
  if (segs.length === 1) return { example: jsonExample(`${TIMESERIES_PREFIX}/${a}`) };
  const id = a === 'timeseries' ? firstSeries() : firstId(staticFile(`${TIMESERIES_PREFIX}/${a}`, false));
  if (id === undefined) return { example: liveExample(`GET ${TIMESERIES_PREFIX}/${a}/{id}`, `This snapshot has no ${a}, so there is no example of one.`) };
  const item = `${TIMESERIES_PREFIX}/${a}/${id}`;
  if (segs.length === 2 && b === '{id}') return { example: jsonExample(item) };
  if (segs.length === 3 && c === 'getData') return { example: jsonExample(`${item}/getData`) };
  if (segs.length === 3 && c === 'extras') return { example: liveExample(`GET ${item}/extras`, ENDPOINT_ONLY) };
  if (segs.length === 3 && c === '{interval}') {
    const chart = firstChart();
    if (!chart) return { example: liveExample(`GET ${item}/lastWeek`, 'This build pre-rendered no charts (none configured, or built with --no-charts).') };
    const request = `GET ${TIMESERIES_PREFIX}/timeseries/${chart.id}/${chart.name}`;
    return {
      example: { request, curl: { ...curlOf(request), output: `${chart.name}.png` }, file: { label: `${chart.name}.png`, href: treeHref(chart.rel) }, variants: [], truncated: false, bytes: 0 },
      image: { src: treeHref(chart.rel), alt: `Pre-rendered chart ${chart.name} of the timeseries ${chart.id}` },
    };
  }
  return { example: undefined };
}

/** A word of the first station's label, for the search example. */
function firstLabelWord(): string | undefined {
  const rel = staticFile(`${TIMESERIES_PREFIX}/stations`, false);
  if (!treeHas(rel)) return undefined;
  const m = /"label"\s*:\s*"([A-Za-z]{3,})/.exec(readTreeStart(rel, 4096).text);
  return m?.[1]?.toLowerCase();
}

function mediaTypes(method: string, path: string): string[] {
  if (path.endsWith('/getData')) return [JSON_TYPE, PNG_TYPE, PDF_TYPE];
  if (method === 'GET' && path.endsWith('/{interval}')) return [PNG_TYPE];
  return [JSON_TYPE];
}

/** Every route of the table, with an example when the build holds the timeseries catalogue's files. */
export function timeseriesRouteDocs(): RouteDoc[] {
  const withData = hasTree('timeseries-v1');
  return TIMESERIES_ROUTES.map((r) => ({
    method: r.method,
    path: `${TIMESERIES_PREFIX}${r.path}`,
    description: r.description,
    mediaTypes: mediaTypes(r.method, r.path),
    ...(withData ? example(r.method, r.path) : { example: undefined }),
  }));
}

export function timeseriesParamDocs(): ParamDoc[] {
  return PARAM_DOCS;
}

/** A real error body: what the parameter reader answers for `limit=0`. */
export function timeseriesErrorExample(): { request: string; status: number; body: ErrorBody } {
  const query = 'limit=0';
  try {
    readParam(new URLSearchParams(query), 'limit');
  } catch (e) {
    if (e instanceof HttpError) return { request: `GET ${TIMESERIES_PREFIX}/timeseries?${query}`, status: e.status, body: errorObject(e) };
    throw e;
  }
  throw new Error(`the timeseries parameters accepted ${query}: pick another error example`);
}

export interface SchemaDoc {
  /** The component schema's name in the OpenAPI document: `timeseries.Station`. */
  name: string;
  anchor: string;
  description: string;
  properties: PropertyRow[];
}

export interface CollectionShapeDoc {
  collection: string;
  /** The schemas of a collection's list items, and of one item (`/{id}`). */
  list: string[];
  item: string[];
}

export const schemaAnchor = (name: string) => `schema-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/**
 * The resource shapes of every collection, from the OpenAPI document: the component schemas its list and item
 * responses refer to, and every schema with properties those refer to in turn, each with its properties.
 */
export function timeseriesFieldDocs(): { collections: CollectionShapeDoc[]; schemas: SchemaDoc[] } {
  const doc = openApiDocument() as { paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>; components: { schemas: Record<string, JsonSchema> } };
  const all = doc.components.schemas;
  const json = (path: string) => {
    const op = doc.paths[`${TIMESERIES_PREFIX}${path}`];
    if (!op) throw new Error(`the OpenAPI document has no path ${TIMESERIES_PREFIX}${path}`);
    return op.get.responses['200']?.content?.[JSON_TYPE]?.schema;
  };
  const collections = COLLECTIONS.map((c) => ({ collection: c, list: [...refsIn(json(`/${c}`))], item: [...refsIn(json(`/${c}/{id}`))] }));
  const names: string[] = [];
  const visit = (name: string) => {
    if (names.includes(name) || !all[name]) return;
    names.push(name);
    for (const r of refsIn(all[name])) visit(r);
  };
  for (const c of collections) for (const n of [...c.list, ...c.item]) visit(n);
  const schemas = names
    .filter((n) => all[n]!['properties'] !== undefined)
    .map((n) => ({ name: n, anchor: schemaAnchor(n), description: typeof all[n]!['description'] === 'string' ? (all[n]!['description'] as string) : '', properties: propertyRows(all[n]!) }));
  return { collections, schemas };
}

export interface ChartExample {
  /** What the example asks for, as a heading. */
  title: string;
  /** `GET /api/v1/...` or `POST /api/v1/timeseries/getData`. */
  request: string;
  /** A POST body, pretty-printed. */
  body?: string;
  curl: CurlRequest;
  /** The media type of the answer. */
  answers: string;
}

/**
 * Chart requests against this snapshot's first timeseries, the day before the snapshot instant: GET getData as a
 * PNG (a `style` in the query), POST getData as a PNG with `styleOptions`, and the same body as a PDF report.
 * Undefined when the build has no timeseries.
 */
export function chartExamples(): ChartExample[] | undefined {
  if (!hasTree('timeseries-v1')) return undefined;
  const id = firstSeries();
  if (id === undefined) return undefined;
  const timespan = `PT24H/${buildInfo().snapshot.taken_at}`;
  const get = `${TIMESERIES_PREFIX}/timeseries/${id}/getData?${new URLSearchParams({ timespan, style: STYLE_EXAMPLE, legend: 'true', width: '800', height: '400' })}`;
  const render = { timespan, width: 800, height: 400, legend: true, styleOptions: { [id]: { chartType: 'line', properties: { color: '#0072b2', width: 2 } } } };
  const post = `${TIMESERIES_PREFIX}/timeseries/getData`;
  const body = JSON.stringify(render);
  const postCurl = (accept: string, output: string): CurlRequest => ({ method: 'POST', target: post, headers: [['Accept', accept], ['Content-Type', 'application/json']], body, output });
  return [
    { title: 'A chart of one series (GET, style in the query)', request: `GET ${decodeURIComponent(get)}`, curl: { method: 'GET', target: get, headers: [['Accept', PNG_TYPE]], output: 'chart.png' }, answers: PNG_TYPE },
    { title: 'A chart with styleOptions (POST)', request: `POST ${post}`, body: JSON.stringify(render, null, 2), curl: postCurl(PNG_TYPE, 'chart.png'), answers: PNG_TYPE },
    { title: 'A PDF report (POST)', request: `POST ${post}`, body: JSON.stringify(render, null, 2), curl: postCurl(PDF_TYPE, 'report.pdf'), answers: PDF_TYPE },
  ];
}
