/**
 * The docs site (Astro): built over copies of the shared demo builds (the radar one, with the timeseries tree
 * of the other added), its pages list every route and parameter of both APIs' code tables, every link and
 * image of every page resolves to a file of the tree, pages stay small, the build is quick; rebuilding
 * replaces the pages, and a page that would overwrite an API file fails the build with nothing moved.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { buildSite, type SiteResult } from '../../build-scripts/site.ts';
import { SITE_FILES_MANIFEST } from '../../build-scripts/lib/site-files.ts';
import { BROWSE_SUMMARY_FILE } from '../../core/radar/browse-summary-file.ts';
import { RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { PARAM_DOCS as RADAR_PARAMS } from '../../core/radar/params.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../../core/timeseries/routes.ts';
import { PARAM_DOCS as TIMESERIES_PARAMS } from '../../core/timeseries/params.ts';
import { defaultStyle } from '../../core/timeseries/chart-document.ts';
import { statusIntervalsOf } from '../../core/timeseries/extras.ts';
import { openDuckDB } from '../../lib/duckdb.ts';
import { RESOURCE_NAMES, RESOURCES } from '../../core/radar/resources.ts';
import { openApiDocument } from '../../core/openapi/document.ts';
import { TABLES_BY_API } from '../../core/snapshot/tables.ts';
import { API_NAMES } from '../../core/snapshot/table-schema.ts';
import { COLLECTIONS } from '../../core/timeseries/catalogue.ts';
import { timeseriesFieldDocs } from '../../site/lib/timeseries-docs.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { ids, links, textOf } from '../helpers/html.ts';
import { typesetUnit } from '../../core/units.ts';
import { codeSpans } from '../../site/lib/code-spans.ts';
import { runTmp } from '../helpers/paths.ts';
import { neighbourhood, type Station } from '../../site/lib/stations.ts';

const MAX_PAGE_BYTES = 300 * 1024;

interface Build {
  snapshot: { name: string; apis: string[] };
  files: number;
  bytes: number;
}

/**
 * A copy of a tree of a shared (read-only) build, by hard links: 40,000 files in half a second where fs.cp
 * takes 20 s. Safe because the site build never writes into a file it finds: it adds new names and removes
 * only names it placed itself, which unlinks the copy's name and leaves the shared file alone.
 */
async function linkCopy(from: string, to: string): Promise<void> {
  await promisify(execFile)('cp', ['-al', from, to]);
}

/** A build folder with the radar demo's tree and the timeseries demo's tree, and a build.json naming both APIs. */
async function bothApis(folder: string): Promise<void> {
  const radar = await realpath(inject('demoBuild'));
  const ts = await realpath(inject('tsBuild'));
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await linkCopy(join(radar, 'site'), join(folder, 'site'));
  await linkCopy(join(ts, 'site', 'api'), join(folder, 'site', 'api'));
  // and the timeseries' and stations' feeds, which their pages link (docs/changes.md)
  for (const feeds of ['timeseries', 'stations']) await linkCopy(join(ts, 'site', 'feeds', feeds), join(folder, 'site', 'feeds', feeds));
  // the shared builds hold their own site pages: the copy knows them as placed by a site build
  await copyFile(join(radar, SITE_FILES_MANIFEST), join(folder, SITE_FILES_MANIFEST));
  // what the radar browse pages count of the big collections
  await copyFile(join(radar, BROWSE_SUMMARY_FILE), join(folder, BROWSE_SUMMARY_FILE));
  const a = JSON.parse(await readFile(join(radar, 'build.json'), 'utf8')) as Build;
  const b = JSON.parse(await readFile(join(ts, 'build.json'), 'utf8')) as Build;
  const merged: Build = { snapshot: { ...a.snapshot, apis: [...a.snapshot.apis, ...b.snapshot.apis] }, files: a.files + b.files, bytes: a.bytes + b.bytes };
  await writeFile(join(folder, 'build.json'), JSON.stringify(merged, null, 2));
}

async function placed(folder: string): Promise<string[]> {
  return (JSON.parse(await readFile(join(folder, SITE_FILES_MANIFEST), 'utf8')) as { files: string[] }).files;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Links marked `data-live` lead to what only the live endpoint answers (a query, a chart): the crawl cannot
 * resolve them to files. Returns the page without those links' targets, and the targets.
 */
function withoutLiveLinks(html: string): { html: string; live: string[] } {
  const live: string[] = [];
  const rest = html.replace(/<a\b[^>]*\sdata-live\b[^>]*>/g, (tag) => {
    live.push(...links(tag));
    return tag.replace(/\s(?:href|src)=(?:"[^"]*"|'[^']*'|[^\s>]+)/g, '');
  });
  return { html: rest, live };
}

/** The inline `<svg class="ts-chart">` elements of a page. */
function tsCharts(html: string): string[] {
  return [...html.matchAll(/<svg class="ts-chart"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
}

/** The sections of a docs page, one per route: heading text → section text. */
function routeSections(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<section class="route"[^>]*>([\s\S]*?)<\/section>/g)) {
    const h3 = /<h3[^>]*>([\s\S]*?)<\/h3>/.exec(m[1]!);
    out.set(textOf(h3?.[1] ?? ''), textOf(m[1]!));
  }
  return out;
}

/** A text with markdown code spans as textOf reads it once they are set as code (site/lib/code-spans.ts). */
function shownText(text: string): string {
  return codeSpans(text).map((p) => (p.code ? ` ${p.text} ` : p.text)).join('').replace(/\s+/g, ' ').trim();
}

/** The element with that id (a section), as HTML; undefined when the page has none. */
function sectionById(html: string, id: string): string | undefined {
  return new RegExp(`<section\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1];
}

/** The rows of the tables of some HTML: the row header's text → the text of the row's cells. */
function tableRows(html: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)) {
    const th = /<th scope="row"[^>]*>([\s\S]*?)<\/th>/.exec(m[1]!);
    if (!th) continue;
    out.set(textOf(th[1]!), [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => textOf(c[1]!)));
  }
  return out;
}

describe('docs site over a build with both APIs', () => {
  let folder = '';
  let site = '';
  let result: SiteResult;
  let pages: string[] = [];
  const fetched: string[] = [];
  const page = (rel: string) => readFile(join(site, rel), 'utf8');

  beforeAll(async () => {
    folder = runTmp(inject('demoSnapshot'), `site-both-${process.pid}`);
    site = join(folder, 'site');
    await bothApis(folder);
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      return Promise.reject(new Error('the site build must not fetch'));
    }) as typeof fetch;
    try {
      result = await buildSite({ buildFolder: folder, quiet: true });
    } finally {
      globalThis.fetch = realFetch;
    }
    pages = (await placed(folder)).filter((f) => f.endsWith('.html'));
  }, 300_000);

  test('the Astro build takes under 60 s, fetches nothing and reports its pages', () => {
    expect(result.seconds).toBeLessThan(60);
    expect(fetched).toEqual([]);
    expect(result.pages).toBe(pages.length);
  });

  test('the pages exist: home, docs, browse, one page per radar', async () => {
    for (const rel of ['index.html', 'docs/radar/index.html', 'docs/timeseries/index.html', 'docs/operators/index.html', 'docs/snapshot/index.html', 'browse/radars/index.html', 'browse/stations/index.html']) {
      expect(pages).toContain(rel);
    }
    const radars = JSON.parse(await readFile(join(site, 'radarnet/mirror/v3/radars.expanded.json'), 'utf8')) as { radar_code: string }[];
    expect(radars.length).toBeGreaterThan(0);
    for (const r of radars) expect(pages).toContain(`browse/radars/${r.radar_code}/index.html`);
    const home = await page('index.html');
    const build = JSON.parse(await readFile(join(folder, 'build.json'), 'utf8')) as Build;
    expect(textOf(home)).toContain(build.snapshot.name);
  });

  test('the radar docs list every route of RADAR_ROUTES with its description and an example, and every parameter', async () => {
    const html = await page('docs/radar/index.html');
    const sections = routeSections(html);
    expect(sections.size).toBe(RADAR_ROUTES.length);
    for (const r of RADAR_ROUTES) {
      const path = r.shape === 'index' ? `${RADAR_PREFIX}/` : `${RADAR_PREFIX}${r.path}`;
      expect(r.description.trim(), `${path} has no description`).not.toBe('');
      const section = sections.get(`GET ${path}`);
      expect(section, `no section for GET ${path}`).toBeDefined();
      expect(section).toContain(r.description);
      expect(section).toMatch(/Example: (GET|POST) \//);
    }
    const found = ids(html);
    for (const p of RADAR_PARAMS) {
      expect(p.meaning.trim(), `${p.name} has no meaning`).not.toBe('');
      expect(found.has(`param-${p.name}`), `parameter ${p.name}`).toBe(true);
    }
    expect(textOf(html)).toContain('"statusCode": 400');
  });

  test('the timeseries docs list every route of TIMESERIES_ROUTES with its description and an example, and every parameter', async () => {
    const html = await page('docs/timeseries/index.html');
    const sections = routeSections(html);
    expect(sections.size).toBe(TIMESERIES_ROUTES.length);
    for (const r of TIMESERIES_ROUTES) {
      const head = `${r.method} ${TIMESERIES_PREFIX}${r.path}`;
      expect(r.description.trim(), `${head} has no description`).not.toBe('');
      const section = sections.get(head);
      expect(section, `no section for ${head}`).toBeDefined();
      expect(section).toContain(r.description);
      expect(section).toMatch(/Example: (GET|POST) \//);
    }
    const found = ids(html);
    for (const p of TIMESERIES_PARAMS) {
      expect(p.meaning.trim(), `${p.name} has no meaning`).not.toBe('');
      expect(found.has(`param-${p.name}`), `parameter ${p.name}`).toBe(true);
    }
  });

  test('the radar docs list every field of every resource, both views, with its nullability, and each route links its resource', async () => {
    const html = await page('docs/radar/index.html');
    for (const name of RESOURCE_NAMES) {
      const r = RESOURCES[name];
      const anchor = `fields-${name.replaceAll('_', '-')}`;
      const section = sectionById(html, anchor);
      expect(section, `no fields section for ${name}`).toBeDefined();
      const rows = tableRows(section!);
      const expanded = r.expanded.length > 0 ? r.expanded : r.simple;
      for (const [view, fields] of [['simple', r.simple], ['expanded', expanded]] as const) {
        for (const f of fields) {
          const row = rows.get(f.name);
          expect(row, `${name}.${f.name} (${view})`).toBeDefined();
          expect(row![2], `${name}.${f.name} views`).toContain(view);
          if (f.nullable) expect(row![1], `${name}.${f.name} nullable`).toBe('yes');
        }
      }
      expect(rows.size).toBe(new Set([...r.simple, ...r.expanded].map((f) => f.name)).size);
    }
    for (const route of RADAR_ROUTES.filter((x) => x.resource)) {
      const path = `${RADAR_PREFIX}${route.path}`;
      const anchor = `${'GET' + path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-+$/, '');
      expect(links(sectionById(html, anchor) ?? ''), path).toContain(`#fields-${route.resource!.replaceAll('_', '-')}`);
    }
  });

  test('the timeseries docs list every property of the OpenAPI component schemas of each collection', async () => {
    const html = await page('docs/timeseries/index.html');
    const schemas = (openApiDocument() as { components: { schemas: Record<string, { properties?: Record<string, { description?: string }>; required?: string[] }> } }).components.schemas;
    const { collections, schemas: rendered } = timeseriesFieldDocs();
    expect(collections.map((c) => c.collection)).toEqual([...COLLECTIONS]);
    // every collection's item schema is one of those rendered, and each rendered schema is one of the document's
    for (const c of collections) for (const n of c.item) expect(rendered.map((x) => x.name), `${c.collection} → ${n}`).toContain(n);
    for (const name of ['timeseries.Service', 'timeseries.Member', 'timeseries.Offering', 'timeseries.Station', 'timeseries.Timeseries', 'timeseries.IdLabel']) {
      expect(rendered.map((x) => x.name)).toContain(name);
    }
    for (const { name, anchor } of rendered) {
      const schema = schemas[name];
      expect(schema?.properties, name).toBeDefined();
      const section = sectionById(html, anchor);
      expect(section, `no section for ${name}`).toBeDefined();
      const rows = tableRows(section!);
      for (const [prop, p] of Object.entries(schema!.properties!)) {
        const row = rows.get(prop);
        expect(row, `${name}.${prop}`).toBeDefined();
        expect(row![1], `${name}.${prop} required`).toBe((schema!.required ?? []).includes(prop) ? 'yes' : 'no');
        if (p.description) expect(row![2]).toBe(p.description.replace(/\s+/g, ' ').trim());
      }
      expect(rows.size).toBe(Object.keys(schema!.properties!).length);
    }
  });

  test('the snapshot page lists every table and column of the table specs, and the docs index and operators page link it', async () => {
    const html = await page('docs/snapshot/index.html');
    for (const api of API_NAMES) {
      for (const t of TABLES_BY_API[api]) {
        const section = sectionById(html, `table-${t.name.replaceAll('_', '-')}`);
        expect(section, `no section for ${t.name}`).toBeDefined();
        expect(textOf(section!)).toContain(`${t.name}.parquet`);
        const rows = tableRows(section!);
        for (const c of t.columns) {
          const row = rows.get(c.name);
          expect(row, `${t.name}.${c.name}`).toBeDefined();
          expect(row![1], `${t.name}.${c.name} nullable`).toBe(c.nullable ? 'yes' : 'no');
          expect(row![3]).toBe(shownText(c.meaning));
        }
        expect(rows.size).toBe(t.columns.length);
        for (const r of t.rules ?? []) expect(textOf(section!)).toContain(r.meaning);
      }
    }
    const text = textOf(html);
    for (const f of ['format_version', 'name', 'taken_at', 'apis', 'web_config-general.json']) expect(text).toContain(f);
    expect(links(await page('docs/index.html'))).toContain('/docs/snapshot/');
    expect(links(await page('docs/operators/index.html'))).toContain('/docs/snapshot/');
  });

  test('examples show real answers of the tree', async () => {
    const text = textOf(await page('docs/radar/index.html'));
    const first = (JSON.parse(await readFile(join(site, 'radarnet/mirror/v3/radars.json'), 'utf8')) as { id: number; filename: string }[])[0]!;
    expect(text).toContain(`Example: GET ${RADAR_PREFIX}/radars/${first.id}`);
    expect(text).toContain(`"filename": "${first.filename}"`);
    const ts = textOf(await page('docs/timeseries/index.html'));
    expect(ts).toMatch(/Example: GET \/api\/v1\/timeseries\/ts_\w+\/getData/);
    expect(ts).toContain('"values": [');
  });

  test('every link and image of every page resolves to a file of the site folder', async () => {
    const broken: string[] = [];
    let checked = 0;
    const idsOf = new Map<string, Set<string>>();
    const targetIds = async (rel: string) => {
      if (!idsOf.has(rel)) idsOf.set(rel, ids(await page(rel)));
      return idsOf.get(rel)!;
    };
    for (const rel of pages) {
      const { html, live } = withoutLiveLinks(await page(rel));
      const base = new URL(`/${rel.replace(/index\.html$/, '')}`, 'http://site.test');
      for (const link of live) {
        const url = new URL(link, base);
        if (url.origin !== 'http://site.test' || !(url.pathname.startsWith(`${TIMESERIES_PREFIX}/`) || url.pathname.startsWith(`${RADAR_PREFIX}/`))) {
          broken.push(`${rel}: ${link} (a live link outside the APIs)`);
        }
      }
      for (const link of links(html)) {
        checked++;
        const url = new URL(link, base);
        if (url.origin !== 'http://site.test') {
          broken.push(`${rel}: ${link} (leaves the site)`);
          continue;
        }
        // A query on an API path needs the endpoint; on a page of the site (the file finder pre-filled, a table
        // filtered) the page's file answers it and its script reads the query.
        const apiPath = url.pathname.startsWith(`${TIMESERIES_PREFIX}/`) || url.pathname.startsWith(`${RADAR_PREFIX}/`);
        if (url.search !== '' && (apiPath || !url.pathname.endsWith('/'))) {
          broken.push(`${rel}: ${link} (a query: no file answers it)`);
          continue;
        }
        let file = decodeURIComponent(url.pathname).replace(/^\//, '');
        if (file === '' || file.endsWith('/')) file += 'index.html';
        else if (!(await isFile(join(site, file))) && (await isFile(join(site, file, 'index.html')))) file += '/index.html';
        if (!(await isFile(join(site, file)))) {
          broken.push(`${rel}: ${link}`);
          continue;
        }
        if (url.hash !== '' && file.endsWith('.html') && !(await targetIds(file)).has(decodeURIComponent(url.hash.slice(1)))) {
          broken.push(`${rel}: ${link} (no such id)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(pages.length * 5);
  });

  test(`no page exceeds ${MAX_PAGE_BYTES / 1024} KB`, async () => {
    for (const rel of pages) expect((await stat(join(site, rel))).size, rel).toBeLessThan(MAX_PAGE_BYTES);
  });

  test('no page has an inline script (the endpoint sends script-src \'self\')', async () => {
    for (const rel of pages) {
      const inline = [...(await page(rel)).matchAll(/<script\b([^>]*)>/g)].filter((m) => !/\ssrc=/.test(m[1]!));
      expect(inline.length, rel).toBe(0);
    }
  });

  test('the station map draws one marker per station, each leading to the station’s page, which lists its timeseries', async () => {
    const html = await page('browse/stations/index.html');
    const stations = JSON.parse(await readFile(join(site, 'api/v1/stations.json'), 'utf8')) as { properties: { id: string }; geometry: unknown }[];
    expect(stations.length).toBeGreaterThan(0);
    const markers = [...html.matchAll(/<a class="station-marker[^"]*" data-station="([^"]*)"[^>]*? href="([^"]*)"/g)].map((m) => ({ id: m[1]!, href: m[2]! }));
    expect(markers.map((m) => m.id).sort()).toEqual(stations.filter((f) => f.geometry).map((f) => f.properties.id).sort());
    const found = ids(html);
    const expanded = JSON.parse(await readFile(join(site, 'api/v1/stations.expanded.json'), 'utf8')) as { properties: { id: string; timeseries?: Record<string, unknown> } }[];
    for (const m of markers) {
      expect(m.href).toBe(`/browse/stations/${m.id}/`);
      expect(found.has(m.id), m.id).toBe(true);
      const own = await page(`browse/stations/${m.id}/index.html`);
      const series = Object.keys(expanded.find((f) => f.properties.id === m.id)?.properties.timeseries ?? {});
      expect(series.length, m.id).toBeGreaterThan(0);
      for (const id of series) expect(own, `${m.id}: ${id}`).toContain(`href="/browse/timeseries/${id}/"`);
    }
  });

  test('a station page maps its neighbourhood: the markers of the stations in its window, itself larger and labelled, and links the whole network map', async () => {
    const features = JSON.parse(await readFile(join(site, 'api/v1/stations.json'), 'utf8')) as { properties: { id: string; label: string }; geometry: { coordinates: number[] } | null }[];
    const list: Station[] = features.map((f) => ({ id: f.properties.id, label: f.properties.label, lon: f.geometry?.coordinates[0], lat: f.geometry?.coordinates[1], href: '', service: undefined, series: [] }));
    let fewer = 0;
    for (const s of list) {
      const html = await page(`browse/stations/${s.id}/index.html`);
      const markers = [...html.matchAll(/<a class="station-marker[^"]*" data-station="([^"]*)"/g)].map((m) => m[1]!);
      const win = neighbourhood(list, s);
      expect(markers.sort(), s.id).toEqual((win?.inside ?? []).map((p) => p.id).sort());
      if (win) {
        expect(html, s.id).toContain(`aria-label="Map of the ${markers.length} stations around`);
        expect(html.match(/class="station-marker station-current[^"]*" data-station="([^"]*)"[^>]*aria-current="page"/)?.[1], s.id).toBe(s.id);
        expect(html, s.id).toMatch(/<text class="ts-map-here"/);
      }
      expect(html, s.id).toMatch(/<a href="\/browse\/stations\/">Whole network map<\/a>/);
      if (markers.length < list.length) fewer++;
    }
    // the demo's 103 stations: most pages show part of the network
    expect(fewer).toBeGreaterThan(list.length / 2);
  });

  test('a page per timeseries, each with its chart of the week: the timeseries and every reference value of the week', async () => {
    const series = JSON.parse(await readFile(join(site, 'api/v1/timeseries.json'), 'utf8')) as { id: string }[];
    expect(series.length).toBeGreaterThan(0);
    expect(pages).toContain('browse/timeseries/index.html');
    const index = await page('browse/timeseries/index.html');
    let withRefs = 0;
    for (const { id } of series) {
      const rel = `browse/timeseries/${id}/index.html`;
      expect(pages, rel).toContain(rel);
      expect(index).toContain(`href="/browse/timeseries/${id}/"`);
      const html = await page(rel);
      const charts = tsCharts(html);
      expect(charts.length, rel).toBe(1);
      const count = Number(/data-series-count="(\d+)"/.exec(charts[0]!)?.[1]);
      // the reference values with a value in the week, from the tree's expanded data
      const data = JSON.parse(await readFile(join(site, `api/v1/timeseries/${id}/getData.expanded.json`), 'utf8')) as Record<string, { extra: { referenceValues: Record<string, { values: { value: number | null }[] }> } }>;
      const refs = Object.values(data[id]!.extra.referenceValues).filter((r) => r.values.some((v) => v.value !== null)).length;
      withRefs += refs > 0 ? 1 : 0;
      expect(count, rel).toBe(1 + refs);
      // drawn: one series group, and a reference value is a path with its label as title
      expect(charts[0]!.match(/<g class="series /g)?.length, rel).toBe(1);
      expect(charts[0]!.match(/<path [^>]*><title>/g)?.length ?? 0, rel).toBe(refs);
      expect(textOf(html)).toContain(id);
      expect(html).toContain(`href="/api/v1/timeseries/${id}/getData.json"`);
    }
    expect(withRefs).toBeGreaterThan(0);
  });

  test('the search page loads its script from a file and has a status region for its answers', async () => {
    const html = await page('search/index.html');
    expect(html).toMatch(/<form[^>]*id="site-search-form"[^>]*method="get"/);
    expect(html).toMatch(/<input[^>]*name="q"/);
    expect(html).toMatch(/id="site-search-status"[^>]*role="status"/);
    const src = /<script[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect(await isFile(join(site, src!))).toBe(true);
  });

  // ----- radar browsing: the map, the radar pages, the alarms dashboard, the file finder

  const radarTree = async <T,>(rel: string): Promise<T> => JSON.parse(await readFile(join(site, RADAR_PREFIX.slice(1), rel), 'utf8')) as T;
  interface RadarRec { id: number; radar_code: string; geographic_position: unknown; field_of_view: unknown }

  test('the radar map draws one marker per radar, each leading to its page, and one field of view per radar that has one', async () => {
    const html = await page('browse/radars/index.html');
    const radars = await radarTree<RadarRec[]>('radars.expanded.json');
    expect(radars.length).toBeGreaterThan(0);
    const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const markers = [...html.matchAll(/<a\b[^>]*\sclass="radar-marker"[^>]*>/g)].map((m) => ({ code: attr(m[0], 'data-radar'), href: attr(m[0], 'href') }));
    expect(markers.map((m) => m.code).sort()).toEqual(radars.filter((r) => r.geographic_position).map((r) => r.radar_code).sort());
    for (const m of markers) expect(pages, m.href).toContain(`${m.href!.replace(/^\//, '')}index.html`);
    const fovs = [...html.matchAll(/<path\b[^>]*\sclass="radar-fov[ "][^>]*>/g)].map((m) => attr(m[0], 'data-radar'));
    expect(fovs.sort()).toEqual(radars.filter((r) => r.field_of_view && r.geographic_position).map((r) => r.radar_code).sort());
    expect(fovs.length).toBeGreaterThan(0);
    // the text alternative: the table of every radar, which the map's skip link leads to
    expect(ids(html).has('radar-table')).toBe(true);
    for (const r of radars) expect(html).toContain(`href="/browse/radars/${r.radar_code}/"`);
  });

  test('each radar page draws one coverage row per file type and coverage type of its coverage, counts its files by type, and lists its latest alarms', async () => {
    const radars = await radarTree<RadarRec[]>('radars.expanded.json');
    const coverage = await radarTree<{ radar_code: string; file_type: string; coverage_type: string }[]>('coverage/temporal.json');
    const files = await radarTree<{ radar_code: string; file_type: string }[]>('files.expanded.json');
    const alarms = await radarTree<{ id: number; radar_code: string; transfer_start_datetime: string }[]>('transferred/files/alarm.expanded.json');
    let rows = 0;
    let alarmRows = 0;
    for (const { radar_code: code } of radars) {
      const html = await page(`browse/radars/${code}/index.html`);
      const series = new Set(coverage.filter((c) => c.radar_code === code).map((c) => `${c.file_type} ${c.coverage_type}`));
      const drawn = [...html.matchAll(/<g class="coverage-series" data-file-type="([^"]*)" data-coverage-type="([^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`);
      expect(drawn.sort(), code).toEqual([...series].sort());
      expect(html.match(/<svg\b[^>]*\sclass="coverage-timeline"/g)?.length ?? 0, code).toBe(series.size > 0 ? 1 : 0);
      rows += drawn.length;

      const perType = new Map<string, number>();
      for (const f of files) if (f.radar_code === code) perType.set(f.file_type, (perType.get(f.file_type) ?? 0) + 1);
      const counted = new Map([...html.matchAll(/<tr data-file-type="([^"]*)" data-files="(\d+)"/g)].map((m) => [m[1]!, Number(m[2])]));
      expect(counted, code).toEqual(perType);

      const mine = alarms.filter((a) => a.radar_code === code).sort((a, b) => b.transfer_start_datetime.localeCompare(a.transfer_start_datetime) || b.id - a.id);
      const listed = /<table class="[^"]*radar-alarms[^"]*"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
      const listedIds = [...listed.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));
      expect(listedIds, code).toEqual(mine.slice(0, 10).map((a) => a.id));
      alarmRows += listedIds.length;
      // a radar with files links every one of them, as the live endpoint answers it
      if (perType.size > 0) expect(html, code).toContain(`href="${RADAR_PREFIX}/files?radar_code=${code}&amp;contentType=checksumReport" data-live`);
    }
    expect(rows).toBeGreaterThan(0);
    expect(alarmRows).toBeGreaterThan(0);
  });

  test('the alarms dashboard charts every category of transferred files per day, with the counts of the tree', async () => {
    const html = await page('browse/alarms/index.html');
    const transferred = await radarTree<{ transferred_file_status: string | null; transfer_start_datetime: string }[]>('transferred/files.expanded.json');
    const perDay = new Map<string, Map<string, number>>();
    const add = (cat: string, day: string) => {
      if (!perDay.has(cat)) perDay.set(cat, new Map());
      perDay.get(cat)!.set(day, (perDay.get(cat)!.get(day) ?? 0) + 1);
    };
    for (const t of transferred) {
      const day = t.transfer_start_datetime.slice(0, 10);
      add(t.transferred_file_status ?? 'ok', day);
      if (t.transferred_file_status !== null) add('alarm', day);
    }
    // the categories of the route table: ok, every alarm category, and any alarm
    const categories = RADAR_ROUTES.filter((r) => r.resource === 'transferred' && r.shape === 'collection' && r.where !== undefined).map((r) => /= '([^']+)'/.exec(r.where!)?.[1] ?? (r.where!.includes('IS NULL') ? 'ok' : 'alarm'));
    const sections = [...html.matchAll(/<section class="alarm-category"[^>]*data-category="([^"]*)" data-total="(\d+)"[^>]*>([\s\S]*?)<\/section>/g)];
    expect(sections.map((m) => m[1]).sort()).toEqual([...categories].sort());
    for (const [, cat, total, body] of sections) {
      const days = perDay.get(cat!) ?? new Map<string, number>();
      expect(Number(total), cat).toBe([...days.values()].reduce((a, b) => a + b, 0));
      expect(body, cat).toMatch(/<svg\b[^>]*class="radar-bars"/);
      const bars = new Map([...body!.matchAll(/<title>(\d{4}-\d{2}-\d{2}): ([\d,]+)<\/title>/g)].map((m) => [m[1]!, Number(m[2]!.replaceAll(',', ''))]));
      expect(bars, cat).toEqual(days);
    }
  });

  test('the file finder: a form whose script is a file of the site, a status region, and a note for a page without script', async () => {
    const html = await page('browse/files/index.html');
    expect(html).toMatch(/<form[^>]*id="finder"/);
    for (const name of ['radar_code', 'from', 'to', 'file_type']) expect(html, name).toMatch(new RegExp(`<(select|input)[^>]*name="${name}"`));
    expect(html).toMatch(/id="finder-status"[^>]*role="status"/);
    expect(html).toContain('<noscript>');
    expect(textOf(html)).toContain('needs JavaScript and the live snapcat endpoint');
    const src = /<script[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const script = await readFile(join(site, src!), 'utf8');
    expect(script).toContain(RADAR_PREFIX);
    expect(script).toContain('/files?');
    // one option per radar code
    const radars = await radarTree<RadarRec[]>('radars.expanded.json');
    const select = /<select[^>]*name="radar_code"[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';
    const options = [...select.matchAll(/<option value="([a-z]{3})"/g)].map((m) => m[1]);
    expect(options.sort()).toEqual([...new Set(radars.map((r) => r.radar_code))].sort());
  });

  test('rebuilding replaces the pages of the last site build and leaves the API files alone', async () => {
    const api = await readFile(join(site, 'radarnet/mirror/v3/radars.json'));
    const before = await placed(folder);
    const again = await buildSite({ buildFolder: folder, quiet: true });
    expect(again.pages).toBe(result.pages);
    expect(await placed(folder)).toEqual(before);
    expect((await readFile(join(site, 'radarnet/mirror/v3/radars.json'))).equals(api)).toBe(true);
  }, 120_000);
});

describe('docs site over a timeseries-only build', () => {
  test('renders without the radar catalogue, with the timeseries extras of the database, and refuses to overwrite a file it did not place', async () => {
    const folder = runTmp(inject('demoSnapshot'), `site-ts-${process.pid}`);
    const ts = await realpath(inject('tsBuild'));
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    await linkCopy(join(ts, 'site'), join(folder, 'site'));
    await linkCopy(join(ts, 'data'), join(folder, 'data'));
    await copyFile(join(ts, 'build.json'), join(folder, 'build.json'));
    await copyFile(join(ts, SITE_FILES_MANIFEST), join(folder, SITE_FILES_MANIFEST));
    const r = await buildSite({ buildFolder: folder, quiet: true });
    expect(r.pages).toBeGreaterThan(5);

    // With the build's timeseries database, each timeseries page shows what the endpoint adds with
    // status_intervals=true&rendering_hints=true, and draws the chart in the rendering hints' style.
    const db = await openDuckDB({ path: join(folder, 'data', TIMESERIES_DB_FILE), readOnly: true, threads: 1 });
    const conn = await db.connect();
    const build = JSON.parse(await readFile(join(folder, 'build.json'), 'utf8')) as { snapshot: { taken_at: string } };
    const cat = await loadCatalogue(conn, Date.parse(build.snapshot.taken_at)).finally(() => {
      conn.closeSync();
      db.closeSync();
    });
    let intervals = 0;
    let bars = 0;
    for (const s of cat.timeseries) {
      const html = await readFile(join(folder, `site/browse/timeseries/${s.id}/index.html`), 'utf8');
      const text = textOf(html);
      for (const i of statusIntervalsOf(cat, s)) {
        expect(text, s.id).toContain(i.name);
        intervals++;
      }
      // the unit as the page typesets it (m³/s for m3/s)
      if (s.first) expect(text, s.id).toContain(`First value ${s.first.value} ${typesetUnit(s.uom)}`);
      const chart = tsCharts(html)[0]!;
      const kind = defaultStyle(cat, s)?.chartType ?? 'line';
      expect(chart, s.id).toContain(`class="series series-${kind}"`);
      if (kind === 'bar') bars++;
    }
    expect(intervals).toBeGreaterThan(0);
    expect(bars).toBeGreaterThan(0);
    expect(textOf(await readFile(join(folder, 'site/browse/radars/index.html'), 'utf8'))).toContain('holds no static files of the radar catalogue');
    expect(textOf(await readFile(join(folder, 'site/browse/alarms/index.html'), 'utf8'))).toContain('holds no transferred files of the radar catalogue');
    expect(textOf(await readFile(join(folder, 'site/browse/files/index.html'), 'utf8'))).toContain('holds no static files of the radar catalogue');
    const radarDocs = textOf(await readFile(join(folder, 'site/docs/radar/index.html'), 'utf8'));
    for (const route of RADAR_ROUTES) expect(radarDocs).toContain(`${RADAR_PREFIX}${route.path === '/' ? '/' : route.path}`);

    // Forget which files the site placed: they are now files of the tree, which the next build must not overwrite.
    const home = await stat(join(folder, 'site/index.html'));
    await rm(join(folder, SITE_FILES_MANIFEST));
    await expect(buildSite({ buildFolder: folder, quiet: true })).rejects.toThrow(/would overwrite \d+ path\(s\) of the API tree in .*: (404\.html|_astro\/|index\.html)/);
    expect((await stat(join(folder, 'site/index.html'))).mtimeMs).toBe(home.mtimeMs);
  }, 180_000);
});
