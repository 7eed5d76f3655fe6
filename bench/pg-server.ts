/**
 * The PostgreSQL side of `npm run bench -- --only postgres`: a small HTTP server answering the benchmarked
 * URLs of both APIs from PostgreSQL (loaded by bench/pg-load.ts), with the JSON built in SQL:
 *
 *   npx node bench/pg-server.ts --pghost <socket folder> --pgport N --database bench --port P [--pool 4]
 *
 * - `/radarnet/mirror/v3/<collection>` (files, transferred files and their categories, radars, ...) with
 *   `timespan`, `bbox`, `radar_code`, `distinct`, `expanded`, JSON only;
 * - `/api/v1/timeseries/{id}/getData?timespan=` (tvp, one series), `/api/v1/stations?near=|bbox=` (CRS84),
 *   `/api/v1/search?q=` (default labels).
 *
 * Request parameters are read by snapcat's own parsers (core/), so both servers take the same URLs with the
 * same meaning, and the comparison is of what answers them: the query, the JSON and the serving. Each answer
 * is one query returning the whole body as one text (`row_to_json` per record, `string_agg` to join, in the
 * answer order), sent with its length. Anything else is 501: this is a benchmark opponent, not an API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { HttpError } from '../core/http/errors.ts';
import { servePg } from './lib/pg-http.ts';
import { sqlTimestamp } from '../core/radar/filters.ts';
import { parseRadarParams } from '../core/radar/params.ts';
import { RESOURCES, viewFields, type Field } from '../core/radar/resources.ts';
import { matchRadarRoute, RADAR_PREFIX } from '../core/radar/routes.ts';
import { parseGeoQuery } from '../core/timeseries/geo/params.ts';
import { chordLimit, DEG, EARTH_RADIUS_KM, writeUnit } from '../core/timeseries/geo/sphere.ts';
import type { LonLatBox } from '../core/timeseries/geo/station-index.ts';
import { readParam } from '../core/timeseries/params.ts';
import { matchTimeseriesPath } from '../core/timeseries/routes.ts';
import { checkMaxTimespan, parseTimespan } from '../core/timeseries/timespan.ts';

export interface Query {
  text: string;
  values: unknown[];
}

/** Binds values as $1, $2, ... in the order they are added. */
class Binder {
  readonly values: unknown[] = [];
  bind(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

const notHere = (what: string) => new HttpError(501, `The PostgreSQL bench server does not answer ${what}`);

/** The whole answer as one text: `open`, the records' JSON joined by commas in `ordered`'s order, `close`. */
function jsonArrayOf(ordered: string, open = '[', close = ']'): string {
  return `SELECT '${open}' || coalesce(string_agg(row_to_json(r)::text, ','), '') || '${close}' AS body FROM (${ordered}) r`;
}

// ---------- radar catalogue ----------

/** A field's value as the JSON answer has it: datetimes as `YYYY-MM-DDTHH:MM:SS.sssZ`, digit strings as text. */
function radarValue(f: Field): string {
  const col = `"${f.column}"`;
  switch (f.kind) {
    case 'datetime':
      return `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'digits':
      return `${col}::text`;
    case 'json':
      return `${col}::json`;
    default:
      return col;
  }
}

/** The order of the answers: ascending id; the instances of a file by transfer start, then transfer id. */
const RADAR_ORDER: Partial<Record<string, string>> = { transferred_x: 'id, transfer_start_datetime, transfer_id' };

function radarQuery(url: URL, maxDurationMs: Record<string, number>): Query {
  const match = matchRadarRoute(url.pathname.slice(RADAR_PREFIX.length));
  if (!match) throw new HttpError(404, `No such path: ${url.pathname}`);
  const { route } = match;
  if (route.shape !== 'collection' || !route.resource) throw notHere(`${route.shape} paths`);
  const p = parseRadarParams(url.searchParams);
  if (p.contentType !== undefined && p.contentType !== 'json') throw notHere('formats other than JSON');
  const r = RESOURCES[route.resource];
  const b = new Binder();
  const where: string[] = [];
  if (route.where) where.push(route.where);
  if (p.timespan && r.time) {
    const start = b.bind(sqlTimestamp(p.timespan.start));
    const end = b.bind(sqlTimestamp(p.timespan.end));
    if (r.time.kind === 'instant') where.push(`${r.time.column} BETWEEN ${start}::timestamp AND ${end}::timestamp`);
    else {
      // overlap; the start bounded from below by the longest interval too, so the start index gives a range
      const bound = b.bind(sqlTimestamp(p.timespan.start - (maxDurationMs[r.name] ?? 0)));
      where.push(`${r.time.start} <= ${end}::timestamp AND ${r.time.end} >= ${start}::timestamp AND ${r.time.start} >= ${bound}::timestamp`);
    }
  }
  if (p.bbox && r.radar) {
    const { minX, minY, maxX, maxY } = p.bbox;
    const lat = `latitude BETWEEN ${b.bind(minY)}::float8 AND ${b.bind(maxY)}::float8`;
    const lon = minX <= maxX ? `longitude BETWEEN ${b.bind(minX)}::float8 AND ${b.bind(maxX)}::float8` : `(longitude >= ${b.bind(minX)}::float8 OR longitude <= ${b.bind(maxX)}::float8)`;
    where.push(`${lat} AND ${lon}`);
  }
  if (p.radarCode !== undefined && r.radar) where.push(`radar_code = ${b.bind(p.radarCode)}`);
  if (p.distinct && route.latestFlag) where.push(route.latestFlag);
  const fields = viewFields(r, p.expanded);
  const select = fields.map((f) => `${radarValue(f)} AS "${f.name}"`).join(', ');
  const ordered = `SELECT ${select} FROM ${r.table}${where.length ? ` WHERE ${where.map((w) => `(${w})`).join(' AND ')}` : ''} ORDER BY ${RADAR_ORDER[r.table] ?? 'id'}`;
  return { text: jsonArrayOf(ordered), values: b.values };
}

// ---------- timeseries ----------

/** Label order of the answers: the `en` collation (ICU, as Intl.Collator('en') of the endpoint), ties by id. */
const LABEL_ORDER = 'label COLLATE "en-x-icu", id COLLATE "C"';

/** A station as the list view has it: a GeoJSON Feature with id and label. */
const STATION_FEATURE = `SELECT 'Feature' AS type, (SELECT row_to_json(p) FROM (SELECT s.id, s.label) p) AS properties,
  (SELECT row_to_json(g) FROM (SELECT 'Point' AS type, ARRAY[s.longitude, s.latitude] AS coordinates) g) AS geometry`;

/** Longitude windows (west ≤ east) of a box or circle, split across the antimeridian. */
function windows(west: number, east: number): [number, number][] {
  if (west <= east) return [[Math.max(-180, west), Math.min(180, east)]].concat(west < -180 ? [[west + 360, 180]] : [], east > 180 ? [[-180, east - 360]] : []) as [number, number][];
  return [
    [west, 180],
    [-180, east],
  ];
}

function stationsQuery(url: URL): Query {
  const geo = parseGeoQuery(url.searchParams);
  if (geo.crs.code !== 'CRS84') throw notHere('crs');
  for (const k of url.searchParams.keys()) if (!['near', 'bbox', 'crs'].includes(k)) throw notHere(`the parameter ${k}`);
  const b = new Binder();
  const where: string[] = [];
  const inBoxes = (south: number, north: number, wins: [number, number][]) =>
    `(${wins.map(([w, e]) => `s.position <@ box(point(${b.bind(w)}::float8, ${b.bind(south)}::float8), point(${b.bind(e)}::float8, ${b.bind(north)}::float8))`).join(' OR ')})`;
  if (geo.bbox) {
    const e: LonLatBox = geo.bbox.envelope;
    where.push(inBoxes(e.south, e.north, windows(e.west, e.east)));
  }
  if (geo.near) {
    // the candidates: the latitude band ±radius and the widest longitude window of the circle (as the
    // endpoint's StationIndex); then the same exact test on unit vectors (chord² ≤ 4·sin²(r/2R))
    const { lon, lat, radiusKm } = geo.near;
    const limit = chordLimit(radiusKm);
    const delta = radiusKm / EARTH_RADIUS_KM;
    const pad = 1e-9;
    let south = lat - delta / DEG - pad;
    let north = lat + delta / DEG + pad;
    let half = 180;
    const ratio = Math.sin(delta) / Math.cos(lat * DEG);
    if (limit !== Infinity && south > -90 && north < 90 && ratio < 1 - 1e-9) half = Math.asin(ratio) / DEG + pad;
    south = Math.max(-90, south);
    north = Math.min(90, north);
    where.push(inBoxes(south, north, half >= 180 ? [[-180, 180]] : windows(lon - half, lon + half)));
    if (limit !== Infinity) {
      const c = new Float64Array(3);
      writeUnit(lon, lat, c, 0);
      const [cx, cy, cz] = [b.bind(c[0]), b.bind(c[1]), b.bind(c[2])];
      where.push(`(s.ux - ${cx}::float8) * (s.ux - ${cx}::float8) + (s.uy - ${cy}::float8) * (s.uy - ${cy}::float8) + (s.uz - ${cz}::float8) * (s.uz - ${cz}::float8) <= ${b.bind(limit)}::float8`);
    }
  }
  const ordered = `SELECT f.* FROM stations s CROSS JOIN LATERAL (${STATION_FEATURE}) f${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY s.${LABEL_ORDER.replace(', id', ', s.id')}`;
  return { text: jsonArrayOf(ordered), values: b.values };
}

/** The search groups in answer order (core/timeseries/search.ts). */
const SEARCH_GROUPS: [string, string][] = [
  ['timeseries', 'timeseries'],
  ['phenomena', 'phenomenon'],
  ['procedures', 'procedure'],
  ['offerings', 'offering'],
  ['stations', 'station'],
  ['features', 'feature'],
  ['categories', 'category'],
];

function searchQuery(url: URL): Query {
  for (const k of url.searchParams.keys()) if (k !== 'q') throw notHere(`the parameter ${k}`);
  const text = readParam(url.searchParams, 'q');
  if (text === undefined) throw new HttpError(400, "Parameter 'q' is missing");
  const b = new Binder();
  const pattern = b.bind(`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const union = SEARCH_GROUPS.map(([table, type], g) => `SELECT ${g} AS g, id, label, '${type}' AS type, './${table}/' || id AS href FROM ${table} WHERE lower(label) LIKE ${pattern}`).join(' UNION ALL ');
  return { text: jsonArrayOf(`SELECT id, label, type, href FROM (${union}) u ORDER BY g, ${LABEL_ORDER}`), values: b.values };
}

function getDataQuery(url: URL, id: string): Query {
  for (const k of url.searchParams.keys()) if (k !== 'timespan') throw notHere(`the parameter ${k}`);
  const raw = url.searchParams.get('timespan');
  if (raw === null) throw notHere('getData without timespan');
  const span = checkMaxTimespan(parseTimespan(raw));
  const values = [id, String(span.start), String(span.end)];
  const points = `SELECT "timestamp", value FROM observations WHERE sid = t.sid AND "timestamp" BETWEEN $2::bigint AND $3::bigint ORDER BY "timestamp"`;
  return { text: `SELECT (${jsonArrayOf(points, '{"values":[', ']}')}) AS body FROM timeseries t WHERE t.id = $1`, values };
}

function timeseriesQuery(url: URL): Query {
  const m = matchTimeseriesPath(url.pathname);
  if (!m) throw new HttpError(404, `No such path: ${url.pathname}`);
  const { route } = m;
  if (m.extension !== undefined && m.extension !== 'json') throw notHere('charts');
  if (route.kind === 'getData') return getDataQuery(url, route.id);
  if (route.kind === 'collection' && route.collection === 'stations') return stationsQuery(url);
  if (route.kind === 'search') return searchQuery(url);
  throw notHere(`${route.kind} paths`);
}

// ---------- serving ----------

/** The one query answering a URL (path and query string); throws HttpError for what is not answered. */
export function queryFor(url: URL, maxDurationMs: Record<string, number>): Query {
  if (url.pathname.startsWith(`${RADAR_PREFIX}/`)) return radarQuery(url, maxDurationMs);
  if (url.pathname.startsWith('/api/v1/')) return timeseriesQuery(url);
  throw new HttpError(404, `No such path: ${url.pathname}`);
}

export async function startPgServer(opts: { pool: pg.PoolConfig; port: number; host?: string }) {
  const pool = new pg.Pool(opts.pool);
  pool.on('error', (e) => console.error(`pg pool: ${e.message}`));
  const maxDurationMs: Record<string, number> = {};
  const hasFacts = await pool.query("SELECT to_regclass('facts') IS NOT NULL AS has");
  if (hasFacts.rows[0].has) for (const r of (await pool.query('SELECT resource, max_duration_ms FROM facts')).rows) maxDurationMs[r.resource] = Number(r.max_duration_ms);

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, `Method ${req.method} is not allowed`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const r = await pool.query<{ body: string | null }>(queryFor(url, maxDurationMs));
    if (r.rows.length === 0) throw new HttpError(404, `No resource at ${url.pathname}`);
    const body = r.rows[0]!.body ?? '';
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return servePg(pool, answer, opts);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { pghost: { type: 'string' }, pgport: { type: 'string' }, database: { type: 'string', default: 'bench' }, port: { type: 'string', default: '8090' }, pool: { type: 'string', default: '4' } },
  });
  if (!values.pghost || !values.pgport) throw new Error('usage: pg-server.ts --pghost <socket folder> --pgport N [--database bench] [--port 8090] [--pool 4]');
  const s = await startPgServer({
    pool: { host: values.pghost, port: Number(values.pgport), user: 'postgres', database: values.database, max: Number(values.pool) },
    port: Number(values.port),
  });
  console.error(`pg-server serving on http://127.0.0.1:${values.port}`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
