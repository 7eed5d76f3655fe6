/**
 * Links from a site page to files of the static tree, made by the build (build-scripts/site-data.ts) when it
 * writes a page family's document: a file is linked only when the tree holds it. Pure: whether the tree holds
 * a file is the caller's predicate (`has`), so the same function runs over a real tree and over a test's set.
 */

import { staticFile, VARIANTS } from '../radar/static-tree.ts';

export interface FileLink {
  label: string;
  href: string;
}

/** Whether the static tree holds a file, by its tree-relative path (`radarnet/mirror/v3/radars.json`). */
export type TreeHas = (rel: string) => boolean;

/** The URL of a file of the tree: each segment percent-encoded, as a static host maps URLs to file names. */
export function treeHref(rel: string): string {
  return '/' + rel.split('/').map(encodeURIComponent).join('/');
}

const PATH_LABELS: Record<string, string> = { '.json': 'JSON', '.csv': 'CSV', '.sha1': 'checksum report' };

/** JSON, CSV and checksum report of one radar API path, those the tree holds. */
export function radarPathFiles(apiPath: string, has: TreeHas): FileLink[] {
  return VARIANTS.filter((v) => PATH_LABELS[v.suffix])
    .map((v) => ({ label: PATH_LABELS[v.suffix]!, rel: staticFile(apiPath, v) }))
    .filter((f) => has(f.rel))
    .map((f) => ({ label: f.label, href: treeHref(f.rel) }));
}


/** The index file of each API's static tree: the tree holds the API's files when it holds this one. */
export const TREE_INDEX = {
  'radarnet-mirror-v3': 'radarnet/mirror/v3/index.json',
  'timeseries-v1': 'api/v1/index.json',
} as const;
