/**
 * The one mapping from an API path to its file in the static tree, for both APIs: the path without its leading
 * slash, the root of an API (`/api/v1/`, `/radarnet/mirror/v3/`) as `index`, then the variant's suffix
 * (`.json`, `.expanded.csv`, ...). core/radar/static-tree.ts and core/timeseries/static-tree.ts name their
 * variants; the file is always this.
 */
export function treeFile(apiPath: string, suffix: string): string {
  const rel = apiPath.endsWith('/') ? `${apiPath}index` : apiPath;
  return rel.replace(/^\/+/, '') + suffix;
}
