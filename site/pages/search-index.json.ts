/**
 * `/search-index.json`: what the site search looks in (site/lib/search-index.ts), written once by the site build.
 * Compact JSON, one entry per line, so a diff of two builds shows the entries that changed.
 */
import type { APIRoute } from 'astro';
import { searchIndex } from '../lib/search-index.ts';

export const GET: APIRoute = async () => {
  const { locales, entries } = await searchIndex();
  const body = `{"locales":${JSON.stringify(locales)},"entries":[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
};
