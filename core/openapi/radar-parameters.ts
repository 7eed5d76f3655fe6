/**
 * The radar catalogue's parameters as OpenAPI parameter components: names, meanings, defaults and examples
 * from the parameter tables (core/radar/params.ts, filters.ts), and the wire format each entry gives as JSON
 * Schema (the zod schemas read text and transform it).
 */
import { PARAM_DOCS } from '../radar/params.ts';
import { ID_PARAM_DOC } from '../radar/routes.ts';
import { exampleText, parameterRef, typedExample } from './json-schema.ts';

const componentName = (name: string) => `radar.${name}`;

/** The parameter components of the radar catalogue (query parameters, and the `{id}` path segment). */
export function radarParameters(): Record<string, unknown> {
  const query = PARAM_DOCS.map((d) => {
    const schema = d.wire(d);
    const text = exampleText(d.name, d.example);
    return [
      componentName(d.name),
      { name: d.name, in: 'query', required: false, description: `${d.meaning} Format: ${d.type}. Default: ${d.default}.`, schema, example: typedExample(schema, text) },
    ];
  });
  const idSchema = { type: 'integer', format: 'int64' };
  const id = [componentName('id'), { name: 'id', in: 'path', required: true, description: ID_PARAM_DOC.meaning, schema: idSchema, example: typedExample(idSchema, ID_PARAM_DOC.example) }];
  const since = [
    componentName('since'),
    {
      name: 'since',
      in: 'query',
      required: true,
      description: `The change API's start: a kept snapshot's name (GET /snapshots.json lists them), answering the changes of the snapshots after it, or an ISO 8601 datetime (partial, UTC without a zone), answering those of the snapshots taken after it. Older than the kept history: 410, the hints naming the oldest snapshot it can answer.`,
      schema: { type: 'string', minLength: 1 },
      example: '2024-01-30T00:00:00Z',
    },
  ];
  return Object.fromEntries([...query, id, since]);
}

/** The parameters of the change API (core/radar/changes.ts): since, and the record parameters it reads. */
export const CHANGES_PARAM_NAMES = ['since', 'radar_code', 'timespan', 'contentType', 'expanded', 'delimiter', 'includeHeaders'] as const;
export function changesParameterRefs(): unknown[] {
  return CHANGES_PARAM_NAMES.map((n) => parameterRef(componentName(n)));
}

/** References to the parameters a radar path reads: every query parameter, and `{id}` on record paths. */
export function radarParameterRefs(withId: boolean): unknown[] {
  return [...(withId ? [parameterRef(componentName('id'))] : []), ...PARAM_DOCS.map((d) => parameterRef(componentName(d.name)))];
}
