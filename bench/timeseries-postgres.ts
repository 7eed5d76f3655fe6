/**
 * npm run bench -- --only timeseries-postgres [--days 365] [--ts-from 2024-01-01] [--series-factor 1]
 *   [--snapshot DIR --build DIR] [--runs 60] [--seconds 5]
 *
 * Issue 23's timeseries queries side by side with PostgreSQL, the store 52°North deployments use, in one run:
 * 1. the build: by default the scaled demo of bench/timeseries-scale.ts (`demo-snapshot --fast-values --apis
 *    timeseries-v1`, `requestIntervalRestriction` P10Y3D, its database-only build; cached in bench/.work by its
 *    inputs), or `--build DIR`, a database-only (or full) build of any timeseries snapshot (`--snapshot DIR`
 *    beside it only names it in the report: the build records the snapshot's manifest, which keys the cache),
 *    or `--snapshot DIR` alone, built database-only into bench/.work/ts-pg-build (kept for a rerun). A build
 *    whose `requestIntervalRestriction` is shorter than ten years is asked its longest timespan instead;
 * 2. PostgreSQL (bench/lib/postgres.ts: Debian's server, a private cluster in bench/.work/pg-timeseries on a
 *    socket of its own) loaded with the build's observations in 52°North's observation schema
 *    (bench/pg-timeseries-load.ts: CSV chunks, COPY, then the keys): load time (export, COPY, index, VACUUM
 *    ANALYZE apart), rows per second and disk size, against snapcat's series file (pairs and index) and
 *    database. The loaded cluster is kept and reused by a rerun over the same snapshot, PostgreSQL version and
 *    loading code (its figures then are the loading run's, said so);
 * 3. both servers over HTTP: snapcat's endpoint (`server/main.ts --workers 2`, as `npm run serve`) and
 *    bench/pg-timeseries-server.ts (node:http and a pg.Pool of 4; the JSON built in SQL, the generalizer
 *    snapcat's own), each in its own process, asked the three queries of bench/timeseries-scale.ts:
 *    - getData of one year of one of the 60 series with the most observations;
 *    - getData of ten years with `generalize=true` (or the build's longest timespan if shorter);
 *    - POST getData of one week of the 100 series with the most observations;
 *    first three answers of each from both, compared as parsed JSON (a difference fails the bench); one
 *    request of each series on each side to warm the page cache; then `runs` requests one at a time over
 *    keep-alive, the two sides taking turns request by request (median, p99), each request a new timespan
 *    (ends 10 minutes apart: snapcat's answer cache never holds a timed one); then wrk at 16 connections for
 *    `seconds` on each side, twice (snapcat first, then PostgreSQL first), every request new (ends a second
 *    apart, computed in wrk's script).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { HttpError } from '../core/http/errors.ts';
import { MANIFEST_FILE } from '../core/snapshot/table-schema.ts';
import { checkMaxTimespan, parseTimespan } from '../core/timeseries/timespan.ts';
import { openDuckDB } from '../lib/duckdb.ts';
import { openServedBuild } from '../server/served-build.ts';
import { freePort } from '../test/helpers/nginx.ts';
import { BUILD_CODE, cacheKey, stamp, stamped } from './lib/bench-cache.ts';
import { describeDiagnosis, diagnose, scrape, type Diagnosis } from './lib/endpoint-diagnosis.ts';
import { ensurePostgres, startPostgres, BENCH_SETTINGS } from './lib/postgres.ts';
import { ensureWrk, runWrk } from './lib/wrk.ts';
import { loadObservations, type ObservationLoad } from './pg-timeseries-load.ts';
import type { ServerSettings } from './pg-timeseries-server.ts';
import { SNAPCAT_WORKERS, stopProcess, watch } from './postgres.ts';
import { startEndpointProcess, WORK } from './radar.ts';
import { endpointRss, median, percentile } from './stats.ts';
import { scaleBuild } from './timeseries-scale.ts';

const ROOT = join(import.meta.dirname, '..');
const PG_POOL = 4;
/** How far apart (seconds) the two load rounds' request sequences start: more requests than a round sends. */
const ROUND_SECONDS = 200_000;

export interface TsPgOptions {
  /** A build to use as it is; otherwise the scaled demo (seriesFactor, days, from). */
  build?: string;
  snapshot?: string;
  seriesFactor: number;
  days: number;
  from: string;
  runs: number;
  seconds: number;
  log: (l: string) => void;
}

/** One request: a GET path, or a POST path and JSON body. */
export interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface SideFigures {
  medianMs: number;
  p99Ms: number;
  /** wrk at 16 connections, round 1 and round 2. */
  /** `requests`: the answers wrk counted (its latencies are of those alone: requests still waiting at the end are not in them). */
  loaded: { requests: number; medianMs: number; p99Ms: number; rps: number; failures: number; toolBusy: number }[];
  /** snapcat only: its own account of the load runs (answer-cache hits, GC, queueing). */
  why?: Diagnosis[];
}

export interface TsPgQuery {
  name: string;
  example: string;
  bytes: { snapcat: number; postgres: number };
  snapcat: SideFigures;
  postgres: SideFigures;
}

export interface TsPgResult {
  snapshotName: string;
  observations: number;
  series: number;
  version: string;
  settings: string;
  load: ObservationLoad;
  loadCached: boolean;
  /** snapcat's files on disk: the pairs and index of the series store, the timeseries database. */
  snapcatBytes: { pairs: number; index: number; database: number };
  /** The snapshot's observation Parquet files the build read (data/observations-sources.json): what both sides load from. */
  sourceBytes: number | undefined;
  queries: TsPgQuery[];
  memory: { snapcatMb: number; pgServerMb: number };
}

/** One request over `agent`: status, the body (kept when `keep`), bytes, ms to the last byte. */
function ask(base: string, r: Req, agent: Agent, keep: boolean): Promise<{ status: number; body: Buffer; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Accept-Encoding': 'identity' };
    if (r.body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(r.body)) });
    const req = httpRequest(`${base}${r.path}`, { method: r.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', (e) => reject(new Error(`${r.method} ${base}${r.path}: ${e.message}`)));
    req.end(r.body);
  });
}

/** What wrk asks: GET `timespan=<period>/<end>` of the series in turn (with `suffix`), or POST one `period` of all `ids`. */
export interface LoadSpec {
  method: 'GET' | 'POST';
  period: string;
  ids: string[];
  suffix?: string;
}

/**
 * A wrk script whose every request is new: request n ends n seconds before `endSec` (Unix seconds), so no
 * answer is asked twice in a run of under `endSec - data start` requests (an answer cache never serves one).
 * GET: the series in turn, `/api/v1/timeseries/<id>/getData?timespan=<period>/<end><suffix>`; POST:
 * `/api/v1/timeseries/getData` with `{"timespan":"<period>/<end>","timeseries":[ids]}`.
 */
export function requestScriptText(spec: LoadSpec, endSec: number): string {
  const lua = (x: string) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const request =
    spec.method === 'GET'
      ? `return wrk.format("GET", "/api/v1/timeseries/" .. ids[(n % #ids) + 1] .. "/getData?timespan=" .. ${lua(spec.period)} .. "/" .. e .. ${lua(spec.suffix ?? '')}, plain)`
      : `return wrk.format("POST", "/api/v1/timeseries/getData", json, '{"timespan":"' .. ${lua(spec.period)} .. "/" .. e .. '","timeseries":' .. ${lua(JSON.stringify(spec.ids))} .. "}")`;
  return `local ids = {${spec.ids.map(lua).join(', ')}}
local json = {["Content-Type"] = "application/json"}
local plain = {}
local n = 0
local counter = 0
setup = function(thread)
  counter = counter + 1
  thread:set("start", (counter - 1) * 1000000)
end
init = function(args)
  n = tonumber(start) or 0
end
request = function()
  n = n + 1
  local e = os.date("!%Y-%m-%dT%H:%M:%SZ", ${Math.floor(endSec)} - n)
  ${request}
end
`;
}

/** requestScriptText written to `file`; returns it. */
export function requestScript(file: string, spec: LoadSpec, endSec: number): string {
  writeFileSync(file, requestScriptText(spec, endSec));
  return file;
}

/** Where two parsed answers first differ, for the failure message. */
export function firstDifference(a: unknown, b: unknown, at = '$'): string {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (!isDeepStrictEqual(a[i], b[i])) return i >= a.length || i >= b.length ? `${at}: ${a.length} against ${b.length} elements` : firstDifference(a[i], b[i], `${at}[${i}]`);
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${at}.${k}`);
    }
  }
  return `${at}: ${JSON.stringify(a)?.slice(0, 300)} against ${JSON.stringify(b)?.slice(0, 300)}`;
}

async function startPgTimeseriesProcess(pgHost: string, pgPort: number, port: number, s: ServerSettings): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['bench/pg-timeseries-server.ts', '--pghost', pgHost, '--pgport', String(pgPort), '--port', String(port), '--pool', String(PG_POOL), '--max-timespan', s.maxTimespan, '--generalizer', s.defaultGeneralizer, '--profile', s.profile],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += String(d);
      if (log.includes('serving')) {
        child.stderr!.off('data', onData);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`pg-timeseries-server exited (${code}): ${log}`)));
  });
  return child;
}

/** The resident set of one process, MB (/proc VmRSS). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Fewer answers than this in a load run: its latencies are not reported (too few, and the slowest still waiting). */
export const MIN_LOADED_ANSWERS = 32;

/** A load run in words: its latency and throughput, or that too few answers came for a latency. */
export function loadedText(l: SideFigures['loaded'][number]): string {
  const failed = l.failures ? ` (**${l.failures} failed**)` : '';
  if (l.requests < MIN_LOADED_ANSWERS) return `only ${l.requests} answers in the run: no latency figure (each connection waited longer than the run's answers took), ${l.rps.toFixed(1)} req/s${failed}`;
  return `median ${l.medianMs.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms, ${l.rps.toFixed(l.rps >= 10 ? 0 : 1)} req/s${failed}`;
}

/** snapcat / PostgreSQL for a load round; latency ratios only where both sides had enough answers. */
export function loadedRatio(s: SideFigures['loaded'][number], p: SideFigures['loaded'][number]): string {
  const throughput = p.rps > 0 ? `throughput ×${(s.rps / p.rps).toFixed(2)}` : 'PostgreSQL answered none';
  if (s.requests < MIN_LOADED_ANSWERS || p.requests < MIN_LOADED_ANSWERS) return throughput;
  return `median ×${(s.medianMs / p.medianMs).toFixed(2)}, p99 ×${(s.p99Ms / p.p99Ms).toFixed(2)}, ${throughput}`;
}

/**
 * The database-only build of a snapshot given alone (`--snapshot DIR` without `--build`), made in
 * bench/.work/ts-pg-build when missing, under `nice -n 10`; kept for a rerun over the same snapshot manifest
 * and build code.
 */
function snapshotBuild(snapshot: string, log: (l: string) => void): string {
  const manifest = join(snapshot, MANIFEST_FILE);
  if (!existsSync(manifest)) throw new Error(`${snapshot}: no ${MANIFEST_FILE} (a snapshot folder is needed)`);
  const out = join(WORK, 'ts-pg-build');
  const key = cacheKey({ manifest: readFileSync(manifest, 'utf8') }, BUILD_CODE);
  if (stamped(out, key) && existsSync(join(out, 'build.json'))) return out;
  rmSync(out, { recursive: true, force: true });
  log(`timeseries-postgres: database-only build of ${snapshot} into ${out} ...`);
  const r = spawnSync('nice', ['-n', '10', process.execPath, 'build-scripts/build.ts', '--snapshot', snapshot, '--out', out, '--db-only', '--no-site', '--full'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`the build of ${snapshot} failed (exit ${r.status})`);
  stamp(out, key);
  return out;
}

/** The size of the snapshot's observation files as the build recorded them, if it did. */
function sourceBytes(build: string): number | undefined {
  const file = join(build, 'data', 'observations-sources.json');
  if (!existsSync(file)) return undefined;
  const sources = JSON.parse(readFileSync(file, 'utf8')) as { files?: { size?: number }[] };
  return (sources.files ?? []).reduce((n, f) => n + (f.size ?? 0), 0);
}

export async function runTimeseriesPostgresBench(o: TsPgOptions): Promise<TsPgResult> {
  const log = o.log;
  const build = o.build ?? (o.snapshot ? snapshotBuild(o.snapshot, log) : (await scaleBuild({ seriesFactor: o.seriesFactor, days: o.days, from: o.from, runs: o.runs, log })).dir);
  if (!existsSync(join(build, 'build.json'))) throw new Error(`${build}: no build.json (a build folder of a timeseries snapshot is needed: npm run build -- --db-only)`);
  const info = JSON.parse(readFileSync(join(build, 'build.json'), 'utf8')) as { snapshot: { name: string } };
  const duckPath = join(build, 'data', 'timeseries-v1.duckdb');
  if (!existsSync(duckPath)) throw new Error(`${build} has no timeseries database (data/timeseries-v1.duckdb)`);

  // the build's settings (what the endpoint reads them from), for the PostgreSQL server
  const opened = await openServedBuild(build);
  let settings: ServerSettings;
  try {
    const ts = opened.timeseries;
    if (!ts) throw new Error(`${build} serves no Timeseries API`);
    settings = { maxTimespan: ts.catalogue.config.maxTimespan, defaultGeneralizer: ts.catalogue.config.defaultGeneralizer, profile: ts.profile };
  } finally {
    opened.close();
  }

  const inst = await openDuckDB({ path: duckPath, readOnly: true });
  const c = await inst.connect();
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
  const ids = (await rows(`SELECT t.id FROM timeseries t JOIN (SELECT sid, count(*) AS n FROM observations GROUP BY sid) o USING (sid) ORDER BY o.n DESC, hash(t.id) LIMIT 100`)).map((r) => String(r[0]));
  const [[lastT, observations, series]] = (await rows(`SELECT (SELECT max(last_timestamp)::DOUBLE FROM timeseries), (SELECT count(*)::DOUBLE FROM observations), (SELECT count(*)::DOUBLE FROM timeseries)`)) as [[number, number, number]];
  c.closeSync();
  inst.closeSync();
  log(`timeseries-postgres: ${info.snapshot.name}, ${observations.toLocaleString('en')} observations in ${series} series (${build})`);

  const bin = ensurePostgres();
  const pgFolder = join(WORK, 'pg-timeseries');
  // keyed by the snapshot's content (its manifest as the build recorded it), PostgreSQL's version and the loading code
  const pgKey = cacheKey({ snapshot: info.snapshot, version: bin.version }, ['bench/pg-timeseries-load.ts', 'bench/lib/postgres.ts']);
  const loadFile = join(pgFolder, 'load.json');
  const cached = stamped(pgFolder, pgKey) && existsSync(loadFile);
  log(`${bin.version} (${bin.how}), ${cached ? 'the cluster loaded by an earlier run' : 'a fresh cluster'} in bench/.work/pg-timeseries`);
  const server = await startPostgres({ bin, folder: pgFolder, port: await freePort(), reuse: cached });
  let pgServer: ChildProcess | undefined;
  let endpoint: ChildProcess | undefined;
  const agents: Agent[] = [];
  try {
    let load: ObservationLoad;
    if (cached) load = JSON.parse(readFileSync(loadFile, 'utf8')) as ObservationLoad;
    else {
      const client = new pg.Client(server.client());
      await client.connect();
      try {
        log('loading the observations into PostgreSQL ...');
        load = await loadObservations({ client, duckPath, csvDir: join(pgFolder, 'csv'), log: (l) => log(`  ${l}`) });
      } finally {
        await client.end();
      }
      writeFileSync(loadFile, JSON.stringify(load, null, 2) + '\n');
      stamp(pgFolder, pgKey);
    }
    log(`  loaded: ${load.rows.toLocaleString('en')} rows in ${load.seconds.toFixed(1)} s; observation table ${(load.totalBytes / 2 ** 30).toFixed(2)} GiB`);

    const port = await freePort();
    endpoint = watch(await startEndpointProcess(build, port, SNAPCAT_WORKERS), 'snapcat endpoint', log);
    const pgPort = await freePort();
    pgServer = watch(await startPgTimeseriesProcess(server.host, server.port, pgPort, settings), 'pg-timeseries-server', log);
    const bases = { snapcat: `http://127.0.0.1:${port}`, postgres: `http://127.0.0.1:${pgPort}` };

    // request i ends i × 10 minutes before the last observation: every timed request is a new one
    const endOf = (i: number) => new Date(lastT - (i + 1) * 600_000).toISOString().slice(0, 19) + 'Z';
    const longPeriod = (() => {
      try {
        checkMaxTimespan(parseTimespan(`P10Y/${endOf(0)}`), settings.maxTimespan);
        return 'P10Y';
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        log(`  the build's longest timespan is ${settings.maxTimespan}: the generalized query asks for that`);
        return settings.maxTimespan;
      }
    })();
    const sixty = ids.slice(0, 60);
    /** The i-th of the 60 series (i may be negative: the comparison and warm-up requests). */
    const nth = (i: number) => sixty[((i % sixty.length) + sixty.length) % sixty.length]!;
    const specs: { name: string; req: (i: number) => Req; load: LoadSpec }[] = [
      { name: 'getData of one year', req: (i) => ({ method: 'GET', path: `/api/v1/timeseries/${nth(i)}/getData?timespan=${encodeURIComponent(`P1Y/${endOf(i)}`)}` }), load: { method: 'GET', period: 'P1Y', ids: sixty } },
      {
        name: `getData of ${longPeriod === 'P10Y' ? 'ten years' : longPeriod}, generalize=true`,
        req: (i) => ({ method: 'GET', path: `/api/v1/timeseries/${nth(i)}/getData?timespan=${encodeURIComponent(`${longPeriod}/${endOf(i)}`)}&generalize=true` }),
        load: { method: 'GET', period: longPeriod, ids: sixty, suffix: '&generalize=true' },
      },
      { name: `POST getData of one week of ${ids.length} series`, req: (i) => ({ method: 'POST', path: '/api/v1/timeseries/getData', body: JSON.stringify({ timespan: `P7D/${endOf(i)}`, timeseries: ids }) }), load: { method: 'POST', period: 'P7D', ids } },
    ];
    const wrk = ensureWrk();
    const queries: TsPgQuery[] = [];
    for (const spec of specs) {
      const agent = { snapcat: new Agent({ keepAlive: true, maxSockets: 1 }), postgres: new Agent({ keepAlive: true, maxSockets: 1 }) };
      agents.push(agent.snapcat, agent.postgres);
      // the same answers: the first three requests, parsed and compared
      const bytes = { snapcat: 0, postgres: 0 };
      for (let i = 0; i < 3; i++) {
        const r = spec.req(-1 - i);
        const a = await ask(bases.snapcat, r, new Agent(), true);
        const b = await ask(bases.postgres, r, new Agent(), true);
        if (a.status !== 200 || b.status !== 200) throw new Error(`${r.method} ${r.path}: snapcat ${a.status}, PostgreSQL ${b.status}: ${a.body.toString().slice(0, 300)} ${b.body.toString().slice(0, 300)}`);
        const x: unknown = JSON.parse(a.body.toString('utf8'));
        const y: unknown = JSON.parse(b.body.toString('utf8'));
        if (!isDeepStrictEqual(x, y)) throw new Error(`PostgreSQL answers ${r.method} ${r.path} differently from snapcat: ${firstDifference(x, y)}`);
        bytes.snapcat = a.bytes;
        bytes.postgres = b.bytes;
      }
      log(`  ${spec.name}: both sides answer the same (3 requests compared; ${bytes.snapcat} bytes from snapcat, ${bytes.postgres} from PostgreSQL)`);
      // warm: each series' request once on each side (its pages into the page cache)
      for (let i = 0; i < Math.min(o.runs, sixty.length); i++) for (const side of ['snapcat', 'postgres'] as const) await ask(bases[side], spec.req(-4 - i), agent[side], false);
      const times = { snapcat: [] as number[], postgres: [] as number[] };
      for (let i = 0; i < o.runs; i++) {
        for (const side of i % 2 === 0 ? (['snapcat', 'postgres'] as const) : (['postgres', 'snapcat'] as const)) {
          const r = await ask(bases[side], spec.req(i), agent[side], false);
          if (r.status !== 200) throw new Error(`${side} ${spec.req(i).path}: ${r.status}`);
          times[side].push(r.ms);
        }
      }
      // 16 connections: requests not asked before (ends a second apart, before the timed ones'), both sides the
      // same sequence in a round; twice, in both orders, the second round's requests before the first's (an
      // answer the first round left in snapcat's answer cache is never asked again)
      const loadRun = (side: 'snapcat' | 'postgres', round: number) => {
        const script = requestScript(join(WORK, `ts-pg-${process.pid}.lua`), spec.load, Math.floor(lastT / 1000) - (o.runs + 1) * 600 - round * ROUND_SECONDS);
        try {
          const w = runWrk(wrk, { base: bases[side], script, threads: 1, connections: 16, seconds: o.seconds });
          return { requests: w.requests, medianMs: w.p50Ms, p99Ms: w.p99Ms, rps: w.rps, failures: w.failures, toolBusy: w.toolBusy };
        } finally {
          rmSync(script, { force: true });
        }
      };
      const loaded = { snapcat: [] as SideFigures['loaded'], postgres: [] as SideFigures['loaded'] };
      const why: Diagnosis[] = [];
      for (const [round, order] of ([['snapcat', 'postgres'], ['postgres', 'snapcat']] as const).entries()) {
        for (const side of order) {
          if (side === 'snapcat') {
            const before = await scrape(bases.snapcat);
            loaded.snapcat.push(loadRun('snapcat', round));
            why.push(diagnose(before, await scrape(bases.snapcat)));
          } else loaded.postgres.push(loadRun('postgres', round));
        }
      }
      const q: TsPgQuery = {
        name: spec.name,
        example: `${spec.req(0).method} ${spec.req(0).path}${spec.req(0).body ? ` ${spec.req(0).body!.slice(0, 80)}...` : ''}`,
        bytes,
        snapcat: { medianMs: median(times.snapcat), p99Ms: percentile(times.snapcat, 99), loaded: loaded.snapcat, why },
        postgres: { medianMs: median(times.postgres), p99Ms: percentile(times.postgres, 99), loaded: loaded.postgres },
      };
      const f = (s: SideFigures) => `one at a time median ${s.medianMs.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms; 16 connections ${s.loaded.map(loadedText).join(' / ')}`;
      log(`  ${spec.name}: snapcat ${f(q.snapcat)}; PostgreSQL ${f(q.postgres)}`);
      for (const w of why) log(`    snapcat under load: ${describeDiagnosis(w)}`);
      queries.push(q);
    }
    const memory = { snapcatMb: endpointRss(endpoint.pid!).rssMb, pgServerMb: rssMb(pgServer.pid!) };
    const shown = ['shared_buffers', 'work_mem', 'effective_cache_size', 'max_parallel_workers_per_gather', 'random_page_cost', 'jit'];
    // every segment of the series store (a full build has one; daily appends add more)
    const dataFiles = readdirSync(join(build, 'data'));
    const size = (re: RegExp) => dataFiles.filter((f) => re.test(f)).reduce((n, f) => n + statSync(join(build, 'data', f)).size, 0);
    return {
      snapshotName: o.snapshot ? `${info.snapshot.name} (${o.snapshot})` : info.snapshot.name,
      observations,
      series,
      version: bin.version,
      settings: shown.map((k) => `${k}=${BENCH_SETTINGS[k]}`).join(', '),
      load,
      loadCached: cached,
      snapcatBytes: { pairs: size(/^observations-v1(\.\d+)?\.pairs$/), index: size(/^observations-v1(\.\d+)?\.index$/), database: size(/^timeseries-v1\.duckdb$/) },
      sourceBytes: sourceBytes(build),
      queries,
      memory,
    };
  } finally {
    for (const a of agents) a.destroy();
    await stopProcess(endpoint);
    await stopProcess(pgServer);
    // the loaded cluster stays for the next run (its key is stamped once it is loaded)
    await server.stop({ keep: true });
  }
}
