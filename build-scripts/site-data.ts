/**
 * Writes the site's data (core/site-data/documents.ts): one JSON document per page family into
 * `<build>/site-data/`, before Astro runs (build-scripts/site.ts). This is the I/O: the tree's collections read
 * record by record (lib/tree-records.ts), the radar browse summary, the timeseries database (read-only, the
 * catalogue the endpoint loads); what the pages show is computed by the pure functions of core/site-data/.
 * The folder is made anew on every call, so a document never outlives the build it was made from.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BROWSE_SUMMARY_FILE, type BrowseSummary } from '../core/radar/browse-summary-file.ts';
import { RADAR_PREFIX } from '../core/radar/routes.ts';
import { staticFile, VARIANTS } from '../core/radar/static-tree.ts';
import { SITE_DATA_DIR, siteDataFile, type SiteDataDocuments, type SiteDataFamily } from '../core/site-data/documents.ts';
import { TREE_INDEX, type TreeHas } from '../core/site-data/links.ts';
import { radarActivityData, type CoverageRecord, type TransferredRecord } from '../core/site-data/radar-activity.ts';
import { radarsData, type RadarRecord, type RadarStatus } from '../core/site-data/radars.ts';
import { searchIndexOf, type Member } from '../core/site-data/search.ts';
import { seriesMetaOf, stationsOf, statusesOf, type IdLabel, type Item, type ListMember, type StationFeature } from '../core/site-data/stations.ts';
import { TIMESERIES_PREFIX } from '../core/timeseries/routes.ts';
import { staticFile as timeseriesFile } from '../core/timeseries/static-tree.ts';
import { timeseriesData } from '../core/site-data/timeseries.ts';
import type { ApiName, SnapshotManifest } from '../core/snapshot/table-schema.ts';
import { COLLECTIONS, type Catalogue, type CollectionName } from '../core/timeseries/catalogue.ts';
import { all, openDuckDB } from '../lib/duckdb.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../lib/timeseries-store.ts';
import { treeRecords } from './lib/tree-records.ts';

const JSON_V = VARIANTS.find((v) => v.suffix === '.json')!;
const EXPANDED_JSON = VARIANTS.find((v) => v.suffix === '.expanded.json')!;

/** The build's tree as the writers see it: which files it holds, and its JSON files read whole. */
interface Tree {
  has: TreeHas;
  path: (rel: string) => string;
  json: <T>(rel: string) => T | undefined;
  /** The snapshot holds the API and the tree its files. */
  hasApi: (api: ApiName) => boolean;
}

function treeOf(folder: string, snapshot: SnapshotManifest): Tree {
  const path = (rel: string) => join(folder, 'site', rel);
  const has: TreeHas = (rel) => existsSync(path(rel)) && statSync(path(rel)).isFile();
  return {
    has,
    path,
    json: <T>(rel: string) => (has(rel) ? (JSON.parse(readFileSync(path(rel), 'utf8')) as T) : undefined),
    hasApi: (api) => snapshot.apis.includes(api) && has(TREE_INDEX[api]),
  };
}

/** The radars document; undefined without the radar tree. */
function radars(tree: Tree): SiteDataDocuments['radars'] | undefined {
  if (!tree.hasApi('radarnet-mirror-v3')) return undefined;
  return radarsData(
    tree.json<RadarRecord[]>(staticFile(`${RADAR_PREFIX}/radars`, EXPANDED_JSON)) ?? [],
    tree.json<Partial<RadarStatus>[]>(staticFile(`${RADAR_PREFIX}/metadata/radar/status`, VARIANTS[0]!)) ?? [],
    tree.has,
  );
}

function radarActivity(folder: string, tree: Tree): SiteDataDocuments['radar-activity'] {
  const present = tree.hasApi('radarnet-mirror-v3');
  const summaryPath = join(folder, BROWSE_SUMMARY_FILE);
  const summary = present && existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as BrowseSummary) : undefined;
  const records = <T>(rel: string): Iterable<T> => (present ? treeRecords<T>(tree.path(rel)) : []);
  return radarActivityData({
    summary,
    transferStatuses: (present ? tree.json<{ status: string; description: string }[]>(staticFile(`${RADAR_PREFIX}/metadata/transferred/file/status`, JSON_V)) : undefined) ?? [],
    alarms: records<TransferredRecord>(staticFile(`${RADAR_PREFIX}/transferred/files/alarm`, EXPANDED_JSON)),
    coverage: records<CoverageRecord>(staticFile(`${RADAR_PREFIX}/coverage/temporal`, JSON_V)),
    has: tree.has,
  });
}

/** The timeseries document; undefined when the build has no timeseries database (a tree copied without it), or it cannot be read. */
async function timeseries(folder: string, tree: Tree, snapshot: SnapshotManifest, warn: (line: string) => void): Promise<SiteDataDocuments['timeseries'] | undefined> {
  const file = join(folder, 'data', TIMESERIES_DB_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const db = await openDuckDB({ path: file, readOnly: true, threads: 1 });
    const conn = await db.connect();
    try {
      const cat: Catalogue = await loadCatalogue(conn, Date.parse(snapshot.taken_at));
      // the search index's other-locale labels, only when the tree lists the resources they label
      const rows = tree.hasApi('timeseries-v1') ? await all(conn, 'SELECT resource_id, locale, label FROM labels ORDER BY resource_id, locale') : [];
      return timeseriesData(
        cat,
        rows.map((r) => ({ resourceId: String(r['resource_id']), locale: String(r['locale']), label: String(r['label']) })),
      );
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  } catch (e) {
    warn(`site: timeseries extras unavailable (${(e as Error).message}); the pages link the live answer\n`);
    return undefined;
  }
}

/** The stations document; undefined without the timeseries tree. Statuses from the timeseries document's extras. */
function stations(tree: Tree, extras: SiteDataDocuments['timeseries'] | undefined): SiteDataDocuments['stations'] | undefined {
  if (!tree.hasApi('timeseries-v1')) return undefined;
  const need = <T>(rel: string): T => {
    const v = tree.json<T>(rel);
    if (v === undefined) throw new Error(`the timeseries tree has no ${rel}`);
    return v;
  };
  const series = seriesMetaOf(
    need<ListMember[]>(timeseriesFile(`${TIMESERIES_PREFIX}/timeseries`, true)),
    (id) => need<Item>(timeseriesFile(`${TIMESERIES_PREFIX}/timeseries/${id}`, false)),
    tree.json<IdLabel[]>(timeseriesFile(`${TIMESERIES_PREFIX}/services`, false)) ?? [],
  );
  const byId = new Map(extras?.extras ?? []);
  return {
    series,
    stations: stationsOf(need<StationFeature[]>(timeseriesFile(`${TIMESERIES_PREFIX}/stations`, true)), tree.has),
    ...statusesOf(series, (id) => byId.get(id)),
  };
}

/** The search index: the radars of the radars document, the members of each timeseries collection the tree holds. */
function search(tree: Tree, radarsDoc: SiteDataDocuments['radars'] | undefined, ts: SiteDataDocuments['timeseries'] | undefined): SiteDataDocuments['search'] {
  const collections: [CollectionName, Member[]][] = [];
  if (tree.hasApi('timeseries-v1')) {
    for (const c of COLLECTIONS) {
      const members = tree.json<Member[]>(timeseriesFile(`${TIMESERIES_PREFIX}/${c}`, false));
      if (members) collections.push([c, members]);
    }
  }
  return searchIndexOf(radarsDoc?.radars ?? [], collections, tree.hasApi('timeseries-v1') ? (ts?.labels ?? []) : []);
}

/** Writes every family's document of the build folder (which holds build.json and the tree in site/); returns the families written. */
export async function writeSiteData(folder: string, warn: (line: string) => void = (l) => process.stderr.write(l)): Promise<SiteDataFamily[]> {
  const info = JSON.parse(readFileSync(join(folder, 'build.json'), 'utf8')) as { snapshot: SnapshotManifest };
  const tree = treeOf(folder, info.snapshot);
  await rm(join(folder, SITE_DATA_DIR), { recursive: true, force: true });
  await mkdir(join(folder, SITE_DATA_DIR), { recursive: true });
  const ts = await timeseries(folder, tree, info.snapshot, warn);
  const radarsDoc = radars(tree);
  const docs: Partial<SiteDataDocuments> = {
    radars: radarsDoc,
    'radar-activity': radarActivity(folder, tree),
    timeseries: ts,
    stations: stations(tree, ts),
    search: search(tree, radarsDoc, ts),
  };
  const written: SiteDataFamily[] = [];
  for (const [family, doc] of Object.entries(docs) as [SiteDataFamily, unknown][]) {
    if (doc === undefined) continue;
    await writeFile(join(folder, siteDataFile(family)), JSON.stringify(doc));
    written.push(family);
  }
  return written;
}
