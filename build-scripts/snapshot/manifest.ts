/**
 * Reading and checking `snapshot.json`, the snapshot's own description
 * (stage 1 of snapshot validation).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  API_NAMES,
  MANIFEST_FILE,
  SNAPSHOT_FORMAT_VERSION,
  type SnapshotManifest,
} from '../../core/snapshot/table-schema.ts';
import { truncate } from './sql.ts';

const UTC_INSTANT_HINT = 'an ISO 8601 UTC instant like 2024-01-01T00:00:00Z';

export const manifestSchema = z.object({
  format_version: z.literal(SNAPSHOT_FORMAT_VERSION, {
    error: (issue) =>
      issue.input === undefined
        ? 'missing'
        : `expected ${SNAPSHOT_FORMAT_VERSION}, got ${show(issue.input)} (this code reads snapshot format version ${SNAPSHOT_FORMAT_VERSION})`,
  }),
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'missing' : `expected a string, got ${show(issue.input)}`) })
    .refine((text) => text.trim() !== '', { error: 'must not be empty' }),
  taken_at: z.iso.datetime({
    error: (issue) => (issue.input === undefined ? 'missing' : `expected ${UTC_INSTANT_HINT}, got ${show(issue.input)}`),
  }),
  apis: z
    .array(
      z.enum(API_NAMES, {
        error: (issue) => `unknown API ${show(issue.input)} (known: ${API_NAMES.join(', ')})`,
      }),
      { error: (issue) => (issue.input === undefined ? 'missing' : `expected an array of API names, got ${show(issue.input)}`) },
    )
    .min(1, { error: `must name at least one API (known: ${API_NAMES.join(', ')})` })
    .superRefine((apis, ctx) => {
      const seen = new Set<string>();
      apis.forEach((api, i) => {
        if (seen.has(api)) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(api)} is listed twice`, path: [i] });
        seen.add(api);
      });
    }),
});

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return truncate(text);
}

/** `field \`apis[1]\``: a zod issue path in the words of a problem message. */
function fieldName(issuePath: readonly PropertyKey[]): string {
  let name = '';
  for (const part of issuePath) {
    name += typeof part === 'number' ? `[${part}]` : `${name === '' ? '' : '.'}${String(part)}`;
  }
  return name;
}

export type ManifestResult = { manifest: SnapshotManifest; problems?: undefined } | { manifest?: undefined; problems: string[] };

/**
 * Reads `DIR/snapshot.json` and checks its shape. Never throws for a bad
 * snapshot: returns the problems instead, each naming the file and the field.
 */
export async function readManifest(dir: string): Promise<ManifestResult> {
  const file = path.join(dir, MANIFEST_FILE);
  const where = `snapshot ${dir}`;
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return { problems: [`${where}: not a folder`] };
  } catch {
    return { problems: [`${where}: no such folder`] };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problems: [code === 'ENOENT' ? `${where}: missing ${MANIFEST_FILE}` : `${file}: cannot be read (${code ?? String(error)})`],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { problems: [`${file}: not valid JSON (${(error as Error).message})`] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { problems: [`${file}: expected a JSON object, got ${show(data)}`] };
  }
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => `${file}: field \`${fieldName(issue.path)}\`: ${issue.message}`),
    };
  }
  const { format_version, name, taken_at, apis } = parsed.data;
  return { manifest: { format_version, name, taken_at, apis } };
}
