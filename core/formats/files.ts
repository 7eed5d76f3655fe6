/**
 * The media type of every file the build writes, by extension: the APIs' tree files (from RADAR_FORMATS and
 * TIMESERIES_FORMATS) and the site's own assets. The endpoint's static files (server/app.ts) and nginx's `types`
 * (build-scripts/nginx/types.ts) both read this table, so they send the same Content-Type.
 */
import type { MediaType } from './media.ts';
import { FORMATS, RADAR_FORMATS } from './radar.ts';
import { REPRESENTATIONS, TIMESERIES_FORMATS } from './timeseries.ts';

/** Files of the site that no API format names. */
const SITE_ASSETS: Record<string, MediaType> = {
  sha256: { type: 'text/plain', utf8: true },
  txt: { type: 'text/plain', utf8: true },
  css: { type: 'text/css', utf8: true },
  js: { type: 'text/javascript', utf8: true },
  svg: { type: 'image/svg+xml', utf8: false },
};

/** Documents the site may hold (after the APIs' images, the order nginx.conf has always listed them in). */
const SITE_DOCUMENTS: Record<string, MediaType> = {
  pdf: { type: 'application/pdf', utf8: false },
  // the downloads (docs/downloads.md), the query page's DuckDB-WASM, the feeds (docs/changes.md)
  parquet: { type: 'application/vnd.apache.parquet', utf8: false },
  wasm: { type: 'application/wasm', utf8: false },
  atom: { type: 'application/atom+xml', utf8: false },
};

function byExtension(): Record<string, MediaType> {
  const out: Record<string, MediaType> = {};
  for (const f of FORMATS) out[RADAR_FORMATS[f].ext] ??= RADAR_FORMATS[f].media;
  for (const [ext, m] of Object.entries(SITE_ASSETS)) out[ext] ??= m;
  for (const r of REPRESENTATIONS) if (TIMESERIES_FORMATS[r].treeFile) out[r] ??= TIMESERIES_FORMATS[r].media;
  for (const [ext, m] of Object.entries(SITE_DOCUMENTS)) out[ext] ??= m;
  return out;
}

/** Media type by file extension (without the dot). A JSON file is the radar API's bare `application/json`. */
export const FILE_TYPES: Readonly<Record<string, MediaType>> = byExtension();
