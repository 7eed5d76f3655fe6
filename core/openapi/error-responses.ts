/**
 * The error responses of both APIs: one schema (`Error`, from the error module's zod schema) and one
 * response component per status, each referencing it.
 */
import { ERROR_STATUSES, errorBodySchema } from '../http/errors.ts';
import { fromZod, responseRef, schemaRef, type JsonSchema } from './json-schema.ts';

export const ERROR_SCHEMA = 'Error';

export function errorSchemas(): Record<string, JsonSchema> {
  return { [ERROR_SCHEMA]: fromZod(errorBodySchema, 'output') };
}

/** `Error404` and so on. */
const responseName = (status: number) => `Error${status}`;

/** Response headers some errors carry. */
const ERROR_HEADERS: Record<number, Record<string, { description: string; schema: JsonSchema }>> = {
  405: { Allow: { description: 'The methods the path answers.', schema: { type: 'string' } } },
  503: { 'Retry-After': { description: 'Seconds to wait before trying again (chart rendering).', schema: { type: 'integer' } } },
};

export function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([code, s]) => [
      responseName(Number(code)),
      {
        description: `${s.reason}: ${s.when}`,
        ...(ERROR_HEADERS[Number(code)] ? { headers: ERROR_HEADERS[Number(code)] } : {}),
        // an example of this status (a viewer would otherwise make every one from the schema: statusCode 400)
        content: { 'application/json': { schema: schemaRef(ERROR_SCHEMA), example: { statusCode: Number(code), reason: s.reason, userMessage: s.when } } },
      },
    ]),
  );
}

/** The `responses` entries of the given error statuses (always with 500). */
export function errorRefs(statuses: number[]): Record<string, unknown> {
  const all = [...new Set([...statuses, 500])].sort((a, b) => a - b);
  return Object.fromEntries(all.map((s) => [String(s), responseRef(responseName(s))]));
}
