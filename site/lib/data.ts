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

let info: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  info ??= JSON.parse(readFileSync(join(buildFolder(), 'build.json'), 'utf8')) as BuildInfo;
  return info;
}

/** A JSON file of the build folder beside build.json (not of the tree), read whole; undefined when the build has none. */
export function readBuildJson<T>(name: string): T | undefined {
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
  return existsSync(treePath(rel)) && statSync(treePath(rel)).isFile();
}

export function treeFileBytes(rel: string): number {
  return statSync(treePath(rel)).size;
}

/** Names of the files, or of the folders, in a folder of the tree; none when it is missing. */
export function treeList(rel: string, kind: 'files' | 'folders'): string[] {
  if (!existsSync(treePath(rel)) || !statSync(treePath(rel)).isDirectory()) return [];
  return readdirSync(treePath(rel), { withFileTypes: true })
    .filter((e) => (kind === 'files' ? e.isFile() : e.isDirectory()))
    .map((e) => e.name)
    .sort();
}

const parsed = new Map<string, unknown>();

/** A whole JSON file of the tree (read once). Only for files whose size the site can hold: collections of the catalogue's small tables. */
export function readTreeJson<T>(rel: string): T {
  if (!parsed.has(rel)) parsed.set(rel, JSON.parse(readFileSync(treePath(rel), 'utf8')));
  return parsed.get(rel) as T;
}

/**
 * The start of a file of the tree, at most `max` bytes (a collection may be gigabytes): for examples.
 * A character cut at the end is dropped.
 */
export function readTreeStart(rel: string, max = 64 * 1024): { text: string; whole: boolean } {
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
  if (!documents.has(family)) documents.set(family, readBuildJson<SiteDataDocuments[F]>(siteDataFile(family)));
  return documents.get(family) as SiteDataDocuments[F] | undefined;
}
