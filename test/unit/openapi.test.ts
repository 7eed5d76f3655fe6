/**
 * The OpenAPI document of both APIs: valid OpenAPI 3.1 (checked by @readme/openapi-parser), complete (every
 * route, every parameter the code reads, every error response documented, each from the code's tables), and
 * deterministic. A route or parameter added without docs fails here.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, test } from 'vitest';
import { errorObject, HttpError } from '../../core/http/errors.ts';
import { OPENAPI_PATH, openApiDocument } from '../../core/openapi/document.ts';
import { radarOpenApiPath } from '../../core/openapi/radar-paths.ts';
import { TIMESERIES_PARAM_DOCS } from '../../core/openapi/timeseries-parameters.ts';
import { parseRadarParams, PARAM_DOCS as RADAR_PARAM_DOCS, RADAR_PARAM_NAMES } from '../../core/radar/params.ts';
import { LIVE_ROUTES, RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { styleSchema } from '../../core/snapshot/timeseries-config.ts';
import { parseGeneralizeOptions } from '../../core/timeseries/generalize.ts';
import { parseGeoQuery } from '../../core/timeseries/geo/params.ts';
import { PARAM_NAMES, readParam, type ParamName } from '../../core/timeseries/params.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { parseTimespan } from '../../core/timeseries/timespan.ts';

type Json = Record<string, any>;
const doc = openApiDocument() as Json;
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** Follows a local `$ref` (`#/components/...`). */
function resolve(node: Json): Json {
  if (typeof node?.['$ref'] !== 'string') return node;
  const target = (node['$ref'] as string)
    .slice(2)
    .split('/')
    .reduce<Json>((n, key) => n?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  expect(target, `${node['$ref']} resolves`).toBeDefined();
  return resolve(target);
}

function operations(): { path: string; method: string; op: Json; params: Json[] }[] {
  return Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      path,
      method,
      op: item[method] as Json,
      params: [...(item['parameters'] ?? []), ...(item[method].parameters ?? [])].map(resolve),
    })),
  );
}

/** Every documented parameter, by name. */
function parametersByName(): Map<string, Json[]> {
  const out = new Map<string, Json[]>();
  for (const { params } of operations()) for (const p of params) out.set(p['name'], [...(out.get(p['name']) ?? []), p]);
  return out;
}

const isDocumented = (p: Json) => typeof p['description'] === 'string' && p['description'].trim().length > 3 && p['example'] !== undefined && p['schema'] !== undefined;

describe('the OpenAPI document', () => {
  test('is valid OpenAPI 3.1.0 (@readme/openapi-parser)', async () => {
    expect(doc['openapi']).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  test('the validator does catch a broken document', async () => {
    const broken = structuredClone(doc);
    broken['paths'][`${TIMESERIES_PREFIX}/`].get.responses['404'] = { $ref: '#/components/responses/NoSuchThing' };
    expect((await validate(broken as Parameters<typeof validate>[0])).valid).toBe(false);
  });

  test('is deterministic and plain JSON', () => {
    const text = JSON.stringify(openApiDocument());
    expect(JSON.stringify(openApiDocument())).toBe(text);
    expect(JSON.parse(text)).toStrictEqual(openApiDocument());
  });

  test('takes the server URL and has a stable path', () => {
    expect((openApiDocument({ serverUrl: 'https://example.org' }) as Json)['servers']).toEqual([{ url: 'https://example.org' }]);
    expect(doc['servers']).toEqual([{ url: '/' }]);
    expect(OPENAPI_PATH).toBe('/openapi.json');
  });
});

describe('every route is documented', () => {
  test.each(RADAR_ROUTES.map((r) => [r.path, r]))('radar %s: GET and HEAD, with summary and description', (_p, route) => {
    const item = doc['paths'][radarOpenApiPath(route)];
    expect(item).toBeDefined();
    for (const m of ['get', 'head']) {
      expect(item[m]?.summary?.trim()).toBeTruthy();
      expect(item[m]?.description?.trim()).toBeTruthy();
      expect(item[m].responses['200']).toBeDefined();
    }
  });

  test.each(TIMESERIES_ROUTES.map((r) => [`${r.method} ${r.path}`, r]))('timeseries %s, with summary and description', (_p, route) => {
    const item = doc['paths'][`${TIMESERIES_PREFIX}${route.path}`];
    expect(item).toBeDefined();
    for (const m of route.method === 'POST' ? ['post'] : ['get', 'head']) {
      expect(item[m]?.summary?.trim()).toBeTruthy();
      expect(item[m]?.description?.trim()).toBeTruthy();
      expect(item[m].responses['200']).toBeDefined();
    }
  });

  test('the change API: GET and HEAD, since required, 410 documented, JSON entries', () => {
    const item = doc['paths'][`${RADAR_PREFIX}/changes`];
    expect(item).toBeDefined();
    const since = (item['parameters'] as Json[]).map(resolve).find((p) => p['name'] === 'since');
    expect(since?.['required']).toBe(true);
    for (const m of ['get', 'head']) expect(resolve(item[m].responses['410'])['description']).toBeTruthy();
    expect(item.get.responses['200'].content['application/json'].schema.items.properties.change.enum).toEqual(['added', 'changed', 'removed']);
  });

  test('no path is documented that the route tables do not have', () => {
    const expected = new Set([...RADAR_ROUTES.map(radarOpenApiPath), ...LIVE_ROUTES.map((r) => `${RADAR_PREFIX}${r.path}`), ...TIMESERIES_ROUTES.map((r) => `${TIMESERIES_PREFIX}${r.path}`)]);
    expect(new Set(Object.keys(doc['paths']))).toEqual(expected);
  });

  test('every operation has an API tag and a unique operationId; every tag used is declared', () => {
    const declared = new Set((doc['tags'] as Json[]).map((t) => t['name']));
    const ids = operations().map(({ op }) => op['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations()) {
      expect(op['tags'].length).toBeGreaterThan(0);
      for (const t of op['tags']) expect(declared.has(t), t).toBe(true);
    }
    for (const t of doc['tags'] as Json[]) expect(t['description']?.trim(), t['name']).toBeTruthy();
  });

  test('charts and POST getData: PNG, PDF, the CSV and ZIP downloads, and the request bodies', () => {
    const post = doc['paths'][`${TIMESERIES_PREFIX}/timeseries/getData`].post;
    expect(Object.keys(post.responses['200'].content)).toEqual(['application/json', 'image/png', 'application/pdf', 'text/csv', 'application/zip']);
    expect(post.requestBody.content['application/json'].schema.anyOf).toHaveLength(2);
    expect(Object.keys(doc['paths'][`${TIMESERIES_PREFIX}/timeseries/{id}/getData`].get.responses['200'].content)).toEqual(['application/json', 'image/png', 'application/pdf', 'text/csv', 'application/zip']);
    expect(Object.keys(doc['paths'][`${TIMESERIES_PREFIX}/timeseries/{id}/{interval}`].get.responses['200'].content)).toEqual(['image/png']);
    const files = doc['paths']['/radarnet/mirror/v3/files'].get.responses['200'].content;
    expect(Object.keys(files)).toEqual(['application/json', 'text/csv', 'text/plain', 'text/html']);
  });
});

describe('every parameter the code reads is documented', () => {
  const byName = parametersByName();
  const TIMESERIES_READ = [
    ...PARAM_NAMES,
    ...['timespan', 'crs', 'bbox', 'near', 'generalizing_algorithm', 'threshold', 'tolerance_value'],
    ...['style', 'legend', 'grid', 'width', 'height', 'base64', 'language'],
  ];

  test.each([...RADAR_PARAM_NAMES, ...TIMESERIES_READ].map((n) => [n]))('%s: a description and an example on at least one operation', (name) => {
    const params = byName.get(name) ?? [];
    expect(params.some(isDocumented), `${name} is documented`).toBe(true);
  });

  test('every parameter of every operation is documented, and every path template has its parameter', () => {
    for (const { path, method, params } of operations()) {
      for (const p of params) expect(isDocumented(p), `${method} ${path} ${p['name']}`).toBe(true);
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(params.some((p) => p['in'] === 'path' && p['name'] === name && p['required'] === true), `${path} {${name}}`).toBe(true);
      }
    }
  });

  test.each(RADAR_PARAM_DOCS.map((d) => [d.name, d.example]))('radar %s: the example %s is read by the code', (name, example) => {
    expect(() => parseRadarParams(new URLSearchParams([[name, example]]))).not.toThrow();
  });

  test.each(TIMESERIES_PARAM_DOCS.map((d) => [d.name, d.example]))('timeseries %s: the example %s is read by the code', (name, example) => {
    const q = new URLSearchParams(example);
    const value = q.get(name);
    expect(value).not.toBeNull();
    if ((PARAM_NAMES as string[]).includes(name)) expect(readParam(q, name as ParamName)).toBeDefined();
    else if (name === 'timespan') expect(() => parseTimespan(value!)).not.toThrow();
    else if (['crs', 'bbox', 'near'].includes(name)) expect(() => parseGeoQuery(q)).not.toThrow();
    else if (['generalizing_algorithm', 'threshold', 'tolerance_value'].includes(name)) expect(() => parseGeneralizeOptions(q)).not.toThrow();
    else if (name === 'style') expect(styleSchema.safeParse(JSON.parse(value!)).success).toBe(true);
  });

  test('the documented examples of typed parameters have their type', () => {
    for (const [name, params] of byName) {
      for (const p of params) {
        const type = p['schema']['type'];
        if (type === 'boolean') expect(typeof p['example'], name).toBe('boolean');
        if (type === 'integer') expect(Number.isInteger(p['example']), name).toBe(true);
        if (p['schema']['enum']) expect(p['schema']['enum'], name).toContain(p['example']);
        if (typeof p['schema']['pattern'] === 'string') expect(String(p['example']), name).toMatch(new RegExp(p['schema']['pattern']));
      }
    }
  });
});

describe('errors', () => {
  const isErrorResponse = (r: Json) => resolve(r)['content']?.['application/json']?.['schema']?.['$ref'] === '#/components/schemas/Error';

  test('every 4xx and 5xx response of every operation has the Error body', () => {
    let n = 0;
    for (const { path, method, op } of operations()) {
      for (const [code, r] of Object.entries(op['responses'] as Json)) {
        if (Number(code) < 400) continue;
        expect(isErrorResponse(r), `${method} ${path} ${code}`).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  test('400, 404, 405, 406, 413, 500 and 503 are described, each with the Error body', () => {
    const responses = doc['components']['responses'] as Json;
    for (const s of [400, 404, 405, 406, 413, 500, 503]) {
      const r = responses[`Error${s}`];
      expect(r?.description?.trim(), String(s)).toBeTruthy();
      expect(isErrorResponse(r), String(s)).toBe(true);
    }
    for (const r of Object.values(responses)) expect(isErrorResponse(r as Json)).toBe(true);
  });

  test('the Error schema describes the body the endpoint sends', () => {
    const schema = doc['components']['schemas']['Error'];
    expect(schema['required']).toEqual(['statusCode', 'reason', 'userMessage']);
    expect(Object.keys(schema['properties'])).toEqual(['statusCode', 'reason', 'userMessage', 'developerMessage', 'hints']);
    const sent = errorObject(new HttpError(400, 'Parameter x is bad', { hints: ['A valid example: x=1'], developerMessage: 'more' }));
    expect(Object.keys(sent)).toEqual(Object.keys(schema['properties']));
    expect(Object.keys(errorObject(new HttpError(404, 'No such path')))).toEqual(schema['required']);
  });
});
