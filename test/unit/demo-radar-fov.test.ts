/** Fields of view of the radar demo: closed, counter-clockwise, simple rings in lon/lat. */
import { describe, expect, it } from 'vitest';
import { destination, fieldOfView, fieldOfViewRing, signedArea2 } from '../../build-scripts/demo/radar/field-of-view.ts';
import { readReferenceData } from '../../build-scripts/demo/radar/radars.ts';

type P = [number, number];

function crosses(a: P, b: P, c: P, d: P): boolean {
  const o = (p: P, q: P, r: P): number => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return o(a, b, c) * o(a, b, d) < 0 && o(c, d, a) * o(c, d, b) < 0;
}

function selfIntersections(ring: P[]): number {
  let n = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    for (let j = i + 2; j + 1 < ring.length; j++) {
      if (i === 0 && j + 1 === ring.length - 1) continue;
      if (crosses(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) n++;
    }
  }
  return n;
}

describe('radar demo field of view', () => {
  const radars = readReferenceData().radars;

  it('computes great-circle destinations', () => {
    const [lon, lat] = destination(0, 0, 90, 6371 * (Math.PI / 2));
    expect(lon).toBeCloseTo(90, 6);
    expect(lat).toBeCloseTo(0, 6);
    const [, north] = destination(52, -106, 0, 111.195);
    expect(north).toBeCloseTo(53, 3);
  });

  for (const r of radars) {
    it(`${r.code}: a closed, counter-clockwise, simple ring with 4-decimal coordinates`, () => {
      const ring = fieldOfViewRing(r.hdw);
      expect(ring.length).toBeGreaterThan(10);
      expect(ring.at(-1)).toEqual(ring[0]);
      expect(signedArea2(ring)).toBeGreaterThan(0);
      expect(selfIntersections(ring)).toBe(0);
      for (const [lon, lat] of ring) {
        expect(Math.abs(lat)).toBeLessThanOrEqual(90);
        expect(Math.round(lon * 1e4) / 1e4).toBe(lon);
        expect(Math.round(lat * 1e4) / 1e4).toBe(lat);
      }
      // The site lies just outside the fan (the first range gate is 180 km away).
      const lons = ring.map((p) => p[0]);
      expect(Math.min(...lons)).toBeGreaterThanOrEqual(-360);
      expect(Math.max(...lons)).toBeLessThanOrEqual(360);
    });
  }

  it('closes fans that contain a pole along the pole, from -180 to 180', () => {
    const hal = radars.find((r) => r.code === 'hal')!; // Halley, 75.5°S: 3555 km reach the pole
    const ring = fieldOfViewRing(hal.hdw);
    expect(ring.some(([, lat]) => lat === -90)).toBe(true);
    expect(Math.min(...ring.map((p) => p[0]))).toBe(-180);
    expect(Math.max(...ring.map((p) => p[0]))).toBe(180);
    const kod = radars.find((r) => r.code === 'kod')!;
    expect(fieldOfViewRing(kod.hdw).some(([, lat]) => Math.abs(lat) === 90)).toBe(false);
  });

  it('keeps longitudes continuous across the antimeridian', () => {
    const adw = radars.find((r) => r.code === 'adw')!; // Adak West looks across the date line
    const ring = fieldOfViewRing(adw.hdw);
    for (let i = 1; i < ring.length; i++) expect(Math.abs(ring[i]![0] - ring[i - 1]![0])).toBeLessThan(180);
    expect(Math.min(...ring.map((p) => p[0]))).toBeLessThan(-180);
    expect(JSON.parse(fieldOfView(adw.hdw))).toEqual({ type: 'Polygon', coordinates: [ring] });
  });
});
