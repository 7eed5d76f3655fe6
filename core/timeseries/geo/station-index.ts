/**
 * A grid index over station points (WGS84 lon/lat, degrees), built once per snapshot, answering `bbox` and
 * `near` in well under a millisecond for 10^5 stations.
 *
 * Design: a regular lat/lon grid of about n/2 cells (rows × 2·rows, at most 1800 × 3600), stored as
 * compressed rows: stations sorted by cell, row-major, with their coordinates copied into that order.
 * The cells of one row between two longitudes are one contiguous slice, so a query walks one slice per
 * grid row it touches and checks each point exactly; no point is tested twice.
 * - `inBbox`: west > east is a box across the antimeridian (two longitude ranges).
 * - `near`: the latitude band ±radius, and within it the longitude window ±asin(sin δ / cos φ) (the widest
 *   a circle of angular radius δ at latitude φ reaches), split in two across the antimeridian; a circle that
 *   reaches a pole takes every longitude. Points are then tested with the same unit-vector chord test as
 *   `bruteForceNear` (sphere.ts), so index and scan agree exactly.
 * Stations with a non-finite or out-of-range coordinate are never returned. Results are station indices
 * (positions in the input arrays), ascending.
 */
import { DEG, EARTH_RADIUS_KM, chordLimit, writeUnit } from './sphere.ts';

export interface LonLatBox {
  /** Degrees; west > east means the box crosses the antimeridian. */
  west: number;
  south: number;
  east: number;
  north: number;
}

export function boxContains(box: LonLatBox, lon: number, lat: number): boolean {
  if (!(lat >= box.south && lat <= box.north)) return false;
  return box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
}

/** Brute force: indices of the points inside the box; the reference for StationIndex.inBbox. */
export function bruteForceInBox(lons: ArrayLike<number>, lats: ArrayLike<number>, box: LonLatBox): number[] {
  const out: number[] = [];
  for (let i = 0; i < lons.length; i++) if (valid(lons[i]!, lats[i]!) && boxContains(box, lons[i]!, lats[i]!)) out.push(i);
  return out;
}

function valid(lon: number, lat: number): boolean {
  return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}

/** Slack on the candidate band and window, far above rounding error and far below any real distance. */
const PAD_DEG = 1e-9;

export class StationIndex {
  readonly ids: readonly string[];
  /** Coordinates by station index, as given. */
  readonly lons: Float64Array;
  readonly lats: Float64Array;
  private readonly rows: number;
  private readonly cols: number;
  private readonly cellStart: Int32Array;
  private readonly order: Int32Array;
  private readonly lon: Float64Array;
  private readonly lat: Float64Array;
  private readonly xyz: Float64Array;
  private readonly scratch: Int32Array;
  private readonly mark: Uint8Array;

  constructor(ids: readonly string[], lons: ArrayLike<number>, lats: ArrayLike<number>) {
    if (ids.length !== lons.length || ids.length !== lats.length) throw new RangeError('StationIndex: ids, lons and lats differ in length');
    this.ids = ids;
    this.lons = Float64Array.from(lons);
    this.lats = Float64Array.from(lats);
    const n = ids.length;
    this.rows = Math.min(1800, Math.max(1, Math.round(Math.sqrt(n / 2))));
    this.cols = 2 * this.rows;
    const cellOf = new Int32Array(n);
    const counts = new Int32Array(this.rows * this.cols + 1);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const lo = lons[i]!;
      const la = lats[i]!;
      if (!valid(lo, la)) {
        cellOf[i] = -1;
        continue;
      }
      cellOf[i] = this.rowOf(la) * this.cols + this.colOf(lo);
      counts[cellOf[i]! + 1]!++;
      m++;
    }
    for (let c = 1; c < counts.length; c++) counts[c]! += counts[c - 1]!;
    this.cellStart = counts.slice();
    const fill = counts; // reused as the next free slot per cell
    this.order = new Int32Array(m);
    this.lon = new Float64Array(m);
    this.lat = new Float64Array(m);
    this.xyz = new Float64Array(3 * m);
    for (let i = 0; i < n; i++) {
      const c = cellOf[i]!;
      if (c < 0) continue;
      const k = fill[c]!++;
      this.order[k] = i;
      this.lon[k] = lons[i]!;
      this.lat[k] = lats[i]!;
      writeUnit(lons[i]!, lats[i]!, this.xyz, k);
    }
    this.scratch = new Int32Array(m);
    this.mark = new Uint8Array(n);
  }

  /** Number of stations indexed (those with valid coordinates). */
  get size(): number {
    return this.order.length;
  }

  private rowOf(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor(((lat + 90) / 180) * this.rows)));
  }

  private colOf(lon: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor(((lon + 180) / 360) * this.cols)));
  }

  /** The first `count` scratch entries, ascending: sorted when few, through a bitmap when many. */
  private result(count: number): Int32Array {
    const n = this.ids.length;
    if (count < n >> 6) return this.scratch.slice(0, count).sort();
    const { mark, scratch } = this;
    for (let k = 0; k < count; k++) mark[scratch[k]!] = 1;
    const out = new Int32Array(count);
    for (let i = 0, p = 0; p < count; i++) {
      if (mark[i]) {
        out[p++] = i;
        mark[i] = 0; // left clean for the next query
      }
    }
    return out;
  }

  /** Indices of the stations inside the box (edges included). */
  inBboxIndices(box: LonLatBox): Int32Array {
    if (!(box.south <= box.north)) return new Int32Array(0);
    const wraps = box.west > box.east; // across the antimeridian: [west, 180] and [-180, east]
    let count = this.boxRange(box.south, box.north, box.west, wraps ? 180 : box.east, 0);
    if (wraps) count = this.boxRange(box.south, box.north, -180, box.east, count);
    return this.result(count);
  }

  private boxRange(south: number, north: number, west: number, east: number, count: number): number {
    if (!(west <= east) || north < -90 || south > 90 || east < -180 || west > 180) return count;
    const r0 = this.rowOf(south);
    const r1 = this.rowOf(north);
    const c0 = this.colOf(west);
    const c1 = this.colOf(east);
    const { lon, lat, order, scratch, cellStart, cols } = this;
    for (let r = r0; r <= r1; r++) {
      const to = cellStart[r * cols + c1 + 1]!;
      for (let k = cellStart[r * cols + c0]!; k < to; k++) {
        const lo = lon[k]!;
        const la = lat[k]!;
        if (la >= south && la <= north && lo >= west && lo <= east) scratch[count++] = order[k]!;
      }
    }
    return count;
  }

  /** Indices of the stations within `radiusKm` (great circle, sphere of 6371 km) of (lon, lat). */
  nearIndices(lon: number, lat: number, radiusKm: number): Int32Array {
    const limit = chordLimit(radiusKm);
    if (!(radiusKm >= 0) || !valid(lon, lat)) return new Int32Array(0);
    const delta = radiusKm / EARTH_RADIUS_KM; // radians
    const deltaDeg = delta / DEG;
    let south = lat - deltaDeg - PAD_DEG;
    let north = lat + deltaDeg + PAD_DEG;
    let half = 180; // half-width of the longitude window, degrees
    const ratio = Math.sin(delta) / Math.cos(lat * DEG);
    // near a ratio of 1 (a circle grazing the pole) asin magnifies rounding: take every longitude there
    if (limit !== Infinity && south > -90 && north < 90 && ratio < 1 - 1e-9) half = Math.asin(ratio) / DEG + PAD_DEG;
    south = Math.max(-90, south);
    north = Math.min(90, north);
    const c = new Float64Array(3);
    writeUnit(lon, lat, c, 0);
    let count = 0;
    if (half >= 180) count = this.circleRange(south, north, -180, 180, c, limit, count);
    else {
      const west = lon - half;
      const east = lon + half;
      count = this.circleRange(south, north, Math.max(-180, west), Math.min(180, east), c, limit, count);
      if (west < -180) count = this.circleRange(south, north, west + 360, 180, c, limit, count);
      if (east > 180) count = this.circleRange(south, north, -180, east - 360, c, limit, count);
    }
    return this.result(count);
  }

  private circleRange(south: number, north: number, west: number, east: number, c: Float64Array, limit: number, count: number): number {
    const r0 = this.rowOf(south);
    const r1 = this.rowOf(north);
    const c0 = this.colOf(west);
    const c1 = this.colOf(east);
    const { lon, xyz, order, scratch, cellStart, cols } = this;
    const [cx, cy, cz] = [c[0]!, c[1]!, c[2]!];
    for (let r = r0; r <= r1; r++) {
      const to = cellStart[r * cols + c1 + 1]!;
      for (let k = cellStart[r * cols + c0]!; k < to; k++) {
        const lo = lon[k]!;
        if (lo < west || lo > east) continue; // another window's share of a boundary cell
        const dx = xyz[3 * k]! - cx;
        const dy = xyz[3 * k + 1]! - cy;
        const dz = xyz[3 * k + 2]! - cz;
        if (dx * dx + dy * dy + dz * dz <= limit) scratch[count++] = order[k]!;
      }
    }
    return count;
  }

  inBbox(box: LonLatBox): string[] {
    return this.idsOf(this.inBboxIndices(box));
  }

  near(lon: number, lat: number, radiusKm: number): string[] {
    return this.idsOf(this.nearIndices(lon, lat, radiusKm));
  }

  idsOf(indices: ArrayLike<number>): string[] {
    return Array.from(indices as ArrayLike<number>, (i) => this.ids[i]!);
  }
}
