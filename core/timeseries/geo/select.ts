/**
 * Applies parsed `bbox` and `near` filters (params.ts) to a StationIndex: both given means both must hold
 * (parameters combine with AND). Returns station indices, ascending, or undefined when neither is given.
 */
import type { BboxFilter, NearFilter } from './params.ts';
import type { StationIndex } from './station-index.ts';

export function selectStations(index: StationIndex, filters: { bbox?: BboxFilter | undefined; near?: NearFilter | undefined }): Int32Array | undefined {
  const { bbox, near } = filters;
  let inBox: Int32Array | undefined;
  if (bbox) {
    inBox = index.inBboxIndices(bbox.envelope);
    const exact = bbox.contains;
    if (exact) inBox = inBox.filter((i) => exact(index.lons[i]!, index.lats[i]!));
  }
  const around = near ? index.nearIndices(near.lon, near.lat, near.radiusKm) : undefined;
  if (!inBox || !around) return inBox ?? around;
  return intersectSorted(inBox, around);
}

function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.slice(0, n);
}
