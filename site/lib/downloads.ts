/** The downloads' index (build-scripts/downloads.ts) as the site's pages read it: none when the build wrote no downloads. */
import type { DownloadIndex } from '../../core/downloads-index.ts';
import { readTreeJson, treeHas } from './data.ts';

export const DOWNLOADS_INDEX_REL = 'downloads/index.json';

export function downloadIndex(): DownloadIndex | undefined {
  return treeHas(DOWNLOADS_INDEX_REL) ? readTreeJson<DownloadIndex>(DOWNLOADS_INDEX_REL) : undefined;
}

/** Bytes as a short figure: 12.3 KB, 4.5 MB. */
export function shortBytes(n: number): string {
  return n < 1e3 ? `${n} B` : n < 1e6 ? `${(n / 1e3).toFixed(1)} KB` : `${(n / 1e6).toFixed(1)} MB`;
}
