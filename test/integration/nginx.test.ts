/**
 * Real static hosting: nginx (installed from Debian's packages when missing) with the configuration of
 * build-scripts/nginx-config.ts, in front of the endpoint, for the radar demo build and the timeseries demo
 * build. Every path of both APIs' route tables, with real ids from the trees, in every static variant
 * (contentType, expanded, Accept), with live parameters, bad parameters, other methods, POST getData, charts,
 * unknown and odd paths, gives through nginx the same status, the headers that matter and the same bytes
 * (decompressed: nginx gzips text) as the endpoint alone. Each request carries a marker header, so the test
 * knows which ones reached the endpoint: those nginx should answer from the tree must not, and live ones must.
 *
 * ETag: nginx's own (`"<mtime>-<size>"`, `W/` when gzipped) on answers from files, the endpoint's (passed
 * through, `W/` when gzipped) on the others; both revalidate (304). Vary: `Accept`, plus `Accept-Encoding`
 * where nginx may compress.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { nginxConfig } from '../../build-scripts/nginx-config.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES, INDEX_PATHS } from '../../core/radar/routes.ts';
import type { Format } from '../../core/radar/params.ts';
import { staticFile as radarFile, variantFor } from '../../core/radar/static-tree.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { staticFile as tsFile } from '../../core/timeseries/static-tree.ts';
import { decodePng } from '../helpers/png.ts';
import { runTmp } from '../helpers/paths.ts';
import { ensureBrotliModule, ensureNginx, rawRequest, startNginx, type NginxBinary, type RawAnswer, type RunningNginx } from '../helpers/nginx.ts';
import { brotliDecompressSync, zstdDecompressSync } from 'node:zlib';
import { etagInCoding } from '../../core/http/content-coding.ts';
import { inParallel, startEndpoint, type Served } from '../helpers/servers.ts';

interface Case {
  name: string;
  target: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** true: nginx must answer it from the tree; false: it must reach the endpoint; undefined: either. */
  fromTree?: boolean;
  /** Compare only status and headers (bytes that need not be equal, such as a chart rendered twice). */
  headersOnly?: boolean;
}

/** Headers that must be the same through nginx as from the endpoint alone. */
const SAME_HEADERS = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'link',
  'allow',
  'location',
  'cache-control',
  'content-disposition',
  'retry-after',
  'x-content-type-options',
  'content-security-policy',
  'x-frame-options',
  'referrer-policy',
];

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const installed: NginxBinary | { skip: string } = ensureNginx();
const nginxBin = 'skip' in installed ? undefined : installed;
if ('skip' in installed) console.warn(`nginx.test.ts skipped: ${installed.skip}`);
else console.info(`nginx.test.ts: ${installed.version} at ${installed.path} (${installed.how})`);
const brotli = nginxBin ? ensureBrotliModule() : { skip: 'no nginx' };
const brotliModule = 'skip' in brotli ? undefined : brotli.path;
if (nginxBin && 'skip' in brotli) console.warn(`nginx.test.ts: without the brotli module (gzip only): ${brotli.skip}`);

/** nginx in front of an endpoint over one build, with the requests that reached the endpoint recorded. */
class Pair {
  endpoint!: Served;
  nginx!: RunningNginx;
  readonly reached = new Set<string>();
  private n = 0;
  readonly site: string;
  readonly build: string;
  readonly prefix: string;
  constructor(build: string, prefix: string) {
    this.build = build;
    this.prefix = prefix;
    this.site = join(build, 'site');
  }

  async start(bin: string): Promise<void> {
    this.endpoint = await startEndpoint(this.build);
    this.endpoint.server.on('request', (req) => {
      const id = req.headers['x-nginx-test'];
      if (typeof id === 'string') this.reached.add(id);
    });
    const endpoint = this.endpoint.url;
    this.nginx = await startNginx(bin, this.prefix, (listen) => nginxConfig({ site: this.site, endpoint, listen, workers: 2, ...(brotliModule ? { brotliModule } : {}) }));
  }

  private endpointClosed = false;

  async closeEndpoint(): Promise<void> {
    if (this.endpointClosed || !this.endpoint) return;
    this.endpointClosed = true;
    await this.endpoint.close();
  }

  async stop(): Promise<void> {
    await this.nginx?.stop();
    await this.closeEndpoint();
  }

  viaNginx(c: Case): Promise<{ answer: RawAnswer; fromTree: boolean }> {
    const id = `${++this.n}`;
    return rawRequest(this.nginx.url, c.target, { method: c.method ?? 'GET', headers: { ...c.headers, 'X-Nginx-Test': id }, ...(c.body === undefined ? {} : { body: c.body }) }).then((answer) => ({
      answer,
      fromTree: !this.reached.has(id),
    }));
  }

  direct(c: Case): Promise<RawAnswer> {
    return rawRequest(this.endpoint.url, c.target, { method: c.method ?? 'GET', headers: { ...c.headers }, ...(c.body === undefined ? {} : { body: c.body }) });
  }

  /** Every difference between nginx and the endpoint for these cases (empty: none). */
  async compare(cases: Case[]): Promise<{ differences: string[]; fromTree: number; toEndpoint: number }> {
    const differences: string[] = [];
    let fromTree = 0;
    let toEndpoint = 0;
    await inParallel(cases, 6, async (c) => {
      const [{ answer: a, fromTree: tree }, b] = await Promise.all([this.viaNginx(c), this.direct(c)]);
      const label = `${c.name} [${c.method ?? 'GET'} ${c.target}${c.headers ? ` ${JSON.stringify(c.headers)}` : ''}]`;
      const diff = (what: string) => differences.push(`${label}: ${what}`);
      if (tree) fromTree++;
      else toEndpoint++;
      if (a.status !== b.status) diff(`status ${a.status} through nginx, ${b.status} from the endpoint (${a.body.toString().slice(0, 200)})`);
      for (const h of SAME_HEADERS) if (a.headers[h] !== b.headers[h]) diff(`${h}: ${JSON.stringify(a.headers[h])} through nginx, ${JSON.stringify(b.headers[h])} from the endpoint`);
      const vary = (r: RawAnswer) => String(r.headers['vary'] ?? '').split(/\s*,\s*/).filter((v) => v && v.toLowerCase() !== 'accept-encoding').sort().join(', ');
      if (vary(a) !== vary(b) || !vary(a).includes('Accept')) diff(`vary: ${JSON.stringify(a.headers['vary'])} through nginx, ${JSON.stringify(b.headers['vary'])} from the endpoint`);
      if (!c.headersOnly && !a.body.equals(b.body)) diff(`bytes differ (${a.body.length} through nginx, ${b.body.length} from the endpoint)`);
      if (c.fromTree !== undefined && c.fromTree !== tree) diff(tree ? 'answered by nginx from the tree, expected the endpoint' : 'passed to the endpoint, expected nginx to answer from the tree');
      const etagA = String(a.headers['etag'] ?? '').replace(/^W\//, '');
      const etagB = String(b.headers['etag'] ?? '').replace(/^W\//, '');
      if (tree && a.status === 200 && !/^"[0-9a-f]+-[0-9a-f]+"$/.test(etagA)) diff(`nginx's ETag ${JSON.stringify(a.headers['etag'])} on a file`);
      if (!tree && etagA !== etagB) diff(`ETag ${JSON.stringify(a.headers['etag'])} through nginx, ${JSON.stringify(b.headers['etag'])} from the endpoint`);
      if (a.headers['last-modified'] !== undefined) diff('nginx sent Last-Modified');
    });
    return { differences, fromTree, toEndpoint };
  }

  exists(rel: string): boolean {
    return existsSync(join(this.site, rel));
  }

  readJson<T>(rel: string): T | undefined {
    const p = join(this.site, rel);
    return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as T) : undefined;
  }
}

const radar = new Pair(inject('demoBuild'), runTmp(inject('demoSnapshot'), 'nginx-radar'));
const ts = new Pair(inject('tsBuild'), runTmp(inject('demoSnapshot'), 'nginx-timeseries'));

beforeAll(async () => {
  if (!nginxBin) return;
  await Promise.all([radar.start(nginxBin.path), ts.start(nginxBin.path)]);
});
afterAll(async () => {
  await Promise.all([radar.stop(), ts.stop()]);
});

// ---------------------------------------------------------------------------------------------------------

/** The radar API's cases: every route with a real id, in every variant; then odd paths, methods, bad input. */
function radarCases(p: Pair): Case[] {
  const cases: Case[] = [];
  const P = RADAR_PREFIX;
  const idOf = (collection: string): string => String(p.readJson<{ id: number }[]>(radarFile(`${P}${collection}`, variantFor('json', false)))?.[0]?.id ?? 1);
  const variants: { name: string; query: string; headers?: Record<string, string>; format?: Format; expanded?: boolean }[] = [
    { name: 'bare', query: '', format: 'json', expanded: false },
    { name: 'expanded', query: 'expanded=true', format: 'json', expanded: true },
    { name: 'csv', query: 'contentType=csv', format: 'csv', expanded: false },
    { name: 'csv expanded', query: 'expanded=TRUE&contentType=text/csv', format: 'csv', expanded: true },
    { name: 'checksum report', query: 'contentType=checksumReport', format: 'checksum', expanded: false },
    { name: 'checksum report (media type, encoded)', query: 'contentType=text%2Fplain&expanded=true', format: 'checksum', expanded: true },
    { name: 'html', query: 'contentType=html', format: 'html', expanded: false },
    { name: 'Accept csv', query: '', headers: { Accept: 'text/csv' }, format: 'csv', expanded: false },
    { name: 'Accept csv expanded', query: 'expanded=true', headers: { Accept: 'text/csv' }, format: 'csv', expanded: true },
    { name: 'Accept text/plain', query: '', headers: { Accept: 'text/plain' }, format: 'checksum', expanded: false },
    { name: 'Accept text/html', query: '', headers: { Accept: 'text/html' }, format: 'html', expanded: false },
    { name: 'Accept */*', query: '', headers: { Accept: '*/*' }, format: 'json', expanded: false },
    { name: 'contentType wins over Accept', query: 'contentType=json', headers: { Accept: 'text/csv' }, format: 'json', expanded: false },
    { name: 'unknown parameters are ignored', query: 'foo=bar&_=123&expanded=false&ContentType=csv', format: 'json', expanded: false },
    { name: 'browser Accept (negotiated by the endpoint)', query: '', headers: { Accept: BROWSER_ACCEPT } },
    { name: 'live: radar_code', query: 'radar_code=sas' },
    { name: 'live: csv without header row', query: 'contentType=csv&includeHeaders=false&radar_code=SAS' },
  ];
  for (const route of RADAR_ROUTES) {
    const parent = route.path.endsWith('/:id') ? route.path.slice(0, -'/:id'.length) : undefined;
    const apiPath = route.path === '/' ? `${P}/` : `${P}${parent === undefined ? route.path : `${parent}/${idOf(parent)}`}`;
    for (const v of variants) {
      const fromTree = v.format === undefined ? false : p.exists(radarFile(apiPath, variantFor(v.format, v.expanded ?? false)));
      cases.push({ name: `${route.path} ${v.name}`, target: v.query ? `${apiPath}?${v.query}` : apiPath, ...(v.headers ? { headers: v.headers } : {}), fromTree });
    }
  }
  // The BAS prefix: the same files, but the index and HTML pages (whose links follow the prefix) from the endpoint
  const A = BAS_PREFIX;
  const aliasVariants = variants.filter((v) => ['bare', 'expanded', 'csv expanded', 'checksum report', 'html', 'Accept text/plain', 'Accept text/html', 'live: radar_code'].includes(v.name));
  for (const route of RADAR_ROUTES) {
    const parent = route.path.endsWith('/:id') ? route.path.slice(0, -'/:id'.length) : undefined;
    const rest = route.path === '/' ? '/' : parent === undefined ? route.path : `${parent}/${idOf(parent)}`;
    for (const v of aliasVariants) {
      const holdsLinks = route.shape === 'index' || v.format === 'html';
      const fromTree = v.format === undefined || holdsLinks ? false : p.exists(radarFile(`${P}${rest}`, variantFor(v.format, v.expanded ?? false)));
      cases.push({ name: `${A} ${route.path} ${v.name}`, target: v.query ? `${A}${rest}?${v.query}` : `${A}${rest}`, ...(v.headers ? { headers: v.headers } : {}), fromTree });
    }
  }
  const radarId = idOf('/radars');
  cases.push(
    { name: 'BAS: bare prefix redirects to its own index', target: A, fromTree: false },
    { name: 'BAS: index file by its own name (links follow the prefix)', target: `${A}/index.json`, fromTree: false },
    { name: 'BAS: HTML file by its own name (links follow the prefix)', target: `${A}/files.html`, fromTree: false },
    { name: 'BAS: index HTML file by its own name', target: `${A}/index.html`, fromTree: false },
    { name: 'BAS: tree file by its own name', target: `${A}/files.sha1`, fromTree: true },
    { name: 'BAS: tree file by its own name, any query', target: `${A}/radars/${radarId}.expanded.csv?timespan=nonsense`, fromTree: true },
    { name: 'BAS: live timespan', target: `${A}/files?timespan=2024-03-01T06/2024-03-01T12&contentType=csv`, fromTree: false },
    { name: 'BAS: trailing slash', target: `${A}/files/`, fromTree: false },
    { name: 'BAS: unknown path', target: `${A}/nothing`, fromTree: false },
    { name: 'BAS: non-integer id', target: `${A}/files/abc`, fromTree: false },
    { name: 'BAS: no such id', target: `${A}/files/99999999`, fromTree: false },
    { name: 'id with leading zeros: 404 (no such tree file; the endpoint the same)', target: `${P}/files/0000000000000000000001`, fromTree: false },
    { name: 'BAS: id with leading zeros', target: `${A}/radars/0${radarId}?contentType=csv`, fromTree: false },
    { name: 'id -0', target: `${P}/files/-0`, fromTree: false },
    { name: 'BAS: empty segment', target: `${A}//radars`, fromTree: false },
    { name: 'BAS: POST', target: `${A}/radars`, method: 'POST', body: '{}', fromTree: false },
    { name: 'BAS: a prefix of the prefix', target: '/superdarn/mirror', fromTree: false },
    { name: 'BAS: the prefix as a longer segment', target: `${A}x/radars`, fromTree: false },
  );
  cases.push(
    { name: 'live: timespan', target: `${P}/files?timespan=2024-03-01T06/2024-03-01T12`, fromTree: false },
    { name: 'live: bbox', target: `${P}/radars?bbox=-180,-90,180,0&contentType=csv`, fromTree: false },
    { name: 'live: distinct', target: `${P}/transferred/files?distinct=true&timespan=2024-03-01/2024-03-01T03`, fromTree: false },
    { name: 'live: delimiter', target: `${P}/radars?contentType=csv&delimiter=%3B`, fromTree: false },
    { name: 'bad: expanded', target: `${P}/radars?expanded=maybe`, fromTree: false },
    { name: 'bad: contentType', target: `${P}/radars?contentType=xml`, fromTree: false },
    { name: 'bad: empty contentType', target: `${P}/radars?contentType=`, fromTree: false },
    { name: 'bad: timespan', target: `${P}/files?timespan=2024/2023`, fromTree: false },
    { name: 'bad: bbox', target: `${P}/radars?bbox=1,2,3`, fromTree: false },
    { name: 'bad: Accept', target: `${P}/radars`, headers: { Accept: 'image/png' }, fromTree: false },
    { name: 'repeated parameter: the first counts', target: `${P}/radars?contentType=csv&contentType=json`, fromTree: true },
    { name: 'repeated expanded', target: `${P}/radars?expanded=true&expanded=false`, fromTree: true },
    { name: 'Accept with a charset', target: `${P}/radars`, headers: { Accept: 'text/csv; charset=utf-8' }, fromTree: false },
    { name: 'tree file by its own name, any query', target: `${P}/radars/${radarId}.expanded.csv?timespan=nonsense`, fromTree: true },
    { name: 'tree file by its own name', target: `${P}/files.sha1`, fromTree: true },
    { name: 'bare prefix redirects', target: P, fromTree: false },
    { name: 'bare prefix with a query redirects', target: `${P}?contentType=csv`, fromTree: false },
    { name: 'trailing slash', target: `${P}/files/`, fromTree: false },
    { name: 'non-integer id', target: `${P}/files/abc`, fromTree: false },
    { name: 'a variant name as id', target: `${P}/radars/${radarId}.expanded`, fromTree: false },
    { name: 'id beyond int64', target: `${P}/files/99999999999999999999`, fromTree: false },
    { name: 'unknown path', target: `${P}/nothing`, fromTree: false },
    { name: 'percent-encoded id', target: `${P}/radars/%3${radarId.slice(0, 1)}${radarId.slice(1)}`, fromTree: false },
    { name: 'empty segment', target: `${P}//radars`, fromTree: false },
    { name: 'dot segment', target: `${P}/files/../radars`, fromTree: false },
    { name: 'encoded slash', target: `${P}/metadata%2Fcountries`, fromTree: false },
    { name: 'HEAD static', target: `${P}/radars?contentType=csv`, method: 'HEAD', fromTree: true },
    { name: 'HEAD live', target: `${P}/radars?radar_code=sas`, method: 'HEAD', fromTree: false },
    { name: 'POST', target: `${P}/radars`, method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' }, fromTree: false },
    { name: 'PUT', target: `${P}/radars`, method: 'PUT', body: 'x', fromTree: false },
    { name: 'OPTIONS', target: `${P}/radars`, method: 'OPTIONS', fromTree: false },
    { name: 'timeseries API without its database', target: `${TIMESERIES_PREFIX}/stations`, fromTree: false },
  );
  return cases;
}

/** The docs site and paths outside both APIs (either build). */
function siteCases(p: Pair): Case[] {
  const asset = readdirSync(join(p.site, '_astro')).find((f) => /\.(js|css|svg)$/.test(f));
  return [
    ...(asset ? [{ name: 'site asset', target: `/_astro/${asset}`, fromTree: true }] : []),
    { name: 'site root', target: '/', fromTree: true },
    { name: 'site page folder', target: '/docs/', fromTree: true },
    { name: 'site page folder without slash', target: '/docs', fromTree: true },
    { name: 'site page with a query', target: '/docs/?x=1', fromTree: true },
    { name: 'site index.html', target: '/index.html', fromTree: true },
    { name: 'site stylesheet', target: '/site.css', fromTree: true },
    { name: 'OpenAPI document', target: '/openapi.json', fromTree: true },
    { name: 'the tree\'s manifest', target: '/manifest.sha256', fromTree: true },
    { name: 'site: no such page', target: '/nothing', fromTree: false },
    { name: 'site: folder without index', target: '/_astro/', fromTree: false },
    { name: 'site: the server\'s error pages are no path', target: '/.snapcat-nginx/400', fromTree: false },
    { name: 'site: POST', target: '/docs/', method: 'POST', body: 'x', fromTree: false },
    { name: 'site: OPTIONS', target: '/docs/', method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' }, fromTree: false },
    { name: 'site: OPTIONS on no page', target: '/nothing', method: 'OPTIONS', fromTree: false },
  ];
}

/** The timeseries API's cases: every path of TIMESERIES_ROUTES with real ids, variants, live and bad input. */
function timeseriesCases(p: Pair): Case[] {
  const cases: Case[] = [];
  const T = TIMESERIES_PREFIX;
  const firstId = (c: string): string => {
    const list = p.readJson<({ id?: string; properties?: { id: string } } | string)[] | Record<string, unknown>>(tsFile(`${T}/${c}`, false))!;
    const first = Array.isArray(list) ? list[0]! : Object.keys(list)[0]!;
    return typeof first === 'string' ? first : (first.id ?? first.properties!.id);
  };
  const seriesDir = join(p.site, 'api/v1/timeseries');
  const series = readdirSync(seriesDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const withQualifier = series.find((s) => readdirSync(join(seriesDir, s)).some((f) => /_.*\.png$/.test(f)))!;
  const qualified = readdirSync(join(seriesDir, withQualifier)).find((f) => /_.*\.png$/.test(f))!.slice(0, -4);
  const withoutLastDay = series.find((s) => existsSync(join(seriesDir, s, 'lastWeek.png')) && !existsSync(join(seriesDir, s, 'lastDay.png')))!;
  const tsId = withQualifier;

  // lang: the variant localizes labels, so collections and resources go to the endpoint (the index and data have none)
  const jsonVariants: { name: string; suffix: string; query: string; headers?: Record<string, string>; expanded?: boolean; mapped: boolean; lang?: boolean }[] = [
    { name: 'bare', suffix: '', query: '', expanded: false, mapped: true },
    { name: 'trailing slash', suffix: '/', query: '', expanded: false, mapped: true },
    { name: '.json', suffix: '.json', query: '', expanded: false, mapped: true },
    { name: '.json wins over Accept', suffix: '.json/', query: 'expanded=true', headers: { Accept: 'text/csv' }, expanded: true, mapped: true },
    { name: 'expanded', suffix: '', query: 'expanded=true', expanded: true, mapped: true },
    { name: 'expanded=FALSE', suffix: '', query: 'expanded=FALSE', expanded: false, mapped: true },
    { name: 'Accept json', suffix: '', query: '', headers: { Accept: 'application/json' }, expanded: false, mapped: true },
    { name: 'Accept */*', suffix: '', query: 'expanded=true', headers: { Accept: '*/*' }, expanded: true, mapped: true },
    { name: 'unknown parameters are ignored', suffix: '', query: 'foo=bar&contentType=csv', expanded: false, mapped: true },
    { name: 'browser Accept', suffix: '', query: '', headers: { Accept: BROWSER_ACCEPT }, mapped: false },
    { name: 'Accept csv: 406', suffix: '', query: '', headers: { Accept: 'text/csv' }, mapped: false },
    { name: 'live: locale', suffix: '', query: 'locale=de', mapped: false },
    { name: 'Accept-Language English: the tree', suffix: '', query: '', headers: { 'Accept-Language': 'en-US,en;q=0.9,*;q=0.1' }, expanded: false, mapped: true },
    { name: 'Accept-Language de: live labels', suffix: '', query: '', headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' }, expanded: false, mapped: true, lang: true },
    { name: 'Accept-Language de, .json', suffix: '.json', query: 'expanded=true', headers: { 'Accept-Language': 'de' }, expanded: true, mapped: true, lang: true },
    { name: 'Accept-Language fr (no labels: the default ones, from the endpoint)', suffix: '', query: '', headers: { 'Accept-Language': 'fr-FR' }, expanded: false, mapped: true, lang: true },
    { name: 'Accept-Language and locale: locale wins', suffix: '', query: 'locale=nl', headers: { 'Accept-Language': 'de' }, mapped: false },
    { name: 'bad: expanded', suffix: '', query: 'expanded=maybe', mapped: false },
    { name: 'bad: locale', suffix: '', query: 'locale=1234', mapped: false },
  ];
  for (const route of TIMESERIES_ROUTES) {
    if (route.method !== 'GET' || route.path.includes('{interval}')) continue;
    const collection = route.path.split('/')[1]!;
    const apiPath = `${T}${route.path.replace('{id}', () => (route.path.startsWith('/timeseries/') ? tsId : firstId(collection)))}`;
    const isItem = /^\/\w+\/\{id\}$/.test(route.path);
    const labelled = /^\/\w+(\/\{id\})?$/.test(route.path) && route.path !== '/search';
    for (const v of jsonVariants) {
      if (route.path === '/' && v.suffix !== '') continue; // `/api/v1/.json` is no path (see below)
      if (route.path === '/search') continue;
      const file = tsFile(apiPath, isItem ? false : (v.expanded ?? false));
      const target = `${route.path === '/' ? `${T}/` : `${apiPath}${v.suffix}`}${v.query ? `?${v.query}` : ''}`;
      cases.push({ name: `${route.path} ${v.name}`, target, ...(v.headers ? { headers: v.headers } : {}), fromTree: v.mapped && !(v.lang && labelled) && p.exists(file) });
    }
  }
  const station = firstId('stations');
  const chart = (rest: string, extra: Partial<Case> = {}): Case => ({ name: `pre-rendered chart ${rest}`, target: `${T}/timeseries/${rest}`, ...extra });
  const postBody = JSON.stringify({ timespan: 'PT12H/2024-01-08TZ', timeseries: [tsId, series[1]] });
  cases.push(
    { name: 'index.json is no path', target: `${T}/.json`, fromTree: false },
    { name: 'search', target: `${T}/search?q=rhein`, fromTree: false },
    { name: 'search with locale', target: `${T}/search?q=rhein&locale=de`, fromTree: false },
    { name: 'search without q', target: `${T}/search`, fromTree: false },
    { name: 'live: paging (Link)', target: `${T}/stations?offset=2&limit=3`, fromTree: false },
    { name: 'live: paging with filters', target: `${T}/timeseries?limit=2&station=${station}&expanded=true`, fromTree: false },
    { name: 'live: filter', target: `${T}/phenomena?station=${station}`, fromTree: false },
    { name: 'live: bbox', target: `${T}/stations?bbox=${encodeURIComponent('{"ll":{"type":"Point","coordinates":[6,50]},"ur":{"type":"Point","coordinates":[8,52]}}')}`, fromTree: false },
    { name: 'live: near', target: `${T}/stations?near=${encodeURIComponent('{"center":{"type":"Point","coordinates":[7,51]},"radius":100}')}`, fromTree: false },
    { name: 'live: crs', target: `${T}/stations/${station}?crs=EPSG:4326`, fromTree: false },
    { name: 'live: status_intervals', target: `${T}/timeseries/${tsId}?status_intervals=true&rendering_hints=true`, fromTree: false },
    { name: 'live: force_latest_values', target: `${T}/timeseries?force_latest_values=true`, fromTree: false },
    { name: 'live: getData timespan', target: `${T}/timeseries/${tsId}/getData?timespan=PT6H/2024-01-08TZ`, fromTree: false },
    { name: 'live: getData highchart', target: `${T}/timeseries/${tsId}/getData?format=highchart&expanded=true`, fromTree: false },
    { name: 'live: getData generalized', target: `${T}/timeseries/${tsId}/getData?generalize=true`, fromTree: false },
    { name: 'live: getData flot', target: `${T}/timeseries/${tsId}/getData?format=flot&expanded=true`, fromTree: false },
    { name: 'download: getData.csv', target: `${T}/timeseries/${tsId}/getData.csv?locale=de`, fromTree: false },
    { name: 'download: Accept text/csv', target: `${T}/timeseries/${tsId}/getData`, headers: { Accept: 'text/csv' }, fromTree: false },
    { name: "download: Helgoland's getData.zip", target: `${T}/timeseries/${tsId}/getData.zip?timespan=${encodeURIComponent('2024-01-07T01:00:00+01:00/2024-01-08T01:00:00+01:00')}&locale=de&zip=true&bom=true`, fromTree: false },
    { name: 'download: POST getData.zip', target: `${T}/timeseries/getData.zip`, method: 'POST', body: postBody, fromTree: false },
    { name: 'bad: limit', target: `${T}/stations?limit=0`, fromTree: false },
    { name: 'bad: timespan', target: `${T}/timeseries/${tsId}/getData?timespan=yesterday`, fromTree: false },
    { name: 'bad: too long timespan', target: `${T}/timeseries/${tsId}/getData?timespan=P3Y/2024-01-08TZ`, fromTree: false },
    { name: 'unknown id', target: `${T}/stations/sta_nowhere`, fromTree: false },
    { name: 'a tree file name as a path', target: `${T}/stations.expanded.json`, fromTree: false },
    { name: 'a variant name as id', target: `${T}/stations/${station}.expanded`, fromTree: false },
    { name: 'getData.expanded.json is no path', target: `${T}/timeseries/${tsId}/getData.expanded.json`, fromTree: false },
    { name: 'chart type on a metadata path', target: `${T}/stations.png`, fromTree: false },
    { name: 'unknown path', target: `${T}/nothing`, fromTree: false },
    { name: 'bare prefix redirects', target: T, fromTree: false },
    { name: 'empty segment', target: `${T}//stations`, fromTree: false },
    { name: 'percent-encoded path', target: `${T}/stat%69ons`, fromTree: false },
    chart(`${tsId}/lastWeek`, { fromTree: true }),
    chart(`${tsId}/lastWeek.png`, { fromTree: true }),
    chart(`${tsId}/lastWeek/`, { fromTree: true }),
    chart(`${tsId}/lastMonth?width=10&locale=de`, { fromTree: true }),
    chart(`${tsId}/lastDay`, { headers: { Accept: 'application/json' }, fromTree: true }),
    chart(`${tsId}/${qualified}`, { fromTree: true }),
    chart(`${withoutLastDay}/lastDay`, { fromTree: false }),
    chart(`${tsId}/lastWeek.pdf`, { fromTree: false }),
    chart(`${tsId}/lastWeek.json`, { fromTree: false }),
    chart(`${tsId}/lastYear`, { fromTree: false }),
    chart(`ts_nowhere/lastWeek`, { fromTree: false }),
    { name: 'HEAD static', target: `${T}/stations`, method: 'HEAD', fromTree: true },
    { name: 'HEAD chart', target: `${T}/timeseries/${tsId}/lastWeek`, method: 'HEAD', fromTree: true },
    { name: 'POST getData', target: `${T}/timeseries/getData`, method: 'POST', body: postBody, headers: { 'Content-Type': 'application/json' }, fromTree: false },
    { name: 'POST getData, options in the query', target: `${T}/timeseries/getData?format=highchart&expanded=true`, method: 'POST', body: postBody, fromTree: false },
    { name: 'POST getData, not JSON', target: `${T}/timeseries/getData`, method: 'POST', body: '{"timespan":', fromTree: false },
    { name: 'POST getData, unknown id', target: `${T}/timeseries/getData`, method: 'POST', body: '{"timeseries":["ts_nowhere"]}', fromTree: false },
    { name: 'POST getData, too large', target: `${T}/timeseries/getData`, method: 'POST', body: JSON.stringify({ timeseries: [tsId], pad: 'x'.repeat(100_000) }), fromTree: false },
    { name: 'OPTIONS preflight', target: `${T}/timeseries/getData`, method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' }, fromTree: false },
    { name: 'GET on the POST path', target: `${T}/timeseries/getData`, fromTree: false },
    { name: 'OPTIONS on a static path', target: `${T}/stations`, method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'accept-language' }, fromTree: false },
    { name: 'OPTIONS on a pre-rendered chart', target: `${T}/timeseries/${tsId}/lastWeek`, method: 'OPTIONS', fromTree: false },
    { name: 'OPTIONS on the bare prefix', target: T, method: 'OPTIONS', fromTree: false },
    { name: 'a tree file by its own name, Accept-Language de', target: `${T}/stations.expanded.json`, headers: { 'Accept-Language': 'de' }, fromTree: false },
    { name: 'search, Accept-Language de', target: `${T}/search?q=rhein`, headers: { 'Accept-Language': 'de' }, fromTree: false },
    { name: 'PUT', target: `${T}/stations`, method: 'PUT', body: 'x', fromTree: false },
    { name: 'POST on a static path', target: `${T}/stations`, method: 'POST', body: '{}', fromTree: false },
    { name: 'radar index without its database', target: `${RADAR_PREFIX}/`, fromTree: false },
    { name: 'radar path without its database', target: `${RADAR_PREFIX}/radars`, fromTree: false },
  );
  return cases;
}

describe('nginx in front of the endpoint: same answers, files served by nginx', () => {
  test('the radar API, every path and variant, the docs site', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const cases = [...radarCases(radar), ...siteCases(radar)];
    const r = await radar.compare(cases);
    console.info(`radar build: ${cases.length} requests, ${r.fromTree} answered by nginx from the tree, ${r.toEndpoint} passed to the endpoint`);
    expect(r.differences).toEqual([]);
    expect(r.fromTree).toBeGreaterThan(cases.length / 2);
    expect(r.toEndpoint).toBeGreaterThan(100);
  });

  test('the timeseries API, every path and variant, POST getData, pre-rendered charts', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const cases = [...timeseriesCases(ts), ...siteCases(ts)];
    const r = await ts.compare(cases);
    console.info(`timeseries build: ${cases.length} requests, ${r.fromTree} answered by nginx from the tree, ${r.toEndpoint} passed to the endpoint`);
    expect(r.differences).toEqual([]);
    expect(r.fromTree).toBeGreaterThan(100);
  });

  test('an on-demand chart goes to the endpoint', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const series = readdirSync(join(ts.site, 'api/v1/timeseries'))[0]!;
    const c: Case = { name: 'chart', target: `${TIMESERIES_PREFIX}/timeseries/${series}/getData.png?width=320&height=200`, headersOnly: true, fromTree: false };
    const r = await ts.compare([c, { ...c, name: 'chart by Accept', target: `${TIMESERIES_PREFIX}/timeseries/${series}/getData?width=320&height=200`, headers: { Accept: 'image/png' } }]);
    expect(r.differences).toEqual([]);
    const { answer } = await ts.viaNginx(c);
    expect(answer.status).toBe(200);
    const png = decodePng(answer.body);
    expect([png.width, png.height]).toEqual([320, 200]);
  });

  test('two Accept lines: one answer (nginx 1.22 reads the first line only, later versions join them)', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const headers = { Accept: ['text/csv', 'application/json'] as unknown as string };
    const target = `${RADAR_PREFIX}/radars`;
    const [{ answer: a }, b] = await Promise.all([radar.viaNginx({ name: 'two Accept lines', target, headers }), radar.direct({ name: '', target, headers })]);
    expect(b.headers['content-type']).toBe('application/json');
    const [major, minor] = nginxBin.version.replace('nginx/', '').split('.').map(Number) as [number, number];
    if (major > 1 || minor >= 23) expect(a.body.equals(b.body)).toBe(true);
    else expect(a.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  test('revalidation: nginx ETags on files, the endpoint ETags on the rest, 304 either way', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    for (const target of [`${RADAR_PREFIX}/radars?contentType=csv`, `${RADAR_PREFIX}/radars?radar_code=sas`]) {
      const first = await rawRequest(radar.nginx.url, target);
      const etag = String(first.headers['etag']);
      const again = await rawRequest(radar.nginx.url, target, { headers: { 'If-None-Match': etag } });
      expect(again.status, target).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['access-control-allow-origin']).toBe('*');
      expect(again.headers['cache-control']).toBe('public, max-age=300');
      const other = await rawRequest(radar.nginx.url, target, { headers: { 'If-None-Match': '"stale"' } });
      expect(other.status).toBe(200);
      expect(other.body.equals(first.body)).toBe(true);
    }
  });
});

describe('nginx: downloads and the BAS prefix', () => {
  test('downloads from the tree carry their file name, JSON none; the BAS prefix\'s index links under it', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const id = radar.readJson<{ id: number }[]>('radarnet/mirror/v3/radars.json')![0]!.id;
    const expected: [string, string | undefined][] = [
      [`${RADAR_PREFIX}/files?contentType=csv`, 'attachment; filename="files.csv"'],
      [`${RADAR_PREFIX}/files?expanded=true`, undefined],
      [`${BAS_PREFIX}/transferred/files/alarm?contentType=checksumReport`, 'attachment; filename="transferred-files-alarm.sha1"'],
      [`${BAS_PREFIX}/metadata/coverage/temporal/types/1?expanded=true&contentType=csv`, 'attachment; filename="metadata-coverage-temporal-types-1.expanded.csv"'],
      [`${BAS_PREFIX}/radars/${id}.expanded.csv`, `attachment; filename="radars-${id}.expanded.csv"`],
      [`${BAS_PREFIX}/radars`, undefined],
    ];
    for (const [target, disposition] of expected) {
      const { answer, fromTree } = await radar.viaNginx({ name: target, target });
      expect([answer.status, fromTree, answer.headers['content-disposition']], target).toEqual([200, true, disposition]);
    }
    const index = JSON.parse((await rawRequest(radar.nginx.url, `${BAS_PREFIX}/`)).body.toString()) as { api_routes: { path: string }[] };
    expect(index.api_routes.length).toBe(INDEX_PATHS.length);
    for (const r of index.api_routes) expect(r.path.startsWith(`${BAS_PREFIX}/`), r.path).toBe(true);
  });
});

describe('nginx compresses what it serves', () => {
  test('files of 1 KB or more in gzip (and br with the brotli module), to the file\'s bytes; small files, PNG and zstd-only clients plain', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const P = RADAR_PREFIX;
    const big = await rawRequest(radar.nginx.url, `${P}/radars`, { headers: { 'X-Nginx-Test': 'gzip-file' } });
    const file = readFileSync(join(radar.site, radarFile(`${P}/radars`, variantFor('json', false))));
    expect(file.length).toBeGreaterThanOrEqual(1024);
    expect(big.gzipped).toBe(true);
    expect(big.body.equals(file)).toBe(true);
    expect(String(big.headers['vary'])).toMatch(/Accept-Encoding/);
    const br = await rawRequest(radar.nginx.url, `${P}/radars`, { headers: { 'Accept-Encoding': 'br' } });
    if (brotliModule) {
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(file)).toBe(true);
    } else {
      expect(br.headers['content-encoding']).toBeUndefined();
      expect(br.body.equals(file)).toBe(true);
    }
    // Debian has no zstd module for nginx: a client that accepts only zstd gets the file as it is
    const zstdOnly = await rawRequest(radar.nginx.url, `${P}/radars`, { headers: { 'Accept-Encoding': 'zstd' } });
    expect(zstdOnly.headers['content-encoding']).toBeUndefined();
    expect(zstdOnly.body.equals(file)).toBe(true);
    const small = readdirSync(join(radar.site, 'radarnet/mirror/v3/radars')).find((f) => f.endsWith('.json') && readFileSync(join(radar.site, 'radarnet/mirror/v3/radars', f)).length < 1024);
    expect(small).toBeDefined();
    const plain = await rawRequest(radar.nginx.url, `${P}/radars/${small!.replace(/\.json$/, '.json')}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const series = readdirSync(join(ts.site, 'api/v1/timeseries')).find((f) => !f.includes('.'))!;
    const png = await rawRequest(ts.nginx.url, `${TIMESERIES_PREFIX}/timeseries/${series}/lastWeek`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    if (png.status === 200) {
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['content-encoding']).toBeUndefined();
    }
  });

  test('live answers come compressed by the endpoint, as they are (its coding, its ETag)', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const target = `${RADAR_PREFIX}/files?timespan=1990/2100`;
    const plain = await rawRequest(radar.endpoint.url, target, { headers: { 'Accept-Encoding': 'identity' } });
    for (const coding of ['zstd', 'br', 'gzip'] as const) {
      const { answer, fromTree } = await radar.viaNginx({ name: coding, target, headers: { 'Accept-Encoding': coding } });
      expect(fromTree).toBe(false);
      expect(answer.headers['content-encoding']).toBe(coding);
      const body = coding === 'zstd' ? zstdDecompressSync(answer.body) : coding === 'br' ? brotliDecompressSync(answer.body) : answer.body;
      expect(body.equals(plain.body)).toBe(true);
      expect(answer.headers['etag']).toBe(etagInCoding(String(plain.headers['etag']), coding));
    }
  });
});

describe('nginx: the endpoint\'s paths for operators', () => {
  test('/healthz and /metrics always reach the endpoint, uncached, with its status and headers', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const cases: Case[] = [
      { name: 'health', target: '/healthz', fromTree: false },
      { name: 'health with a query', target: '/healthz?verbose=1', fromTree: false },
      { name: 'health, HEAD', target: '/healthz', method: 'HEAD', fromTree: false },
      { name: 'health, POST', target: '/healthz', method: 'POST', body: 'x', fromTree: false },
      // the metrics change with every request (this one counted): headers only
      { name: 'metrics', target: '/metrics', fromTree: false, headersOnly: true },
    ];
    const r = await radar.compare(cases);
    expect(r.differences).toEqual([]);
    expect(r.toEndpoint).toBe(cases.length);
    const { answer } = await radar.viaNginx({ name: 'health', target: '/healthz' });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 'ok', name: radar.endpoint.build.manifest.name, taken_at: radar.endpoint.build.manifest.taken_at });
    const metrics = await radar.viaNginx({ name: 'metrics', target: '/metrics' });
    expect(metrics.answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(metrics.answer.body.toString()).toMatch(/^snapcat_http_requests_total\{family="health",status="200"\} \d+$/m);
  });
});

describe('nginx: the snapshot history and the change API', () => {
  test('/snapshots.json is the tree\'s file; <prefix>/changes always reaches the endpoint (200, 410, 400), in every format', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const name = radar.endpoint.build.manifest.name;
    const cases: Case[] = [
      { name: 'snapshots', target: '/snapshots.json', fromTree: true },
      { name: 'changes', target: `${RADAR_PREFIX}/changes?since=${name}`, fromTree: false },
      { name: 'changes, csv', target: `${RADAR_PREFIX}/changes?since=${name}&contentType=csv`, fromTree: false },
      { name: 'changes, checksum', target: `${BAS_PREFIX}/changes?since=${name}&contentType=checksumReport`, fromTree: false },
      { name: 'changes, too old', target: `${RADAR_PREFIX}/changes?since=2000-01-01`, fromTree: false },
      { name: 'changes, no since', target: `${BAS_PREFIX}/changes`, fromTree: false },
    ];
    const r = await radar.compare(cases);
    expect(r.differences).toEqual([]);
    expect(r.toEndpoint).toBe(cases.length - 1);
    expect((await radar.viaNginx(cases[4]!)).answer.status).toBe(410);
  });
});

describe('nginx keeps answering from the tree when the endpoint is gone', () => {
  test('files still answer; a live request is 503 with the JSON error body', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const staticTargets = [`${RADAR_PREFIX}/radars`, `${RADAR_PREFIX}/files?contentType=csv`, `${RADAR_PREFIX}/`, '/docs/'];
    const before = await Promise.all(staticTargets.map((t) => rawRequest(radar.nginx.url, t)));
    await radar.closeEndpoint();
    for (const [i, t] of staticTargets.entries()) {
      const after = await rawRequest(radar.nginx.url, t);
      expect(after.status, t).toBe(200);
      expect(after.body.equals(before[i]!.body), t).toBe(true);
    }
    const live = await rawRequest(radar.nginx.url, `${RADAR_PREFIX}/radars?radar_code=sas`);
    expect(live.status).toBe(503);
    expect(live.headers['content-type']).toBe('application/json');
    expect(live.headers['retry-after']).toBe('5');
    expect(live.headers['access-control-allow-origin']).toBe('*');
    expect(live.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(live.body.toString()) as { statusCode: number; reason: string; userMessage: string };
    expect(body).toMatchObject({ statusCode: 503, reason: 'Service Unavailable' });
    expect(body.userMessage).toMatch(/endpoint/);
    // a health check through nginx sees the endpoint gone
    const health = await rawRequest(radar.nginx.url, '/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body.toString())).toMatchObject({ statusCode: 503 });
  });

  test('a body over nginx\'s own limit is 413 with the JSON error body', async (ctx) => {
    if (!nginxBin) return ctx.skip();
    const r = await rawRequest(ts.nginx.url, `${TIMESERIES_PREFIX}/timeseries/getData`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body.toString())).toMatchObject({ statusCode: 413, reason: 'Payload Too Large' });
  });
});
