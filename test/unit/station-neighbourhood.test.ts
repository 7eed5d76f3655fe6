/**
 * A station page's map at national scale (issue 23): the station's neighbourhood, not the network. Over the
 * 10^9 snapshot's network (the demo ×10: 1,030 stations, build-scripts/demo/timeseries/network.ts), every
 * station's window holds its nearest stations, only the stations inside it are drawn, and the map stays small;
 * the station is in the middle, larger and labelled (the page's markup is checked in test/integration/site.test.ts).
 * Pure but for reading Natural Earth's outlines from the world-atlas package (as the site build does).
 */
import { describe, expect, test } from 'vitest';
import { buildNetwork } from '../../build-scripts/demo/timeseries/network.ts';
import { MIN_HALF_HEIGHT, NEAREST, neighbourhood, neighbourhoodMap, stationMap, type Station } from '../../site/lib/stations.ts';

function network(factor: number): Station[] {
  const n = buildNetwork(factor);
  const services = new Map(n.services.map((s) => [s.id, s.labels.en]));
  return n.stations.map((s) => ({ id: s.id, label: s.labels.en, lon: s.lon, lat: s.lat, href: `/api/v1/stations/${s.id}.json`, service: { id: s.serviceId, label: services.get(s.serviceId)! }, series: [] }));
}

/** The bytes a map's SVG carries beside its markers, and a marker's (its link, label, title and path: about 300). */
const svgBytes = (m: ReturnType<typeof stationMap>) => m.land.length + m.borders.length + m.markers.length * 330;

describe('the neighbourhood map of a station page', () => {
  const x10 = network(10);
  const whole = stationMap(x10);

  test('at the ×10 network, each page carries its neighbourhood only: bounded markers and bytes, each marker inside the window', () => {
    expect(x10.length).toBe(1030);
    let most = 0;
    let largest = 0;
    for (const s of x10) {
      const win = neighbourhood(x10, s)!;
      const map = neighbourhoodMap(x10, s);
      expect(map.markers.map((m) => m.station.id)).toEqual(win.inside.map((p) => p.id));
      // the station itself, and at least its NEAREST nearest
      expect(map.markers.some((m) => m.station === s), s.id).toBe(true);
      expect(map.markers.length, s.id).toBeGreaterThanOrEqual(NEAREST + 1);
      for (const m of map.markers) {
        expect(m.x, `${s.id}: ${m.station.id}`).toBeGreaterThanOrEqual(0);
        expect(m.x).toBeLessThanOrEqual(map.width);
        expect(m.y).toBeGreaterThanOrEqual(0);
        expect(m.y).toBeLessThanOrEqual(map.height);
        expect(m.station.lon!).toBeGreaterThanOrEqual(win.w);
        expect(m.station.lon!).toBeLessThanOrEqual(win.e);
        expect(m.station.lat!).toBeGreaterThanOrEqual(win.s);
        expect(m.station.lat!).toBeLessThanOrEqual(win.n);
      }
      // and no station inside the window is missing
      const shown = new Set(map.markers.map((m) => m.station.id));
      for (const p of x10) if (p.lon! >= win.w && p.lon! <= win.e && p.lat! >= win.s && p.lat! <= win.n) expect(shown.has(p.id), p.id).toBe(true);
      // centred, 4:3, never smaller than the minimum span
      const here = map.markers.find((m) => m.station === s)!;
      expect(Math.abs(here.x - map.width / 2)).toBeLessThan(1);
      expect(Math.abs(here.y - map.height / 2)).toBeLessThan(1);
      expect(map.height).toBeCloseTo((map.width * 3) / 4, 0);
      expect(win.n - win.s).toBeGreaterThanOrEqual(2 * MIN_HALF_HEIGHT - 1e-9);
      // a grid line or two a way, their labels clear of the edges and of each other
      expect(map.meridians.length + map.parallels.length, s.id).toBeGreaterThanOrEqual(2);
      for (const m of map.meridians) expect(m.x >= 60 && m.x <= map.width - 56, `${s.id}: ${m.label}`).toBe(true);
      for (const p of map.parallels) expect(p.y + 4 >= 22 && p.y + 4 <= map.height - 28, `${s.id}: ${p.label}`).toBe(true);
      most = Math.max(most, map.markers.length);
      largest = Math.max(largest, svgBytes(map));
    }
    // the whole network's map: 1,030 markers; a page's neighbourhood at most 150 of them, and an eighth of the bytes
    expect(whole.markers.length).toBe(1030);
    expect(most).toBeLessThanOrEqual(150);
    expect(largest).toBeLessThan(svgBytes(whole) / 8);
    console.log(`×10 network: at most ${most} markers and ${Math.round(largest / 1024)} KB of map a page; the whole network ${whole.markers.length} and ${Math.round(svgBytes(whole) / 1024)} KB`);
  });

  test('the land is clipped to the window: a station by the sea shows sea, one inland none', () => {
    const x1 = network(1);
    // every outline point of a window map lies within 2 px (and rounding) of the view
    for (const s of x1) {
      const map = neighbourhoodMap(x1, s);
      for (const d of [map.land, map.borders]) {
        for (const [, xs, ys] of d.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)) {
          expect(Number(xs)).toBeGreaterThanOrEqual(-2.1);
          expect(Number(xs)).toBeLessThanOrEqual(map.width + 2.1);
          expect(Number(ys)).toBeGreaterThanOrEqual(-2.1);
          expect(Number(ys)).toBeLessThanOrEqual(map.height + 2.1);
        }
      }
    }
    const coast = x1.find((s) => s.lat! > 53.5)!;
    const inland = x1.reduce((a, b) => (Math.abs(b.lat! - 50.5) + Math.abs(b.lon! - 9.5) < Math.abs(a.lat! - 50.5) + Math.abs(a.lon! - 9.5) ? b : a));
    // inland the window is all land: the land is the window's rectangle (5 points), the coast's is a coastline
    expect(neighbourhoodMap(x1, inland).land.match(/L/g)?.length ?? 0).toBeLessThanOrEqual(4);
    expect(neighbourhoodMap(x1, coast).land.match(/L/g)?.length ?? 0).toBeGreaterThan(20);
  });

  test('a network of a few stations is shown whole on each page', () => {
    const few = network(1).slice(0, NEAREST + 1);
    for (const s of few) expect(neighbourhoodMap(few, s).markers.length, s.id).toBe(few.length);
  });

  test('a station without a position has no map; the kinds keep the whole list’s order', () => {
    const x1 = network(1);
    const lost = { ...x1[0]!, lon: undefined, lat: undefined };
    expect(neighbourhoodMap([lost, ...x1.slice(1)], lost).markers).toEqual([]);
    const map = neighbourhoodMap(x1, x1[0]!);
    expect(map.kinds.map((k) => k.id)).toEqual(stationMap(x1).kinds.map((k) => k.id));
    expect(map.kinds.reduce((n, k) => n + k.count, 0)).toBe(map.markers.length);
  });
});
