/**
 * JSON Schemas of the Timeseries API's resources, data answers and request bodies. Resource shapes follow
 * core/timeseries/views.ts and data-body.ts; collection descriptions come from the collection index table,
 * body field descriptions from the parameter tables, styles from the configuration's zod schema.
 */
import { styleSchema } from '../snapshot/timeseries-config.ts';
import { CHART_PARAM_DOCS, DATA_KEYS, RENDER_BODY_DOCS, RENDER_EXAMPLE } from '../timeseries/chart-request.ts';
import { QUANTITIES } from '../timeseries/catalogue.ts';
import { COLLECTION_INFO } from '../timeseries/collection-index.ts';
import { MAX_POST_SERIES, OPTION_KEYS, POST_BODY_DOCS, POST_EXAMPLE } from '../timeseries/data-request.ts';
import { idPattern } from '../timeseries/params.ts';
import { fromZod, schemaRef as ref, type JsonSchema } from './json-schema.ts';
import { STYLE_SCHEMA, TIMESERIES_PARAM_DOCS, wireSchema } from './timeseries-parameters.ts';

const str: JsonSchema = { type: 'string' };
const obj = (properties: Record<string, unknown>, required: string[], description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required,
});
const arrayOf = (items: unknown): JsonSchema => ({ type: 'array', items });
const N = (name: string) => `timeseries.${name}`;

const idLabel = obj({ id: str, label: str }, ['id', 'label']);
const value = obj({ timestamp: { type: 'integer', description: 'Milliseconds since the Unix epoch.' }, value: { type: ['number', 'null'] } }, ['timestamp', 'value']);
const point = obj({ type: { const: 'Point' }, coordinates: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } }, ['type', 'coordinates']);
const values = obj({ values: arrayOf(ref(N('Value'))) }, ['values']);
const withReferences = obj(
  { values: arrayOf(ref(N('Value'))), extra: obj({ referenceValues: { type: 'object', additionalProperties: ref(N('Values')) } }, ['referenceValues']) },
  ['values'],
);
const pair: JsonSchema = { type: 'array', prefixItems: [{ type: 'integer' }, { type: ['number', 'null'] }], minItems: 2, maxItems: 2 };
const refValue = obj({ referenceValueId: str, label: str, lastValue: ref(N('Value')) }, ['referenceValueId', 'label']);

/** Every field of the body: its parameter's meaning; typed values may also come as text. */
function bodyFields(names: readonly string[]): Record<string, JsonSchema> {
  const docs = new Map([...TIMESERIES_PARAM_DOCS, ...POST_BODY_DOCS, ...RENDER_BODY_DOCS].map((d) => [d.name, d.meaning]));
  return Object.fromEntries(
    names.map((n) => {
      const { default: _default, ...wire } = wireSchema(n);
      const typed = ['boolean', 'integer', 'number'].includes(wire['type'] as string) ? { anyOf: [wire, str] } : wire;
      return [n, { ...typed, description: docs.get(n) }];
    }),
  );
}

const bodyDoc = (docs: { name: string; meaning: string }[], name: string) => docs.find((d) => d.name === name)!.meaning;
const seriesIds = (meaning: string): JsonSchema => ({ type: 'array', items: { type: 'string', pattern: idPattern('ts') }, minItems: 1, maxItems: MAX_POST_SERIES, description: meaning });
const LOOK = [...CHART_PARAM_DOCS.filter((d) => d.name !== 'style').map((d) => d.name), 'locale'];

export const TIMESERIES_SCHEMA = {
  idLabel: N('IdLabel'),
  service: N('Service'),
  member: N('Member'),
  offering: N('Offering'),
  station: N('Station'),
  timeseries: N('Timeseries'),
  index: N('CollectionIndex'),
  searchItem: N('SearchItem'),
  extras: N('Extras'),
  values: N('Values'),
  valuesById: N('ValuesByTimeseries'),
  allTimeseries: N('AllTimeseries'),
  highchart: N('HighchartSeries'),
  flot: N('FlotSeries'),
  flotById: N('FlotByTimeseries'),
  dataRequest: N('DataRequest'),
  renderRequest: N('RenderRequest'),
} as const;

export const POST_EXAMPLES = { data: JSON.parse(POST_EXAMPLE) as unknown, render: JSON.parse(RENDER_EXAMPLE) as unknown };

const statusIntervals = arrayOf(obj({ lower: str, upper: str, name: str, color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' } }, ['lower', 'name', 'color']));

export function timeseriesSchemas(): Record<string, JsonSchema> {
  const indexEntry = obj({ id: str, label: str, description: str }, ['id', 'label', 'description']);
  return {
    [N('IdLabel')]: idLabel,
    [N('Value')]: value,
    [N('Service')]: obj(
      {
        id: str,
        label: str,
        serviceUrl: str,
        version: str,
        type: str,
        supportsFirstLatest: { type: 'boolean' },
        quantities: obj(Object.fromEntries(QUANTITIES.map((k) => [k, { type: 'integer' }])), [...QUANTITIES]),
      },
      ['id', 'label'],
      COLLECTION_INFO.services.description,
    ),
    [N('Member')]: obj({ id: str, label: str, service: obj({ id: { type: 'string', description: 'Relative reference ../services/<id>.' }, label: str }, ['id', 'label']) }, ['id', 'label']),
    [N('Offering')]: obj({ id: str, label: str, service: { type: 'string', description: 'Relative reference ../services/<id>.' } }, ['id', 'label'], COLLECTION_INFO.offerings.description),
    [N('Station')]: obj(
      {
        type: { const: 'Feature' },
        properties: obj({ id: str, label: str, timeseries: { type: 'object', additionalProperties: { type: 'object', additionalProperties: idLabel } } }, ['id', 'label']),
        geometry: point,
      },
      ['type', 'properties', 'geometry'],
      COLLECTION_INFO.stations.description,
    ),
    [N('Timeseries')]: obj(
      {
        id: str,
        label: str,
        uom: str,
        station: ref(N('Station')),
        firstValue: ref(N('Value')),
        lastValue: ref(N('Value')),
        parameters: { type: 'object', additionalProperties: { type: 'object' } },
        refValues: arrayOf(refValue),
        referenceValues: arrayOf(refValue),
        statusIntervals: statusIntervals,
        renderingHints: ref(N('RenderingHints')),
      },
      ['id', 'label', 'station'],
      COLLECTION_INFO.timeseries.description,
    ),
    [N('Extras')]: obj(
      { license: { type: 'string', description: "The data's license text." }, statusIntervals, renderingHints: ref(N('RenderingHints')) },
      [],
      'Extra metadata of a timeseries (52°North v1.10.8 "extras"): each field present when the series has it.',
    ),
    [N('CollectionIndex')]: { oneOf: [{ type: 'object', additionalProperties: indexEntry }, arrayOf({ ...indexEntry, properties: { ...(indexEntry['properties'] as object), size: { type: 'integer' } } })] },
    [N('SearchItem')]: obj({ id: str, label: str, type: str, href: str }, ['id', 'label', 'type', 'href']),
    [N('Values')]: values,
    [N('ValuesByTimeseries')]: { type: 'object', additionalProperties: withReferences },
    [N('AllTimeseries')]: obj({ allTimeseries: { type: 'object', additionalProperties: withReferences } }, ['allTimeseries']),
    [N('HighchartSeries')]: obj({ name: str, data: arrayOf(pair) }, ['name', 'data']),
    [N('FlotSeries')]: obj(
      {
        values: arrayOf(pair),
        referenceValues: { type: 'object', additionalProperties: obj({ values: arrayOf(pair) }, ['values']), description: 'Reference values sampled at the timestamps of values; {} unless expanded=true.' },
        valueBeforeTimespan: { ...pair, description: 'expanded=true: the last non-null value before the timespan, when there is one.' },
        valueAfterTimespan: { ...pair, description: 'expanded=true: the first non-null value after the timespan, when there is one.' },
      },
      ['values', 'referenceValues'],
      'format=flot: the values as [timestamp, value] pairs.',
    ),
    [N('FlotByTimeseries')]: { type: 'object', additionalProperties: ref(N('FlotSeries')) },
    [STYLE_SCHEMA]: fromZod(styleSchema, 'input'),
    [N('RenderingHints')]: fromZod(styleSchema, 'output'),
    [N('DataRequest')]: {
      ...obj({ ...bodyFields(OPTION_KEYS), timeseries: seriesIds(bodyDoc(POST_BODY_DOCS, 'timeseries')) }, ['timeseries']),
      examples: [POST_EXAMPLES.data],
    },
    [N('RenderRequest')]: {
      ...obj(
        {
          ...bodyFields([...DATA_KEYS, ...LOOK]),
          styleOptions: { type: 'object', propertyNames: { pattern: idPattern('ts') }, additionalProperties: ref(STYLE_SCHEMA), description: bodyDoc(RENDER_BODY_DOCS, 'styleOptions') },
          timeseries: seriesIds(bodyDoc(RENDER_BODY_DOCS, 'timeseries')),
        },
        [],
      ),
      anyOf: [{ required: ['styleOptions'] }, { required: ['timeseries'] }],
      examples: [POST_EXAMPLES.render],
    },
  };
}
