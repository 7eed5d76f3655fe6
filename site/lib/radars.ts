/**
 * The radars of the build, for the browse pages: read from the static tree's expanded radar collection and
 * the radar status objects (a small table: one record per radar of the network).
 */
import { RESOURCES, viewFields, type FieldKind } from '../../core/radar/resources.ts';
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { staticFile, VARIANTS } from '../../core/radar/static-tree.ts';
import { hasTree, readTreeJson, treeHas, treeHref } from './data.ts';
import type { FileLink } from './examples.ts';

type RadarRecord = Record<string, unknown> & { id: number; radar_code: string; radar_name: string; status_flag: number };

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

/** The radar status table (`metadata/radar/status`), in id order; empty without the radar tree. */
export function radarStatuses(): RadarStatus[] {
  const rel = staticFile(`${RADAR_PREFIX}/metadata/radar/status`, VARIANTS[0]!);
  if (!hasTree('radarnet-mirror-v3') || !treeHas(rel)) return [];
  return readTreeJson<Partial<RadarStatus>[]>(rel).map((s) => ({ id: Number(s.id), status: String(s.status ?? s.id), description: String(s.description ?? '') }));
}

let cache: Radar[] | undefined;

/** Every radar of the build, in the API's order; none when the build has no radar catalogue files. */
export function radars(): Radar[] {
  if (cache) return cache;
  if (!hasTree('radarnet-mirror-v3')) return (cache = []);
  const records = readTreeJson<RadarRecord[]>(staticFile(`${RADAR_PREFIX}/radars`, VARIANTS.find((v) => v.suffix === '.expanded.json')!));
  const statuses = radarStatuses();
  const statusOf = new Map(statuses.map((s) => [s.id, s]));
  const fields = viewFields(RESOURCES.radars, true);
  const codeCount = new Map<string, number>();
  for (const r of records) codeCount.set(r.radar_code, (codeCount.get(r.radar_code) ?? 0) + 1);
  cache = records.map((r) => ({
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
      .filter((f) => treeHas(f.rel))
      .map((f) => ({ label: f.label, href: treeHref(f.rel) })),
  }));
  return cache;
}

export function radarPage(r: Radar): string {
  return `/browse/radars/${r.slug}/`;
}

/** The browse page of the radar with that code, when exactly one radar has it. */
export function radarPageOfCode(code: string): string | undefined {
  const found = radars().filter((r) => r.code === code);
  return found.length === 1 ? radarPage(found[0]!) : undefined;
}
