/**
 * JSON Schemas of the radar catalogue's records, made from the resource table (core/radar/resources.ts):
 * one per resource and view, fields in the order the API writes them.
 */
import { RESOURCES, RESOURCE_NAMES, type Field, type FieldKind, type ResourceName } from '../radar/resources.ts';
import { schemaRef, type JsonSchema } from './json-schema.ts';

const GEOMETRY: JsonSchema = {
  type: 'object',
  description: 'A GeoJSON geometry, lon/lat degrees (WGS84).',
  properties: { type: { type: 'string' }, coordinates: { type: 'array' } },
  required: ['type', 'coordinates'],
};

const KINDS: Record<FieldKind, JsonSchema> = {
  int: { type: 'integer' },
  text: { type: 'string' },
  bool: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' },
  digits: { type: 'string', pattern: '^\\d+$', description: 'A whole number written as a string of digits (kept exact).' },
  json: GEOMETRY,
};

function fieldSchema(f: Field): JsonSchema {
  const s = KINDS[f.kind];
  return f.nullable ? { ...s, type: [s['type'], 'null'] } : s;
}

function record(fields: Field[], description: string): JsonSchema {
  return {
    type: 'object',
    description,
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    required: fields.map((f) => f.name),
    additionalProperties: false,
  };
}

export const RADAR_INDEX_SCHEMA = 'radar.index';

/** `radar.files` (the simple view, or the only one) and `radar.files.expanded`. */
export const recordSchemaName = (r: ResourceName, expanded: boolean) => `radar.${r}${expanded && RESOURCES[r].expanded.length > 0 ? '.expanded' : ''}`;

export function radarSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    [RADAR_INDEX_SCHEMA]: {
      type: 'object',
      properties: {
        api_routes: {
          type: 'array',
          items: { type: 'object', properties: { method: { type: 'string' }, path: { type: 'string' } }, required: ['method', 'path'], additionalProperties: false },
        },
      },
      required: ['api_routes'],
      additionalProperties: false,
    },
  };
  for (const name of RESOURCE_NAMES) {
    const r = RESOURCES[name];
    const two = r.expanded.length > 0;
    out[recordSchemaName(name, false)] = record(r.simple, two ? `${r.meaning} Simple view.` : r.meaning);
    if (two) out[recordSchemaName(name, true)] = record(r.expanded, `${r.meaning} Full record (expanded=true).`);
  }
  return out;
}

/** One record of a resource in either view. */
export function radarRecordSchema(r: ResourceName): JsonSchema {
  if (RESOURCES[r].expanded.length === 0) return schemaRef(recordSchemaName(r, false));
  return { oneOf: [schemaRef(recordSchemaName(r, false)), schemaRef(recordSchemaName(r, true))] };
}
