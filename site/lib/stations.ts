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
