/**
 * npm run nginx-config -- [--build dist] [--endpoint http://127.0.0.1:8080] [--listen 127.0.0.1:8081 | --port 8081]
 *   [--brotli-module /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so] > nginx.conf
 *
 * An nginx configuration that serves a build's static tree and passes every request that needs the endpoint to
 * it. `nginxConfig()` is a pure function of its options; the rules for which request is which file come from
 * core/nginx/static-rules.ts (derived from the endpoint's own route and parameter tables). Its parts are in
 * build-scripts/nginx/: the `map` blocks (maps.ts), the `types` blocks (types.ts), the compression directives
 * (compression.ts) and the quoting of nginx strings (quote.ts).
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
import { commandLine, wholeNumber, type CliOption, type CliSpec } from '../lib/cli.ts';
import { errorBody, errorObject, HttpError } from '../core/http/errors.ts';
import { HEALTH_PATH, METRICS_PATH } from '../core/http/route-family.ts';
import { RADAR, TIMESERIES } from '../core/nginx/static-rules.ts';
import { CHANGES_PATH } from '../core/radar/changes.ts';
import { CACHE_CONTROL, SECURITY_HEADERS } from '../core/http/response-headers.ts';
import { compression } from './nginx/compression.ts';
import { maps } from './nginx/maps.ts';
import { body, q } from './nginx/quote.ts';
import { NGINX_TYPES, typesBlock } from './nginx/types.ts';

export { NGINX_TYPES } from './nginx/types.ts';

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
  // the Content-Security-Policy is the map's $snap_csp: the query page's paths add 'wasm-unsafe-eval' (maps.ts)
  return h.map(([k, v]) => `${indent}add_header ${k} ${k === 'Content-Security-Policy' ? '$snap_csp' : q(v)} always;`).join('\n');
}

/**
 * One location that answers from the tree when `file` names a file there, else passes to the endpoint (by
 * `error_page 418`, hence `recursive_error_pages`: the endpoint's own 502/504 page must still apply).
 */
function staticLocation(match: string, tryFiles: string, condition: string, extraHeaders = '', vary = 'Accept', ranged = false): string {
  // a GET with a Range header goes to @site_range: the same files, uncompressed, one range at most
  const range = ranged ? '      error_page 419 = @site_range;\n      if ($snap_range) {\n        return 419;\n      }\n      max_ranges 1;\n' : '';
  return `    location ${match} {
${commonHeaders(CACHE_CONTROL, '      ', vary)}
${extraHeaders}      add_header Last-Modified "";
      recursive_error_pages on;
      error_page 418 = @endpoint;
      error_page 413 = @too_large;
      if (${condition}) {
        return 418;
      }
${range}      try_files ${tryFiles} @endpoint;
    }`;
}

/**
 * The site's files (the docs site, the downloads) for a GET with a Range header (core/http/range.ts): one range
 * (`max_ranges 1`: several are answered 200 with the whole file, as the endpoint does), never compressed (nginx
 * would compress a text file whole and drop the range; the endpoint sends a Range request's answer in identity).
 */
function siteRangeLocation(tryFiles: string, brotli: boolean): string {
  return `    location @site_range {
${commonHeaders(CACHE_CONTROL, '      ')}
      add_header Last-Modified "";
      gzip off;
${brotli ? '      brotli off;\n' : ''}      max_ranges 1;
      try_files ${tryFiles} @endpoint;
    }`;
}

/** An exact-path location always passed to the endpoint (by `error_page 418`, as staticLocation's). */
function endpointLocation(path: string): string {
  return `    location = ${path} {
      recursive_error_pages on;
      error_page 418 = @endpoint;
      return 418;
    }
`;
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
    # Files answer with nginx's ETag (time and size); no Last-Modified; byte ranges only on the site's files
    # and downloads (location /, one range at most): as the endpoint answers.
    etag on;
    if_modified_since off;
    max_ranges 0;
    # A request nginx refuses before any location (a path above the root: /../x; a target over 32 KB):
    # the JSON error body. (A named location cannot take these: they have no URI.)
    error_page 400 ${NGINX_ERRORS}/400;
    error_page 414 ${NGINX_ERRORS}/414;

    # The bare prefixes redirect (the endpoint writes the 301)
${[R, ...RADAR.aliases, T].map(endpointLocation).join('')}    # The endpoint's paths for operators: never a file, always the endpoint (whose own state they report)
${[HEALTH_PATH, METRICS_PATH].map(endpointLocation).join('')}    # The change API: live, from the build's snapshot history (docs/changes.md)
${[R, ...RADAR.aliases].map((P) => endpointLocation(`${P}${CHANGES_PATH}`)).join('')}${[R, ...RADAR.aliases].map((P) => staticLocation(`^~ ${P}/`, '$snap_radar_file', '$snap_radar_file = ""', '      # (not sent when empty: the file is no download)\n      add_header Content-Disposition $snap_radar_download;\n')).join('\n')}
${staticLocation(`^~ ${T}/`, '$snap_ts_file', '$snap_ts_file = ""', `${typesBlock(TIMESERIES.jsonContentType, '      ')}\n      # (not sent when empty: only pre-rendered charts are downloads)\n      add_header Content-Disposition $snap_ts_disposition;\n`, 'Accept, Accept-Language')}
${staticLocation('/', '$snap_site_file $uri/index.html $uri.html', '$snap_ok = 0', '', 'Accept', true)}
${siteRangeLocation('$snap_site_file $uri/index.html $uri.html', opts.brotliModule !== undefined)}

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

/** `npm run nginx-config`'s command line (lib/cli.ts). */
export const NGINX_CONFIG_CLI = {
  command: 'npm run nginx-config --',
  usage: '[--build dist] [--endpoint URL] [--listen ADDRESS:PORT | --port N] [--server-name NAME] [--user USER] [--brotli-module PATH] > nginx.conf',
  summary: `Prints an nginx configuration (docs/nginx.md) that serves a build's static tree exactly where the endpoint would
and passes the rest (live queries, POST, on-demand charts) to the endpoint. Every build writes one as <build>/nginx.conf.`,
  options: {
    build: { type: 'string', value: 'DIR', default: 'dist', describe: 'the build whose site/ nginx serves' },
    endpoint: { type: 'string', value: 'URL', default: DEFAULT_ENDPOINT, describe: 'the endpoint nginx passes to' },
    listen: { type: 'string', value: 'ADDRESS:PORT', defaultText: DEFAULT_LISTEN, describe: "nginx's listen address" },
    port: { type: 'string', value: 'N', defaultText: 'none', describe: 'short for --listen 127.0.0.1:N', check: wholeNumber(1, 65535) },
    'server-name': { type: 'string', value: 'NAME', defaultText: 'none', describe: 'the server_name' },
    user: { type: 'string', value: 'USER', defaultText: 'none', describe: 'the user nginx runs as' },
    'brotli-module': { type: 'string', value: 'PATH', defaultText: 'none', describe: 'the ngx_brotli module to load (br compression)' },
  },
  examples: ['npm run nginx-config -- --build dist --port 8081 > nginx.conf'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  const { values } = commandLine(NGINX_CONFIG_CLI);
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
