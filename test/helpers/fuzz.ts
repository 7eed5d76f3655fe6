/**
 * Shared pieces of the property-based (fast-check) tests in test/fuzz/: a raw HTTP client (the request target
 * is sent byte for byte, unlike fetch, which normalises `..`, `%2e%2e` and backslashes away), the checks every
 * answer must pass, and generators of hostile parameter values.
 *
 * Every request has a time limit (a hang fails the property), is sent on its own connection (no keep-alive
 * race can pass for a reset) and a connection reset fails the property too.
 *
 * Running them (they are part of `npm test`):
 *   npx vitest run test/fuzz                                  the suite, about 1,900 generated cases
 *   FUZZ_SCALE=10 npx vitest run test/fuzz                    ten times as many runs per property
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz/<file> -t '<test name>'
 *                                                             replays a failure: fast-check prints its seed,
 *                                                             path and shrunk counterexample
 *   FUZZ_STRICT=1 npx vitest run test/fuzz                    known bugs (KNOWN_BUGS) fail too
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { readdirSync, readFileSync, realpathSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect } from 'vitest';
import { BROWSE_SUMMARY_FILE } from '../../core/radar/browse-summary-file.ts';
import { errorBodySchema, type ErrorBody } from '../../core/http/errors.ts';
import { isApiPath } from '../../server/app.ts';
import type { ChartRenderer } from '../../lib/chart-renderer.ts';

export { fc };

export const REQUEST_TIMEOUT_MS = 10_000;
/** Requests in flight at once within one property run. */
export const CONCURRENCY = 4;

export interface Answer {
  method: string;
  path: string;
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  type: string;
  body: Buffer;
  text: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Sends one request with `path` as the request target exactly as given (it must be free of spaces and control
 * characters; encode them). Rejects on a timeout, a reset or any other transport failure, naming the request.
 */
export function send(base: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  const url = new URL(base);
  const method = opts.method ?? 'GET';
  const what = `${method} ${path.length > 300 ? `${path.slice(0, 300)}…(${path.length} chars)` : path}`;
  return new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string | number> = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k, String(v)]));
    // a long() value is a String object: its text
    const body = opts.body === undefined || Buffer.isBuffer(opts.body) ? opts.body : String(opts.body);
    if (body !== undefined) headers['Content-Length'] = Buffer.byteLength(body);
    let req;
    try {
      req = httpRequest({
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers,
        agent: false,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (e) {
      reject(new Error(`${what}: the client refused to send it: ${(e as Error).message}`));
      return;
    }
    req.on('error', (e: NodeJS.ErrnoException) => {
      const kind = e.name === 'AbortError' || e.name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS} ms (a hang)` : `transport failure ${e.code ?? ''} (${e.message})`;
      reject(new Error(`${what}: ${kind}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e: NodeJS.ErrnoException) => reject(new Error(`${what}: the answer broke off: ${e.code ?? ''} ${e.message}`)));
      res.on('aborted', () => reject(new Error(`${what}: the answer was cut off (connection reset)`)));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ method, path, status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, type: String(res.headers['content-type'] ?? ''), body, text: body.toString('utf8') });
      });
    });
    req.end(body);
  });
}

/** Runs `fn` over items with at most `n` at once; the first failure rejects once all have settled. */
export async function inParallel<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, n = CONCURRENCY): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: unknown;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        try {
          out[i] = await fn(items[i]!);
        } catch (e) {
          failure ??= e;
        }
      }
    }),
  );
  if (failure !== undefined) throw failure;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// What must never leave the server: files outside <build>/site.

export interface Secret {
  name: string;
  bytes: Buffer;
}

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function head(path: string, n: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const got = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * Fingerprints of files no answer may contain: each build's build.json, radar-summary.json and site-files.json, the first bytes of
 * its databases, each snapshot's snapshot.json, the repository's package.json and /etc/passwd.
 */
export function secretsOf(builds: string[], snapshots: string[] = []): Secret[] {
  const out: Secret[] = [];
  for (const b of builds) {
    const root = realpathSync(b);
    for (const f of ['build.json', BROWSE_SUMMARY_FILE, 'site-files.json']) if (existsSync(join(root, f))) out.push({ name: join(root, f), bytes: readFileSync(join(root, f)) });
    const data = join(root, 'data');
    if (existsSync(data)) for (const f of readdirSync(data)) out.push({ name: join(data, f), bytes: head(join(data, f), 64) });
  }
  for (const s of snapshots) if (existsSync(join(s, 'snapshot.json'))) out.push({ name: join(s, 'snapshot.json'), bytes: readFileSync(join(s, 'snapshot.json')) });
  out.push({ name: join(REPO, 'package.json'), bytes: readFileSync(join(REPO, 'package.json')) });
  if (existsSync('/etc/passwd')) out.push({ name: '/etc/passwd', bytes: Buffer.from(readFileSync('/etc/passwd', 'utf8').split('\n')[0]!) });
  return out.filter((s) => s.bytes.length >= 16);
}

/** Relative paths from a build's site to the files outside it, for traversal requests. */
export const OUTSIDE_TARGETS = ['build.json', BROWSE_SUMMARY_FILE, 'site-files.json', 'data/radarnet-mirror-v3.duckdb', 'data/timeseries-v1.duckdb', '../../../../../../../../etc/passwd', 'etc/passwd'];

// ---------------------------------------------------------------------------------------------------------
// The checks every answer passes.

export interface Expect {
  /** For a 400: the parameter the message must name in quotes (else any quoted name). */
  param?: string;
  /** Statuses allowed (else any below 500). */
  statuses?: number[];
  /** Secrets the body must not contain. */
  secrets?: Secret[];
}

function summary(a: Answer): string {
  return `${a.method} ${a.path.length > 300 ? `${a.path.slice(0, 300)}…` : a.path} -> ${a.status} ${a.type}: ${a.text.slice(0, 400)}`;
}

/** A 400 not about one parameter, or about one without naming it in quotes, as DECISIONS.md and the code write it. */
const UNQUOTED_400 = [/^Requested timespan is too long$/, /^The request body /];

/**
 * Known bugs, reported and not fixed here (the code is not the fuzz tests' to change): an answer showing one is
 * let pass, so the properties keep looking for others; each has a `test.fails` test of its own that starts
 * passing, and so fails, once it is fixed (then remove it here). FUZZ_STRICT=1 lets none pass.
 */
export const KNOWN_BUGS: { bug: string; shows: (a: Answer) => boolean }[] = [];

/** An answer as a comparable value: status, media type and body. */
export const plainOf = (a: Answer) => ({ status: a.status, type: a.type, body: a.body.toString('base64') });

/**
 * One request to the endpoint answering from the tree and to the live one, and a HEAD to the tree one: the
 * answer passes checkAnswer, both give the same status, type and bytes, and HEAD gives GET's status and type
 * with no body.
 */
export async function treeLiveAndHeadAgree(base: (s: 'tree' | 'live') => string, target: string, accept: string | null, secrets: Secret[]): Promise<void> {
  const headers = accept === null ? {} : { headers: { Accept: accept } };
  const [a, b, h] = await inParallel([['tree', 'GET'], ['live', 'GET'], ['tree', 'HEAD']] as const, ([s, m]) => send(base(s), target, { method: m, ...headers }));
  checkAnswer(a!, { secrets });
  expect(plainOf(b!), `${target} Accept: ${accept}`).toEqual(plainOf(a!));
  expect({ status: h!.status, type: h!.type, body: h!.body.length }, `HEAD ${target}`).toEqual({ status: a!.status, type: a!.type, body: 0 });
}

/** The path a request target comes to once the URL's `.` and `..` segments are resolved, as the endpoint reads it. */
function resolvedPath(target: string): string {
  try {
    return target.startsWith('/') ? new URL(`http://localhost${target}`).pathname : new URL(target, 'http://localhost').pathname;
  } catch {
    return target;
  }
}

/** Checks an answer; throws naming the request and what is wrong. Returns the error body of an error. */
export function checkAnswer(a: Answer, exp: Expect = {}): ErrorBody | undefined {
  const fail = (why: string): never => {
    throw new Error(`${why}\n  ${summary(a)}`);
  };
  for (let i = 0; i < a.rawHeaders.length; i += 2) {
    const name = a.rawHeaders[i]!.toLowerCase();
    if (name.includes('fuzz') || name.includes('injected')) fail(`an injected header ${a.rawHeaders[i]}: ${a.rawHeaders[i + 1]}`);
  }
  for (const s of exp.secrets ?? []) if (a.body.includes(s.bytes)) fail(`the body holds the content of ${s.name}, a file outside the site`);
  if (process.env['FUZZ_STRICT'] !== '1' && KNOWN_BUGS.some((k) => k.shows(a))) return undefined;
  if (a.status >= 500) fail('a 5xx answer');
  if (exp.statuses && !exp.statuses.includes(a.status)) fail(`status ${a.status}, expected one of ${exp.statuses.join(', ')}`);
  if (a.status === 200 && a.method !== 'HEAD' && /^application\/json(;|$)/.test(a.type)) {
    try {
      JSON.parse(a.text);
    } catch {
      fail('a 200 application/json answer that is not JSON');
    }
  }
  if (a.status < 400) return undefined;
  if (a.method === 'HEAD') return undefined;
  if (a.status === 404 && /^text\/html(;|$)/.test(a.type)) {
    // a path outside the APIs (after the URL's own `..` resolution) that names no file: the site's HTML 404 page
    if (isApiPath(resolvedPath(a.path))) fail('an HTML error on a path of an API');
    if (!a.text.includes('Page not found')) fail('an HTML 404 that is not the site\'s "Page not found" page');
    return undefined;
  }
  if (!/^application\/json(;|$)/.test(a.type)) fail('an error whose Content-Type is not application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.text);
  } catch {
    fail('an error body that is not JSON');
  }
  const r = errorBodySchema.safeParse(parsed);
  if (!r.success) fail(`an error body not of the one error shape: ${r.error.issues[0]?.message} at ${r.error.issues[0]?.path.join('.')}`);
  const body = r.data!;
  if (body.statusCode !== a.status) fail(`statusCode ${body.statusCode} in the body of a ${a.status}`);
  if (body.userMessage.trim() === '') fail('an empty userMessage');
  if (a.status === 400) {
    const unquoted = UNQUOTED_400.some((re) => re.test(body.userMessage));
    if (!unquoted) {
      if (exp.param !== undefined && !body.userMessage.includes(`'${exp.param}'`)) fail(`a 400 whose message does not name '${exp.param}'`);
      if (!/'[^']+'/.test(body.userMessage)) fail('a 400 whose message names no parameter in quotes');
    }
    if (!body.hints?.[0]?.startsWith('A valid example')) fail('a 400 whose first hint is not "A valid example: ..."');
  }
  if (a.status === 405 && !a.headers['allow']) fail('a 405 without an Allow header');
  return body;
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values. Each generator yields text as it goes into a URL (already percent-encoded where needed), so
// raw escapes (`%00`, `%0d%0a`, broken `%zz`, a lone surrogate as `%ED%A0%80`) can be sent as such.

/** Percent-encodes every character but unreserved ones; a lone surrogate becomes its (invalid) UTF-8 bytes. */
export function pct(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
}

export const SQL_FRAGMENTS = [
  "' OR 1=1 --",
  '"; DROP TABLE files; --',
  "%' UNION SELECT * FROM files --",
  "') OR ('a'='a",
  "1' AND (SELECT content FROM read_text('/etc/passwd')) IS NOT NULL --",
  "'; ATTACH '/tmp/x.duckdb' AS x; --",
  "x'||(SELECT version())||'",
  "1; COPY files TO '/tmp/fuzz.csv'; --",
  '1 OR 1=1',
  "ts_x' OR '1'='1",
  "sta_x'--",
  '\\\'; SELECT 1; --',
  '$$; SELECT 1; $$',
];

/** Header-injection payloads, URL-encoded: CR/LF in every spelling, and characters Node truncates to CR/LF. */
export const CRLF_RAW = [
  '%0d%0aX-Fuzz-Injected:%201',
  '%0D%0AX-Fuzz-Injected:%201',
  '%0aX-Fuzz-Injected:1',
  '%0dX-Fuzz-Injected:1',
  'json%0d%0aX-Fuzz-Injected:%201%0d%0a%0d%0a%3Chtml%3E',
  '%E5%98%8A%E5%98%8DX-Fuzz-Injected:1',
  'text/html%0d%0aContent-Length:%200%0d%0a%0d%0aHTTP/1.1%20200%20OK%0d%0aX-Fuzz-Injected:1',
  '%250d%250aX-Fuzz-Injected:1',
  '%0d%0a%09X-Fuzz-Injected:1',
];

const SPECIAL_RAW = [
  '', '%20', '+', '%', '%%', '%zz', '%2', '%u0000', '%00', 'a%00b', '%C0%AE%C0%AE', '%c0%af', '%ED%A0%80', '%ED%B0%80', '%F4%90%80%80', '%FF%FE',
  '%EF%BB%BF', '&', '%26', '=', '%3D', '#', '%23', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..%5c..%5c', '%252e%252e%252f', '%5C%5C', '%09', '%0B', '%0C',
  ...CRLF_RAW,
];

const SPECIAL_TEXT = [
  ' ', '  true  ', 'TRUE', 'True', 'tRuE', 'yes', '1', '0', 'on', 'null', 'undefined', '[]', '{}', '""', "''", 'true,false', 'true&false',
  // numbers
  '1e400', '-1e400', '1e-400', '18446744073709551616', '-9223372036854775809', '9223372036854775808', '9223372036854775807', '2147483648', '4294967296',
  '-0', '+0', '-1', '0.0', '1.5', '1e3', '0x10', '0b1', '0o7', '1_000', '1,000', '００１', '١٢٣', 'Ⅻ', '9'.repeat(400), 'NaN', 'Infinity', '-Infinity', '∞',
  '1.7976931348623157e308', '5e-324', '4001', '49', '50', '4000', '10001', '10000',
  // dates and timespans
  '2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '0000-01-01', '-000001-01-01', '+275760-09-13', '275760-09-14', '9999-12-31T23:59:59.999Z', '10000-01-01',
  '2024-01-01T24:00', '2024-01-01T23:60', '2024-01-01T23:59:60', '2024-01-01T00:00:00+24:00', '2024-01-01T00:00:00+99:99', '2024-01-01T00:00:00.9999999999Z',
  '2024-01-01TZ', '2024-01-01Z', '2024-01-01T', 'T', 'Z', '2024', '24', '2024-1-1', '01/02/2024', 'yesterday', 'now', 'today/now',
  'P', 'PT', 'P0D', 'PT0S', 'P1D', 'PT1.5H', 'P1.5D', 'P-1D', 'p1d', 'P1W2D', 'P99999999999999999999Y', 'P9999999Y/2024-01-01', 'P1Y1D/2024-01-08TZ', 'P1Y2D/2024-01-08TZ',
  'PT6H/2024-01-08TZ', '2024-01-01/2024-01-02', '2024-01-02/2024-01-01', '2024-01-01/', '/2024-01-01', '/', '//', '2024/2025/2026', 'P1D/P1D', 'P1D/', '/P1D',
  '2024-01-01/P1D', '2024-01-01T00:00:00Z/2024-01-01T00:00:00Z', '1970-01-01/1970-01-01', '0001-01-01/9999-12-31', '-271821-04-20/2024', '2024-01-01 00:00:00 01:00/2024-01-02',
  // coordinates and boxes (the radar catalogue's bbox)
  '-180,-90,180,90', '-180,-90,180,0', '181,0,0,0', '0,91,0,0', '0,0,0,-91', '170,-10,-170,10', '0,10,0,-10', '1,2,3', '1,2,3,4,5', ',,,', '1e400,0,0,0',
  'NaN,NaN,NaN,NaN', 'Infinity,0,0,0', '-0,-0,-0,-0', '0x1,0,0,0', ' 1 , 2 , 3 , 4 ', '1;2;3;4',
  // geo JSON (the timeseries bbox and near)
  '{"ll":{"type":"Point","coordinates":[6.8,50.6]},"ur":{"type":"Point","coordinates":[7.3,50.9]}}',
  '{"ll":{"type":"Point","coordinates":[1e400,50.6]},"ur":{"type":"Point","coordinates":[7.3,50.9]}}',
  '{"ll":{"type":"Point","coordinates":[-200,-100]},"ur":{"type":"Point","coordinates":[200,100]}}',
  '{"ll":{"type":"Point","coordinates":[7.3,50.9]},"ur":{"type":"Point","coordinates":[6.8,50.6]}}',
  '{"ll":{"type":"Point","coordinates":[170,0]},"ur":{"type":"Point","coordinates":[-170,10]}}',
  '{"ll":{"type":"Point","coordinates":[6.8]},"ur":{"type":"Point","coordinates":[7.3,50.9,3]}}',
  '{"ll":{"type":"Point","coordinates":["6.8","50.6"]},"ur":null}',
  "{'ll':{'type':'Point','coordinates':[6.8,50.6]},'ur':{'type':'Point','coordinates':[7.3,50.9]}}",
  '{"center":{"type":"Point","coordinates":[7.1,50.7]},"radius":50}',
  '{"center":{"type":"Point","coordinates":[7.1,50.7]},"radius":-1}',
  '{"center":{"type":"Point","coordinates":[7.1,50.7]},"radius":1e308}',
  '{"center":{"type":"Point","coordinates":[7.1,50.7]},"radius":1e400}',
  '{"center":{"type":"Point","coordinates":[7.1,95]},"radius":0}',
  '{"center":{"type":"Point","coordinates":[-7.1,-50.7]},"radius":20000}',
  '{"center":{"type":"Point","coordinates":[7.1,50.7]}}',
  '{"center":', '{"ll":', '{', '}', '[', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}',
  // crs
  'EPSG:4326', 'EPSG:25832', 'EPSG:3857', 'EPSG:0', 'EPSG:-1', 'EPSG:99999999999999999999', 'urn:ogc:def:crs:EPSG::4326', 'http://www.opengis.net/def/crs/EPSG/0/4326', 'CRS84', 'epsg:4326', '+proj=longlat',
  '+proj=merc +lat_ts=90', '+init=epsg:4326',
  // ids, codes, languages, styles
  'sas', 'SAS', 'zzz', 'sa', 'sass', 's a', 'ts_koeln_rhein_water_level', 'sta_koeln_rhein', 'srv_rivers', 'cat_hydrology', 'ts_', 'ts__', 'ts_-', 'sta_ä', 'ts_x/../y', 'ts_x%2f..',
  'de', 'en', 'nl', 'de_AT', 'en_US', 'EN-us', 'zz', 'x', 'de_', '_AT', 'de-AT-x-private', 'tlh', 'en_US.UTF-8',
  'tvp', 'highchart', 'highcharts', 'HIGHCHART', 'lttb', 'dp', 'DP', 'LTTB', 'none', 'json', 'csv', 'checksumReport', 'text/html', 'text/plain; charset=utf-8', 'application/xml', '*/*',
  ',', ';', '\t', '|', '"', '""', "'", '\r', '\n', '\r\n', 'ab', '😀', 'é', 'e\u0301',
  '{"chartType":"line","properties":{"color":"#0000ff","lineType":"dashed","width":2}}',
  '{"chartType":"bar","properties":{"color":"#00ff00","interval":"byDay","width":1}}',
  '{"chartType":"bar","properties":{"interval":"byCentury"}}',
  '{"chartType":"line","properties":{"color":"red","width":-5}}',
  '{"chartType":"line","properties":{"width":1e400}}',
  '{"chartType":"pie"}',
  // unicode
  '😀', '👨‍👩‍👧‍👦', '🏳️‍🌈', '\u202eevil\u202c', 'مرحبا', 'שלום', 'a\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307', 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇', '\u200b', '\ufeff', '\u0000', '\uffff', '\ud800', '\udfff', '\udbff\udfff', 'ǅ', 'ß', 'İ', 'ﬃ', 'Ⅰ',
  // path-ish
  '../../../../etc/passwd', '..\\..\\..\\build.json', '/etc/passwd', 'file:///etc/passwd', 'C:\\Windows\\win.ini', '\\\\server\\share',
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '%s%s%s%n', '\x1b[31m',
  ...SQL_FRAGMENTS,
];

/**
 * A long value that prints short in fast-check's counterexamples (its first characters and its length; the
 * seed and path fast-check prints replay it exactly). A String object: it goes into template strings as text.
 */
export function long(s: string): string {
  if (s.length <= 200) return s;
  const shown = `${JSON.stringify(s.slice(0, 60))}…(${s.length} chars)`;
  return Object.assign(new String(s), { [fc.toStringMethod]: () => shown, toJSON: () => shown }) as unknown as string;
}

/**
 * Values of about 10 KB as sent (a request target stays under Node's 16 KB header limit, beyond which Node
 * itself answers 431 without the error body: see the known-bug tests).
 */
const LONG_RAW = ['a', '%25', '%F0%9F%98%80', '..%2f', '9', '%2C', '1,', '%5B', '%7B%22a%22%3A', '%0d%0a'].map((x) => long(x.repeat(Math.ceil((10 * 1024) / x.length))));

/** JSON nested deeply or made huge. */
function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const dateish = fc
  .tuple(
    fc.integer({ min: -300000, max: 300000 }),
    fc.integer({ min: -1, max: 14 }),
    fc.integer({ min: -1, max: 40 }),
    fc.option(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))),
    fc.constantFrom('', 'Z', '+01:00', '-23:59', '+99', 'TZ', 'z'),
  )
  .map(([y, mo, d, t, z]) => {
    const p2 = (n: number) => String(n).padStart(2, '0');
    return `${y < 0 ? '-' : ''}${String(Math.abs(y)).padStart(4, '0')}-${p2(mo)}-${p2(d)}${t ? `T${p2(t[0])}:${p2(t[1])}:${p2(t[2])}` : ''}${z}`;
  });

const period = fc
  .tuple(fc.nat(99999), fc.constantFrom('Y', 'M', 'W', 'D', 'TH', 'TM', 'TS', 'T', ''))
  .map(([n, u]) => (u.startsWith('T') ? `PT${n}${u.slice(1)}` : `P${n}${u}`));

const timespanish = fc.tuple(fc.oneof(dateish, period, fc.constant('')), fc.constantFrom('/', '//', '', '/ ', '--'), fc.oneof(dateish, period, fc.constant(''))).map(([a, s, b]) => `${a}${s}${b}`);

const numberish = fc.oneof(
  fc.double().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map((x) => x.toExponential()),
);

const geoJsonish = fc
  .tuple(fc.constantFrom('bbox', 'near'), numberish, numberish, numberish, numberish)
  .map(([k, a, b, c, d]) =>
    k === 'bbox'
      ? `{"ll":{"type":"Point","coordinates":[${a},${b}]},"ur":{"type":"Point","coordinates":[${c},${d}]}}`
      : `{"center":{"type":"Point","coordinates":[${a},${b}]},"radius":${c}}`,
  );

const boxish = fc.tuple(numberish, numberish, numberish, numberish).map((xs) => xs.join(','));

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => `x${String.fromCharCode(c)}y`);

/** A hostile value as it goes into a URL query (percent-encoded). */
export const hostileRaw: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_TEXT).map(pct) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_RAW) },
  { weight: 1, arbitrary: fc.constantFrom(...SQL_FRAGMENTS).map(pct) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(pct) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(pct) },
  { weight: 1, arbitrary: loneSurrogate.map(pct) },
  { weight: 1, arbitrary: numberish.map(pct) },
  { weight: 2, arbitrary: dateish.map(pct) },
  { weight: 2, arbitrary: timespanish.map(pct) },
  { weight: 1, arbitrary: boxish.map(pct) },
  { weight: 2, arbitrary: geoJsonish.map(pct) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map(pct) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 10, max: 600 }), fc.constantFrom('array' as const, 'object' as const)).map(([n, k]) => long(pct(nested(k === 'array' ? n * 3 : n, k)))) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_RAW) },
);

/**
 * Values near a valid one, as they go into a URL: one of its numbers replaced (by 0, a huge number, a
 * negative, a fraction), one character dropped, doubled, replaced by a hostile one or its case flipped,
 * whitespace around it. Finds the edges a parameter's own syntax has (a timespan one day too long, a width one
 * pixel too large) that generic hostile values rarely hit.
 */
export function nearValid(valid: string): fc.Arbitrary<string> {
  const runs = valid.split(/(\d+)/);
  const numberIdx = runs.map((r, i) => (/^\d+$/.test(r) ? i : -1)).filter((i) => i >= 0);
  const number = fc.oneof(fc.nat(100_000).map(String), fc.constantFrom('0', '00', '1', '9999', '99999999999999999999', '-1', '1.5', '1e3', '2147483648', '4001', '49', '10001'));
  const char = fc.oneof(fc.constantFrom(' ', '/', ',', ':', '-', '+', 'T', 'Z', 'P', '.', '"', "'", '{', '}', '[', ']', '\u0000', '\r\n', '😀', '\ud800'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const edits: fc.Arbitrary<string>[] = [
    fc.tuple(fc.nat(Math.max(0, valid.length - 1)), char).map(([i, c]) => valid.slice(0, i) + c + valid.slice(i + 1)),
    fc.tuple(fc.nat(valid.length), char).map(([i, c]) => valid.slice(0, i) + c + valid.slice(i)),
    fc.nat(Math.max(0, valid.length - 1)).map((i) => valid.slice(0, i) + valid.slice(i + 1)),
    fc.nat(Math.max(0, valid.length - 1)).map((i) => valid.slice(0, i) + valid.slice(i, i + 1).repeat(2) + valid.slice(i + 1)),
    fc.constantFrom(valid.toUpperCase(), valid.toLowerCase(), ` ${valid} `, `${valid},${valid}`, `${valid}/${valid}`, valid.repeat(50)),
  ];
  if (numberIdx.length > 0) {
    edits.push(fc.tuple(fc.constantFrom(...numberIdx), number).map(([i, n]) => runs.map((r, j) => (j === i ? n : r)).join('')));
    edits.push(fc.array(number, { minLength: numberIdx.length, maxLength: numberIdx.length }).map((ns) => runs.map((r, j) => (numberIdx.includes(j) ? ns[numberIdx.indexOf(j)]! : r)).join('')));
  }
  return fc.oneof(...edits).map(pct);
}

/** A value for a parameter whose valid example is `valid`: near it, or hostile in general. */
export function valueFor(valid: string): fc.Arbitrary<string> {
  return fc.oneof({ weight: 1, arbitrary: hostileRaw }, { weight: 1, arbitrary: nearValid(valid) });
}

/** The first `n` characters of a raw value (so several long values stay under Node's 16 KB request limit). */
export function cap(raw: string, n: number): string {
  return raw.length <= n ? raw : long(String(raw).slice(0, n));
}

/** How a parameter occurs in the query. */
export type Form = 'one' | 'bare' | 'empty' | 'twice' | 'hostileThenValid' | 'encodedName' | 'upperName';

export const form: fc.Arbitrary<Form> = fc.constantFrom<Form>('one', 'one', 'one', 'one', 'bare', 'empty', 'twice', 'hostileThenValid', 'encodedName', 'upperName');

/**
 * The query text of one parameter in a form. `valid` is a value the parameter accepts. Returns the query and
 * the name under which the server sees it (undefined: the server sees none of the parameter's name).
 */
export function occurrence(name: string, raw: string, f: Form, valid: string): { query: string; seen: boolean } {
  const n = pct(name);
  switch (f) {
    case 'one':
      return { query: `${n}=${raw}`, seen: true };
    case 'bare':
      return { query: n, seen: true };
    case 'empty':
      return { query: `${n}=`, seen: true };
    case 'twice':
      return { query: `${n}=${cap(raw, 6000)}&${n}=${cap(raw, 6000)}`, seen: true };
    case 'hostileThenValid':
      return { query: `${n}=${cap(raw, 10_000)}&${n}=${pct(valid)}`, seen: true };
    case 'encodedName':
      return { query: `${[...name].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}=${raw}`, seen: true };
    case 'upperName':
      // another name: unknown parameters are ignored (unless it is the same name)
      return { query: `${pct(name.toUpperCase())}=${raw}`, seen: name.toUpperCase() === name };
  }
}

/** Arbitrary Accept header values (only characters a header may carry). */
export const acceptHeader: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '', '*/*', 'application/json', 'text/csv', 'text/plain', 'text/html', 'image/png', 'application/pdf', 'application/xml', 'image/*', 'text/*', '*/json',
    'application/json;q=0', '*/*;q=0', 'text/csv;q=0.5, application/json;q=0.4', 'text/html;q=1.5', 'text/html;q=-1', 'text/html;q=NaN', 'text/html;q=1e400',
    'text/html;level=1;q=0.9, */*;q=0.1', ',,,', ';;;', ';q=1', '/', 'a/b/c', 'application/json, image/png;q=0.9', 'image/png, application/pdf',
    'application/*;q=0.001', 'TEXT/CSV', 'text/csv ; q = 0.9', 'text/csv;q=0.9;charset=utf-8', '*/*;q=0.0001, image/png;q=0', long('x'.repeat(8000)),
    long(Array.from({ length: 400 }, (_, i) => `type${i}/sub${i};q=0.${i % 10}`).join(', ')),
  ),
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz*/;=,.+- 0123456789qQ\t'.split('')), maxLength: 60 }),
  fc
    .array(fc.tuple(fc.constantFrom('application', 'text', 'image', '*', 'x', ''), fc.constantFrom('json', 'csv', 'plain', 'html', 'png', 'pdf', '*', ''), fc.option(fc.constantFrom('0', '1', '0.5', '2', '-1', 'abc', ''))), { maxLength: 5 })
    .map((rs) => rs.map(([t, s, q]) => `${t}/${s}${q === null ? '' : `;q=${q}`}`).join(', ')),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xfe }).map((c) => String.fromCharCode(c === 0x7f ? 0xff : c)), maxLength: 40 }),
);

/** HTTP methods, the odd ones included. */
export const method: fc.Arbitrary<string> = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'PURGE');

// ---------------------------------------------------------------------------------------------------------

/** A 1x1 PNG. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/**
 * A chart renderer that draws nothing: the request and chart document are read and built as for a real render
 * (every check of the input is made), then a tiny PNG is returned. For properties that would otherwise start
 * Chromium for each of hundreds of generated requests.
 */
export function stubRenderer(): ChartRenderer {
  const stub = {
    rendered: 0,
    async admit() {
      return { since: performance.now(), release() {} };
    },
    async render(): Promise<Buffer> {
      stub.rendered++;
      return TINY_PNG;
    },
    async close(): Promise<void> {},
  };
  return stub as unknown as ChartRenderer;
}

/** Time a property may run before it stops generating (a failure found is still reported, shrunk so far). */
export const PROPERTY_TIME_LIMIT_MS = 45_000;

/**
 * fast-check's settings for a property: `numRuns` (times FUZZ_SCALE, to fuzz longer by hand), the seed and
 * path from FUZZ_SEED and FUZZ_PATH when set (to replay a failure), and a time limit.
 */
export function runs<T>(numRuns: number, examples: T[] = []): fc.Parameters<T> {
  const seed = process.env['FUZZ_SEED'];
  const path = process.env['FUZZ_PATH'];
  const scale = Number(process.env['FUZZ_SCALE'] ?? '1');
  return {
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1))),
    ...(seed ? { seed: Number(seed) } : {}),
    ...(seed && path ? { path } : {}),
    examples,
    interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS * (Number.isFinite(scale) && scale > 1 ? scale : 1),
    markInterruptAsFailure: false,
  };
}

/** The vitest time limit of a fuzz test: above the property's own, so fast-check reports first. */
export const FUZZ_TEST_TIMEOUT_MS = PROPERTY_TIME_LIMIT_MS * 2 + 30_000;
