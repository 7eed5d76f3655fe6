/**
 * The radar network map: two polar azimuthal equidistant projections (d3-geo), north and south, each
 * centred on its pole, drawn as SVG path data at site build time. Land from world-atlas (Natural Earth
 * 1:110m, shipped in the npm package: nothing is fetched). Fields of view are the radars' `field_of_view`
 * polygons of the tree (computed by the build from each radar's hardware file: boresight, beam count and
 * separation, range gates), projected point by point: the rings are finely sampled, and a polar projection
 * needs neither the antimeridian cut nor the pole closure of their lon/lat form.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoAzimuthalEquidistant, geoPath, type GeoProjection } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Radar } from './radars.ts';

export type Hemisphere = 'north' | 'south';

/** Side of each hemisphere's square viewBox. */
export const MAP_SIZE = 520;
const MARGIN = 24;
/** Degrees from the pole a map shows at least. */
const MIN_REACH = 50;
/** Screen distance between markers of radars at one site. */
const SITE_SPREAD = 11;
/** Width of a character of a site label (14 px sans-serif), for placing labels apart. */
const LABEL_CHAR = 8.2;

export interface MapMarker {
  radar: Radar;
  x: number;
  y: number;
}

export interface MapLabel {
  text: string;
  x: number;
  y: number;
  anchor: 'start' | 'end';
}

export interface HemisphereMap {
  hemisphere: Hemisphere;
  /** Degrees from the pole to the rim. */
  reach: number;
  center: number;
  radius: number;
  land: string;
  graticule: string;
  /** Labels of the latitude circles and of four meridians at the rim. */
  gridLabels: { text: string; x: number; y: number; anchor: 'start' | 'middle' | 'end' }[];
  fovs: { radar: Radar; d: string }[];
  markers: MapMarker[];
  /** One label per site: the codes of the radars there. */
  labels: MapLabel[];
}

const round = (v: number): number => Math.round(v * 10) / 10;

let landCache: ReturnType<typeof feature> | undefined;
function land() {
  if (!landCache) {
    const require = createRequire(import.meta.url);
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
    landCache = feature(topo, topo.objects.land);
  }
  return landCache;
}

function projection(h: Hemisphere, reach: number): GeoProjection {
  const radius = MAP_SIZE / 2 - MARGIN;
  return geoAzimuthalEquidistant()
    .rotate([0, h === 'north' ? -90 : 90])
    .clipAngle(reach)
    .scale(radius / ((reach * Math.PI) / 180))
    .translate([MAP_SIZE / 2, MAP_SIZE / 2])
    .precision(0.2);
}

function ringPath(p: GeoProjection, ring: [number, number][]): string {
  const pts = ring
    // the pole closure of a ring that winds around the pole (points at ±90) is not part of the outline
    .filter(([, lat]) => Math.abs(lat) < 89.9999)
    .map((c) => p(c))
    .filter((xy): xy is [number, number] => xy !== null && Number.isFinite(xy[0]) && Number.isFinite(xy[1]));
  if (pts.length < 3) return '';
  return `M${pts.map(([x, y]) => `${round(x)},${round(y)}`).join('L')}Z`;
}

/** Degrees from the pole needed to show every site and field of view of the hemisphere, in steps of 10. */
function reachOf(list: Radar[], h: Hemisphere): number {
  let max = 0;
  for (const r of list) {
    for (const [, lat] of [...(r.fieldOfView ?? []), ...(r.position ? [r.position] : [])]) {
      const fromPole = h === 'north' ? 90 - lat : 90 + lat;
      if (fromPole <= 90) max = Math.max(max, fromPole);
    }
  }
  return Math.max(MIN_REACH, Math.min(90, Math.ceil((max + 2) / 10) * 10));
}

function latLabel(lat: number): string {
  return `${Math.abs(lat)}°${lat >= 0 ? 'N' : 'S'}`;
}

/** The map of one hemisphere: radars whose site lies in it. Draw order: decommissioned first, so active radars lie on top. */
export function hemisphereMap(all: Radar[], h: Hemisphere, reach = reachOf(all.filter((r) => r.hemisphere === h), h)): HemisphereMap {
  const list = all.filter((r) => r.hemisphere === h && r.position);
  const p = projection(h, reach);
  const path = geoPath(p).digits(1);
  const sign = h === 'north' ? 1 : -1;
  const center = MAP_SIZE / 2;
  const radius = MAP_SIZE / 2 - MARGIN;
  // the graticule of a polar azimuthal equidistant map: parallels are circles, meridians straight lines
  const rings: string[] = [];
  for (let d = 10; d < reach; d += 10) {
    const r = round((radius * d) / reach);
    rings.push(`M${round(center - r)},${center}a${r},${r} 0 1 0 ${round(2 * r)},0a${r},${r} 0 1 0 ${round(-2 * r)},0`);
  }
  for (let lon = -180; lon < 180; lon += 30) {
    const a = p([lon, sign * (90 - 10)]);
    const b = p([lon, sign * (90 - reach + 1e-6)]);
    if (a && b) rings.push(`M${round(a[0])},${round(a[1])}L${round(b[0])},${round(b[1])}`);
  }
  const gridLabels: HemisphereMap['gridLabels'] = [];
  for (let d = 10; d < reach; d += 10) {
    const xy = p([45, sign * (90 - d)]);
    if (xy) gridLabels.push({ text: latLabel(sign * (90 - d)), x: round(xy[0] + 2), y: round(xy[1] - 2), anchor: 'start' });
  }
  for (const [lon, text] of [
    [0, '0°'],
    [90, '90°E'],
    [180, '180°'],
    [-90, '90°W'],
  ] as const) {
    const xy = p([lon, sign * (90 - reach + 0.01)]);
    if (!xy) continue;
    const dx = xy[0] - center;
    const dy = xy[1] - center;
    if (Math.abs(dx) < 1) {
      // top and bottom: outside the rim
      gridLabels.push({ text, x: round(center), y: round(dy < 0 ? center - radius - 6 : center + radius + 16), anchor: 'middle' });
    } else {
      // left and right: inside the rim, above the meridian
      gridLabels.push({ text, x: round(dx < 0 ? center - radius + 4 : center + radius - 4), y: round(center - 5), anchor: dx < 0 ? 'start' : 'end' });
    }
  }

  const drawOrder = [...list].sort((a, b) => b.statusFlag - a.statusFlag || a.id - b.id);
  const fovs = drawOrder.filter((r) => r.fieldOfView).map((r) => ({ radar: r, d: ringPath(p, r.fieldOfView!) })).filter((f) => f.d !== '');

  // radars at one site (within some 20 km) are drawn side by side, so each marker can be pointed at
  const sites: { x: number; y: number; radars: Radar[] }[] = [];
  for (const r of list) {
    const xy = p(r.position!);
    if (!xy) continue;
    const near = sites.find((s) => Math.hypot(s.x - xy[0], s.y - xy[1]) < 2);
    if (near) near.radars.push(r);
    else sites.push({ x: xy[0], y: xy[1], radars: [r] });
  }
  const markers: MapMarker[] = [];
  const labels: MapLabel[] = [];
  const boxes: { x0: number; x1: number; y0: number; y1: number }[] = [];
  for (const s of sites) {
    const n = s.radars.length;
    const half = ((n - 1) / 2) * SITE_SPREAD + 7;
    s.radars.forEach((r, i) => markers.push({ radar: r, x: round(s.x + (i - (n - 1) / 2) * SITE_SPREAD), y: round(s.y) }));
    boxes.push({ x0: s.x - half, x1: s.x + half, y0: s.y - 7, y1: s.y + 7 });
  }
  // each site's label: right of its markers, else left, else below, else above: the first place that overlaps no marker or label
  for (const s of sites) {
    const n = s.radars.length;
    const half = ((n - 1) / 2) * SITE_SPREAD + 7;
    const text = s.radars.map((r) => r.code).join(' ');
    const w = text.length * LABEL_CHAR;
    const preferRight = s.x <= center + radius * 0.6;
    const tries: MapLabel[] = [
      { text, x: s.x + half, y: s.y + 5, anchor: 'start' },
      { text, x: s.x - half, y: s.y + 5, anchor: 'end' },
      { text, x: s.x - w / 2, y: s.y + 21, anchor: 'start' },
      { text, x: s.x - w / 2, y: s.y - 10, anchor: 'start' },
    ];
    if (!preferRight) [tries[0], tries[1]] = [tries[1]!, tries[0]!];
    const boxOf = (l: MapLabel) => ({ x0: l.anchor === 'start' ? l.x : l.x - w, x1: l.anchor === 'start' ? l.x + w : l.x, y0: l.y - 11, y1: l.y + 3 });
    const free = (b: (typeof boxes)[number]) =>
      b.x0 >= 2 && b.x1 <= MAP_SIZE - 2 && b.y0 >= 2 && b.y1 <= MAP_SIZE - 2 && !boxes.some((o) => b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1);
    const chosen = tries.find((l) => free(boxOf(l))) ?? tries[0]!;
    boxes.push(boxOf(chosen));
    labels.push({ ...chosen, x: round(chosen.x), y: round(chosen.y) });
  }
  // markers (above every field of view) in the order of the table: the order of keyboard focus
  markers.sort((a, b) => a.radar.id - b.radar.id);
  return {
    hemisphere: h,
    reach,
    center,
    radius,
    land: path(land()) ?? '',
    graticule: rings.join(''),
    gridLabels,
    fovs,
    markers,
    labels,
  };
}

/** Both hemispheres at one scale: the larger reach of the two. */
export function networkMap(all: Radar[]): HemisphereMap[] {
  const reach = Math.max(reachOf(all.filter((r) => r.hemisphere === 'north'), 'north'), reachOf(all.filter((r) => r.hemisphere === 'south'), 'south'));
  return (['north', 'south'] as const).map((h) => hemisphereMap(all, h, reach));
}

/** Colour and marker shape of each radar status: Okabe–Ito colours, and a shape each, so colour is not the only cue. */
export interface StatusStyle {
  color: string;
  /** SVG path of the marker, centred on 0,0. */
  shape: string;
  shapeName: string;
}

const STYLES: Record<string, StatusStyle> = {
  operational: { color: '#0072b2', shape: 'M0,-5.5A5.5,5.5 0 1 1 0,5.5A5.5,5.5 0 1 1 0,-5.5Z', shapeName: 'circle' },
  offline_or_test: { color: '#d55e00', shape: 'M0,-6.5L6.5,0L0,6.5L-6.5,0Z', shapeName: 'diamond' },
  decommissioned: { color: '#6b6b6b', shape: 'M-4.6,-4.6H4.6V4.6H-4.6Z', shapeName: 'square' },
};
const OTHER: StatusStyle = { color: '#9e3d91', shape: 'M0,-6L5.5,4.5H-5.5Z', shapeName: 'triangle' };

export function statusStyle(status: string): StatusStyle {
  return STYLES[status] ?? OTHER;
}

/** Human words for a status name: `offline_or_test` → `offline or test`. */
export function statusWords(status: string): string {
  return status.replaceAll('_', ' ');
}
