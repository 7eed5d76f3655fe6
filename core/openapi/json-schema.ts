/**
 * Small helpers the OpenAPI modules share: JSON Schema from a zod schema, references to components, and the
 * typed example value of a documented parameter.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema that is a plain type (no transform).
 * `input`: what a client sends (defaults are optional); `output`: what the API answers.
 */
export function fromZod(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'throw' }) as JsonSchema;
  return rest;
}

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/**
 * The value of `name` in a documented example: the example itself when it is a plain value (`true`), the
 * parameter's value when it is a query string (`offset=0&limit=100`).
 */
export function exampleText(name: string, example: string): string {
  return example.includes(`${name}=`) ? (new URLSearchParams(example).get(name) ?? example) : example;
}

/** An example as the schema types it: booleans and numbers as such, everything else as text. */
export function typedExample(schema: JsonSchema, text: string): unknown {
  if (schema['type'] === 'boolean') return text.trim().toLowerCase() === 'true';
  if (schema['type'] !== 'integer' && schema['type'] !== 'number') return text;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`the example '${text}' is not a number`);
  return n;
}

/** The first sentence of a description, for a summary. */
export function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return (m ? m[1]! : text).trim();
}
