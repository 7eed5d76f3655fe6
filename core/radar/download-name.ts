/**
 * The file name a radar download is offered under: `Content-Disposition: attachment; filename="..."` on every CSV
 * and checksum report answer (DECISIONS.md "Real clients"), from a file of the tree or a live query alike; JSON and
 * HTML answers have none. The name is made from the request alone, the same under either prefix:
 *
 * - the path after the prefix, its `/` as `-` (`/transferred/files/alarm` → `transferred-files-alarm`, `/files/12`
 *   → `files-12`);
 * - then what selects records, in this order: the radar code, the timespan (`START_END`, each side the UTC instant
 *   the parameter means, shortened: `2016-03-01`, `2016-03-01T1230Z`), the box (`bbox_-180_-90_180_0`),
 *   `distinct`;
 * - then `.expanded` for an expanded CSV, and `.csv` or `.sha1`.
 *
 * A parameter-free request is the tree file's own name (`files.csv`, `radars-6.expanded.csv`, `files.sha1`), so
 * nginx, which knows only the file it serves, gives the same name. Names are ASCII letters, digits, `.`, `_`, `-`
 * only: nothing to quote or escape in the header, no folder in the name.
 */
import { asciiFileName } from '../http/download.ts';
import { FORMATS, RADAR_FORMATS, type Format } from '../formats/radar.ts';
import type { Bbox, Timespan } from './params.ts';
import type { Variant } from './static-tree.ts';

/** What selects records, as far as it names a download. */
export interface DownloadSelection {
  radarCode?: string | undefined;
  timespan?: Timespan | undefined;
  bbox?: Bbox | undefined;
  distinct?: boolean;
}

/** The formats offered as a download, with their file extension. */
export const DOWNLOAD_EXTENSIONS: Partial<Record<Format, string>> = Object.fromEntries(FORMATS.filter((f) => RADAR_FORMATS[f].download).map((f) => [f, `.${RADAR_FORMATS[f].ext}`]));

const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** An instant as a short, safe name part: the date alone at midnight, else `THHMM[SS[.sss]]Z` without colons. */
export function instantName(ms: number): string {
  const iso = new Date(ms).toISOString();
  const short = iso.replace(/T00:00:00\.000Z$/, '').replace(/\.000Z$/, 'Z').replace(/:00Z$/, 'Z').replaceAll(':', '');
  return short.replace(UNSAFE, '');
}

function bboxName(b: Bbox): string {
  return `bbox_${[b.minX, b.minY, b.maxX, b.maxY].map((n) => String(n).replace(UNSAFE, '')).join('_')}`;
}

/**
 * The download name of a path (after the prefix, `/files`, `/radars/6`) in a variant, or undefined for a variant
 * that is no download (JSON, HTML).
 */
export function downloadName(path: string, variant: Variant, s: DownloadSelection = {}): string | undefined {
  const ext = DOWNLOAD_EXTENSIONS[variant.format];
  if (ext === undefined) return undefined;
  const parts = [path.split('/').filter(Boolean).join('-') || 'index'];
  if (s.radarCode !== undefined) parts.push(s.radarCode);
  if (s.timespan !== undefined) parts.push(`${instantName(s.timespan.start)}_${instantName(s.timespan.end)}`);
  if (s.bbox !== undefined) parts.push(bboxName(s.bbox));
  if (s.distinct) parts.push('distinct');
  const base = asciiFileName(parts.join('-'), 'runs').slice(0, 150);
  return `${base}${variant.expanded ? '.expanded' : ''}${ext}`;
}
