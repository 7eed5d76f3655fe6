/**
 * The Timeseries API's query parameters as OpenAPI parameter components: meanings and examples from the
 * parameter tables (core/timeseries/params.ts, generalize.ts, chart-request.ts), and the wire format of
 * each as JSON Schema. The code's schemas read text and transform it, so the wire format is written here
 * from the code's constants; JSON-valued parameters (bbox, near, style) carry the zod schema of their JSON.
 */
import { CHART_DEFAULTS, CHART_PARAM_DOCS, MAX_SIZE, MIN_SIZE } from '../timeseries/chart-request.ts';
import { DEFAULT_DP_TOLERANCE, DEFAULT_LTTB_THRESHOLD, GENERALIZE_PARAM_DOCS } from '../timeseries/generalize.ts';
import { CRS84, SUPPORTED_CRS } from '../timeseries/geo/crs.ts';
import { bboxShape, nearShape } from '../timeseries/geo/params.ts';
import { DATA_FORMATS, FILTER_PREFIX, FILTERS, idPattern, MAX_LIMIT, MAX_OFFSET, PARAM_DOCS, type ParamDoc } from '../timeseries/params.ts';
import { COLLECTION_IDS, PATH_PARAM_DOCS } from '../timeseries/routes.ts';
import { PRERENDER_INTERVALS } from '../snapshot/timeseries-config.ts';
import type { CollectionName } from '../timeseries/catalogue.ts';
import { EXTRAS_FIELDS } from '../timeseries/extras.ts';
import { exampleText, fromZod, parameterRef, schemaRef, typedExample, type JsonSchema } from './json-schema.ts';

/** Every documented query parameter of the API, from the code's tables. */
export const TIMESERIES_PARAM_DOCS: ParamDoc[] = [...PARAM_DOCS, ...GENERALIZE_PARAM_DOCS, ...CHART_PARAM_DOCS];

/** The component schema of a style object (timeseries-schemas.ts defines it). */
export const STYLE_SCHEMA = 'timeseries.Style';

const bool = (value: boolean): JsonSchema => ({ type: 'boolean', default: value });
const json = (schema: JsonSchema): JsonSchema => ({ type: 'string', contentMediaType: 'application/json', contentSchema: schema });
const language: JsonSchema = { type: 'string', pattern: '^[A-Za-z]{2,3}([_-][A-Za-z]{2})?$' };

const WIRE: Record<string, () => JsonSchema> = {
  expanded: () => bool(false),
  locale: () => language,
  ...Object.fromEntries(FILTERS.map((f) => [f, () => ({ type: 'string', pattern: idPattern(FILTER_PREFIX[f]) })])),
  offset: () => ({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 }),
  limit: () => ({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: MAX_LIMIT }),
  q: () => ({ type: 'string', minLength: 1, pattern: '\\S' }),
  format: () => ({ type: 'string', enum: [...DATA_FORMATS, 'highcharts'], default: DATA_FORMATS[0] }),
  status_intervals: () => bool(false),
  rendering_hints: () => bool(false),
  force_latest_values: () => bool(false),
  generalize: () => bool(false),
  fields: () => ({ type: 'string', pattern: `^(${EXTRAS_FIELDS.join('|')})(,(${EXTRAS_FIELDS.join('|')}))*$` }),
  timespan: () => ({ type: 'string', pattern: '^[^/]+(/[^/]+)?$' }),
  crs: () => ({ type: 'string', default: CRS84.code, examples: SUPPORTED_CRS.map((c) => c.code) }),
  bbox: () => json(fromZod(bboxShape, 'input')),
  near: () => json(fromZod(nearShape, 'input')),
  generalizing_algorithm: () => ({ type: 'string', enum: ['LTTB', 'DP'] }),
  threshold: () => ({ type: 'integer', minimum: 2, default: DEFAULT_LTTB_THRESHOLD }),
  tolerance_value: () => ({ type: 'number', minimum: 0, default: DEFAULT_DP_TOLERANCE }),
  style: () => json(schemaRef(STYLE_SCHEMA)),
  legend: () => bool(CHART_DEFAULTS.legend),
  grid: () => bool(CHART_DEFAULTS.grid),
  width: () => ({ type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: CHART_DEFAULTS.width }),
  height: () => ({ type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: CHART_DEFAULTS.height }),
  language: () => language,
  fitReferenceValues: () => bool(CHART_DEFAULTS.fitReferenceValues),
  base64: () => bool(false),
  bom: () => bool(false),
  zip: () => bool(false),
};

/** The wire schema of a parameter; throws for a parameter without one (a test holds every table entry). */
export function wireSchema(name: string): JsonSchema {
  const w = WIRE[name];
  if (!w) throw new Error(`no wire schema for the timeseries parameter '${name}'`);
  return w();
}

const componentName = (name: string) => `timeseries.${name}`;

export function timeseriesParameters(): Record<string, unknown> {
  return Object.fromEntries(
    TIMESERIES_PARAM_DOCS.map((d) => {
      const schema = wireSchema(d.name);
      return [componentName(d.name), { name: d.name, in: 'query', required: d.name === 'q', description: d.meaning, schema, example: typedExample(schema, exampleText(d.name, d.example)) }];
    }),
  );
}

export function timeseriesParameterRefs(names: readonly string[]): unknown[] {
  const documented = new Set(TIMESERIES_PARAM_DOCS.map((d) => d.name));
  for (const n of names) if (!documented.has(n)) throw new Error(`the timeseries parameter '${n}' has no entry in the parameter tables`);
  return names.map((n) => parameterRef(componentName(n)));
}

const PATH_DOC = Object.fromEntries(PATH_PARAM_DOCS.map((d) => [d.name, d]));

/** `{id}` of a collection's resource. */
export function idParameter(collection: CollectionName): unknown {
  const c = COLLECTION_IDS[collection];
  return { name: 'id', in: 'path', required: true, description: PATH_DOC['id']!.meaning, schema: { type: 'string', pattern: idPattern(c.prefix) }, example: c.example };
}

/** `{interval}` of a pre-rendered chart. */
export function intervalParameter(): unknown {
  const d = PATH_DOC['interval']!;
  const pattern = `^(${PRERENDER_INTERVALS.join('|')})(_[A-Za-z0-9_-]+)?(\\.png)?$`;
  return { name: 'interval', in: 'path', required: true, description: d.meaning, schema: { type: 'string', pattern }, example: d.example };
}
