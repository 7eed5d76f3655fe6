/**
 * The radars family's document (`<build>/site-data/radars.json`): the radars of the build for the browse pages
 * (`/browse/radars/`, each radar's page, the map, the finder, the availability table), computed here from the
 * static tree's expanded radar collection and the radar status table (small tables: one record per radar of the
 * network) and written by the build (build-scripts/site-data.ts); the site only reads it (site/lib/radars.ts).
 * Pure: whether the tree holds a file (for links) is the caller's predicate.
 */
import { RESOURCES, viewFields, type FieldKind } from '../radar/resources.ts';
import { RADAR_PREFIX } from '../radar/routes.ts';
import { staticFile, VARIANTS } from '../radar/static-tree.ts';
import { treeHref, type FileLink, type TreeHas } from './links.ts';

export type RadarRecord = Record<string, unknown> & { id: number; radar_code: string; radar_name: string; status_flag: number };

export interface Radar {
  id: number;
  code: string;
  /** The browse page's URL segment: the code, or `radar-<id>` when the code is shared or not plain letters and digits. */
  slug: string;
  name: string;
  hemisphere: 'north' | 'south' | 'unknown';
  /** `[lon, lat]` of the site, when the record has one. */
  position: [number, number] | undefined;
  /** The outer ring of the field of view (GeoJSON Polygon, lon/lat degrees), when the record has one. */
  fieldOfView: [number, number][] | undefined;
  statusFlag: number;
  /** The radar status name (`operational`, …), or the flag as text when the status table lacks it. */
  status: string;
  statusDescription: string;
  institute: string;
  country: string;
  earliestData: string;
  latestData: string;
  /** Every field of the expanded view, in the API's order, as text. */
  fields: { name: string; kind: FieldKind; value: string }[];
  /** The radar's files of the static tree: JSON and CSV, both views, its checksum report. */
  files: FileLink[];
}

const FILE_LABELS: Record<string, string> = {
  '.json': 'JSON',
  '.expanded.json': 'JSON, expanded',
  '.csv': 'CSV',
  '.expanded.csv': 'CSV, expanded',
  '.sha1': 'checksum report',
};

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function shown(name: string, kind: FieldKind, v: unknown): string {
  const geom = v as { type?: string; coordinates?: unknown } | null;
  if (kind === 'json' && geom?.type === 'Polygon' && Array.isArray(geom.coordinates)) {
    return `GeoJSON Polygon of ${(geom.coordinates as unknown[][])[0]?.length ?? 0} points (in the JSON file)`;
  }
  return name === 'geographic_position' && geom?.type === 'Point' ? (geom.coordinates as number[]).join(', ') + ' (lon, lat)' : text(v);
}

function position(r: RadarRecord): [number, number] | undefined {
  const c = (r.geographic_position as { type?: string; coordinates?: unknown } | null)?.coordinates;
  return Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? [c[0], c[1]] : undefined;
}

function fieldOfView(r: RadarRecord): [number, number][] | undefined {
  const g = r.field_of_view as { type?: string; coordinates?: unknown } | null;
  if (g?.type !== 'Polygon' || !Array.isArray(g.coordinates)) return undefined;
  const ring = (g.coordinates as unknown[])[0];
  if (!Array.isArray(ring) || ring.length < 4) return undefined;
  const ok = ring.every((p) => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number');
  return ok ? (ring as [number, number][]) : undefined;
}

function hemisphere(r: RadarRecord): Radar['hemisphere'] {
  const c = (r.geographic_position as { coordinates?: number[] } | null)?.coordinates;
  if (!c || typeof c[1] !== 'number') return 'unknown';
  return c[1] >= 0 ? 'north' : 'south';
}

export interface RadarStatus {
  id: number;
  status: string;
  description: string;
}

export interface RadarsData {
  /** Every radar of the build, in the API's order. */
  radars: Radar[];
  /** The radar status table (`metadata/radar/status`), in its order. */
  statuses: RadarStatus[];
}

/** The status table's rows as the pages use them. */
export function radarStatusesOf(rows: readonly Partial<RadarStatus>[]): RadarStatus[] {
  return rows.map((s) => ({ id: Number(s.id), status: String(s.status ?? s.id), description: String(s.description ?? '') }));
}

/** The whole document, from the expanded radar records and the status table's rows. */
export function radarsData(records: readonly RadarRecord[], statusRows: readonly Partial<RadarStatus>[], has: TreeHas): RadarsData {
  const statuses = radarStatusesOf(statusRows);
  const statusOf = new Map(statuses.map((s) => [s.id, s]));
  const fields = viewFields(RESOURCES.radars, true);
  const codeCount = new Map<string, number>();
  for (const r of records) codeCount.set(r.radar_code, (codeCount.get(r.radar_code) ?? 0) + 1);
  const radars = records.map((r) => ({
    id: r.id,
    code: r.radar_code,
    slug: codeCount.get(r.radar_code) === 1 && /^[a-z0-9]+$/.test(r.radar_code) ? r.radar_code : `radar-${r.id}`,
    name: r.radar_name,
    hemisphere: hemisphere(r),
    position: position(r),
    fieldOfView: fieldOfView(r),
    statusFlag: r.status_flag,
    status: statusOf.get(r.status_flag)?.status ?? String(r.status_flag),
    statusDescription: statusOf.get(r.status_flag)?.description ?? '',
    institute: text(r.institute_name),
    country: text(r.country_name),
    earliestData: text(r.earliest_data),
    latestData: text(r.latest_data),
    fields: fields.map((f) => ({ name: f.name, kind: f.kind, value: shown(f.name, f.kind, r[f.name]) })),
    files: VARIANTS.filter((v) => FILE_LABELS[v.suffix])
      .map((v) => ({ label: FILE_LABELS[v.suffix]!, rel: staticFile(`${RADAR_PREFIX}/radars/${r.id}`, v) }))
      .filter((f) => has(f.rel))
      .map((f) => ({ label: f.label, href: treeHref(f.rel) })),
  }));
  return { radars, statuses };
}
