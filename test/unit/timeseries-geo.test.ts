import { mulberry32 } from '../../build-scripts/demo/hash.ts';
import { httpErrorOf } from '../helpers/errors.ts';
import { describe, expect, test } from 'vitest';
import { CRS84, SUPPORTED_CRS, fromLonLat, lookupCrs, toEastNorth, toLonLat } from '../../core/timeseries/geo/crs.ts';
import { parseBbox, parseCrs, parseGeoQuery, parseNear } from '../../core/timeseries/geo/params.ts';
import { selectStations } from '../../core/timeseries/geo/select.ts';
import { bruteForceNear, chordLimit, haversineKm, scanNear, unitVectors } from '../../core/timeseries/geo/sphere.ts';
import { StationIndex, bruteForceInBox, type LonLatBox } from '../../core/timeseries/geo/station-index.ts';

const rng = mulberry32;

/** Stations spread over the sphere (uniform by area), a dense cluster over Germany, and edge cases. */
function stations(n: number, seed: number) {
  const r = rng(seed);
  const lon: number[] = [];
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) {
      lon.push(6 + r() * 9);
      lat.push(47 + r() * 8);
    } else {
      lon.push(-180 + 360 * r());
      lat.push((Math.asin(2 * r() - 1) * 180) / Math.PI);
    }
  }
  lon.push(180, -180, 0, 0, 179.9999, -179.9999, NaN, 200);
  lat.push(0, 0, 90, -90, 89.9, -89.9, 10, 10);
  return { ids: lon.map((_, i) => `sta_${i}`), lon, lat };
}

const S = stations(20_000, 1);
const INDEX = new StationIndex(S.ids, S.lon, S.lat);

const BONN = { lon: 7.0982, lat: 50.7374 };
const BERLIN = { lon: 13.405, lat: 52.52 };
const COLOGNE = { lon: 6.9583, lat: 50.9413 };


const point = (c: number[]) => ({ type: 'Point', coordinates: c });
const bbox = (ll: number[], ur: number[]) => JSON.stringify({ ll: point(ll), ur: point(ur) });
const near = (c: number[], radius: number) => JSON.stringify({ center: point(c), radius });

/** The scan over the stations the index holds (it leaves out the one at longitude 200). */
const XYZ = unitVectors(S.lon, S.lat);
const bruteNear = (lon: number, lat: number, radius: number) => scanNear(XYZ, lon, lat, radius).filter((i) => Math.abs(S.lon[i]!) <= 180);

describe('StationIndex agrees with the brute-force scan', () => {
  test('indexes the valid stations only', () => {
    expect(INDEX.size).toBe(S.ids.length - 2);
    expect(INDEX.inBbox({ west: -180, south: -90, east: 180, north: 90 }).length).toBe(S.ids.length - 2);
  });

  test('random boxes, some across the antimeridian', () => {
    const r = rng(2);
    for (let q = 0; q < 300; q++) {
      const south = -90 + 180 * r() * r();
      const north = Math.min(90, south + 180 * r() * r());
      const west = -180 + 360 * r();
      const east = q % 3 === 0 ? -180 + 360 * r() : Math.min(180, west + 60 * r()); // a third may wrap
      const box: LonLatBox = { west, south, east, north };
      expect(Array.from(INDEX.inBboxIndices(box))).toEqual(bruteForceInBox(S.lon, S.lat, box));
    }
  });

  test.each<[string, LonLatBox]>([
    ['the whole world', { west: -180, south: -90, east: 180, north: 90 }],
    ['a box across the antimeridian', { west: 170, south: -20, east: -170, north: 20 }],
    ['the antimeridian line itself', { west: 180, south: -1, east: 180, north: 1 }],
    ['a polar cap', { west: -180, south: 80, east: 180, north: 90 }],
    ['a single point', { west: 0, south: 90, east: 0, north: 90 }],
    ['Germany', { west: 5.9, south: 47.3, east: 15.0, north: 55.1 }],
    ['south above north', { west: 0, south: 10, east: 10, north: 0 }],
  ])('%s', (_, box) => {
    expect(Array.from(INDEX.inBboxIndices(box))).toEqual(bruteForceInBox(S.lon, S.lat, box));
  });

  test('random circles, including ones across the antimeridian and around the poles', () => {
    const r = rng(3);
    for (let q = 0; q < 300; q++) {
      const kind = q % 4;
      const lon = kind === 1 ? (r() < 0.5 ? 180 - 4 * r() : -180 + 4 * r()) : -180 + 360 * r();
      const lat = kind === 2 ? (r() < 0.5 ? 1 : -1) * (80 + 10 * r()) : kind === 3 ? 47 + 8 * r() : (Math.asin(2 * r() - 1) * 180) / Math.PI;
      const radius = [1, 50, 500, 3000, 15000][q % 5]! * r();
      expect(Array.from(INDEX.nearIndices(lon, lat, radius))).toEqual(bruteNear(lon, lat, radius));
    }
  });

  test.each([
    ['centred on the antimeridian', 180, 0, 800],
    ['centred west of it', -179.5, 10, 300],
    ['on the north pole', 0, 90, 500],
    ['on the south pole', 123, -90, 2000],
    ['reaching over the pole', 45, 85, 1000],
    ['covering the sphere', 10, 10, 25_000],
    ['exactly half the sphere', 10, 10, Math.PI * 6371],
    ['radius zero on a station', 0, 90, 0],
  ])('a circle %s', (_, lon, lat, radius) => {
    const expected = bruteNear(lon, lat, radius);
    expect(Array.from(INDEX.nearIndices(lon, lat, radius))).toEqual(expected);
    if (radius === 0) expect(expected.length).toBeGreaterThan(0);
  });

  test('the chord test is the haversine distance test', () => {
    const r = rng(5);
    let disagreements = 0;
    for (let q = 0; q < 20_000; q++) {
      const [lon1, lat1, lon2, lat2] = [-180 + 360 * r(), -90 + 180 * r(), -180 + 360 * r(), -90 + 180 * r()];
      const radius = 20_000 * r() * r();
      const d = haversineKm(lon1, lat1, lon2, lat2);
      const inside = bruteForceNear([lon2], [lat2], lon1, lat1, radius).length === 1;
      if (inside !== d <= radius && Math.abs(d - radius) > 1e-6) disagreements++;
    }
    expect(disagreements).toBe(0);
    expect(chordLimit(Math.PI * 6371)).toBe(Infinity);
    expect(bruteForceNear([7.0982], [50.7374], 13.405, 52.52, 476)).toEqual([]);
    expect(bruteForceNear([7.0982], [50.7374], 13.405, 52.52, 479)).toEqual([0]);
  });

  test('haversine on the 6371 km sphere', () => {
    expect(haversineKm(0, 0, 180, 0)).toBeCloseTo(Math.PI * 6371, 6);
    expect(haversineKm(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * 6371, 6);
    expect(haversineKm(179.5, 0, -179.5, 0)).toBeCloseTo((Math.PI / 180) * 6371, 6);
    expect(haversineKm(BONN.lon, BONN.lat, BERLIN.lon, BERLIN.lat)).toBeGreaterThan(475);
    expect(haversineKm(BONN.lon, BONN.lat, BERLIN.lon, BERLIN.lat)).toBeLessThan(480);
  });
});

describe('crs: axis order and transformations', () => {
  test('CRS84 is lon/lat, EPSG:4326 and EPSG:4258 are lat/lon', () => {
    const a = parseBbox(bbox([6.8, 50.6], [7.3, 50.9]));
    const b = parseBbox(bbox([50.6, 6.8], [50.9, 7.3]), parseCrs('EPSG:4326'));
    const c = parseBbox(bbox([50.6, 6.8], [50.9, 7.3]), parseCrs('urn:ogc:def:crs:EPSG::4258'));
    expect(a.envelope).toEqual({ west: 6.8, south: 50.6, east: 7.3, north: 50.9 });
    expect(b.envelope).toEqual(a.envelope);
    expect(c.envelope.west).toBeCloseTo(6.8, 9);
    expect(c.envelope.north).toBeCloseTo(50.9, 9);
    expect(parseNear(near([50.7, 7.1], 5), parseCrs('epsg:4326'))).toEqual({ lon: 7.1, lat: 50.7, radiusKm: 5 });
    expect(parseNear(near([7.1, 50.7], 5))).toEqual({ lon: 7.1, lat: 50.7, radiusKm: 5 });
  });

  test('codes and aliases', () => {
    expect(parseCrs(undefined)).toBe(CRS84);
    for (const [text, code] of [
      ['CRS84', 'CRS84'],
      ['OGC:CRS84', 'CRS84'],
      ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 'CRS84'],
      ['urn:ogc:def:crs:EPSG::25832', 'EPSG:25832'],
      ['http://www.opengis.net/def/crs/EPSG/0/3857', 'EPSG:3857'],
      ['EPSG:900913', 'EPSG:3857'],
      [' epsg:28992 ', 'EPSG:28992'],
    ]) expect(lookupCrs(text!)?.code).toBe(code);
  });

  test('EPSG:3857 against the spherical Mercator formula', () => {
    const R = 6378137;
    const merc = (lon: number, lat: number) => [(R * lon * Math.PI) / 180, R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))];
    const crs = parseCrs('EPSG:3857');
    for (const p of [BONN, BERLIN]) {
      const [x, y] = merc(p.lon, p.lat) as [number, number];
      const [lon, lat] = toLonLat(crs, x, y)!;
      expect(lon).toBeCloseTo(p.lon, 9);
      expect(lat).toBeCloseTo(p.lat, 9);
    }
    // a box around Bonn in metres holds Bonn, not Cologne or Berlin
    const [bx, by] = merc(BONN.lon, BONN.lat) as [number, number];
    const box = parseBbox(bbox([bx - 5000, by - 5000], [bx + 5000, by + 5000]), crs);
    const idx = new StationIndex(['bonn', 'cologne', 'berlin'], [BONN.lon, COLOGNE.lon, BERLIN.lon], [BONN.lat, COLOGNE.lat, BERLIN.lat]);
    expect(idx.idsOf(selectStations(idx, { bbox: box })!)).toEqual(['bonn']);
  });

  test('UTM (EPSG:25832, EPSG:25833) against known coordinates', () => {
    const utm32 = parseCrs('EPSG:25832');
    // 50°N on zone 32's central meridian (9°E): easting 500000 m, northing k0·M(50°) = 5538630.70 m
    const [e, n] = fromLonLat(utm32, 9, 50);
    expect(e).toBeCloseTo(500000, 3);
    expect(n).toBeCloseTo(5538630.7, 1);
    // Bonn ≈ 32U 365800 5622350, Berlin ≈ 33U 391780 5820070 (published to about 100 m)
    const [be, bn] = fromLonLat(utm32, BONN.lon, BONN.lat);
    expect(Math.abs(be - 365800)).toBeLessThan(100);
    expect(Math.abs(bn - 5622350)).toBeLessThan(100);
    const [ge, gn] = fromLonLat(parseCrs('EPSG:25833'), BERLIN.lon, BERLIN.lat);
    expect(Math.abs(ge - 391780)).toBeLessThan(100);
    expect(Math.abs(gn - 5820070)).toBeLessThan(100);
    const idx = new StationIndex(['bonn', 'cologne', 'berlin'], [BONN.lon, COLOGNE.lon, BERLIN.lon], [BONN.lat, COLOGNE.lat, BERLIN.lat]);
    const q = parseGeoQuery(new URLSearchParams({ crs: 'EPSG:25832', bbox: bbox([360000, 5600000], [370000, 5630000]) }));
    expect(idx.idsOf(selectStations(idx, q)!)).toEqual(['bonn']);
    const q2 = parseGeoQuery(new URLSearchParams({ crs: 'EPSG:25833', near: near([391780, 5820070], 1) }));
    expect(idx.idsOf(selectStations(idx, q2)!)).toEqual(['berlin']);
  });

  test('RD New and Gauss-Krüger: known points, easting first (GeoJSON [x, y]) for EPSG:31467', () => {
    const [lon, lat] = toLonLat(parseCrs('EPSG:28992'), 155000, 463000)!; // Amersfoort, the origin
    expect(lon).toBeCloseTo(5.3872, 3);
    expect(lat).toBeCloseTo(52.1552, 3);
    const gk = parseCrs('EPSG:31467');
    const [r, h] = fromLonLat(gk, BONN.lon, BONN.lat);
    expect(r).toBeGreaterThan(3_000_000); // Rechtswert (easting) first, as GeoJSON [x, y]
    expect(r).toBeLessThan(4_000_000);
    expect(h).toBeGreaterThan(5_000_000);
    const back = parseNear(near([r, h], 1), gk);
    expect(back.lon).toBeCloseTo(BONN.lon, 7);
    expect(back.lat).toBeCloseTo(BONN.lat, 7);
  });

  test.each(SUPPORTED_CRS.map((c) => [c.code]))('%s round-trips a point in Europe', (code) => {
    const crs = parseCrs(code);
    const [a, b] = fromLonLat(crs, 8.5, 51.5);
    const [lon, lat] = toLonLat(crs, a, b)!;
    expect(lon).toBeCloseTo(8.5, 7);
    expect(lat).toBeCloseTo(51.5, 7);
  });

  test('a projected box is exact: stations in its WGS84 envelope but outside the rectangle are left out', () => {
    const crs = parseCrs('EPSG:25832');
    const filter = parseBbox(bbox([300000, 5500000], [700000, 5900000]), crs);
    const r = rng(4);
    const lon: number[] = [];
    const lat: number[] = [];
    const { west, south, east, north } = filter.envelope;
    for (let i = 0; i < 5000; i++) {
      lon.push(west - 0.5 + (east - west + 1) * r());
      lat.push(south - 0.5 + (north - south + 1) * r());
    }
    const idx = new StationIndex(lon.map((_, i) => String(i)), lon, lat);
    const expected = lon.flatMap((_, i) => {
      const [x, y] = toEastNorth(crs, lon[i]!, lat[i]!);
      return x >= 300000 && x <= 700000 && y >= 5500000 && y <= 5900000 ? [i] : [];
    });
    const got = Array.from(selectStations(idx, { bbox: filter })!);
    expect(got).toEqual(expected);
    expect(got.length).toBeLessThan(Array.from(idx.inBboxIndices(filter.envelope)).length); // the refinement mattered
  });

  test('bbox and near together: both must hold', () => {
    const q = parseGeoQuery(new URLSearchParams({ bbox: bbox([0, 40], [20, 60]), near: near([10, 50], 300) }));
    const got = Array.from(selectStations(INDEX, q)!);
    const box = new Set(bruteForceInBox(S.lon, S.lat, { west: 0, south: 40, east: 20, north: 60 }));
    expect(got).toEqual(bruteForceNear(S.lon, S.lat, 10, 50, 300).filter((i) => box.has(i)));
    expect(got.length).toBeGreaterThan(0);
    expect(selectStations(INDEX, {})).toBeUndefined();
  });
});

describe('bad geometry parameters: 400 naming the parameter, with a valid example', () => {
  const ok = bbox([6.8, 50.6], [7.3, 50.9]);
  test.each<[string, Record<string, string>]>([
    ['bbox', { bbox: 'not json' }],
    ['bbox', { bbox: '' }],
    ['bbox', { bbox: '1,2,3,4' }],
    ['bbox', { bbox: '[1,2,3,4]' }],
    ['bbox', { bbox: '{"ll":{"type":"Point","coordinates":[1,2]}}' }],
    ['bbox', { bbox: bbox([1], [2, 3]) }],
    ['bbox', { bbox: bbox([1, 2, 3], [2, 3]) }],
    ['bbox', { bbox: '{"ll":{"type":"Point","coordinates":[1,1e999]},"ur":{"type":"Point","coordinates":[2,3]}}' }],
    ['bbox', { bbox: '{"ll":{"type":"Point","coordinates":["1",2]},"ur":{"type":"Point","coordinates":[2,3]}}' }],
    ['bbox', { bbox: '{"ll":{"type":"LineString","coordinates":[1,2]},"ur":{"type":"Point","coordinates":[2,3]}}' }],
    ['bbox', { bbox: '{"ll":{"coordinates":[1,2]},"ur":{"type":"Point","coordinates":[2,3]}}' }],
    ['bbox', { bbox: bbox([6.8, 50.9], [7.3, 50.6]) }], // ll north of ur
    ['bbox', { bbox: bbox([-190, 50], [7, 51]) }],
    ['bbox', { bbox: bbox([7, 50], [8, 91]) }],
    ['bbox', { crs: 'EPSG:4326', bbox: bbox([50.6, 100], [50.9, 190]) }],
    ['bbox', { crs: 'EPSG:25832', bbox: bbox([370000, 5600000], [360000, 5630000]) }], // ll right of ur
    ['bbox', { crs: 'EPSG:3857', bbox: bbox([0, 0], [30000000, 10]) }], // beyond ±180°
    ['near', { near: 'not json' }],
    ['near', { near: near([7, 50], -1) }],
    ['near', { near: '{"center":{"type":"Point","coordinates":[7,50]},"radius":"5"}' }],
    ['near', { near: '{"center":{"type":"Point","coordinates":[7,50]}}' }],
    ['near', { near: '{"radius":5}' }],
    ['near', { near: near([7, 95], 5) }],
    ['near', { crs: 'EPSG:4326', near: near([7, 195], 5) }],
    ['near', { crs: 'EPSG:3857', near: near([30000000, 0], 5) }],
    ['near', { near: '{"center":{"type":"Point","coordinates":[7,50]},"radius":1e999}' }],
    ['crs', { crs: 'EPSG:9999', bbox: ok }],
    ['crs', { crs: '' }],
    ['crs', { crs: 'WGS84-ish' }],
  ])('%s: %j', (name, params) => {
    const e = httpErrorOf(() => parseGeoQuery(new URLSearchParams(params)));
    expect(e.status).toBe(400);
    expect(e.userMessage).toMatch(new RegExp(`^Parameter '${name}' `));
    expect(e.hints[0]).toMatch(new RegExp(`^A valid example: ${name}=`));
    if (name === 'crs') expect(e.hints.join(' ')).toContain('EPSG:25832');
  });

  test('the examples in the hints are valid in their CRS', () => {
    for (const crs of SUPPORTED_CRS) {
      for (const [name, text] of [
        ['bbox', bbox([1, 2], [0, 1])],
        ['near', near([1, 95], -1)],
      ] as const) {
        const e = httpErrorOf(() => parseGeoQuery(new URLSearchParams({ crs: crs.code, [name]: text })));
        const example = e.hints[0]!.replace(`A valid example: ${name}=`, '').replace(/ \(with crs=.*\)$/, '');
        expect(() => parseGeoQuery(new URLSearchParams({ crs: crs.code, [name]: example }))).not.toThrow();
      }
    }
  });

  test("single-quoted keys, as the 52°North documentation writes them", () => {
    const f = parseBbox("{'ll': {'type': 'Point', 'coordinates': [6.8, 50.6]}, 'ur': {'type': 'Point', 'coordinates': [7.3, 50.9]}}");
    expect(f.envelope).toEqual({ west: 6.8, south: 50.6, east: 7.3, north: 50.9 });
  });

  test('lon/lat sent with crs=EPSG:4326 is read as lat/lon: another place, not an error', () => {
    expect(parseGeoQuery(new URLSearchParams({ crs: 'EPSG:4326', bbox: ok })).bbox!.envelope).toEqual({ west: 50.6, south: 6.8, east: 50.9, north: 7.3 });
  });

  test('a box across the antimeridian in CRS84', () => {
    expect(parseBbox(bbox([170, -10], [-170, 10])).envelope).toEqual({ west: 170, south: -10, east: -170, north: 10 });
  });
});
