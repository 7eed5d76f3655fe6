/**
 * The station geometry parameters (DECISIONS.md), one zod schema each, read from the URL-decoded text:
 * - `crs`: see crs.ts; default CRS84 (lon/lat).
 * - `bbox={"ll": Point, "ur": Point}` (GeoJSON Points, coordinates in the CRS's axis order). In a geographic
 *   CRS, ll's longitude east of ur's means a box across the antimeridian; ll north of ur is refused. In a
 *   projected CRS the box is a rectangle in that CRS: ll must be left of and below ur, and a station is
 *   inside when its projected position is (the WGS84 envelope only narrows the candidates).
 * - `near={"center": Point, "radius": km}`: great-circle distance on the 6371 km sphere, radius ≥ 0.
 * JSON object keys in single quotes, as the 52°North documentation's own example writes them, are read too.
 * Anything else is 400 naming the parameter, with a valid example in the requested CRS.
 */
import { z } from 'zod';
import { badParameter } from '../../http/errors.ts';
import { CRS84, SUPPORTED_CRS, eastNorthToLonLat, fromLonLat, lookupCrs, toEastNorth, toLonLat, type Crs } from './crs.ts';
import type { LonLatBox } from './station-index.ts';

export interface BboxFilter {
  crs: Crs;
  /** A WGS84 box holding the whole requested box (exactly it, for a geographic CRS). */
  envelope: LonLatBox;
  /** The exact test for a projected CRS; undefined when the envelope is exact. */
  contains: ((lon: number, lat: number) => boolean) | undefined;
}

export interface NearFilter {
  lon: number;
  lat: number;
  radiusKm: number;
}

export interface GeoQuery {
  crs: Crs;
  bbox: BboxFilter | undefined;
  near: NearFilter | undefined;
}

type Name = 'crs' | 'bbox' | 'near';

const coordinate = z.number({ error: 'must be a finite number' });
const point = z.object(
  { type: z.literal('Point', { error: 'must be "Point"' }), coordinates: z.tuple([coordinate, coordinate], { error: 'must be [x, y], two numbers' }) },
  { error: 'must be a GeoJSON Point {"type": "Point", "coordinates": [x, y]}' },
);
export const bboxShape = z.object({ ll: point, ur: point }, { error: 'must be a JSON object {"ll": Point, "ur": Point}' });
export const nearShape = z.object(
  { center: point, radius: z.number({ error: 'must be a number of kilometres' }).min(0, { error: 'must not be negative' }) },
  { error: 'must be a JSON object {"center": Point, "radius": km}' },
);

const NOT_JSON = Symbol('not JSON');
function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (!text.includes("'")) return NOT_JSON;
    try {
      return JSON.parse(text.replace(/'([^'"\\]*)'/g, '"$1"'));
    } catch {
      return NOT_JSON;
    }
  }
}

const json = z.string().transform((text, ctx) => {
  const v = readJson(text);
  if (v !== NOT_JSON) return v;
  ctx.addIssue({ code: 'custom', message: `is not JSON: '${text.length > 80 ? `${text.slice(0, 80)}…` : text}'` });
  return z.NEVER;
});

function pos(crs: Crs, name: string, c: [number, number]): [number, number] | string {
  return toLonLat(crs, c[0], c[1]) ?? `has ${name} [${c.join(', ')}], which lies outside what ${crs.code} covers${crs.northFirst ? ` (${crs.code} takes ${crs.kind === 'geographic' ? '[latitude, longitude]' : '[northing, easting]'})` : ''}`;
}

/** Samples per box edge for the envelope of a projected box, and the envelope's margin in degrees. */
const EDGE_SAMPLES = 64;
const MARGIN_DEG = 0.01;

function projectedBox(crs: Crs, ll: [number, number], ur: [number, number]): BboxFilter | string {
  const [x1, y1] = crs.northFirst ? [ll[1], ll[0]] : ll;
  const [x2, y2] = crs.northFirst ? [ur[1], ur[0]] : ur;
  if (x1 > x2 || y1 > y2) return `has ll [${ll.join(', ')}] not left of and below ur [${ur.join(', ')}]`;
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i <= EDGE_SAMPLES; i++) {
    const f = i / EDGE_SAMPLES;
    for (const [x, y] of [[x1 + f * (x2 - x1), y1], [x1 + f * (x2 - x1), y2], [x1, y1 + f * (y2 - y1)], [x2, y1 + f * (y2 - y1)]] as const) {
      const p = eastNorthToLonLat(crs, x, y);
      if (!p) return `reaches [${crs.northFirst ? `${y}, ${x}` : `${x}, ${y}`}], which lies outside what ${crs.code} covers`;
      [west, south, east, north] = [Math.min(west, p[0]), Math.min(south, p[1]), Math.max(east, p[0]), Math.max(north, p[1])];
    }
  }
  const inside = (lon: number, lat: number) => {
    const [x, y] = toEastNorth(crs, lon, lat);
    return x >= x1 && x <= x2 && y >= y1 && y <= y2;
  };
  if (inside(0, 90)) [north, west, east] = [90, -180, 180];
  if (inside(0, -90)) [south, west, east] = [-90, -180, 180];
  if (east - west > 180) [west, east] = [-180, 180];
  const envelope = {
    west: Math.max(-180, west - MARGIN_DEG),
    south: Math.max(-90, south - MARGIN_DEG),
    east: Math.min(180, east + MARGIN_DEG),
    north: Math.min(90, north + MARGIN_DEG),
  };
  return { crs, envelope, contains: inside };
}

/** `crs`: a supported code (crs.ts), case-insensitive, also as an OGC URN or URL. */
export const crsSchema = z.string().transform((v, ctx) => {
  const crs = lookupCrs(v);
  if (crs) return crs;
  ctx.addIssue({ code: 'custom', message: `names no supported reference system: '${v}'` });
  return z.NEVER;
});

/** `bbox` in the given CRS. */
export function bboxSchema(crs: Crs) {
  return json.pipe(bboxShape).transform((b, ctx): BboxFilter => {
    const ll = pos(crs, 'll', b.ll.coordinates);
    const ur = pos(crs, 'ur', b.ur.coordinates);
    let r: BboxFilter | string;
    if (typeof ll === 'string' || typeof ur === 'string') r = typeof ll === 'string' ? ll : (ur as string);
    else if (crs.kind === 'projected') r = projectedBox(crs, b.ll.coordinates, b.ur.coordinates);
    else if (ll[1] > ur[1]) r = `has ll (latitude ${ll[1]}) north of ur (latitude ${ur[1]}); give the lower-left corner as ll`;
    else r = { crs, envelope: { west: ll[0], south: ll[1], east: ur[0], north: ur[1] }, contains: undefined };
    if (typeof r !== 'string') return r;
    ctx.addIssue({ code: 'custom', message: r });
    return z.NEVER;
  });
}

/** `near` in the given CRS. */
export function nearSchema(crs: Crs) {
  return json.pipe(nearShape).transform((n, ctx): NearFilter => {
    const c = pos(crs, 'center', n.center.coordinates);
    if (typeof c !== 'string') return { lon: c[0], lat: c[1], radiusKm: n.radius };
    ctx.addIssue({ code: 'custom', message: c });
    return z.NEVER;
  });
}

function round(crs: Crs, p: [number, number]): string {
  return p.map((x) => (crs.kind === 'geographic' ? Number(x.toFixed(4)) : Math.round(x))).join(',');
}

/** A valid example of the parameter in `crs`: a box around Bonn, a 50 km circle around it. */
export function geoExample(name: Name, crs: Crs = CRS84): string {
  const p = (lon: number, lat: number) => `{"type":"Point","coordinates":[${round(crs, fromLonLat(crs, lon, lat))}]}`;
  const suffix = crs === CRS84 ? '' : ` (with crs=${crs.code})`;
  if (name === 'crs') return 'crs=EPSG:25832';
  if (name === 'bbox') return `bbox={"ll":${p(6.8, 50.6)},"ur":${p(7.3, 50.9)}}${suffix}`;
  return `near={"center":${p(7.1, 50.7)},"radius":50}${suffix}`;
}

function failure(name: Name, error: z.ZodError, crs: Crs) {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${String(k)}`)).join('');
  const problem = issue === undefined ? 'cannot be read' : path === '' ? issue.message : `cannot be read: ${path} ${issue.message}`;
  const more = name === 'crs' ? [`Supported: ${SUPPORTED_CRS.map((c) => c.code).join(', ')} (default CRS84, lon/lat)`] : crs.northFirst ? [`${crs.code} gives coordinates ${crs.kind === 'geographic' ? 'latitude' : 'northing'} first`] : [];
  return badParameter(name, problem, geoExample(name, crs), more);
}

/** Reads `crs`; absent means CRS84. Throws HttpError 400 naming `crs`, with the supported codes. */
export function parseCrs(text: string | null | undefined): Crs {
  if (text === null || text === undefined) return CRS84;
  const r = crsSchema.safeParse(text);
  if (r.success) return r.data;
  throw failure('crs', r.error, CRS84);
}

export function parseBbox(text: string, crs: Crs = CRS84): BboxFilter {
  const r = bboxSchema(crs).safeParse(text);
  if (r.success) return r.data;
  throw failure('bbox', r.error, crs);
}

export function parseNear(text: string, crs: Crs = CRS84): NearFilter {
  const r = nearSchema(crs).safeParse(text);
  if (r.success) return r.data;
  throw failure('near', r.error, crs);
}

/** `crs`, `bbox` and `near` from a query (first value of each; unknown parameters are ignored). */
export function parseGeoQuery(query: URLSearchParams): GeoQuery {
  const crs = parseCrs(query.get('crs'));
  const bbox = query.get('bbox');
  const near = query.get('near');
  return { crs, bbox: bbox === null ? undefined : parseBbox(bbox, crs), near: near === null ? undefined : parseNear(near, crs) };
}
