/**
 * Where each representation of an API path lives in the static tree. A path P (the root `/` as `index`) has
 * `P.json` (simple JSON: what the bare path answers), `P.expanded.json`, `P.csv`, `P.expanded.csv`, `P.sha1`
 * (checksum report) and, for paths without `:id`, `P.html` (its docs page). A host maps `contentType`,
 * `expanded` and `Accept` to these names; the endpoint does the same lookup.
 */
import { FORMATS, RADAR_FORMATS, type Format } from '../formats/radar.ts';
import { treeFile } from '../tree-file.ts';
import { routeFormats, type RadarRoute } from './routes.ts';

export interface Variant {
  format: Format;
  expanded: boolean;
  suffix: string;
}

/** Per format (RADAR_FORMATS) `.ext`, and `.expanded.ext` for a format with an expanded view. */
export const VARIANTS: Variant[] = FORMATS.flatMap((format) => {
  const { ext, expandable } = RADAR_FORMATS[format];
  const plain: Variant = { format, expanded: false, suffix: `.${ext}` };
  return expandable ? [plain, { format, expanded: true, suffix: `.expanded.${ext}` }] : [plain];
});

/** The variant answering a format and view: a format without an expanded view has one file for both. */
export function variantFor(format: Format, expanded: boolean): Variant {
  const v = VARIANTS.find((x) => x.format === format && (!RADAR_FORMATS[format].expandable || x.expanded === expanded));
  return v!;
}

/** The variants of a route the static tree holds: every format it produces, HTML only for paths without `:id`. */
export function routeVariants(route: RadarRoute): Variant[] {
  const formats = routeFormats(route);
  const hasId = route.path.endsWith('/:id');
  return VARIANTS.filter((v) => formats.includes(v.format) && !(v.format === 'html' && hasId) && !(route.shape === 'index' && v.expanded));
}

/** The tree-relative file of an API path (`/radarnet/mirror/v3/files/12`) in a variant. */
export function staticFile(apiPath: string, v: Variant): string {
  return treeFile(apiPath, v.suffix);
}

/** What a file of the tree answers: the path after the prefix (`/radars/6`, the index `/`) and its variant. */
export interface TreeFileRequest {
  path: string;
  variant: Variant;
}

const BY_SUFFIX_LENGTH = [...VARIANTS].sort((a, b) => b.suffix.length - a.suffix.length);

/**
 * The request a tree file's name stands for, from its path after the prefix (`/radars/6.expanded.csv` →
 * `/radars/6` in CSV, expanded; `/index.json` → the index), or undefined for a name with no variant's suffix.
 */
export function treeFileRequest(rest: string): TreeFileRequest | undefined {
  const variant = BY_SUFFIX_LENGTH.find((v) => rest.endsWith(v.suffix) && rest.length > v.suffix.length);
  if (!variant) return undefined;
  const path = rest.slice(0, -variant.suffix.length);
  if (path.endsWith('/')) return undefined;
  return { path: path.endsWith('/index') ? path.slice(0, -'index'.length) : path, variant };
}

/**
 * Whether a tree file's bytes hold the spec's prefix (links of the index and of the HTML pages): under another
 * prefix (BAS_PREFIX) it is answered live, with links under that prefix, never from the file.
 */
export function holdsPrefix(file: TreeFileRequest): boolean {
  return file.path === '/' || file.variant.format === 'html';
}
