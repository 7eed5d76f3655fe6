/**
 * A JSON Schema's properties as table rows (name, type, required, description), for the docs: the schemas are
 * the OpenAPI document's components and the zod schemas of the snapshot's configuration files.
 */
export type JsonSchema = Record<string, unknown>;

export interface PropertyRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

const REF_PREFIX = '#/components/schemas/';

/** The component name a `$ref` points at (`timeseries.Value`), or undefined. */
export function refName(s: unknown): string | undefined {
  const ref = (s as JsonSchema | undefined)?.['$ref'];
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/** A short text of a schema's type: `string`, `integer or null`, `array of timeseries.Value`, `"Feature"`. */
export function typeText(s: unknown): string {
  if (s === undefined || s === null || typeof s !== 'object') return 'any';
  const o = s as JsonSchema;
  const ref = refName(o);
  if (ref) return ref;
  if ('const' in o) return JSON.stringify(o['const']);
  if (Array.isArray(o['enum'])) return (o['enum'] as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(o[k])) return [...new Set((o[k] as unknown[]).map(typeText))].join(' or ');
  }
  const t = o['type'];
  const types = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
  if (types.length === 0) return 'any';
  return types
    .map((one) => {
      if (one === 'array') return o['items'] === undefined ? 'array' : `array of ${typeText(o['items'])}`;
      if (one === 'object' && o['additionalProperties'] && typeof o['additionalProperties'] === 'object') return `object of ${typeText(o['additionalProperties'])}`;
      if (one === 'string' && typeof o['format'] === 'string') return `string (${o['format']})`;
      return one;
    })
    .join(' or ');
}

/** The schema's own properties, in order. */
export function propertyRows(schema: JsonSchema): PropertyRow[] {
  const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    type: typeText(p),
    required: required.has(name),
    description: typeof p['description'] === 'string' ? p['description'] : '',
  }));
}

/** Every component name a schema refers to, anywhere inside it. */
export function refsIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) refsIn(s, out);
  else if (schema && typeof schema === 'object') {
    const ref = refName(schema);
    if (ref) out.add(ref);
    for (const v of Object.values(schema)) refsIn(v, out);
  }
  return out;
}
