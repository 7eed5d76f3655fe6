/**
 * The PostgreSQL side of `npm run bench -- --only timeseries-postgres` (issue 23): a small HTTP server answering
 * issue 23's three data queries of the Timeseries API from PostgreSQL, in the observation schema of a 52°North
 * deployment (bench/timeseries-postgres.ts loads it):
 *
 *   node bench/pg-timeseries-server.ts --pghost <socket folder> --pgport N --port P [--pool 4]
 *     [--max-timespan P1Y1D] [--generalizer lttb] [--profile spec]
 *
 * - `GET /api/v1/timeseries/{id}/getData?timespan=` (tvp, one series): the whole body built in SQL, as
 *   bench/pg-server.ts does (one text, sent with its length);
 * - the same with `generalize=true` (and `generalizing_algorithm`, `threshold`, `tolerance_value`): the values
 *   fetched in one packed row (timestamps and values as float8 pairs, bytea), generalized here by snapcat's own
 *   core/timeseries/generalize.ts (52°North's server generalizes in its application layer too, after the
 *   query), the JSON written by `tvpBody` below;
 * - `POST /api/v1/timeseries/getData` with `{"timespan", "timeseries": [ids]}`: one query, the body built in SQL
 *   in the order the ids were named (repeats once), `allTimeseries`-wrapped unless the profile is `52north`.
 *
 * The parameters are read by snapcat's own parsers (timespan forms, the longest timespan, the generalizer's
 * options), with the build's settings passed on the command line (its `requestIntervalRestriction`, default
 * generalizer, profile): the same URL means the same thing to both servers. Anything else is 501: this is a
 * benchmark opponent, not an API.
 *
 * The schema, trimmed from 52°North's (sensorweb-server-db-model: `dataset`, `observation` with
 * `fk_dataset_id`, `sampling_time_start` as `timestamp with time zone`, `value_quantity`) to the columns these
 * answers read: `dataset (dataset_id bigint, identifier text)`, `observation (fk_dataset_id bigint,
 * sampling_time_start timestamptz, value_quantity double precision)` keyed by (fk_dataset_id,
 * sampling_time_start).
 */
import type { IncomingMessage } from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { HttpError } from '../core/http/errors.ts';
import { servePg } from './lib/pg-http.ts';
import { generalize, parseGeneralizeOptions, type GeneralizeOptions, type Series } from '../core/timeseries/generalize.ts';
import { readParam } from '../core/timeseries/params.ts';
import type { TimeseriesProfile } from '../core/timeseries/profile.ts';
import { matchTimeseriesPath } from '../core/timeseries/routes.ts';
import { checkMaxTimespan, parseTimespan } from '../core/timeseries/timespan.ts';
import type { Timespan } from '../core/timespan.ts';

export interface Query {
  text: string;
  values: unknown[];
}

/** What the build says and a 52°North deployment has in its configuration. */
export interface ServerSettings {
  /** `requestIntervalRestriction`: the longest timespan asked for. */
  maxTimespan: string;
  /** `generalize=true` without `generalizing_algorithm`. */
  defaultGeneralizer: 'lttb' | 'dp';
  /** Shapes the POST answer (core/timeseries/data-body.ts). */
  profile: TimeseriesProfile;
}

const notHere = (what: string) => new HttpError(501, `The PostgreSQL timeseries bench server does not answer ${what}`);

/** A timestamptz parameter: the instant as ISO 8601 in UTC, exact to the millisecond. */
const instant = (ms: number) => new Date(ms).toISOString();

/** An observation as tvp JSON text, `{"timestamp":ms,"value":v}` (`null` for a value reported without a number). */
const TVP_POINT = `'{"timestamp":' || (extract(epoch FROM o.sampling_time_start) * 1000)::bigint || ',"value":' || coalesce(o.value_quantity::text, 'null') || '}'`;

/** The observations of dataset `d` in [$start, $end], as tvp JSON texts joined by commas, in time order ('' for none). */
function pointsOf(start: string, end: string): string {
  return `coalesce((SELECT string_agg(${TVP_POINT}, ',' ORDER BY o.sampling_time_start) FROM observation o WHERE o.fk_dataset_id = d.dataset_id AND o.sampling_time_start BETWEEN ${start}::timestamptz AND ${end}::timestamptz), '')`;
}

/** GET of one series, tvp: `{"values":[...]}`, the whole body one text (no row for an unknown id: 404). */
export function getDataSql(id: string, span: Timespan): Query {
  return { text: `SELECT '{"values":[' || ${pointsOf('$2', '$3')} || ']}' AS body FROM dataset d WHERE d.identifier = $1`, values: [id, instant(span.start), instant(span.end)] };
}

/**
 * POST of several series: `{"allTimeseries":{"<id>":{"values":[...]},...}}` (`{"<id>":...}` in the 52north
 * profile), in the order named; `found` counts the ids the database has (fewer than named: 404).
 */
export function postDataSql(ids: string[], span: Timespan, profile: TimeseriesProfile): Query {
  const [open, close] = profile === '52north' ? ['{', '}'] : ['{"allTimeseries":{', '}}'];
  const entry = `to_json(q.identifier)::text || ':{"values":[' || ${pointsOf('$2', '$3')} || ']}'`;
  return {
    text: `SELECT '${open}' || coalesce(string_agg(${entry}, ',' ORDER BY q.ord), '') || '${close}' AS body, count(d.dataset_id)::int AS found
FROM unnest($1::text[]) WITH ORDINALITY AS q(identifier, ord) LEFT JOIN dataset d ON d.identifier = q.identifier`,
    values: [ids, instant(span.start), instant(span.end)],
  };
}

/** The series' observations in [start, end] packed as big-endian float8 pairs (ms, value; NaN for null), for generalizing here. */
export function packedPointsSql(id: string, span: Timespan): Query {
  return {
    text: `SELECT (SELECT string_agg(float8send((extract(epoch FROM o.sampling_time_start) * 1000)::float8) || float8send(coalesce(o.value_quantity, 'NaN'::float8)), ''::bytea ORDER BY o.sampling_time_start)
  FROM observation o WHERE o.fk_dataset_id = d.dataset_id AND o.sampling_time_start BETWEEN $2::timestamptz AND $3::timestamptz) AS packed
FROM dataset d WHERE d.identifier = $1`,
    values: [id, instant(span.start), instant(span.end)],
  };
}

/** packedPointsSql's bytes as points. */
export function unpackPoints(packed: Buffer | null): Series {
  const n = packed ? packed.length / 16 : 0;
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  if (packed) {
    const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    for (let i = 0; i < n; i++) {
      t[i] = view.getFloat64(16 * i);
      v[i] = view.getFloat64(16 * i + 8);
    }
  }
  return { t, v };
}

/** A GET answer of one series in tvp, `{"values":[{"timestamp":t,"value":v},...]}`, NaN as null: this server's own writer. */
export function tvpBody(p: Series): string {
  const parts: string[] = new Array(p.t.length);
  for (let i = 0; i < p.t.length; i++) {
    const v = p.v[i]!;
    parts[i] = `{"timestamp":${p.t[i]},"value":${Number.isNaN(v) ? 'null' : JSON.stringify(v)}}`;
  }
  return `{"values":[${parts.join(',')}]}`;
}

/** The generalizer a query asks for, as the endpoint reads it (core/timeseries/data-request.ts); undefined without `generalize=true`. */
export function generalizerOf(query: URLSearchParams, defaultGeneralizer: string): GeneralizeOptions | undefined {
  if (!readParam(query, 'generalize')) return undefined;
  const q = query.has('generalizing_algorithm') ? query : new URLSearchParams([...query, ['generalizing_algorithm', defaultGeneralizer]]);
  return parseGeneralizeOptions(q);
}

const GET_PARAMS = new Set(['timespan', 'generalize', 'generalizing_algorithm', 'threshold', 'tolerance_value']);

function spanOf(raw: string | null, settings: ServerSettings): Timespan {
  if (raw === null) throw notHere('getData without timespan');
  return checkMaxTimespan(parseTimespan(raw), settings.maxTimespan);
}

/** The answer to a request: its JSON body, or an HttpError thrown. */
export async function answer(pool: pg.Pool, method: string, url: URL, body: unknown, settings: ServerSettings): Promise<string> {
  const m = matchTimeseriesPath(url.pathname);
  if (!m) throw new HttpError(404, `No such path: ${url.pathname}`);
  if (m.extension !== undefined && m.extension !== 'json') throw notHere('charts');
  const { route } = m;
  if (method === 'GET' && route.kind === 'getData') {
    for (const k of url.searchParams.keys()) if (!GET_PARAMS.has(k)) throw notHere(`the parameter ${k}`);
    const span = spanOf(url.searchParams.get('timespan'), settings);
    const g = generalizerOf(url.searchParams, settings.defaultGeneralizer);
    if (!g) {
      const r = await pool.query<{ body: string }>(getDataSql(route.id, span));
      if (r.rows.length === 0) throw new HttpError(404, `No timeseries '${route.id}'`);
      return r.rows[0]!.body;
    }
    const r = await pool.query<{ packed: Buffer | null }>(packedPointsSql(route.id, span));
    if (r.rows.length === 0) throw new HttpError(404, `No timeseries '${route.id}'`);
    return tvpBody(generalize(unpackPoints(r.rows[0]!.packed), g));
  }
  if (method === 'POST' && route.kind === 'postData') {
    if ([...url.searchParams.keys()].length > 0) throw notHere('query parameters on POST');
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body must be a JSON object with timespan and timeseries');
    const fields = body as Record<string, unknown>;
    for (const k of Object.keys(fields)) if (k !== 'timespan' && k !== 'timeseries') throw notHere(`the body field ${k}`);
    const ids = fields['timeseries'];
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((x) => typeof x === 'string')) throw new HttpError(400, "Parameter 'timeseries' must name 1 to 100 timeseries ids");
    const span = spanOf(typeof fields['timespan'] === 'string' ? fields['timespan'] : null, settings);
    const unique = [...new Set(ids as string[])];
    const r = await pool.query<{ body: string; found: number }>(postDataSql(unique, span, settings.profile));
    if (r.rows[0]!.found < unique.length) throw new HttpError(404, 'No such timeseries among those named');
    return r.rows[0]!.body;
  }
  throw notHere(`${method} ${route.kind} paths`);
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > 64 * 1024) reject(new HttpError(413, 'Request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpError(400, 'The request body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

export async function startPgTimeseriesServer(opts: { pool: pg.PoolConfig; port: number; host?: string; settings: ServerSettings }) {
  const pool = new pg.Pool(opts.pool);
  pool.on('error', (e) => console.error(`pg pool: ${e.message}`));
  return servePg(
    pool,
    async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const body = method === 'POST' ? await readBody(req) : undefined;
      const text = await answer(pool, method, url, body, opts.settings);
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    },
    opts,
  );
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      pghost: { type: 'string' },
      pgport: { type: 'string' },
      database: { type: 'string', default: 'bench' },
      port: { type: 'string', default: '8091' },
      pool: { type: 'string', default: '4' },
      'max-timespan': { type: 'string', default: 'P1Y1D' },
      generalizer: { type: 'string', default: 'lttb' },
      profile: { type: 'string', default: 'spec' },
    },
  });
  if (!values.pghost || !values.pgport) throw new Error('usage: pg-timeseries-server.ts --pghost <socket folder> --pgport N [--port 8091] [--pool 4] [--max-timespan P1Y1D] [--generalizer lttb] [--profile spec]');
  const s = await startPgTimeseriesServer({
    pool: { host: values.pghost, port: Number(values.pgport), user: 'postgres', database: values.database, max: Number(values.pool) },
    port: Number(values.port),
    settings: { maxTimespan: values['max-timespan'], defaultGeneralizer: values.generalizer === 'dp' ? 'dp' : 'lttb', profile: values.profile as TimeseriesProfile },
  });
  console.error(`pg-timeseries-server serving on http://127.0.0.1:${values.port}`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
