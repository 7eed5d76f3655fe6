/**
 * A radar's field of view as a GeoJSON Polygon (lon/lat degrees, WGS84 treated as a sphere of
 * radius 6371 km), from the latest line of its hardware-description file.
 *
 * Geometry: beams are `beamSeparation` degrees apart, centred on the boresight, so the fan spans
 * boresight ± maxBeams/2 · beamSeparation (outer beam edges). Range gates are 45 km, the first one
 * at 180 km, so the fan reaches 180 + 45 · gates km, with gates = min(maxRangeGates, 75): 75 gates
 * (3555 km) is the range the network's standard field-of-view plots draw; the 100- and 225-gate
 * hardware limits would reach past the pole (10 305 km) where no backscatter is recorded in practice. The range is used as ground distance
 * (great-circle destination from the site), i.e. the usual ground-scatter-free footprint plot.
 *
 * Ring: near arc, one side outwards, far arc back, the other side inwards; points on every beam
 * edge and every 5 range gates; closed (last point = first) and counter-clockwise in the lon/lat
 * plane as RFC 7946 asks; coordinates rounded to 4 decimals.
 *
 * Antimeridian: longitudes are kept continuous along the ring (each point within 180 degrees of
 * the previous, starting next to the site's longitude), so a fan that crosses ±180 (Adak, Unwin,
 * McMurdo, ...) has longitudes beyond ±180 instead of being cut in two (RFC 7946 §3.1.9 would cut
 * it; continuous rings are what most plotting tools handle best and keep one Polygon per radar).
 * Poles: a fan long enough to contain the geographic pole (for example the 225-gate Canadian
 * radars, 10 305 km) winds once around it; its ring is cut where it crosses the antimeridian and
 * closed along the pole's latitude (±90) from +180 to -180, the usual lon/lat picture of a polar
 * cap, so these rings span exactly -180..180.
 */

const EARTH_RADIUS_KM = 6371;
const FIRST_RANGE_KM = 180;
const GATE_KM = 45;
const SIDE_STEP_GATES = 5;
/** Range gates drawn: the standard field-of-view plot range. */
export const PLOTTED_RANGE_GATES = 75;

export interface FovGeometry {
  latitude: number;
  longitude: number;
  boresight: number;
  beamSeparation: number;
  maxBeams: number;
  maxRangeGates: number;
}

const rad = (d: number): number => (d * Math.PI) / 180;
const deg = (r: number): number => (r * 180) / Math.PI;

/** Longitude difference folded into (-180, 180]. */
function wrap(d: number): number {
  let x = ((d + 180) % 360 + 360) % 360 - 180;
  if (x === -180) x = 180;
  return x;
}

/** Great-circle destination [lon, lat] from a point, an azimuth (degrees east of north) and a distance. */
export function destination(lat: number, lon: number, azimuth: number, km: number): [number, number] {
  const d = km / EARTH_RADIUS_KM;
  const p1 = rad(lat);
  const t = rad(azimuth);
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(t));
  const l2 = rad(lon) + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [deg(l2), deg(p2)];
}

/** Twice the signed planar area (positive = counter-clockwise). */
export function signedArea2(ring: [number, number][]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return a;
}

function round4(v: number): number {
  const r = Math.round(v * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
}

/** The open ring (no closing point) on the sphere, in raw lon/lat. */
function fanOutline(g: FovGeometry): [number, number][] {
  const near = FIRST_RANGE_KM;
  const gates = Math.min(g.maxRangeGates, PLOTTED_RANGE_GATES);
  const far = FIRST_RANGE_KM + GATE_KM * gates;
  const edges: number[] = [];
  for (let i = 0; i <= g.maxBeams; i++) edges.push(g.boresight + (i - g.maxBeams / 2) * g.beamSeparation);
  const side: number[] = [];
  for (let gate = SIDE_STEP_GATES; gate < gates; gate += SIDE_STEP_GATES) side.push(near + GATE_KM * gate);
  const at = (az: number, km: number): [number, number] => destination(g.latitude, g.longitude, az, km);
  const first = edges[0]!;
  const last = edges.at(-1)!;
  return [
    ...edges.map((az) => at(az, near)),
    ...side.map((km) => at(last, km)),
    ...[...edges].reverse().map((az) => at(az, far)),
    ...[...side].reverse().map((km) => at(first, km)),
  ];
}

/** The field of view as [lon, lat] ring: closed, counter-clockwise, continuous longitudes, 4 decimals. */
export function fieldOfViewRing(g: FovGeometry): [number, number][] {
  const raw = fanOutline(g);
  // Continuous longitudes, the first point within 180 degrees of the site.
  const pts: [number, number][] = [];
  let prevLon = g.longitude;
  let prevRaw = g.longitude;
  for (const [lon, lat] of raw) {
    prevLon += wrap(lon - prevRaw);
    prevRaw = lon;
    pts.push([prevLon, lat]);
  }
  const p0 = pts[0]!;
  const pn = pts.at(-1)!;
  const winding = pn[0] + wrap(raw[0]![0] - raw.at(-1)![0]) - p0[0];
  let ring: [number, number][];
  if (Math.abs(winding) < 1e-6) {
    ring = [...pts, p0];
  } else {
    // The fan contains a pole: its ring winds once around it. Cut it where it crosses the
    // antimeridian and close it along the pole's latitude, so that longitudes run -180..180.
    const cycle = [...pts, [p0[0] + winding, p0[1]] as [number, number]];
    const i = cycle.findIndex((p, j) => j > 0 && Math.floor((p[0] - 180) / 360) !== Math.floor((cycle[j - 1]![0] - 180) / 360));
    const a = cycle[i - 1]!;
    const b = cycle[i]!;
    const meridian = 180 + 360 * Math.max(Math.floor((a[0] - 180) / 360), Math.floor((b[0] - 180) / 360));
    const cutLat = a[1] + ((meridian - a[0]) / (b[0] - a[0])) * (b[1] - a[1]);
    const tail = cycle.slice(i, -1);
    const head = cycle.slice(0, i).map(([lon, lat]) => [lon + winding, lat] as [number, number]);
    const cutStart: [number, number] = [meridian, cutLat];
    const cutEnd: [number, number] = [meridian + winding, cutLat];
    // Bring the ring into [-180, 180].
    const offset = -360 * Math.floor((Math.min(cutStart[0], cutEnd[0]) + 180) / 360);
    const pole = g.latitude >= 0 ? 90 : -90;
    ring = [cutStart, ...tail, ...head, cutEnd, [cutEnd[0], pole], [cutStart[0], pole], cutStart].map(
      ([lon, lat]) => [lon + offset, lat] as [number, number],
    );
  }
  let out: [number, number][] = [];
  for (const [lon, lat] of ring) {
    const p: [number, number] = [round4(lon), round4(lat)];
    const q = out.at(-1);
    if (!q || q[0] !== p[0] || q[1] !== p[1]) out.push(p);
  }
  if (signedArea2(out) < 0) out = out.reverse();
  return out;
}

/** GeoJSON Polygon text of the field of view. */
export function fieldOfView(g: FovGeometry): string {
  return JSON.stringify({ type: 'Polygon', coordinates: [fieldOfViewRing(g)] });
}
