/**
 * What the site's pages read at build time: `build.json`, the page families' documents of `site-data/`
 * (core/site-data/documents.ts, written by build-scripts/site-data.ts before Astro runs) and small files of the
 * static API tree of the build folder named by SNAPCAT_BUILD (set by build-scripts/site.ts). Plain file reads,
 * no DuckDB, no query.
 * Paths are tree-relative (`radarnet/mirror/v3/radars.json`), as on disk under `<build>/site/`.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { siteDataFile, type SiteDataDocuments, type SiteDataFamily } from '../../core/site-data/documents.ts';
import { TREE_INDEX, treeHref as coreTreeHref } from '../../core/site-data/links.ts';
import { SITE_INPUTS } from '../../core/site-data/inputs.ts';
import type { ApiName, SnapshotManifest } from '../../core/snapshot/table-schema.ts';

export interface BuildInfo {
  snapshot: SnapshotManifest;
  /** Files and bytes of the API tree. */
  files: number;
  bytes: number;
  /** The Timeseries API's profile (core/timeseries/profile.ts); absent from builds made before profiles (spec). */
  timeseriesProfile?: string;
}

/** The build folder the site describes. */
export function buildFolder(): string {
  const dir = process.env.SNAPCAT_BUILD;
  if (!dir) throw new Error('SNAPCAT_BUILD is not set: build the site with `npm run site -- --build DIR` (build-scripts/site.ts)');
  return dir;
}

/**
 * What the pages read of the build folder, as input keys (build-scripts/lib/site-inputs.ts: `build:<name>`,
 * `file:<rel>`, `has:<rel>`, `bytes:<rel>`, `start:<max>:<rel>`, `files:<rel>`, `folders:<rel>`), into the set
 * the site's build puts on globalThis before Astro runs (none outside that build): the build then knows what
 * the site's pages depend on, and makes them again only when one of these changed.
 */
function input(key: string): void {
  (globalThis as { [SITE_INPUTS]?: Set<string> })[SITE_INPUTS]?.add(key);
}

let info: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  input('build:build.json');
  info ??= JSON.parse(readFileSync(join(buildFolder(), 'build.json'), 'utf8')) as BuildInfo;
  return info;
}

/** A JSON file of the build folder beside build.json (not of the tree), read whole; undefined when the build has none. */
export function readBuildJson<T>(name: string): T | undefined {
  input(`build:${name}`);
  const path = join(buildFolder(), name);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

export function hasApi(api: ApiName): boolean {
  return buildInfo().snapshot.apis.includes(api);
}

/** The build holds the API's static files (not so when the snapshot lacks the API, or for a --db-only build). */
export function hasTree(api: ApiName): boolean {
  return hasApi(api) && treeHas(TREE_INDEX[api]);
}

function treePath(rel: string): string {
  return join(buildFolder(), 'site', rel);
}

/** True when the tree holds that file. */
export function treeHas(rel: string): boolean {
  input(`has:${rel}`);
  return existsSync(treePath(rel)) && statSync(treePath(rel)).isFile();
}

export function treeFileBytes(rel: string): number {
  input(`bytes:${rel}`);
  return statSync(treePath(rel)).size;
}

/** A whole file of the tree as text (not kept: for a file one page reads, such as a series' week of data). */
export function readTreeText(rel: string): string {
  input(`file:${rel}`);
  return readFileSync(treePath(rel), 'utf8');
}

/** Names of the files, or of the folders, in a folder of the tree; none when it is missing. */
export function treeList(rel: string, kind: 'files' | 'folders'): string[] {
  input(`${kind}:${rel}`);
  if (!existsSync(treePath(rel)) || !statSync(treePath(rel)).isDirectory()) return [];
  return readdirSync(treePath(rel), { withFileTypes: true })
    .filter((e) => (kind === 'files' ? e.isFile() : e.isDirectory()))
    .map((e) => e.name)
    .sort();
}

const parsed = new Map<string, unknown>();

/** A whole JSON file of the tree (read once). Only for files whose size the site can hold: collections of the catalogue's small tables. */
export function readTreeJson<T>(rel: string): T {
  input(`file:${rel}`);
  if (!parsed.has(rel)) parsed.set(rel, JSON.parse(readFileSync(treePath(rel), 'utf8')));
  return parsed.get(rel) as T;
}

/**
 * The start of a file of the tree, at most `max` bytes (a collection may be gigabytes): for examples.
 * A character cut at the end is dropped.
 */
export function readTreeStart(rel: string, max = 64 * 1024): { text: string; whole: boolean } {
  input(`start:${max}:${rel}`);
  const fd = openSync(treePath(rel), 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    const whole = n < max || statSync(treePath(rel)).size === n;
    const text = new TextDecoder().decode(buf.subarray(0, n), { stream: !whole });
    return { text, whole };
  } finally {
    closeSync(fd);
  }
}

/** The URL of a file of the tree: each segment percent-encoded, as a static host maps URLs to file names. */
export const treeHref = coreTreeHref;

const documents = new Map<SiteDataFamily, unknown>();

/**
 * A page family's document, written by the build before Astro runs (build-scripts/site-data.ts), read once;
 * undefined when the build wrote none (a timeseries document needs the build's timeseries database).
 */
export function siteData<F extends SiteDataFamily>(family: F): SiteDataDocuments[F] | undefined {
  input(`build:${siteDataFile(family)}`);
  if (!documents.has(family)) documents.set(family, readBuildJson<SiteDataDocuments[F]>(siteDataFile(family)));
  return documents.get(family) as SiteDataDocuments[F] | undefined;
}
