/**
 * snapcat against PostgreSQL on the live queries (issue #6): the same data, the same URLs, the same JSON.
 *
 * - PostgreSQL: Debian's server (bench/lib/postgres.ts), a fresh cluster under bench/.work, loaded from the
 *   build's own DuckDB databases (bench/pg-load.ts: the same denormalised tables, with indexes), answered by
 *   bench/pg-server.ts (node:http and a pg.Pool, the JSON built in SQL) in its own process.
 * - snapcat: the endpoint (server/main.ts) in its own process on the same builds: the radar catalogue built
 *   database-only, and the timeseries bench network (bench/timeseries-api.ts).
 * - Every query's answers are fetched from both once and compared as parsed JSON (same records, order, fields
 *   and values); a difference fails the bench.
 * - Per query: sequential requests over keep-alive, alternating the two servers request by request (median and
 *   p99), then 16 connections for a few seconds each, the same rotation of URLs for both: wrk (throughput,
 *   median and p99 under load), or autocannon's fixed request count for the large answers.
 */
import { availableParallelism } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../test/helpers/nginx.ts';
import { ensurePostgres, startPostgres, BENCH_SETTINGS } from './lib/postgres.ts';
import { loadFromDuckDB, RADAR_INDEXES, RADAR_TABLES, TIMESERIES_INDEXES, TIMESERIES_TABLES, type LoadFigures } from './pg-load.ts';
import { radarDbBuild, radarSnapshot, startEndpointProcess, WORK } from './radar.ts';
import { endpointRss, median, percentile } from './stats.ts';
import { ensureWrk, rotationScript, runWrk } from './lib/wrk.ts';
import { cacheKey, stamp, stamped, stampOf } from './lib/bench-cache.ts';
import { describeDiagnosis, diagnose, scrape, type Diagnosis } from './lib/endpoint-diagnosis.ts';
import { rng, timeseriesBenchBuild } from './timeseries-api.ts';

const ROOT = join(import.meta.dirname, '..');
const PG_POOL = 4;
/** snapcat's endpoint processes (`--workers`): one per core, as PostgreSQL's backends spread over the cores. */
export const SNAPCAT_WORKERS = availableParallelism();

export interface Side {
  /** Sequential requests, one at a time over keep-alive. */
  medianMs: number;
  p99Ms: number;
  /** Under the load of 16 connections (wrk's latency distribution), undefined for the large answers (autocannon amounts). */
  loadedMedianMs?: number;
  loadedP99Ms?: number;
  rps: number;
  /** The load tool's own CPU share over the run (wrk's one thread; 1 = busy all the time). */
  toolBusy?: number;
  /** Answers other than 200 and socket errors under load (0 expected). */
  failures: number;
  /** snapcat only: where its time went under the load, from its /metrics (bench/lib/endpoint-diagnosis.ts). */
  why?: Diagnosis;
}

export interface QueryResult {
  name: string;
  example: string;
  records: number;
  bytes: { snapcat: number; postgres: number };
  runs: number;
  /** How the throughput was measured: `16 connections, 5 s` or `16 connections, 32 requests`. */
  load: string;
  snapcat: Side;
  postgres: Side;
  /** The load's second round (postgres first), for the runs by wrk. */
  again?: { snapcat: Side; postgres: Side };
}

export interface PostgresBench {
  scale: 'small' | 'full';
  version: string;
  settings: string;
  pool: number;
  radarLoad: LoadFigures;
  timeseriesLoad: LoadFigures;
  /** PostgreSQL's data directory came from an earlier run (the load figures are that run's). */
  loadCached: boolean;
  radarDuckMb: number;
  timeseriesDuckMb: number;
  pgDatabaseMb: number;
  queries: QueryResult[];
  /** The endpoint's resident set (supervisor and workers, /proc VmRSS; peak: their VmHWM summed), per build served. */
  memory: { what: string; idleMb: number; afterMb: number; peakMb: number }[];
}

/** The endpoint's resident set 2 s after it started serving, before any request. */
async function idleRss(endpoint: ChildProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, 2000));
  return endpointRss(endpoint.pid!).rssMb;
}

function memoryOf(what: string, idleMb: number, endpoint: ChildProcess): PostgresBench['memory'][number] {
  const now = endpointRss(endpoint.pid!);
  return { what, idleMb, afterMb: now.rssMb, peakMb: now.peakMb };
}

export interface QuerySpec {
  /** A short name for `--queries`. */
  id: string;
  name: string;
  paths: string[];
  /** Sequential requests to each server. */
  runs: number;
  /** wrk seconds per server. */
  seconds: number;
  /**
   * Large answers: autocannon sends this many requests instead (16 connections) and throughput is that count
   * over the time they took. A fixed duration would count only the answers that end inside it, and 16 streams
   * of tens of MB all end late together.
   */
  amount?: number;
}


const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function radarQueries(from: string, days: number, radarCodes: string[], full: boolean): QuerySpec[] {
  const R = '/radarnet/mirror/v3';
  const start = Date.parse(`${from}T00:00:00Z`);
  /** The i-th one-day span, spread over the catalogue's days (as bench/radar.ts). */
  const oneDay = (i: number) => {
    const d = start + ((i * 7919) % (days - 1)) * 86_400_000;
    return `${day(d)}/${day(d + 86_400_000)}`;
  };
  const firstYear = Number(from.slice(0, 4)) + (from.slice(5) === '01-01' ? 0 : 1);
  const years = Math.max(1, Math.floor((start + days * 86_400_000 - Date.parse(`${firstYear}-01-01T00:00:00Z`)) / (365.25 * 86_400_000)));
  const oneYear = Array.from({ length: Math.min(years, 7) }, (_, i) => firstYear + ((i * 7) % years)).map((y) => `${y}/${y + 1}`);
  const days200 = Array.from({ length: 200 }, (_, i) => oneDay(i));
  const r = rng(11);
  const boxes = ['-180,-90,180,0', '-180,0,180,90', ...Array.from({ length: 18 }, () => {
    const w = -180 + 300 * r();
    const s = -80 + 100 * r();
    return `${w.toFixed(2)},${s.toFixed(2)},${(w + 60).toFixed(2)},${(s + 60).toFixed(2)}`;
  })];
  return [
    { id: 'files-day', name: 'one-day timespan on /files', paths: days200.map((d) => `${R}/files?timespan=${d}`), runs: 200, seconds: 5 },
    { id: 'files-day-expanded', name: 'one-day timespan on /files, expanded', paths: days200.map((d) => `${R}/files?timespan=${d}&expanded=true`), runs: 200, seconds: 5 },
    { id: 'files-year', name: 'one-year timespan on /files', paths: oneYear.map((y) => `${R}/files?timespan=${y}`), runs: 10, seconds: 0, amount: 32 },
    { id: 'transferred-day', name: 'one-day timespan on /transferred/files', paths: days200.map((d) => `${R}/transferred/files?timespan=${d}`), runs: 200, seconds: 5 },
    { id: 'transferred-year', name: 'one-year timespan on /transferred/files', paths: oneYear.map((y) => `${R}/transferred/files?timespan=${y}`), runs: 10, seconds: 0, amount: 32 },
    { id: 'transferred-radar', name: 'radar_code + distinct on /transferred/files (all of one radar)', paths: radarCodes.map((c) => `${R}/transferred/files?radar_code=${c}&distinct=true`), runs: Math.min(40, 4 * radarCodes.length), seconds: 6, ...(full ? { amount: 64 } : {}) },
    { id: 'radars-bbox', name: 'bbox on /radars, expanded', paths: boxes.map((b) => `${R}/radars?bbox=${b}&expanded=true`), runs: 200, seconds: 5 },
  ];
}

export function timeseriesQueries(): QuerySpec[] {
  const T = '/api/v1';
  const yearStart = Date.UTC(2023, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const weeks = Array.from({ length: 51 }, (_, i) => `${iso(yearStart + i * 7 * 86_400_000)}/${iso(yearStart + (i + 1) * 7 * 86_400_000)}`);
  const r = rng(5);
  const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
  const circles = Array.from({ length: 100 }, () => JSON.stringify({ center: point(-5 + 30 * r(), 40 + 26 * r()), radius: 50 }));
  const words = Array.from({ length: 100 }, () => `station ${100 + Math.floor(900 * r())}`);
  return [
    { id: 'getdata-week', name: 'getData, one week of 10-minute values', paths: weeks.map((w) => `${T}/timeseries/ts_year/getData?timespan=${w}`), runs: 200, seconds: 5 },
    { id: 'getdata-year', name: 'getData, one year of 10-minute values', paths: [`${T}/timeseries/ts_year/getData?timespan=2023-01-01T00:00:00Z/2023-12-31T23:59:59Z`], runs: 50, seconds: 5 },
    { id: 'near', name: 'near (50 km) over 100,000 stations', paths: circles.map((c) => `${T}/stations?near=${encodeURIComponent(c)}`), runs: 200, seconds: 5 },
    { id: 'search', name: 'search (`station NNN`) over 100,000 stations', paths: words.map((w) => `${T}/search?q=${encodeURIComponent(w)}`), runs: 200, seconds: 5 },
  ];
}

/** One GET over a keep-alive agent: status, body (kept when `keep`), bytes, ms to the last byte. */
function fetchOnce(base: string, path: string, agent: Agent, keep: boolean): Promise<{ status: number; body: Buffer; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    httpGet(`${base}${path}`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), bytes, ms: performance.now() - t0 }));
      res.on('error', (e) => reject(new Error(`${base}${path}: ${e.message} after ${bytes} bytes`)));
    }).on('error', (e) => reject(new Error(`${base}${path}: ${e.message}`)));
  });
}

/** Where two parsed answers first differ, for the failure message. */
function firstDifference(a: unknown, b: unknown, at = '$'): string {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!isDeepStrictEqual(a[i], b[i])) return i >= a.length || i >= b.length ? `${at}: ${a.length} against ${b.length} elements` : firstDifference(a[i], b[i], `${at}[${i}]`);
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${at}.${k}`);
    }
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 300)} against ${JSON.stringify(b)?.slice(0, 300)}`;
}

const countRecords = (v: unknown): number => (Array.isArray(v) ? v.length : v && typeof v === 'object' && Array.isArray((v as { values?: unknown }).values) ? (v as { values: unknown[] }).values.length : 1);

/**
 * Throughput and latency at 16 connections: wrk (bench/lib/wrk.ts; one thread, a Lua script rotating the URLs),
 * which outruns both servers here; the large answers by autocannon's fixed request count (wrk has only durations).
 */
export async function load(base: string, spec: QuerySpec): Promise<Pick<Side, 'rps' | 'failures' | 'loadedMedianMs' | 'loadedP99Ms' | 'toolBusy'>> {
  if (!spec.amount) {
    const script = rotationScript(join(WORK, `pg-bench-${process.pid}.lua`), spec.paths);
    const r = runWrk(ensureWrk(), { base, script, threads: 1, connections: 16, seconds: spec.seconds });
    return { rps: r.rps, failures: r.failures, loadedMedianMs: r.p50Ms, loadedP99Ms: r.p99Ms, toolBusy: r.toolBusy };
  }
  let i = 0;
  const r = await autocannon({
    url: base,
    connections: 16,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds }),
    timeout: 300,
    requests: [{ setupRequest: (req) => ({ ...req, path: spec.paths[i++ % spec.paths.length]! }) }],
  });
  return { rps: r['2xx'] / r.duration, failures: r.non2xx + r.errors + r.timeouts };
}

async function measure(spec: QuerySpec, snapcat: string, postgres: string, log: (l: string) => void): Promise<QueryResult> {
  const agents = { snapcat: new Agent({ keepAlive: true, maxSockets: 1 }), postgres: new Agent({ keepAlive: true, maxSockets: 1 }) };
  try {
    // the same answers: the first 20 URLs (2 of large answers), parsed and compared
    let records = 0;
    const bytes = { snapcat: 0, postgres: 0 };
    const checked = spec.paths.slice(0, spec.amount ? 2 : 20);
    // a connection per request here: parsing and comparing large answers blocks the loop for seconds, past the
    // servers' keep-alive timeout, and a socket the server closed meanwhile would be reused ("socket hang up")
    const fresh = new Agent({ keepAlive: false });
    // one more try after a connection error (on this shared machine a 40 MB answer's connection was once lost), said
    const fetchChecked = (base: string, path: string) =>
      fetchOnce(base, path, fresh, true).catch((e: Error) => {
        log(`${e.message}: trying once more`);
        return fetchOnce(base, path, fresh, true);
      });
    for (const path of checked) {
      const a = await fetchChecked(snapcat, path);
      const b = await fetchChecked(postgres, path);
      if (a.status !== 200 || b.status !== 200) throw new Error(`${path}: snapcat ${a.status}, PostgreSQL ${b.status}: ${b.body.toString().slice(0, 300)} ${a.body.toString().slice(0, 300)}`);
      const x: unknown = JSON.parse(a.body.toString('utf8'));
      const y: unknown = JSON.parse(b.body.toString('utf8'));
      if (!isDeepStrictEqual(x, y)) throw new Error(`PostgreSQL answers ${path} differently from snapcat: ${firstDifference(x, y)}`);
      records += countRecords(x);
      bytes.snapcat += a.bytes;
      bytes.postgres += b.bytes;
    }
    records /= checked.length;
    bytes.snapcat /= checked.length;
    bytes.postgres /= checked.length;
    // sequential: alternating request by request, after a few unmeasured ones
    for (let i = 0; i < Math.min(5, spec.runs); i++) {
      await fetchOnce(snapcat, spec.paths[(i + 17) % spec.paths.length]!, agents.snapcat, false);
      await fetchOnce(postgres, spec.paths[(i + 17) % spec.paths.length]!, agents.postgres, false);
    }
    const times = { snapcat: [] as number[], postgres: [] as number[] };
    for (let i = 0; i < spec.runs; i++) {
      const path = spec.paths[i % spec.paths.length]!;
      for (const side of i % 2 === 0 ? (['snapcat', 'postgres'] as const) : (['postgres', 'snapcat'] as const)) {
        const r = await fetchOnce(side === 'snapcat' ? snapcat : postgres, path, agents[side], false);
        if (r.status !== 200) throw new Error(`${side} ${path}: ${r.status}`);
        times[side].push(r.ms);
      }
    }
    // throughput: the same rotation of URLs, one server after the other; snapcat's /metrics read around its runs
    const loadSnapcat = async () => {
      const before = await scrape(snapcat);
      const l = await load(snapcat, spec);
      return { ...l, why: diagnose(before, await scrape(snapcat)) };
    };
    const ls = await loadSnapcat();
    const lp = await load(postgres, spec);
    // a second round in the other order (wrk's short runs only), so neither side always has the quieter machine
    const again = spec.amount ? undefined : { postgres: await load(postgres, spec), snapcat: await loadSnapcat() };
    const side = (t: number[], l: Awaited<ReturnType<typeof load>>): Side => ({ medianMs: median(t), p99Ms: percentile(t, 99), ...l });
    const result: QueryResult = { name: spec.name, example: spec.paths[0]!, records, bytes, runs: spec.runs, load: `16 connections, ${spec.amount ? `${spec.amount} requests (autocannon)` : `${spec.seconds} s (wrk)`}`, snapcat: side(times.snapcat, ls), postgres: side(times.postgres, lp), ...(again ? { again: { snapcat: side(times.snapcat, again.snapcat), postgres: side(times.postgres, again.postgres) } } : {}) };
    const loaded = (s: Side) => (s.loadedMedianMs === undefined ? '' : ` (16 connections: median ${s.loadedMedianMs.toFixed(2)} ms, p99 ${s.loadedP99Ms!.toFixed(2)} ms, wrk ${(s.toolBusy! * 100).toFixed(0)}% busy)`);
    const f = (s: Side) => `median ${s.medianMs.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms, ${s.rps.toFixed(1)} req/s${loaded(s)}${s.failures ? ` (${s.failures} failures)` : ''}`;
    log(`${spec.name} (${Math.round(records)} records): snapcat ${f(result.snapcat)}; PostgreSQL ${f(result.postgres)}`);
    log(`  snapcat under load: ${describeDiagnosis(result.snapcat.why!)}`);
    if (result.again) log(`  again: snapcat ${f(result.again.snapcat)}; PostgreSQL ${f(result.again.postgres)}`);
    if (result.again) log(`  snapcat under load: ${describeDiagnosis(result.again.snapcat.why!)}`);
    return result;
  } finally {
    agents.snapcat.destroy();
    agents.postgres.destroy();
  }
}

/** The indexes of bench/pg-load.ts in short: `table (columns)`, the primary keys marked. */
export function indexSummary(): string {
  // tables with the same index are listed together: `services, categories (id) primary key`
  const byIndex = new Map<string, string[]>();
  for (const sql of [...RADAR_INDEXES, ...TIMESERIES_INDEXES]) {
    const pk = /^ALTER TABLE (\w+) ADD PRIMARY KEY \((.+)\)$/.exec(sql);
    const ix = /^CREATE (UNIQUE )?INDEX \w+ ON (\w+)(?: USING (\w+))? \((.+)\)$/.exec(sql);
    const [table, what] = pk ? [pk[1]!, `(${pk[2]!}) primary key`] : ix ? [ix[2]!, `${ix[3] ? `${ix[3]} ` : ''}(${ix[4]!})${ix[1] ? ' unique' : ''}`] : [];
    if (!table || !what) continue;
    const key = what.replaceAll('"', '');
    byIndex.set(key, [...(byIndex.get(key) ?? []), table]);
  }
  return [...byIndex].map(([what, tables]) => `${tables.join(', ')} ${what}`).join('; ');
}

async function startPgServerProcess(pgHost: string, pgPort: number, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/pg-server.ts', '--pghost', pgHost, '--pgport', String(pgPort), '--port', String(port), '--pool', String(PG_POOL)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += String(d);
      if (log.includes('serving')) resolve();
      if (log.length > 20_000) log = log.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`pg-server exited (${code}): ${log}`)));
  });
  return child;
}

/** Reports what a server process writes after starting, and its end when nobody asked it to end. */
export function watch(child: ChildProcess, name: string, log: (l: string) => void): ChildProcess {
  child.stderr!.on('data', (d: Buffer) => log(`${name}: ${String(d).trimEnd()}`));
  child.once('exit', (code, signal) => {
    if (!(child as { stopping?: boolean }).stopping) log(`${name} ended unexpectedly (exit ${code}, signal ${signal})`);
  });
  return child;
}

export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  (child as { stopping?: boolean }).stopping = true;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The short names of the queries, in the bench's order (`--queries`). */
export const QUERY_IDS = [...radarQueries('2023-01-01', 365, ['x'], false), ...timeseriesQueries()].map((q) => q.id);

/** What a loaded PostgreSQL data directory holds, written beside it once loaded (bench/.work/pg-bench/load.json). */
interface CachedLoad {
  radarLoad: LoadFigures;
  timeseriesLoad: LoadFigures;
  pgDatabaseMb: number;
}

/**
 * `quick`: a few requests and one second of load per query (to try the bench out; figures meaningless).
 * `queries`: the short names (QUERY_IDS) of the queries to run, all by default.
 *
 * Setup is cached in bench/.work (bench/lib/bench-cache.ts): the radar snapshot and its database-only build, the
 * timeseries network's database-only build, and PostgreSQL's loaded data directory, each keyed by its inputs
 * and the code that made it; a rerun with nothing changed starts its queries within seconds.
 */
export async function runPostgresBench(scale: 'small' | 'full', log: (line: string) => void, opts: { quick?: boolean; queries?: string[] } = {}): Promise<PostgresBench> {
  const unknown = (opts.queries ?? []).filter((q) => !QUERY_IDS.includes(q));
  if (unknown.length > 0) throw new Error(`no such postgres bench quer${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.join(', ')} (there are ${QUERY_IDS.join(', ')})`);
  const chosen = (specs: QuerySpec[]) => specs.filter((s) => !opts.queries || opts.queries.includes(s.id));
  const shorten = (specs: QuerySpec[]) => (opts.quick ? specs.map((s) => ({ ...s, runs: Math.min(s.runs, 6), seconds: 1, ...(s.amount ? { amount: 16 } : {}) })) : specs);
  const [from, days] = scale === 'full' ? ['1993-09-01', 11000] : ['2023-01-01', 365];
  const setup = performance.now();
  const radarBuild = await radarDbBuild(() => radarSnapshot(from, days), days, log);
  const tsDir = join(WORK, 'pg-timeseries-100000');
  const ts = await timeseriesBenchBuild({ stations: 100_000, dir: tsDir, reuse: true, dbOnly: true, log });
  const radarDuck = join(radarBuild, 'data', 'radarnet-mirror-v3.duckdb');
  const tsDuck = join(ts.dist, 'data', 'timeseries-v1.duckdb');

  const bin = ensurePostgres();
  // the loaded cluster is kept for the next run: keyed by the two builds it was loaded from, PostgreSQL's
  // version, and the loading code
  const pgFolder = join(WORK, 'pg-bench');
  const pgKey = cacheKey({ radar: stampOf(radarBuild), timeseries: stampOf(tsDir), version: bin.version }, ['bench/pg-load.ts', 'bench/lib/postgres.ts']);
  const loadFile = join(pgFolder, 'load.json');
  const cached = stamped(pgFolder, pgKey) && existsSync(loadFile);
  log(`${bin.version} (${bin.how}), ${cached ? 'the cluster loaded by an earlier run' : 'a fresh cluster'} in bench/.work/pg-bench`);
  const server = await startPostgres({ bin, folder: pgFolder, port: await freePort(), reuse: cached });
  let pgServer: ChildProcess | undefined;
  let endpoint: ChildProcess | undefined;
  try {
    let loaded: CachedLoad;
    if (cached) {
      loaded = JSON.parse(readFileSync(loadFile, 'utf8')) as CachedLoad;
    } else {
      const client = new pg.Client(server.client());
      await client.connect();
      try {
        log(`loading the ${days}-day radar catalogue into PostgreSQL ...`);
        const radarLoad = await loadFromDuckDB({ client, duckPath: radarDuck, tables: RADAR_TABLES, csvDir: join(pgFolder, 'csv'), indexSql: RADAR_INDEXES, log: (l) => log(`  ${l}`) });
        log(`  radar catalogue loaded in ${radarLoad.seconds.toFixed(1)} s`);
        log('loading the timeseries bench network into PostgreSQL ...');
        const timeseriesLoad = await loadFromDuckDB({ client, duckPath: tsDuck, tables: TIMESERIES_TABLES, csvDir: join(pgFolder, 'csv'), indexSql: TIMESERIES_INDEXES, log: (l) => log(`  ${l}`) });
        log(`  timeseries loaded in ${timeseriesLoad.seconds.toFixed(1)} s`);
        const pgDatabaseMb = Number((await client.query("SELECT pg_database_size('bench') AS n")).rows[0].n) / 2 ** 20;
        await client.query('CHECKPOINT');
        loaded = { radarLoad, timeseriesLoad, pgDatabaseMb };
      } finally {
        await client.end();
      }
      writeFileSync(loadFile, JSON.stringify(loaded, null, 2) + '\n');
      stamp(pgFolder, pgKey);
    }
    const { radarLoad, timeseriesLoad, pgDatabaseMb } = loaded;
    log(`setup (builds and PostgreSQL) ${((performance.now() - setup) / 1000).toFixed(1)} s`);
    const radarCodes = (await (async () => {
      const c = new pg.Client(server.client());
      await c.connect();
      try {
        return (await c.query<{ radar_code: string }>('SELECT radar_code FROM radars_x ORDER BY id')).rows.map((r) => r.radar_code);
      } finally {
        await c.end();
      }
    })()).filter((_, i) => i % 4 === 1);

    const pgPort = await freePort();
    pgServer = watch(await startPgServerProcess(server.host, server.port, pgPort), 'pg-server', log);
    const pgBase = `http://127.0.0.1:${pgPort}`;
    const queries: QueryResult[] = [];

    const memory: PostgresBench['memory'] = [];
    const radarSpecs = shorten(chosen(radarQueries(from, days, radarCodes, scale === 'full')));
    if (radarSpecs.length > 0) {
      const port = await freePort();
      endpoint = watch(await startEndpointProcess(radarBuild, port, SNAPCAT_WORKERS), 'snapcat endpoint', log);
      const idle = await idleRss(endpoint);
      log(`radar catalogue queries (snapcat endpoint with ${SNAPCAT_WORKERS} workers on port ${port}, pg-server on ${pgPort} with ${PG_POOL} PostgreSQL connections) ...`);
      for (const spec of radarSpecs) queries.push(await measure(spec, `http://127.0.0.1:${port}`, pgBase, (l) => log(`  ${l}`)));
      memory.push(memoryOf('radar catalogue', idle, endpoint));
      log(`  endpoint resident memory: ${JSON.stringify(memory.at(-1))}`);
      await stopProcess(endpoint);
    }

    const tsSpecs = shorten(chosen(timeseriesQueries()));
    if (tsSpecs.length > 0) {
      const port2 = await freePort();
      endpoint = watch(await startEndpointProcess(ts.dist, port2, SNAPCAT_WORKERS), 'snapcat endpoint', log);
      const idle2 = await idleRss(endpoint);
      log('timeseries queries ...');
      for (const spec of tsSpecs) queries.push(await measure(spec, `http://127.0.0.1:${port2}`, pgBase, (l) => log(`  ${l}`)));
      memory.push(memoryOf('timeseries network of 100,000 stations', idle2, endpoint));
      log(`  endpoint resident memory: ${JSON.stringify(memory.at(-1))}`);
      await stopProcess(endpoint);
    }

    const shown = ['shared_buffers', 'work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'random_page_cost', 'jit'];
    return {
      scale,
      version: bin.version,
      settings: shown.map((k) => `${k}=${BENCH_SETTINGS[k]}`).join(', '),
      pool: PG_POOL,
      radarLoad,
      timeseriesLoad,
      loadCached: cached,
      radarDuckMb: statSync(radarDuck).size / 2 ** 20,
      timeseriesDuckMb: statSync(tsDuck).size / 2 ** 20,
      pgDatabaseMb,
      queries,
      memory,
    };
  } finally {
    await stopProcess(endpoint);
    await stopProcess(pgServer);
    // the loaded cluster stays for the next run (its key is stamped once it is loaded)
    await server.stop({ keep: true });
    // wrk's script of URLs (load()), one per run
    rmSync(join(WORK, `pg-bench-${process.pid}.lua`), { force: true });
  }
}

if (import.meta.main) {
  const scale = process.argv.includes('full') ? 'full' : 'small';
  const q = process.argv.find((a) => a.startsWith('--queries='))?.slice('--queries='.length);
  const r = await runPostgresBench(scale, (l) => console.error(l), { quick: process.argv.includes('quick'), ...(q ? { queries: q.split(',') } : {}) });
  console.log(JSON.stringify(r, null, 2));
}
