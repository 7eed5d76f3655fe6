/**
 * The timeseries stations of the build, for the browse pages: read from the stations family's document
 * (`<build>/site-data/stations.json`, core/site-data/stations.ts, made by the build from the tree's expanded
 * station collection); and the station map's geometry (an equirectangular projection of the stations' bounding box,
 * longitudes scaled by the cosine of the middle latitude, so distances look right near the box's centre),
 * with land and country borders from world-atlas (Natural Earth 1:50m, shipped in the npm package: nothing
 * is fetched), clipped to the box by d3-geo.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoPath, geoProjection } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Station } from '../../core/site-data/stations.ts';
import { siteData } from './data.ts';

export type { Series, Station } from '../../core/site-data/stations.ts';

/** Every station, in the API's order (by label); none when the build has no timeseries catalogue files. */
export function stations(): Station[] {
  return siteData('stations')?.stations ?? [];
}

export interface MapMarker {
  station: Station;
  x: number;
  y: number;
  /** Index into MapGeometry.kinds. */
  kind: number;
}

export interface MapLine {
  d: string;
  label: string;
  /** Where the label goes. */
  x: number;
  y: number;
}

export interface MapGeometry {
  width: number;
  height: number;
  /** Path data of the land, and of the borders between countries, inside the box. */
  land: string;
  borders: string;
  markers: MapMarker[];
  /** Meridians and parallels at whole degrees (or multiples), inside the box. */
  meridians: MapLine[];
  parallels: MapLine[];
  /** Marker kinds: one per service, in order of first appearance. */
  kinds: { id: string; label: string; count: number }[];
  /** Stations without a position (not drawn). */
  unplaced: number;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

let topology: Topology<{ countries: GeometryCollection; land: GeometryCollection }> | undefined;
function countries() {
  topology ??= JSON.parse(readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
  return topology;
}

/** Land and borders, projected as the markers are ((lon − w)·k·scale, (n − lat)·sy) and clipped to the map. */
function outlines(w: number, n: number, k: number, scale: number, sy: number, width: number, height: number): { land: string; borders: string } {
  const topo = countries();
  const perRadian = 180 / Math.PI;
  const projection = geoProjection((lambda, phi) => [lambda * k, (phi * sy) / scale])
    .scale(scale * perRadian)
    .translate([-w * k * scale, n * sy])
    .clipExtent([[-2, -2], [width + 2, height + 2]])
    .precision(0.5);
  const path = geoPath(projection).digits(1);
  return {
    land: path(feature(topo, topo.objects.land)) ?? '',
    borders: path(mesh(topo, topo.objects.countries, (a, b) => a !== b)) ?? '',
  };
}

function step(span: number): number {
  for (const s of [0.5, 1, 2, 5, 10, 15, 30]) if (span / s <= 10) return s;
  return 45;
}

/** Grid steps of a neighbourhood window: quarter degrees in the smallest, at most 6 lines a way. */
function windowStep(span: number): number {
  for (const s of [0.25, 0.5, 1, 2, 5, 10, 15, 30]) if (span / s <= 6) return s;
  return 45;
}

const deg = (v: number, pos: string, neg: string) => `${Math.abs(v)}°${v >= 0 ? pos : neg}`;

const maps = new WeakMap<readonly Station[], Map<number, MapGeometry>>();

/**
 * The map of the stations with a position, `width` wide, as tall as the box needs (at most 1.4 × width).
 * Made once per list and width: every station page draws the same map of all stations (its land outlines
 * alone are a projection of Natural Earth's 1:50m countries), so the site's build does not grow with the
 * square of the network.
 */
export function stationMap(list: readonly Station[], width = 800): MapGeometry {
  let byWidth = maps.get(list);
  if (!byWidth) maps.set(list, (byWidth = new Map()));
  let map = byWidth.get(width);
  if (!map) byWidth.set(width, (map = drawStationMap(list, width)));
  return map;
}

function drawStationMap(list: readonly Station[], width: number): MapGeometry {
  const placed = list.filter((s) => Number.isFinite(s.lon) && Number.isFinite(s.lat));
  const kinds: MapGeometry['kinds'] = [];
  const kindOf = (s: Station) => {
    const id = s.service?.id ?? '';
    let k = kinds.findIndex((x) => x.id === id);
    if (k < 0) k = kinds.push({ id, label: s.service?.label ?? 'Other', count: 0 }) - 1;
    kinds[k]!.count++;
    return k;
  };
  if (placed.length === 0) return { width, height: 0, land: '', borders: '', markers: [], meridians: [], parallels: [], kinds, unplaced: list.length };
  let [w, e, s, n] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of placed) {
    w = Math.min(w, p.lon!);
    e = Math.max(e, p.lon!);
    s = Math.min(s, p.lat!);
    n = Math.max(n, p.lat!);
  }
  // a margin of 6 % of the box (at least a quarter degree) so markers at the edge stay whole
  const padLon = Math.max(0.25, (e - w) * 0.06);
  const padLat = Math.max(0.25, (n - s) * 0.06);
  [w, e, s, n] = [w - padLon, e + padLon, Math.max(-90, s - padLat), Math.min(90, n + padLat)];
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const scale = width / ((e - w) * k);
  let height = (n - s) * scale;
  let sy = scale;
  if (height > width * 1.4) {
    // a very tall box (a long chain of stations): squeeze the latitudes rather than draw a tower
    sy = (width * 1.4) / (n - s);
    height = width * 1.4;
  }
  const x = (lon: number) => r2((lon - w) * k * scale);
  const y = (lat: number) => r2((n - lat) * sy);
  const markers = placed.map((p) => ({ station: p, x: x(p.lon!), y: y(p.lat!), kind: kindOf(p) }));
  for (const p of list) if (!placed.includes(p)) kindOf(p);
  const lonStep = step(e - w);
  const latStep = step(n - s);
  const meridians: MapLine[] = [];
  for (let lon = Math.ceil(w / lonStep) * lonStep; lon <= e; lon += lonStep) {
    meridians.push({ d: `M${x(lon)},0V${r2(height)}`, label: deg(lon, 'E', 'W'), x: x(lon), y: r2(height) - 6 });
  }
  const parallels: MapLine[] = [];
  for (let lat = Math.ceil(s / latStep) * latStep; lat <= n; lat += latStep) {
    parallels.push({ d: `M0,${y(lat)}H${width}`, label: deg(lat, 'N', 'S'), x: 6, y: y(lat) - 4 });
  }
  return { width, height: r2(height), ...outlines(w, n, k, scale, sy, width, height), markers, meridians, parallels, kinds, unplaced: list.length - placed.length };
}

/**
 * A station page's map: the station's neighbourhood, not the network (issue 23). The window is centred on the
 * station, 4:3 like a screen, in the list map's projection (equirectangular, longitudes scaled by the cosine of
 * the station's latitude): just large enough to hold its `NEAREST` nearest stations with a quarter of margin
 * (nearest by the window's own measure, so they are inside it), and never less than `MIN_HALF_HEIGHT` degrees of
 * latitude either side (about 90 km by 120 km). Every station inside the window is drawn; a network of up to
 * `NEAREST` + 1 stations is thus drawn whole.
 */
export const NEAREST = 8;
export const MIN_HALF_HEIGHT = 0.4;
const MARGIN = 1.25;
const ASPECT = 4 / 3;

export interface Neighbourhood {
  /** The window: west, east, south, north (degrees). */
  w: number;
  e: number;
  s: number;
  n: number;
  /** Cosine of the station's latitude: the longitudes' scale. */
  k: number;
  /** The stations inside the window, in the list's order (the station itself among them). */
  inside: Station[];
}

/** The window around `current` (a station of `list` with a position), or undefined without a position. */
export function neighbourhood(list: readonly Station[], current: Station): Neighbourhood | undefined {
  const placed = (s: Station) => Number.isFinite(s.lon) && Number.isFinite(s.lat);
  if (!placed(current)) return undefined;
  const lon0 = current.lon!;
  const lat0 = current.lat!;
  const k = Math.cos((lat0 * Math.PI) / 180);
  // the distance that puts a station on the window's edge: half-heights of a 4:3 window centred on the station
  const reach = (s: Station) => Math.max(Math.abs(s.lat! - lat0), (Math.abs(s.lon! - lon0) * k) / ASPECT);
  const d = list.filter((s) => s !== current && placed(s)).map(reach).sort((a, b) => a - b);
  const nth = d.length === 0 ? 0 : d[Math.min(NEAREST, d.length) - 1]!;
  const h = Math.max(MIN_HALF_HEIGHT, nth * MARGIN);
  const hw = (h * ASPECT) / k;
  const [w, e, s, n] = [lon0 - hw, lon0 + hw, Math.max(-90, lat0 - h), Math.min(90, lat0 + h)];
  const inside = list.filter((p) => placed(p) && p.lon! >= w && p.lon! <= e && p.lat! >= s && p.lat! <= n);
  return { w, e, s, n, k, inside };
}

/**
 * The map of `current`'s neighbourhood, `width` wide and 3/4 of it tall: the markers of the stations inside the
 * window (kinds keep the whole list's order, so a service has the same shape on every map; their counts are of
 * the stations shown), meridians and parallels, and Natural Earth's land and borders clipped to the window.
 * No markers when the station has no position.
 */
export function neighbourhoodMap(list: readonly Station[], current: Station, width = 800): MapGeometry {
  const kinds: MapGeometry['kinds'] = [];
  const kindIndex = new Map<string, number>();
  for (const s of list) {
    const id = s.service?.id ?? '';
    if (!kindIndex.has(id)) kindIndex.set(id, kinds.push({ id, label: s.service?.label ?? 'Other', count: 0 }) - 1);
  }
  const win = neighbourhood(list, current);
  if (!win) return { width, height: 0, land: '', borders: '', markers: [], meridians: [], parallels: [], kinds, unplaced: 0 };
  const { w, e, s, n, k } = win;
  const scale = width / ((e - w) * k);
  const height = r2((n - s) * scale);
  const x = (lon: number) => r2((lon - w) * k * scale);
  const y = (lat: number) => r2((n - lat) * scale);
  const markers = win.inside.map((p) => {
    const kind = kindIndex.get(p.service?.id ?? '')!;
    kinds[kind]!.count++;
    return { station: p, x: x(p.lon!), y: y(p.lat!), kind };
  });
  const lonStep = windowStep(e - w);
  const latStep = windowStep(n - s);
  // the window's edges fall anywhere: no line whose label would be cut by the edge or cross the other labels
  // (meridians' along the bottom, parallels' along the left)
  const meridians: MapLine[] = [];
  for (let lon = Math.ceil(w / lonStep) * lonStep; lon <= e; lon += lonStep) {
    if (x(lon) >= 60 && x(lon) <= width - 56) meridians.push({ d: `M${x(lon)},0V${height}`, label: deg(lon, 'E', 'W'), x: x(lon), y: height - 6 });
  }
  const parallels: MapLine[] = [];
  for (let lat = Math.ceil(s / latStep) * latStep; lat <= n; lat += latStep) {
    if (y(lat) >= 22 && y(lat) <= height - 28) parallels.push({ d: `M0,${y(lat)}H${width}`, label: deg(lat, 'N', 'S'), x: 6, y: y(lat) - 4 });
  }
  return { width, height, ...clippedOutlines(win, scale), markers, meridians, parallels, kinds, unplaced: 0 };
}

type Ring = [number, number][];
let rings: { land: { ring: Ring; box: number[] }[]; borders: { line: Ring; box: number[] }[] } | undefined;

/** Natural Earth's land rings and border lines (lon, lat), each with its bounding box, made once. */
function outlineParts() {
  if (rings) return rings;
  const topo = countries();
  const box = (pts: Ring) => {
    let [w, e, s, n] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const [lon, lat] of pts) [w, e, s, n] = [Math.min(w, lon), Math.max(e, lon), Math.min(s, lat), Math.max(n, lat)];
    return [w, e, s, n];
  };
  const land: { ring: Ring; box: number[] }[] = [];
  for (const f of feature(topo, topo.objects.land).features) {
    const g = f.geometry;
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const poly of polys) for (const ring of poly) land.push({ ring: ring as Ring, box: box(ring as Ring) });
  }
  const m = mesh(topo, topo.objects.countries, (a, b) => a !== b);
  const lines = m.type === 'MultiLineString' ? m.coordinates : m.type === 'LineString' ? [m.coordinates] : [];
  rings = { land, borders: lines.map((l) => ({ line: l as Ring, box: box(l as Ring) })) };
  return rings;
}

/**
 * Land and borders inside a window, in the window's projection (linear in longitude and latitude, as the map's):
 * each ring clipped to the window grown by 2 px (Sutherland–Hodgman; the edges it adds lie outside the view, as
 * d3-geo's clipExtent's do on the list map), each border line cut to its runs inside. Clipping in degrees before
 * projecting is what makes a map per page cheap: the 1:50m land is 60,000 points, d3 projects them all.
 */
function clippedOutlines(win: Neighbourhood, scale: number): { land: string; borders: string } {
  const { w, e, s, n, k } = win;
  const pad = 2 / scale;
  const [W, E, S, N] = [w - pad / k, e + pad / k, s - pad, n + pad];
  const parts = outlineParts();
  const f1 = (v: number) => String(Math.round(v * 10) / 10);
  const pt = ([lon, lat]: [number, number]) => `${f1((lon - w) * k * scale)},${f1((n - lat) * scale)}`;
  const overlaps = (b: number[]) => b[0]! <= E && b[1]! >= W && b[2]! <= N && b[3]! >= S;
  let land = '';
  for (const { ring, box } of parts.land) {
    if (!overlaps(box)) continue;
    const c = clipRing(ring, W, E, S, N);
    if (c.length >= 3) land += `M${c.map(pt).join('L')}Z`;
  }
  let borders = '';
  for (const { line, box } of parts.borders) {
    if (!overlaps(box)) continue;
    for (const run of clipLine(line, W, E, S, N)) borders += `M${run.map(pt).join('L')}`;
  }
  return { land, borders };
}

/** Sutherland–Hodgman: a closed ring clipped to the box, edge by edge. */
function clipRing(ring: Ring, W: number, E: number, S: number, N: number): Ring {
  const edges: [(p: [number, number]) => boolean, (a: [number, number], b: [number, number]) => [number, number]][] = [
    [(p) => p[0] >= W, (a, b) => [W, a[1] + ((b[1] - a[1]) * (W - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= E, (a, b) => [E, a[1] + ((b[1] - a[1]) * (E - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= S, (a, b) => [a[0] + ((b[0] - a[0]) * (S - a[1])) / (b[1] - a[1]), S]],
    [(p) => p[1] <= N, (a, b) => [a[0] + ((b[0] - a[0]) * (N - a[1])) / (b[1] - a[1]), N]],
  ];
  let out = ring;
  for (const [inside, cross] of edges) {
    if (out.length === 0) break;
    const input = out;
    out = [];
    let prev = input[input.length - 1]!;
    for (const cur of input) {
      if (inside(cur)) {
        if (!inside(prev)) out.push(cross(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cross(prev, cur));
      prev = cur;
    }
  }
  return out;
}

/** A line's runs inside the box (Liang–Barsky per segment, consecutive visible segments joined). */
function clipLine(line: Ring, W: number, E: number, S: number, N: number): Ring[] {
  const runs: Ring[] = [];
  let run: Ring | undefined;
  for (let i = 1; i < line.length; i++) {
    const [x0, y0] = line[i - 1]!;
    const [x1, y1] = line[i]!;
    const dx = x1 - x0;
    const dy = y1 - y0;
    let t0 = 0;
    let t1 = 1;
    let visible = true;
    for (const [p, q] of [[-dx, x0 - W], [dx, E - x0], [-dy, y0 - S], [dy, N - y0]] as const) {
      if (p === 0) {
        if (q < 0) visible = false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (!visible || t0 > t1) {
      run = undefined;
      continue;
    }
    const a: [number, number] = [x0 + t0 * dx, y0 + t0 * dy];
    const b: [number, number] = [x0 + t1 * dx, y0 + t1 * dy];
    if (!run || t0 > 0) runs.push((run = [a]));
    run.push(b);
    if (t1 < 1) run = undefined;
  }
  return runs;
}
