/**
 * Distances on a sphere of radius 6371 km (DECISIONS.md). `haversineKm` gives the great-circle distance.
 * "Within r km" is decided on unit vectors: the chord between two points is 2·sin(θ/2) for a central angle
 * θ, so |p - c|² ≤ 4·sin²(r / 2R) is exactly the haversine test hav(θ) ≤ hav(r/R), written without trigonometry
 * per point, and the vector difference stays accurate for small distances. The index and the brute-force
 * scan use the same vectors and the same test, so they agree to the bit.
 */

export const EARTH_RADIUS_KM = 6371;
export const DEG = Math.PI / 180;

/** Great-circle distance in km between (lon1, lat1) and (lon2, lat2), degrees, by the haversine formula. */
export function haversineKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const sdLat = Math.sin(((lat2 - lat1) * DEG) / 2);
  const sdLon = Math.sin(((lon2 - lon1) * DEG) / 2);
  const h = sdLat * sdLat + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * sdLon * sdLon;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Writes the unit vector of (lon, lat) at out[3k .. 3k+2]. */
export function writeUnit(lon: number, lat: number, out: Float64Array, k: number): void {
  const c = Math.cos(lat * DEG);
  out[3 * k] = c * Math.cos(lon * DEG);
  out[3 * k + 1] = c * Math.sin(lon * DEG);
  out[3 * k + 2] = Math.sin(lat * DEG);
}

export function unitVectors(lons: ArrayLike<number>, lats: ArrayLike<number>): Float64Array {
  const out = new Float64Array(3 * lons.length);
  for (let i = 0; i < lons.length; i++) writeUnit(lons[i]!, lats[i]!, out, i);
  return out;
}

/** The squared chord of a circle of `radiusKm`: Infinity once the circle covers the sphere. */
export function chordLimit(radiusKm: number): number {
  const half = radiusKm / (2 * EARTH_RADIUS_KM);
  if (half >= Math.PI / 2) return Infinity;
  const s = Math.sin(half);
  return 4 * s * s;
}

/** Scan over precomputed unit vectors: indices of the points within `radiusKm` of (lon, lat). */
export function scanNear(xyz: Float64Array, lon: number, lat: number, radiusKm: number): number[] {
  const limit = chordLimit(radiusKm);
  const c = new Float64Array(3);
  writeUnit(lon, lat, c, 0);
  const [cx, cy, cz] = [c[0]!, c[1]!, c[2]!];
  const out: number[] = [];
  for (let i = 0, k = 0; k < xyz.length; i++, k += 3) {
    const dx = xyz[k]! - cx;
    const dy = xyz[k + 1]! - cy;
    const dz = xyz[k + 2]! - cz;
    if (dx * dx + dy * dy + dz * dz <= limit) out.push(i);
  }
  return out;
}

/** Brute force: the reference for StationIndex.near (non-finite coordinates never match). */
export function bruteForceNear(lons: ArrayLike<number>, lats: ArrayLike<number>, lon: number, lat: number, radiusKm: number): number[] {
  return scanNear(unitVectors(lons, lats), lon, lat, radiusKm);
}
