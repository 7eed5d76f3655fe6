/**
 * The `crs` parameter: which reference system input (and output) geometries use. Default CRS84: WGS84
 * longitude/latitude. EPSG codes follow the EPSG registry's axis order, as 52°North's "some CRS switch
 * coordinate axes" warns: EPSG:4326 and EPSG:4258 are latitude first, the Gauss-Krüger zones (EPSG:31466-8)
 * and LAEA Europe (EPSG:3035) northing first; the others easting first. Transformations to WGS84 are
 * proj4's (datum shifts as given in the EPSG registry's proj4 strings), never hand-written.
 */
import proj4 from 'proj4';

export interface Crs {
  /** Canonical code: `CRS84` or `EPSG:<n>`. */
  code: string;
  label: string;
  kind: 'geographic' | 'projected';
  /** Coordinates are given [northing or latitude, easting or longitude]. */
  northFirst: boolean;
  /** proj4 definition; undefined for WGS84 itself. */
  proj4: string | undefined;
}

const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';
const GK = (zone: number) =>
  `+proj=tmerc +lat_0=0 +lon_0=${zone * 3} +k=1 +x_0=${zone}500000 +y_0=0 +ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m +no_defs`;
const UTM_ETRS89 = (zone: number) => `+proj=utm +zone=${zone} +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs`;
const UTM_WGS84 = (zone: number) => `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`;

export const CRS84: Crs = { code: 'CRS84', label: 'WGS 84 longitude/latitude (default)', kind: 'geographic', northFirst: false, proj4: undefined };

export const SUPPORTED_CRS: readonly Crs[] = [
  CRS84,
  { code: 'EPSG:4326', label: 'WGS 84, latitude/longitude', kind: 'geographic', northFirst: true, proj4: undefined },
  { code: 'EPSG:4258', label: 'ETRS89, latitude/longitude', kind: 'geographic', northFirst: true, proj4: '+proj=longlat +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +no_defs' },
  {
    code: 'EPSG:3857',
    label: 'WGS 84 / Pseudo-Mercator',
    kind: 'projected',
    northFirst: false,
    proj4: '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs',
  },
  { code: 'EPSG:3035', label: 'ETRS89-extended / LAEA Europe', kind: 'projected', northFirst: false, proj4: '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs' },
  { code: 'EPSG:25832', label: 'ETRS89 / UTM zone 32N', kind: 'projected', northFirst: false, proj4: UTM_ETRS89(32) },
  { code: 'EPSG:25833', label: 'ETRS89 / UTM zone 33N', kind: 'projected', northFirst: false, proj4: UTM_ETRS89(33) },
  { code: 'EPSG:32632', label: 'WGS 84 / UTM zone 32N', kind: 'projected', northFirst: false, proj4: UTM_WGS84(32) },
  { code: 'EPSG:32633', label: 'WGS 84 / UTM zone 33N', kind: 'projected', northFirst: false, proj4: UTM_WGS84(33) },
  { code: 'EPSG:31466', label: 'DHDN / 3-degree Gauss-Kruger zone 2', kind: 'projected', northFirst: false, proj4: GK(2) },
  { code: 'EPSG:31467', label: 'DHDN / 3-degree Gauss-Kruger zone 3', kind: 'projected', northFirst: false, proj4: GK(3) },
  { code: 'EPSG:31468', label: 'DHDN / 3-degree Gauss-Kruger zone 4', kind: 'projected', northFirst: false, proj4: GK(4) },
  {
    code: 'EPSG:28992',
    label: 'Amersfoort / RD New',
    kind: 'projected',
    northFirst: false,
    proj4:
      '+proj=sterea +lat_0=52.1561605555556 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs',
  },
];

const BY_CODE = new Map(SUPPORTED_CRS.map((c) => [c.code, c]));
const ALIASES: Record<string, string> = { 'CRS:84': 'CRS84', 'OGC:CRS84': 'CRS84', 'EPSG:900913': 'EPSG:3857', 'EPSG:3785': 'EPSG:3857' };

/** `EPSG:25832`, `epsg:25832`, `urn:ogc:def:crs:EPSG::25832`, `http://www.opengis.net/def/crs/EPSG/0/25832`, `CRS84`, … */
export function lookupCrs(text: string): Crs | undefined {
  const s = text.trim().toUpperCase();
  let m: RegExpExecArray | null;
  let code = s;
  if ((m = /^URN:OGC:DEF:CRS:EPSG:[\d.]*:(\d+)$/.exec(s)) || (m = /^HTTPS?:\/\/WWW\.OPENGIS\.NET\/DEF\/CRS\/EPSG\/[\d.]+\/(\d+)$/.exec(s))) code = `EPSG:${m[1]}`;
  else if (/^(URN:OGC:DEF:CRS:OGC:1\.3:CRS84|HTTPS?:\/\/WWW\.OPENGIS\.NET\/DEF\/CRS\/OGC\/1\.3\/CRS84)$/.test(s)) code = 'CRS84';
  else if ((m = /^EPSG:(\d+)$/.exec(s))) code = `EPSG:${Number(m[1])}`;
  return BY_CODE.get(ALIASES[code] ?? code);
}

const converters = new Map<string, proj4.Converter>();

function converter(crs: Crs): proj4.Converter | undefined {
  if (crs.proj4 === undefined) return undefined;
  let c = converters.get(crs.code);
  if (!c) {
    c = proj4(crs.proj4, WGS84);
    converters.set(crs.code, c);
  }
  return c;
}

/** Relative tolerance of the round trip that tells a transformable point from one outside the CRS. */
const ROUND_TRIP = 1e-6;

/**
 * Coordinates as given in `crs` (its axis order) to WGS84 [lon, lat]; undefined when the point lies outside
 * what the CRS can express: a non-finite or out-of-range result, or one that does not transform back
 * (proj4 silently wraps a Mercator easting beyond ±180°, for example).
 */
export function toLonLat(crs: Crs, a: number, b: number): [number, number] | undefined {
  return crs.northFirst ? eastNorthToLonLat(crs, b, a) : eastNorthToLonLat(crs, a, b);
}

/** As toLonLat, from [easting, northing] (or [lon, lat]) whatever the CRS's axis order. */
export function eastNorthToLonLat(crs: Crs, x: number, y: number): [number, number] | undefined {
  const conv = converter(crs);
  let lon = x;
  let lat = y;
  if (conv) {
    const p = conv.forward([x, y]);
    [lon, lat] = [p[0]!, p[1]!];
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return undefined;
    const back = conv.inverse([lon, lat]);
    const scale = Math.max(1, Math.abs(x), Math.abs(y));
    if (!(Math.abs(back[0]! - x) <= ROUND_TRIP * scale && Math.abs(back[1]! - y) <= ROUND_TRIP * scale)) return undefined;
  }
  if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return undefined;
  return [lon, lat];
}

/** WGS84 (lon, lat) to `crs` coordinates in its axis order (for output geometries). */
export function fromLonLat(crs: Crs, lon: number, lat: number): [number, number] {
  const conv = converter(crs);
  const [x, y] = conv ? (conv.inverse([lon, lat]) as [number, number]) : [lon, lat];
  return crs.northFirst ? [y, x] : [x, y];
}

/** WGS84 (lon, lat) to `crs` as [easting, northing] (or [lon, lat]), whatever the axis order: for box tests. */
export function toEastNorth(crs: Crs, lon: number, lat: number): [number, number] {
  const conv = converter(crs);
  return conv ? (conv.inverse([lon, lat]) as [number, number]) : [lon, lat];
}
