/** The compression directives of nginx.conf (gzip, and brotli when its module is loaded). */
import { COMPRESS_MIN_BYTES, compressibleType } from '../../core/http/content-coding.ts';
import { FILE_TYPES } from '../../core/formats/files.ts';
import { TIMESERIES } from '../../core/nginx/static-rules.ts';
import { q } from './quote.ts';

/**
 * Types nginx compresses (static and proxied alike; clients that do not ask for gzip get the plain bytes): those
 * of core/http/content-coding.ts compressibleType among the types served (core/formats/files.ts; text/html always
 * is, so it is not named). The Timeseries
 * API's JSON type is named with its charset: nginx compares the whole type it set from `types`.
 */
const GZIP_TYPES = (() => {
  const served = [...new Set(Object.values(FILE_TYPES).map((m) => m.type))].filter((t) => compressibleType(t) && t !== 'text/html');
  const json = served.indexOf('application/json');
  return [...served.slice(0, json + 1), TIMESERIES.jsonContentType, ...served.slice(json + 1)];
})();

/** The compression directives: gzip, and brotli when its module is loaded (levels as the endpoint's, fast). */
export function compression(brotli: boolean): string {
  const types = GZIP_TYPES.map(q).join(' ');
  const lines = [
    '  # Compression of text (files and endpoint answers alike) for clients that ask for it, from 1 KB (as the',
    '  # endpoint: server/compression.ts). Answers the endpoint compressed itself pass as they are.',
    '  gzip on;',
    `  gzip_types ${types};`,
    '  gzip_comp_level 1;',
    '  gzip_proxied any;',
    '  gzip_vary on;',
    `  gzip_min_length ${COMPRESS_MIN_BYTES};`,
  ];
  if (brotli) {
    lines.push(
      '  # br for clients that accept it (the brotli module, tried before gzip); quality 1, the fastest',
      '  brotli on;',
      `  brotli_types ${types} text/html;`,
      '  brotli_comp_level 1;',
      `  brotli_min_length ${COMPRESS_MIN_BYTES};`,
    );
  }
  return lines.join('\n');
}
