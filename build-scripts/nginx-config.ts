/**
 * npm run nginx-config -- [--build dist] [--endpoint http://127.0.0.1:8080] [--listen 127.0.0.1:8081 | --port 8081]
 *   [--brotli-module /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so] > nginx.conf
 *
 * An nginx configuration that serves a build's static tree and passes every request that needs the endpoint to
 * it. `nginxConfig()` is a pure function of its options; the rules for which request is which file come from
 * core/nginx/static-rules.ts (derived from the endpoint's own route and parameter tables).
 *
 * - `root` is the build's `site/` reached through the output link (`dist/site`), so a new build swapped in by
 *   `npm run build` is served without reloading nginx.
 * - Every file gets the Content-Type the endpoint sends for it; a request the endpoint would answer from a
 *   file of the tree (parameter-free GET/HEAD, `contentType`/`expanded`/`Accept` variants, pre-rendered charts,
 *   docs pages) is that file; anything else (live parameters, POST, OPTIONS, on-demand charts, errors) goes to
 *   the endpoint unchanged (`$request_uri` as sent).
 * - Answers from files carry the endpoint's headers (CORS, security, `Cache-Control`, `Vary: Accept`); their
 *   ETag is nginx's own (file time and size), not the endpoint's hash of the request: both validate the same bytes.
 * - Relative paths (pid, logs, temp folders) are under the prefix: `nginx -p PREFIX -c PREFIX/nginx.conf
 *   -e stderr` runs it without touching /etc or /var, as root or not.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorBody, errorObject, HttpError } from '../core/http/errors.ts';
import { HEALTH_PATH, METRICS_PATH } from '../core/http/route-family.ts';
import { ACCEPT_ANY, acceptExactly, BOOLEAN_VALUE, CLEAN_REQUEST_URI, escapeRegex, firstValueOf, queryOnlyOf, RADAR, TIMESERIES } from '../core/nginx/static-rules.ts';
import { CACHE_CONTROL, SECURITY_HEADERS } from '../server/http-cache.ts';
import { COMPRESS_MIN_BYTES } from '../core/http/content-coding.ts';

export interface NginxOptions {
  /** Absolute path of the build's static tree, best through the output link (`/srv/snapcat/dist/site`). */
  site: string;
  /** The endpoint's base URL (`npm run serve`): `http://127.0.0.1:8080`. */
  endpoint?: string;
  /** nginx `listen` parameters: a port (`8081`) or `address:port` (`127.0.0.1:8081`). */
  listen?: string | number;
  /** nginx `server_name`; default `_` (any). */
  serverName?: string;
  /** Worker processes; default `auto`. */
  workers?: number | 'auto';
  /** The user workers run as when nginx is started as root (nginx's default: nobody). */
  user?: string;
  /** Largest request body nginx accepts before the endpoint sees it (bytes); the endpoint has its own, lower, limit. */
  maxBodyBytes?: number;
  /**
   * Absolute path of nginx's brotli filter module (Debian: `apt-get install libnginx-mod-http-brotli-filter`,
   * BROTLI_MODULE_DEBIAN): loaded, nginx also answers `br` to clients that accept it. Without it, gzip only.
   */
  brotliModule?: string;
}

/** Where Debian's libnginx-mod-http-brotli-filter puts the module. */
export const BROTLI_MODULE_DEBIAN = '/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8080';
export const DEFAULT_LISTEN = '127.0.0.1:8081';

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
};

/**
 * Types nginx compresses (static and proxied alike; clients that do not ask for gzip get the plain bytes): those
 * of core/http/content-coding.ts compressibleType among the types served (text/html always is). The Timeseries
 * API's JSON type is named with its charset: nginx compares the whole type it set from `types`.
 */
const GZIP_TYPES = ['application/json', TIMESERIES.jsonContentType, 'text/csv', 'text/plain', 'text/css', 'text/javascript', 'image/svg+xml'];

/**
 * A `types` block: every type of NGINX_TYPES, `json` as `jsonType`. The Timeseries API's location has its own,
 * so its JSON files carry `; charset=UTF-8` as the endpoint writes it, while the radar API's stay bare
 * (nginx's `charset` directive would write the name as the server's `charset utf-8` spells it).
 */
function typesBlock(jsonType: string, indent: string): string {
  const byType = new Map<string, string[]>();
  for (const [ext, t] of Object.entries(NGINX_TYPES)) {
    const type = ext === 'json' ? jsonType : t.type;
    byType.set(type, [...(byType.get(type) ?? []), ext]);
  }
  return `${indent}types {\n${[...byType].map(([type, exts]) => `${indent}  ${q(type)} ${exts.join(' ')};`).join('\n')}\n${indent}}`;
}

/** The compression directives: gzip, and brotli when its module is loaded (levels as the endpoint's, fast). */
function compression(brotli: boolean): string {
  const lines = [
    '  # Compression of text (files and endpoint answers alike) for clients that ask for it, from 1 KB (as the',
    '  # endpoint: server/compression.ts). Answers the endpoint compressed itself pass as they are.',
    '  gzip on;',
    `  gzip_types ${GZIP_TYPES.map(q).join(' ')};`,
    '  gzip_comp_level 1;',
    '  gzip_proxied any;',
    '  gzip_vary on;',
    `  gzip_min_length ${COMPRESS_MIN_BYTES};`,
  ];
  if (brotli) {
    lines.push(
      '  # br for clients that accept it (the brotli module, tried before gzip); quality 1, the fastest',
      '  brotli on;',
      `  brotli_types ${GZIP_TYPES.map(q).join(' ')} text/html;`,
      '  brotli_comp_level 1;',
      `  brotli_min_length ${COMPRESS_MIN_BYTES};`,
    );
  }
  return lines.join('\n');
}

/** A double-quoted nginx string (backslash and double quote escaped). */
function q(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A single-quoted nginx string for `return` text; nginx would expand `$`, so none may be in it. */
function body(text: string): string {
  if (text.includes('$')) throw new Error(`nginx return text cannot hold '$': ${text}`);
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function endpointAddress(endpoint: string): string {
  const u = new URL(endpoint);
  if (u.protocol !== 'http:') throw new Error(`the endpoint must be an http:// URL, not ${endpoint}`);
  if (u.pathname !== '/' || u.search) throw new Error(`the endpoint URL must have no path: ${endpoint}`);
  return `${u.hostname}:${u.port || '80'}`;
}

/** The endpoint's common headers (server/http-cache.ts applyCommonHeaders), for answers nginx writes itself. */
function commonHeaders(cacheControl: string, indent: string, vary = 'Accept'): string {
  const h: [string, string][] = [
    ['Access-Control-Allow-Origin', '*'],
    ['Access-Control-Expose-Headers', 'Link, ETag, Content-Disposition'],
    ['X-Content-Type-Options', 'nosniff'],
    ...Object.entries(SECURITY_HEADERS),
    ['Vary', vary],
    ['Cache-Control', cacheControl],
  ];
  return h.map(([k, v]) => `${indent}add_header ${k} ${q(v)} always;`).join('\n');
}

function mapBlock(source: string, variable: string, entries: [string, string][], fallback: string): string {
  const lines = entries.map(([k, v]) => `    ${q(k)} ${q(v)};`);
  return `  map ${q(source)} $${variable} {\n${lines.join('\n')}\n    default ${q(fallback)};\n  }`;
}

/** The `map` blocks that turn a request into the file of the tree that answers it ("" when none does). */
function maps(): string {
  const R = RADAR.prefix;
  const T = TIMESERIES.prefix;
  const ct = RADAR.contentTypeValues();
  const formats = Object.keys(ct);
  const fmt = `(${formats.join('|')})`;
  const C = `(${TIMESERIES.collections.map(escapeRegex).join('|')})`;
  const ID = `(${TIMESERIES.id})`;
  const suffix = '(\\.[a-z0-9.]+)';
  const tsBare = TIMESERIES.suffix(false);
  const expandedTokens = [`expanded=${BOOLEAN_VALUE.true}`, `expanded=${BOOLEAN_VALUE.false}`];
  // (nginx tries no regular expression on an empty value: each map names "" itself)
  const blocks = [
    '  # Candidates for a static answer: GET or HEAD of a clean target (no percent-encoding, dot or empty segments).',
    mapBlock('$request_method', 'snap_method', [['GET', '1'], ['HEAD', '1']], '0'),
    mapBlock('$request_uri', 'snap_clean', [[`~${CLEAN_REQUEST_URI}`, '1']], '0'),
    mapBlock('$snap_method$snap_clean', 'snap_ok', [['11', '1']], '0'),
    '  # expanded: the first value counts (0, 1, or x: not one the endpoint reads as a boolean here)',
    mapBlock('$args', 'snap_expanded_raw', [[`~${firstValueOf('expanded')}`, '=$1']], ''),
    mapBlock('$snap_expanded_raw', 'snap_expanded', [['', '0'], [`~^=${BOOLEAN_VALUE.true}$`, '1'], [`~^=${BOOLEAN_VALUE.false}$`, '0']], 'x'),
    '',
    `  # ${R}: the format is contentType (its first value), else Accept; the file is P + the variant's suffix.`,
    mapBlock('$args', 'snap_radar_query', [['', '1'], [`~${queryOnlyOf([...formats.map((f) => `contentType=${ct[f as 'json']}`), ...expandedTokens], RADAR.knownParams)}`, '1']], '0'),
    mapBlock('$args', 'snap_radar_ct_raw', [[`~${firstValueOf('contentType')}`, '=$1']], ''),
    mapBlock('$snap_radar_ct_raw', 'snap_radar_ct', [['', ''], ...formats.map((f): [string, string] => [`~^=${ct[f as 'json']}$`, f])], 'x'),
    mapBlock('$http_accept', 'snap_radar_accept', [['', 'json'], [`~${ACCEPT_ANY}`, 'json'], ...Object.entries(RADAR.acceptTypes).map(([f, t]): [string, string] => [`~*${acceptExactly(t)}`, f])], 'x'),
    mapBlock('$snap_radar_ct:$snap_radar_accept', 'snap_radar_format', [[`~^${fmt}:`, '$1'], [`~^:${fmt}$`, '$1']], 'x'),
    mapBlock('$snap_radar_format:$snap_expanded', 'snap_radar_suffix', RADAR.suffixes().map((s) => [`${s.format}:${s.expanded ? 1 : 0}`, s.suffix]), ''),
    mapBlock('$snap_ok:$snap_radar_query:$snap_radar_suffix:$uri', 'snap_radar_file', [
      // a file of the tree by its own name, whatever the query (radar-handler's sendTreeFile)
      [`~^1:[^:]*:[^:]*:(${escapeRegex(R)}/[A-Za-z0-9_.~/-]*\\.(?:${RADAR.treeFileSuffixes.join('|')}))$`, '$1'],
      [`~^1:1:${suffix}:${escapeRegex(R)}/$`, `${R}/index$1`],
      [`~^1:1:${suffix}:(${RADAR.apiPath})$`, '$2$1'],
      // the same files under an alias prefix, except those holding links (the index, HTML pages): the endpoint makes them
      ...RADAR.aliases.flatMap((A): [string, string][] => {
        const index = RADAR.indexFiles().map((f) => escapeRegex(f.slice(1))).join('|');
        const links = RADAR.linkSuffixes();
        const plain = RADAR.treeFileSuffixes.filter((x) => !links.includes(`.${x}`));
        return [
          [`~^1:[^:]*:[^:]*:${escapeRegex(A)}(/(?!(?:${index})$)[A-Za-z0-9_.~/-]*\\.(?:${plain.join('|')}))$`, `${R}$1`],
          [`~^1:1:(?!(?:${links.map(escapeRegex).join('|')}):)${suffix}:${escapeRegex(A)}((?:/[A-Za-z0-9_-]+)+)$`, `${R}$2$1`],
        ];
      }),
    ], ''),
    '  # a download (CSV, checksum report) from the tree is offered under its file\'s name (core/radar/download-name.ts)',
    mapBlock('$snap_radar_file', 'snap_radar_download', RADAR.downloadRules().map(([re, header]) => [`~${re}`, header]), ''),
    '',
    `  # ${T}: only expanded selects a file; a path extension .json wins over Accept; pre-rendered charts ignore both.`,
    '  # Accept-Language localizes the labels of collections and resources: only English (the tree\'s labels) is a file.',
    mapBlock('$http_accept_language', 'snap_ts_lang', [['', '1'], [`~*${TIMESERIES.defaultLanguages}`, '1']], '0'),
    mapBlock('$args', 'snap_ts_query', [['', '1'], [`~${queryOnlyOf(expandedTokens, TIMESERIES.knownParams)}`, '1']], '0'),
    mapBlock('$http_accept', 'snap_ts_accept', [['', 'json'], [`~${ACCEPT_ANY}`, 'json'], [`~*${acceptExactly(TIMESERIES.jsonType)}`, 'json']], 'x'),
    mapBlock('$snap_expanded', 'snap_ts_suffix', [['0', TIMESERIES.suffix(false)], ['1', TIMESERIES.suffix(true)]], ''),
    // the second field is $snap_ts_lang: 1 required where labels are served (collections, resources)
    mapBlock('$snap_ok:$snap_ts_lang:$snap_ts_query:$snap_ts_accept:$snap_ts_suffix:$uri', 'snap_ts_file', [
      [`~^1:[^:]*:[^:]*:[^:]*:[^:]*:(${escapeRegex(T)}/timeseries/${TIMESERIES.id})/(?!getData(?:\\.png)?/?$)(${TIMESERIES.chartName})(?:\\.png)?/?$`, '$1/$2.png'],
      [`~^1:[^:]*:1:json:${suffix}:${escapeRegex(T)}/$`, `${T}/index$1`],
      [`~^1:1:1:json:${suffix}:${escapeRegex(T)}/${C}/?$`, `${T}/$2$1`],
      [`~^1:1:1:[^:]*:${suffix}:${escapeRegex(T)}/${C}\\.json/?$`, `${T}/$2$1`],
      [`~^1:1:1:json:[^:]*:${escapeRegex(T)}/${C}/${ID}/?$`, `${T}/$1/$2${tsBare}`],
      [`~^1:1:1:[^:]*:[^:]*:${escapeRegex(T)}/${C}/${ID}\\.json/?$`, `${T}/$1/$2${tsBare}`],
      [`~^1:[^:]*:1:json:${suffix}:${escapeRegex(T)}/timeseries/${ID}/getData/?$`, `${T}/timeseries/$2/getData$1`],
      [`~^1:[^:]*:1:[^:]*:${suffix}:${escapeRegex(T)}/timeseries/${ID}/getData\\.json/?$`, `${T}/timeseries/$2/getData$1`],
    ], ''),
    '  # A pre-rendered chart is a download named after its series and chart (core/timeseries/charts.ts prerenderedFileName)',
    mapBlock('$snap_ts_file', 'snap_ts_disposition', [[`~^${escapeRegex(T)}/timeseries/(${TIMESERIES.id})/(${TIMESERIES.chartName})\\.png$`, TIMESERIES.chartDisposition('$1', '$2')]], ''),
    '',
    '  # The docs site: the path, else its index.html, else path.html (server/app.ts siteFile).',
    mapBlock('$uri', 'snap_site_file', [['~/$', '${uri}index.html']], '$uri'),
  ];
  return blocks.join('\n');
}

/**
 * One location that answers from the tree when `file` names a file there, else passes to the endpoint (by
 * `error_page 418`, hence `recursive_error_pages`: the endpoint's own 502/504 page must still apply).
 */
function staticLocation(match: string, tryFiles: string, condition: string, extraHeaders = '', vary = 'Accept'): string {
  return `    location ${match} {
${commonHeaders(CACHE_CONTROL, '      ', vary)}
${extraHeaders}      add_header Last-Modified "";
      recursive_error_pages on;
      error_page 418 = @endpoint;
      error_page 413 = @too_large;
      if (${condition}) {
        return 418;
      }
      try_files ${tryFiles} @endpoint;
    }`;
}

/** Where the server's own error pages live (requested directly, they are no path: the endpoint answers 404). */
const NGINX_ERRORS = '/.snapcat-nginx';

function refusedLocation(status: number, json: string): string {
  return `    location = ${NGINX_ERRORS}/${status} {
      internal;
      recursive_error_pages on;
      error_page 404 = @endpoint;
${commonHeaders('no-store', '      ')}
      default_type application/json;
      return ${status} ${body(json)};
    }`;
}

function brotliPath(path: string): string {
  if (!path.startsWith('/') || /[\s;{}"'$]/.test(path)) throw new Error(`the brotli module must be an absolute path without blanks, quotes, ';', '{', '}' or '$': ${path}`);
  return path;
}

/** The complete nginx.conf text. */
export function nginxConfig(opts: NginxOptions): string {
  const endpoint = opts.endpoint ?? DEFAULT_ENDPOINT;
  const listen = String(opts.listen ?? DEFAULT_LISTEN);
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const site = opts.site.replace(/\/+$/, '');
  if (!site.startsWith('/')) throw new Error(`site must be an absolute path, not ${opts.site}`);
  if (/[\s;{}"'$]/.test(site)) throw new Error(`site path must not contain blanks, quotes, ';', '{', '}' or '$': ${site}`);
  const R = RADAR.prefix;
  const T = TIMESERIES.prefix;
  const unavailable = errorBody(
    new HttpError(503, 'The live endpoint of this catalogue is not answering just now', {
      hints: ['Try again in a few seconds', 'Answers held as files (parameter-free paths) are still served'],
      headers: { 'Retry-After': '5' },
    }),
  );
  const tooLarge = errorBody(new HttpError(413, `The request body is larger than ${maxBody} bytes`, { hints: ['Ask for fewer timeseries per request'] }));
  const badRequest = errorBody(new HttpError(400, 'The request target cannot be read', { hints: ['A path may not climb above the root (/../)', `A valid example: ${R}/`] }));
  const uriTooLong = JSON.stringify({ ...errorObject(new HttpError(414, 'The request target is longer than 32 KB', { hints: ['Ask for less in one request'] })), reason: 'URI Too Long' });

  // text/html is in charset_types always (naming it again is a warning)
  const utf8Types = [...new Set(Object.values(NGINX_TYPES).filter((t) => t.utf8 && t.type !== 'text/html').map((t) => t.type))];

  return `# snapcat: nginx in front of the endpoint (generated by build-scripts/nginx-config.ts; regenerate, do not edit).
# Serves the static tree at ${site} and passes what needs a query to ${endpoint}.
# Run:  nginx -p PREFIX -c PREFIX/nginx.conf -e stderr   (PREFIX: a writable folder for pid, logs and temp files)
${opts.brotliModule ? `load_module ${brotliPath(opts.brotliModule)};\n` : ''}${opts.user ? `user ${opts.user};\n` : ''}worker_processes ${opts.workers ?? 'auto'};
pid nginx.pid;
error_log error.log warn;

events {
  worker_connections 1024;
}

http {
${typesBlock(NGINX_TYPES['json']!.type, '  ')}
  default_type application/octet-stream;
  # "; charset=utf-8" on text files, as the endpoint writes it (its own answers already carry it: left as they are)
  charset utf-8;
  charset_types ${utf8Types.join(' ')};
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65s;

  client_body_temp_path client_body_temp;
  proxy_temp_path proxy_temp;
  fastcgi_temp_path fastcgi_temp;
  uwsgi_temp_path uwsgi_temp;
  scgi_temp_path scgi_temp;

  # upstream= is "-" for answers nginx read from the tree, the endpoint's address for those passed to it
  log_format snapcat '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time upstream=$upstream_addr';
  access_log access.log snapcat;

${compression(opts.brotliModule !== undefined)}

  client_max_body_size ${maxBody};
  # request lines and headers up to 32 KB reach the endpoint, which has its own limit (16 KB: 431)
  large_client_header_buffers 4 32k;

  upstream snapcat_endpoint {
    server ${endpointAddress(endpoint)};
    keepalive 16;
    # below the endpoint's own keep-alive (5 s), so nginx never reuses a connection the endpoint is closing
    keepalive_timeout 4s;
  }

${maps()}

  server {
    listen ${listen};
    server_name ${opts.serverName ?? '_'};
    root ${site};
    # Files answer with nginx's ETag (time and size); no Last-Modified, no ranges: as the endpoint answers.
    etag on;
    if_modified_since off;
    max_ranges 0;
    # A request nginx refuses before any location (a path above the root: /../x; a target over 32 KB):
    # the JSON error body. (A named location cannot take these: they have no URI.)
    error_page 400 ${NGINX_ERRORS}/400;
    error_page 414 ${NGINX_ERRORS}/414;

    # The bare prefixes redirect (the endpoint writes the 301)
${[R, ...RADAR.aliases].map((P) => `    location = ${P} {
      recursive_error_pages on;
      error_page 418 = @endpoint;
      return 418;
    }
`).join('')}    location = ${T} {
      recursive_error_pages on;
      error_page 418 = @endpoint;
      return 418;
    }
    # The endpoint's paths for operators: never a file, always the endpoint (whose own state they report)
${[HEALTH_PATH, METRICS_PATH].map((P) => `    location = ${P} {
      recursive_error_pages on;
      error_page 418 = @endpoint;
      return 418;
    }
`).join('')}${[R, ...RADAR.aliases].map((P) => staticLocation(`^~ ${P}/`, '$snap_radar_file', '$snap_radar_file = ""', '      # (not sent when empty: the file is no download)\n      add_header Content-Disposition $snap_radar_download;\n')).join('\n')}
${staticLocation(`^~ ${T}/`, '$snap_ts_file', '$snap_ts_file = ""', `${typesBlock(TIMESERIES.jsonContentType, '      ')}\n      # (not sent when empty: only pre-rendered charts are downloads)\n      add_header Content-Disposition $snap_ts_disposition;\n`, 'Accept, Accept-Language')}
${staticLocation('/', '$snap_site_file $uri/index.html $uri.html', '$snap_ok = 0')}

    location @endpoint {
      proxy_pass http://snapcat_endpoint$request_uri;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      # Accept as the maps above read it (nginx before 1.23 reads only the first of several Accept lines)
      proxy_set_header Accept $http_accept;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 5s;
      proxy_read_timeout 120s;
      proxy_intercept_errors off;
      error_page 502 504 = @unavailable;
    }

    # The endpoint is down or too slow: the JSON error body, as the endpoint writes errors
    location @unavailable {
${commonHeaders('no-store', '      ')}
      add_header Retry-After 5 always;
      default_type application/json;
      return 503 ${body(unavailable)};
    }

${refusedLocation(400, badRequest)}
${refusedLocation(414, uriTooLong)}

    location @too_large {
${commonHeaders('no-store', '      ')}
      default_type application/json;
      return 413 ${body(tooLarge)};
    }
  }
}
`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      build: { type: 'string', default: 'dist' },
      endpoint: { type: 'string', default: DEFAULT_ENDPOINT },
      listen: { type: 'string' },
      port: { type: 'string' },
      'server-name': { type: 'string' },
      user: { type: 'string' },
      'brotli-module': { type: 'string' },
    },
  });
  const listen = values.listen ?? (values.port ? `127.0.0.1:${values.port}` : DEFAULT_LISTEN);
  process.stdout.write(
    nginxConfig({
      site: resolve(values.build, 'site'),
      endpoint: values.endpoint,
      listen,
      ...(values['server-name'] ? { serverName: values['server-name'] } : {}),
      ...(values.user ? { user: values.user } : {}),
      ...(values['brotli-module'] ? { brotliModule: values['brotli-module'] } : {}),
    }),
  );
}
