/**
 * Nothing outside the tree, no injected header, the error body even for requests Node's own parser refuses:
 * property-based tests over both demo builds (the radar one and the timeseries one), each served from its
 * static tree.
 *
 * - Path traversal (`..`, `%2e%2e`, overlong and double encodings, encoded slashes `%2f`, backslashes, NUL) on
 *   every API prefix, on paths of the tree's own files and on the docs site's folders: no answer holds the
 *   content of a file outside `<build>/site` (build.json, site-files.json, the databases, the snapshot,
 *   the repository's package.json, /etc/passwd).
 * - Header injection (CR/LF raw-encoded, double-encoded, as characters Node would truncate to CR/LF) in
 *   every parameter of both route tables and in path segments: no injected header.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { RADAR_PARAM_NAMES, PARAM_DOCS as RADAR_PARAM_DOCS } from '../../core/radar/params.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';
import { checkAnswer, CRLF_RAW, fc, FUZZ_TEST_TIMEOUT_MS, inParallel, OUTSIDE_TARGETS, pct, REQUEST_TIMEOUT_MS, runs, secretsOf, send, stubRenderer, type Answer, type Secret } from '../helpers/fuzz.ts';
import { pathsOf, someIds, TS_GET_ROUTES, TS_VALID } from '../helpers/fuzz-timeseries.ts';

let radar: Served;
let ts: Served;
let secrets: Secret[];
/** Folders of each build's site (as request paths), the docs site's among them. */
let siteDirs: { radar: string[]; ts: string[] };
/** Concrete GET paths of both APIs. */
let apiPaths: string[];

function dirsOf(site: string, depth = 3): string[] {
  const out: string[] = [];
  const walk = (dir: string, d: number) => {
    out.push(`/${relative(site, dir)}${dir === site ? '' : '/'}`);
    if (d === 0) return;
    const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    for (const e of subs.slice(0, 6)) walk(join(dir, e.name), d - 1);
  };
  walk(site, depth);
  return out;
}

beforeAll(async () => {
  [radar, ts] = await Promise.all([startEndpoint(inject('demoBuild'), { renderer: stubRenderer() }), startEndpoint(inject('tsBuild'), { renderer: stubRenderer() })]);
  secrets = secretsOf([inject('demoBuild'), inject('tsBuild')], [inject('demoSnapshot'), inject('tsSnapshot')]);
  siteDirs = { radar: dirsOf(join(realpathSync(inject('demoBuild')), 'site')), ts: dirsOf(join(realpathSync(inject('tsBuild')), 'site')) };
  const ids = someIds(ts.build.timeseries!.catalogue, 1);
  apiPaths = [...[RADAR_PREFIX, BAS_PREFIX].flatMap((p) => RADAR_ROUTES.map((r) => `${p}${r.path.replace(':id', '1')}`)), ...TS_GET_ROUTES.flatMap((r) => pathsOf(r, ids))];
});
afterAll(async () => {
  await Promise.all([radar.close(), ts.close()]);
});

type Build = 'radar' | 'ts';
const build = fc.constantFrom<Build>('radar', 'ts');
const served = (b: Build) => (b === 'radar' ? radar : ts);

/** A build without one of the APIs answers its paths 503 (documented in ERROR_STATUSES); anything else is checked. */
function check(a: Answer): void {
  const noDatabase = /^\{"statusCode":503,"reason":"Service Unavailable","userMessage":"This build has no (radar catalogue|timeseries) database"/;
  if (a.status === 503 && (a.method === 'HEAD' ? /\/(api\/v1|radarnet\/mirror\/v3|superdarn\/mirror\/v3)\//.test(a.path) : noDatabase.test(a.text))) return;
  checkAnswer(a, { secrets });
}

const PREFIXES = [
  '/', '/radarnet/', `${RADAR_PREFIX}/`, `${RADAR_PREFIX}/files/`, `${RADAR_PREFIX}/metadata/file/`, `${RADAR_PREFIX}/transferred/files/compression/`, `${RADAR_PREFIX}/files.json/`,
  `${RADAR_PREFIX}/radars/`, '/api/', `${TIMESERIES_PREFIX}/`, `${TIMESERIES_PREFIX}/timeseries/`, `${TIMESERIES_PREFIX}/timeseries/ts_koeln_rhein_water_level/`,
  `${TIMESERIES_PREFIX}/stations/`, `${TIMESERIES_PREFIX}/timeseries/getData/`, '/docs/', '/browse/', '/browse/radars/', '/index.html/', '/openapi.json/',
  '/superdarn/', `${BAS_PREFIX}/`, `${BAS_PREFIX}/files/`, `${BAS_PREFIX}/files.json/`, `${BAS_PREFIX}/radars/`,
];
const DOTS = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e', '%c0%ae%c0%ae', '%e0%80%ae%e0%80%ae', '%uff0e%uff0e', '..%00', '...', '....', '..;', '..%20', '%2e%2e%00', '%2e%2e%252f'];
const SEPS = ['/', '%2f', '%2F', '\\', '%5c', '%5C', '%252f', '%255c', '//', '/./', '%c0%af', '%e0%80%af', '\\/', '/%2e/', '%2f%2f'];
const SUFFIXES = ['', '', '%00', '%00.json', '.json', '?contentType=json', ';.json', '%20', '#x', '/', '%3f.json', '%23.json', '.csv', '.sha1', '.html', '?', '%00.png'];

const traversal: fc.Arbitrary<Traversal> = fc.record({
  prefix: fc.oneof(fc.constantFrom(...PREFIXES), build.chain((b) => fc.constantFrom(...siteDirs[b]))),
  dots: fc.constantFrom(...DOTS),
  sep: fc.constantFrom(...SEPS),
  mixed: fc.boolean(),
  depth: fc.integer({ min: 1, max: 12 }),
  target: fc.constantFrom(...OUTSIDE_TARGETS),
  suffix: fc.constantFrom(...SUFFIXES),
  absolute: fc.constantFrom('', '', '', 'http://127.0.0.1', 'http://localhost:1', '/'),
});

interface Traversal {
  prefix: string;
  dots: string;
  sep: string;
  mixed: boolean;
  depth: number;
  target: string;
  suffix: string;
  absolute: string;
}

function traversalPath(t: Traversal, pick: (xs: string[]) => string): string {
  const steps = Array.from({ length: t.depth }, () => `${t.mixed ? pick(DOTS) : t.dots}${t.mixed ? pick(SEPS) : t.sep}`).join('');
  const target = t.target.replaceAll('/', t.sep === '//' ? '/' : t.sep);
  return `${t.absolute}${t.prefix}${steps}${target}${t.suffix}`;
}

describe('never a file outside the tree', () => {
  test('generated traversals on every prefix and site folder, both builds', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(build, traversal, fc.infiniteStream(fc.nat()), fc.constantFrom('GET', 'HEAD'), async (b, t, rnd, m) => {
        const it = rnd[Symbol.iterator]();
        const path = traversalPath(t, (xs) => xs[it.next().value! % xs.length]!);
        check(await send(served(b).url, path, { method: m }));
      }),
      runs(400),
    );
  });

  test('classic payloads on every prefix, both builds', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const payloads = [
      '../build.json', '../../build.json', '../../../build.json', '%2e%2e/build.json', '%2e%2e%2fbuild.json', '..%2fbuild.json', '..%2f..%2fbuild.json', '..%2f..%2f..%2fbuild.json',
      '..%2f..%2f..%2f..%2fbuild.json', '..%5cbuild.json', '..\\build.json', '..\\..\\build.json', '%252e%252e%252fbuild.json', '..%252fbuild.json', '..%c0%afbuild.json',
      '%c0%ae%c0%ae/build.json', '....//build.json', '..%2f..%2fdata%2fradarnet-mirror-v3.duckdb', '..%2f..%2fdata%2ftimeseries-v1.duckdb', '..%2f..%2fsite-files.json',
      '..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fwork%2fmain%2fpackage.json',
      '%2fetc%2fpasswd', '%2f%2fetc%2fpasswd', '..%00/build.json', 'build.json%00.json', '..%2fbuild.json%00.json', '..%2f..%2f..%2fbuild.json?contentType=json',
    ];
    const requests = (['radar', 'ts'] as const).flatMap((b) => [...PREFIXES, ...siteDirs[b].slice(0, 6)].flatMap((p) => payloads.map((x) => ({ b, path: `${p}${x}` }))));
    await inParallel(requests, async ({ b, path }) => check(await send(served(b).url, path)));
    expect(requests.length).toBeGreaterThan(1000);
  });

  test('traversal in the id of a path and in query values', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const value = fc.constantFrom(...OUTSIDE_TARGETS).chain((t) => fc.constantFrom(`../../${t}`, `..%2f..%2f${t.replaceAll('/', '%2f')}`, `%2e%2e%2f%2e%2e%2f${t.replaceAll('/', '%2f')}`, `/${t}`, `..\\..\\${t}`, `file:///${t}`));
    await fc.assert(
      fc.asyncProperty(build, fc.integer({ min: 0, max: 10_000 }), value, fc.boolean(), async (b, i, v, inPath) => {
        const path = apiPaths[i % apiPaths.length]!;
        const target = inPath ? path.replace(/\/[^/]+$/, `/${v}`) : `${path}?contentType=${v}&timespan=${v}&style=${v}&crs=${v}&q=${v}`;
        check(await send(served(b).url, target));
      }),
      runs(150),
    );
  });
});

describe('no header injection', () => {
  test('CR/LF in every parameter of both route tables and in path segments', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const names = [...new Set([...RADAR_PARAM_NAMES, ...TS_GET_ROUTES.flatMap((r) => r.query)])];
    const valid: Record<string, string> = { ...Object.fromEntries(RADAR_PARAM_DOCS.map((d) => [d.name, d.example])), ...TS_VALID };
    await fc.assert(
      fc.asyncProperty(build, fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(...names), fc.constantFrom(...CRLF_RAW), fc.constantFrom('query', 'validPrefix', 'path', 'name'), async (b, i, name, crlf, where) => {
        const path = apiPaths[i % apiPaths.length]!;
        const target =
          where === 'query' ? `${path}?${name}=${crlf}`
          : where === 'validPrefix' ? `${path}?${name}=${pct(valid[name] ?? 'x')}${crlf}&offset=0&limit=1`
          : where === 'name' ? `${path}?${crlf}=1&offset=0&limit=1`
          : path.replace(/\/[^/]+$/, `/${crlf}`);
        check(await send(served(b).url, target));
      }),
      runs(200),
    );
  });

  test('contentType with CR/LF, on every radar route: 400 naming contentType, no injected header', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await inParallel(
      RADAR_ROUTES.flatMap((r) => CRLF_RAW.map((c) => `${RADAR_PREFIX}${r.path.replace(':id', '1')}?contentType=json${c}`)),
      async (path) => {
        const a = await send(radar.url, path);
        checkAnswer(a, { secrets, statuses: [400], param: 'contentType' });
      },
    );
  });
});

/**
 * Sends raw bytes on a socket (not half-closed: Node drops the pending answer of a client that half-closes)
 * and reads until the server closes; requests ask for `Connection: close`.
 */
function raw(base: string, request: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(Buffer.from(request.replace('\r\nHost: x\r\n', '\r\nHost: x\r\nConnection: close\r\n'), 'latin1')));
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
      socket.destroy();
      reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`));
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

function statusAndBody(text: string): { status: number; type: string; body: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1] ?? 0), type: /\r\ncontent-type: *([^\r]*)/i.exec(head ?? '')?.[1] ?? '', body: rest.join('\r\n\r\n') };
}

describe('request targets that look like a URL authority', () => {
  /** Once a 500 (new URL threw); now a path, or 400 when it cannot be read. */
  test.each(['//%zz', '//a:b/', '//[/', '//...%c0%afbuild.json', 'http://[/', 'http://a:b/'])('request target %s: not a 5xx', async (target) => {
    const a = await send(radar.url, target);
    expect(a.status).toBeLessThan(500);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  /** These never reach the app: the server's `clientError` handler answers them with the JSON error body. */
  test.each([
    ['a request target over 16 KB (431)', `GET ${RADAR_PREFIX}/files?timespan=${'9'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['an unknown method (400)', `FOO ${RADAR_PREFIX}/ HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a space in the request target (400)', `GET ${RADAR_PREFIX}/files?radar_code=s s HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a raw CR/LF header injection attempt (400)', `GET ${RADAR_PREFIX}/?contentType=json\rX-Fuzz-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('%s: the JSON error body', async (_, request) => {
    const r = statusAndBody(await raw(radar.url, request));
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.type).toMatch(/^application\/json/);
    expect(JSON.parse(r.body).statusCode).toBe(r.status);
  });

  test('and still no 5xx, no injected header and no hang for them', async () => {
    for (const request of [
      `GET ${RADAR_PREFIX}/files?timespan=${'9'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `FOO ${RADAR_PREFIX}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${RADAR_PREFIX}/?contentType=json\rX-Fuzz-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${RADAR_PREFIX}/?contentType=json\r\nX-Fuzz-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /../../build.json HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ..%2f..%2fbuild.json HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET * HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET http://x/../build.json HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${RADAR_PREFIX}/ HTTP/1.1\r\nHost: x\r\nAccept: text/csv\r\nAccept: image/png\r\n\r\n`,
      `GET ${RADAR_PREFIX}/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
      `GET ${RADAR_PREFIX}/ HTTP/1.0\r\n\r\n`,
      `GET ${RADAR_PREFIX}/ HTTP/9.9\r\nHost: x\r\n\r\n`,
      `GET ${RADAR_PREFIX}/files?x=\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET ${RADAR_PREFIX}/files/\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const text = await raw(radar.url, request);
      const r = statusAndBody(text);
      expect(r.status, request.slice(0, 80)).toBeGreaterThanOrEqual(200);
      expect(r.status, request.slice(0, 80)).toBeLessThan(500);
      expect(text.toLowerCase(), request.slice(0, 80)).not.toContain('x-fuzz-injected');
      for (const s of secrets) expect(Buffer.from(text, 'latin1').includes(s.bytes), `${request.slice(0, 80)}: ${s.name}`).toBe(false);
    }
  });
});
