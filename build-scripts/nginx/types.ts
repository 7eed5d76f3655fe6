/** The `types` blocks of nginx.conf: the Content-Type nginx gives each file of the tree. */
import { FILE_TYPES } from '../../core/formats/files.ts';
import type { MediaType } from '../../core/formats/media.ts';
import { q } from './quote.ts';

/**
 * Content types by extension: core/formats/files.ts FILE_TYPES, the table the endpoint sends them by too
 * (server/app.ts, the API handlers). The `; charset=utf-8` of text types is added by nginx's `charset` (a type
 * written with its charset in `types` would not match `gzip_types`).
 */
export const NGINX_TYPES: Readonly<Record<string, MediaType>> = FILE_TYPES;

/**
 * A `types` block: every type of NGINX_TYPES, `json` as `jsonType`. The Timeseries API's location has its own,
 * so its JSON files carry `; charset=UTF-8` as the endpoint writes it, while the radar API's stay bare
 * (nginx's `charset` directive would write the name as the server's `charset utf-8` spells it).
 */
export function typesBlock(jsonType: string, indent: string): string {
  const byType = new Map<string, string[]>();
  for (const [ext, t] of Object.entries(NGINX_TYPES)) {
    const type = ext === 'json' ? jsonType : t.type;
    byType.set(type, [...(byType.get(type) ?? []), ext]);
  }
  return `${indent}types {\n${[...byType].map(([type, exts]) => `${indent}  ${q(type)} ${exts.join(' ')};`).join('\n')}\n${indent}}`;
}
