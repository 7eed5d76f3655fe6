/** The `types` blocks of nginx.conf: the Content-Type nginx gives each file of the tree. */
import { q } from './quote.ts';

/**
 * Content types by extension: exactly those the endpoint sends (server/app.ts SITE_TYPES and the API handlers).
 * The `; charset=utf-8` of text types is added by nginx's `charset` (a type written with its charset in `types`
 * would not match `gzip_types`).
 */
export const NGINX_TYPES: Record<string, { type: string; utf8: boolean }> = {
  json: { type: 'application/json', utf8: false },
  csv: { type: 'text/csv', utf8: true },
  sha1: { type: 'text/plain', utf8: true },
  sha256: { type: 'text/plain', utf8: true },
  txt: { type: 'text/plain', utf8: true },
  html: { type: 'text/html', utf8: true },
  css: { type: 'text/css', utf8: true },
  js: { type: 'text/javascript', utf8: true },
  svg: { type: 'image/svg+xml', utf8: false },
  png: { type: 'image/png', utf8: false },
  pdf: { type: 'application/pdf', utf8: false },
  parquet: { type: 'application/vnd.apache.parquet', utf8: false },
  wasm: { type: 'application/wasm', utf8: false },
  atom: { type: 'application/atom+xml', utf8: false },
};

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
