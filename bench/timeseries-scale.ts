/**
 * npm run bench -- --only timeseries-scale [--series-factor 1] [--days 3700] [--ts-from 2016-01-01] [--runs 90] [--baseline main]
 *
 * Issue 23's answer times over a scaled timeseries snapshot, the endpoint in its own process:
 * 1. the snapshot: `demo-snapshot --series-factor K --days N --from D --fast-values --apis timeseries-v1`, under
 *    `nice -n 10`, cached in bench/.work/ts-scale-xK-Nd-D-fast/snapshot (keyed by those inputs). Its
 *    `web_config-general.json` gets `requestIntervalRestriction: P10Y3D` (the demo's is P1Y1D) so ten years
 *    can be asked for at all: an operator's setting (docs/timeseries-api-notes.md, "Long timespans");
 * 2. its database-only build (`build --db-only --no-site`, nice -n 10), cached beside it in `db-build`;
 * 3. the endpoint (`server/main.ts --workers 1`, the endpoint's node flags) on an ephemeral port, asked one
 *    request at a time over a keep-alive connection (node:http: the client's own cost stays small):
 *    - getData of one year of each of the 60 series with the most observations (10-minute gauges);
 *    - getData of ten years of the same series with `generalize=true` (the build's generalizer, LTTB);
 *    - POST getData of one week of 100 series (the 100 with the most observations);
 *    each `runs` times (cycling over the series), ending at the build's last observation, first without
 *    compression (`Accept-Encoding: identity`), then as a browser asks (`Accept-Encoding: gzip, deflate, br,
 *    zstd`: zstd): the compressed bytes are counted, not decoded (a browser decodes in its own process).
 *    Each request is asked once before the timed runs (the page cache then holds what they read, as it does on
 *    a server that has been answering: the issue's "stays on disk and in the page cache"). Median and p99 of
 *    request to last byte; the endpoint's resident memory (supervisor and worker) before the first request and
 *    after the last.
 * With `--baseline REF` the endpoint of git revision REF (bench/.work/baseline-<sha>, a `git archive` of it) runs
 * beside this one over the same build, the two taking turns request by request: before and after in one run.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../core/snapshot/table-schema.ts';
import { constants, zstdCompressSync } from 'node:zlib';
import { answerData, dataOf } from '../core/timeseries/data.ts';
import { dataBody } from '../core/timeseries/data-body.ts';
import { readGetData, readPostData } from '../core/timeseries/data-request.ts';
import { generalize } from '../core/timeseries/generalize.ts';
import { openDuckDB } from '../lib/duckdb.ts';
import { LEVELS } from '../server/compression.ts';
import { openServedBuild } from '../server/served-build.ts';
import { seriesStoreCurrent } from '../lib/series-segments.ts';
import { ENDPOINT_NODE_ENV, ENDPOINT_NODE_FLAGS } from '../server/node-flags.ts';
import { cpuMsOf, endpointRss, median, percentile, treeRssMb } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const WORK = join(import.meta.dirname, '.work');
/** The longest request timespan of the bench's build: ten years and the leap days they may hold, and a day more. */
export const SCALE_MAX_TIMESPAN = 'P10Y3D';

export interface ScaleOptions {
  seriesFactor: number;
  days: number;
  from: string;
  runs: number;
  log: (l: string) => void;
}

export interface QueryFigure {
  name: string;
  /** CPU ms the endpoint (supervisor and worker, user and system) spent per request of the timed runs. */
  cpuMs: number;
  coding: 'identity' | 'zstd';
  medianMs: number;
  p99Ms: number;
  bytes: number;
  runs: number;
}

export interface ScaleFigures {
  snapshotName: string;
  observations: number;
  series: number;
  generated?: { seconds: number; peakRssMb: number };
  built?: { seconds: number; peakRssMb: number };
  pairsBytes: number;
  yearPoints: number;
  tenYearPoints: number;
  queries: QueryFigure[];
  rssStartMb: number;
  rssEndMb: number;
}

/** Runs `nice -n 10 node args` in the worktree, sampling the resident set of it and its children every 100 ms. */
async function niceRun(args: string[], log: (l: string) => void): Promise<{ seconds: number; peakRssMb: number }> {
  const t0 = performance.now();
  const child = spawn('nice', ['-n', '10', process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + String(d)).slice(-20_000);
    const last = String(d).trim().split('\n').pop();
    if (last) log(`    ${last.slice(0, 160)}`);
  });
  let peak = 0;
  const sampler = setInterval(() => {
    const r = treeRssMb(child.pid!);
    peak = Math.max(peak, r.rssMb, r.hwmMb);
  }, 100);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  return { seconds: (performance.now() - t0) / 1000, peakRssMb: peak };
}

/** The snapshot's general settings file, wherever the generator put it. */
function generalConfig(snapshot: string): string {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'web_config-general.json') found.push(join(d, e.name));
    }
  };
  walk(snapshot);
  if (found.length !== 1) throw new Error(`${snapshot}: ${found.length} web_config-general.json files, one expected`);
  return found[0]!;
}

/** The scaled snapshot and its database-only build, made when missing (cached under bench/.work by their inputs). */
export async function scaleBuild(o: ScaleOptions): Promise<{ dir: string; generated?: ScaleFigures['generated']; built?: ScaleFigures['built'] }> {
  const dir = join(WORK, `ts-scale-x${o.seriesFactor}-${o.days}d-${o.from}-fast`);
  const snapshot = join(dir, 'snapshot');
  const out = join(dir, 'db-build');
  let generated: ScaleFigures['generated'];
  let built: ScaleFigures['built'];
  if (!existsSync(join(snapshot, MANIFEST_FILE))) {
    o.log(`timeseries-scale: generating the snapshot (--series-factor ${o.seriesFactor} --days ${o.days} --from ${o.from} --fast-values) into ${snapshot} ...`);
    rmSync(out, { recursive: true, force: true });
    generated = await niceRun(['build-scripts/demo-snapshot.ts', '--from', o.from, '--days', String(o.days), '--series-factor', String(o.seriesFactor), '--fast-values', '--apis', 'timeseries-v1', '--out', snapshot], o.log);
  }
  const general = generalConfig(snapshot);
  const settings = JSON.parse(readFileSync(general, 'utf8')) as Record<string, unknown>;
  if (settings['requestIntervalRestriction'] !== SCALE_MAX_TIMESPAN) {
    writeFileSync(general, JSON.stringify({ ...settings, requestIntervalRestriction: SCALE_MAX_TIMESPAN }, null, 2) + '\n');
    rmSync(out, { recursive: true, force: true });
  }
  if (!(existsSync(join(out, 'build.json')) && seriesStoreCurrent(join(out, 'data')))) {
    o.log(`timeseries-scale: database-only build into ${out} ...`);
    built = await niceRun(['build-scripts/build.ts', '--snapshot', snapshot, '--out', out, '--db-only', '--no-site', '--full'], o.log);
  }
  return { dir: out, ...(generated ? { generated } : {}), ...(built ? { built } : {}) };
}

/**
 * The code of git revision `ref` (`git archive`, node_modules linked to this worktree's), in bench/.work: the
 * endpoint of before a change, to run beside this one in the same run.
 */
export function baselineRoot(ref: string): { root: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const root = join(WORK, `baseline-${sha}`);
  if (!existsSync(join(root, 'server', 'main.ts'))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${root}'`], { cwd: ROOT });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(root, 'node_modules'));
  }
  return { root, sha };
}

async function startEndpoint(build: string, root = ROOT): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...ENDPOINT_NODE_FLAGS, 'server/main.ts', '--build', build, '--port', '0', '--workers', '1'], {
    cwd: root,
    env: { ...process.env, ...ENDPOINT_NODE_ENV },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += String(d);
      const m = /serving .* on (http:\/\/\S+)/.exec(log);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`endpoint exited (${code}): ${log}`)));
  });
  return { child, url };
}

type Coding = 'identity' | 'zstd';

export interface StageFigures {
  /** CPU ms per run of each stage, by query: the read of the series file (index lookup, positioned read, split
   * into times and values), generalization, the JSON bytes, and zstd level 1 of them on the event loop. */
  [query: string]: Record<string, number>;
}

/**
 * Where a query's time goes, in this process over the same build (this checkout's code): each stage alone,
 * `runs` times after a warm pass, CPU ms per run.
 */
async function stageTimes(build: string, ids: string[], lastT: number, runs: number): Promise<StageFigures> {
  const opened = await openServedBuild(build);
  try {
    const ts = opened.timeseries!;
    const cat = ts.catalogue;
    const src = ts.series.source;
    const end = new Date(lastT).toISOString().slice(0, 19) + 'Z';
    const zstd = (b: Uint8Array) => zstdCompressSync(b, { params: { [constants.ZSTD_c_compressionLevel]: LEVELS.zstd } });
    // CPU ms per run (process.cpuUsage: user and system time of every thread of this process), which a loaded
    // machine inflates far less than the wall time (a process there waits for a core most of the time)
    const timeIt = async (f: () => unknown) => {
      for (let i = 0; i < 3; i++) await f();
      const c0 = process.cpuUsage();
      for (let i = 0; i < runs; i++) await f();
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000 / runs;
    };
    const out: StageFigures = {};
    const k = cat.ids.timeseries.get(ids[0]!)!;
    for (const [name, q] of [['one year', `timespan=P1Y/${end}`], ['ten years, generalize=true', `timespan=P10Y/${end}&generalize=true`]] as const) {
      const { request } = readGetData(new URLSearchParams(q), cat, k);
      const s = cat.timeseries[k]!;
      const points = await src.read(s, request.span);
      const f: Record<string, number> = { read: await timeIt(() => src.read(s, request.span)) };
      if (request.generalize) f['generalize'] = await timeIt(() => generalize(points, request.generalize!));
      const data = await dataOf(cat, src, request);
      f['JSON'] = await timeIt(() => dataBody(data, request));
      f['zstd'] = await timeIt(() => zstd(dataBody(data, request))) - f['JSON']!;
      f['all but zstd (answerData)'] = await timeIt(() => answerData(cat, src, request));
      out[name] = f;
    }
    const post = readPostData({ timespan: `P7D/${end}`, timeseries: ids.slice(0, 100) }, new URLSearchParams(), cat, ts.profile);
    const data = await dataOf(cat, src, post);
    const f: Record<string, number> = { 'read (100 series)': await timeIt(() => dataOf(cat, src, post)), JSON: await timeIt(() => dataBody(data, post)) };
    f['zstd'] = (await timeIt(() => zstd(dataBody(data, post)))) - f['JSON']!;
    f['all but zstd (answerData)'] = await timeIt(() => answerData(cat, src, post));
    out['POST one week of 100 series'] = f;
    return out;
  } finally {
    opened.close();
  }
}

/** One request at a time over a keep-alive connection: ms from the request to its last byte, and the bytes. */
function client(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (method: 'GET' | 'POST', path: string, coding: Coding, body?: string) =>
    new Promise<{ ms: number; bytes: number; text: string }>((resolve, reject) => {
      const t0 = performance.now();
      const headers: Record<string, string> = { 'Accept-Encoding': coding === 'identity' ? 'identity' : 'gzip, deflate, br, zstd' };
      if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      const req = httpRequest(`${url}${path}`, { method, agent, headers }, (res) => {
        let bytes = 0;
        const keep: Buffer[] = [];
        res.on('data', (d: Buffer) => {
          bytes += d.length;
          if (keep.length < 64) keep.push(d);
        });
        res.on('end', () => {
          const ms = performance.now() - t0;
          const text = Buffer.concat(keep).toString().slice(0, 300);
          if (res.statusCode !== 200) reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
          else if (coding === 'zstd' && res.headers['content-encoding'] !== 'zstd') reject(new Error(`${path}: Content-Encoding ${res.headers['content-encoding']}, zstd expected`));
          else resolve({ ms, bytes, text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  return { ask, close: () => agent.destroy() };
}

export interface ScaleRun extends ScaleOptions {
  /** A git revision whose endpoint runs beside this one, the requests alternating between the two. */
  baseline?: string;
}

export async function runTimeseriesScaleBench(o: ScaleRun): Promise<ScaleFigures & { stages: StageFigures; baseline?: { sha: string; queries: QueryFigure[]; rssStartMb: number; rssEndMb: number } }> {
  const b = await scaleBuild(o);
  const inst = await openDuckDB({ path: join(b.dir, 'data/timeseries-v1.duckdb'), readOnly: true });
  const c = await inst.connect();
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
  // the series with the most observations (10-minute gauges first), in a stable order
  const ids = (await rows(`SELECT t.id FROM timeseries t JOIN (SELECT sid, count(*) AS n FROM observations GROUP BY sid) o USING (sid) ORDER BY o.n DESC, hash(t.id) LIMIT 100`)).map((r) => String(r[0]));
  const [[lastT, observations, series]] = (await rows(`SELECT (SELECT max(last_timestamp)::DOUBLE FROM timeseries), (SELECT count(*)::DOUBLE FROM observations), (SELECT count(*)::DOUBLE FROM timeseries)`)) as [[number, number, number]];
  c.closeSync();
  inst.closeSync();
  const name = (JSON.parse(readFileSync(join(b.dir, 'build.json'), 'utf8')) as { snapshot: { name: string } }).snapshot.name;
  const base = o.baseline ? baselineRoot(o.baseline) : undefined;
  const sides = [{ label: 'this', ...(await startEndpoint(b.dir)) }];
  try {
    if (base) sides.push({ label: base.sha, ...(await startEndpoint(b.dir, base.root)) });
    const clients = sides.map((sd) => client(sd.url));
    // run i ends i × 10 minutes before the last observation (the warm pass, run -1, at it): every timed GET is a
    // new URL, which the endpoint's answer cache (server/answer-cache.ts, answers up to 1 MB) has not seen
    const endOf = (i: number) => new Date(lastT - (i + 1) * 600_000).toISOString().slice(0, 19) + 'Z';
    const year = (id: string, i: number) => `/api/v1/timeseries/${id}/getData?timespan=${encodeURIComponent(`P1Y/${endOf(i)}`)}`;
    const tenYears = (id: string, i: number) => `/api/v1/timeseries/${id}/getData?timespan=${encodeURIComponent(`P10Y/${endOf(i)}`)}&generalize=true`;
    const week = (i: number) => JSON.stringify({ timespan: `P7D/${endOf(i)}`, timeseries: ids.slice(0, 100) });
    const count = async (path: string) => ((await (await fetch(`${sides[0]!.url}${path}`)).json()) as { values: unknown[] }).values.length;
    const rssStart = sides.map((sd) => endpointRss(sd.child.pid!).rssMb);
    const yearPoints = await count(year(ids[0]!, -1));
    const tenYearPoints = await count(`/api/v1/timeseries/${ids[0]!}/getData?timespan=${encodeURIComponent(`P10Y/${endOf(-1)}`)}`);
    const queries: QueryFigure[][] = sides.map(() => []);
    const sixty = ids.slice(0, 60);
    for (const coding of ['identity', 'zstd'] as const) {
      for (const [qname, f] of [
        ['getData of one year', (ask: ReturnType<typeof client>['ask'], i: number, run: number) => ask('GET', year(sixty[i % sixty.length]!, run), coding)],
        ['getData of ten years, generalize=true', (ask: ReturnType<typeof client>['ask'], i: number, run: number) => ask('GET', tenYears(sixty[i % sixty.length]!, run), coding)],
        ['POST getData of one week of 100 series', (ask: ReturnType<typeof client>['ask'], _i: number, run: number) => ask('POST', '/api/v1/timeseries/getData', coding, week(run))],
      ] as const) {
        // warm: every request of the run once on each side (the page cache holds the series' pairs: ten years of
        // 60 series are 500 MB read from disk the first time), then the sides take turns, request by request
        for (let i = 0; i < Math.min(o.runs, sixty.length); i++) for (const cl of clients) await f(cl.ask, i, -1);
        const ms: number[][] = sides.map(() => []);
        const bytes: number[] = sides.map(() => 0);
        const cpu0 = sides.map((sd) => cpuMsOf(sd.child.pid!));
        for (let i = 0; i < o.runs; i++) {
          for (let k = 0; k < clients.length; k++) {
            const side = (i + k) % clients.length; // who goes first alternates
            const r = await f(clients[side]!.ask, i, coding === 'identity' ? i : o.runs + i);
            ms[side]!.push(r.ms);
            bytes[side] = r.bytes;
          }
        }
        sides.forEach((sd, k) => {
          const cpuMs = (cpuMsOf(sd.child.pid!) - cpu0[k]!) / o.runs;
          const q = { name: qname, coding, cpuMs, medianMs: median(ms[k]!), p99Ms: percentile(ms[k]!, 99), bytes: bytes[k]!, runs: o.runs };
          o.log(`  ${sd.label}: ${qname} (${coding}): median ${q.medianMs.toFixed(1)} ms, p99 ${q.p99Ms.toFixed(1)} ms, endpoint CPU ${cpuMs.toFixed(1)} ms a request, ${q.bytes} bytes`);
          queries[k]!.push(q);
        });
      }
    }
    const rssEnd = sides.map((sd) => endpointRss(sd.child.pid!).rssMb);
    for (const cl of clients) cl.close();
    o.log('  stages, in process ...');
    const stages = await stageTimes(b.dir, ids, lastT, Math.min(o.runs, 30));
    o.log(`  ${JSON.stringify(stages, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`);
    return {
      snapshotName: name,
      observations,
      series,
      ...(b.generated ? { generated: b.generated } : {}),
      ...(b.built ? { built: b.built } : {}),
      pairsBytes: statSync(join(b.dir, 'data', 'observations-v1.pairs')).size,
      yearPoints,
      tenYearPoints,
      queries: queries[0]!,
      stages,
      rssStartMb: rssStart[0]!,
      rssEndMb: rssEnd[0]!,
      ...(base ? { baseline: { sha: base.sha, queries: queries[1]!, rssStartMb: rssStart[1]!, rssEndMb: rssEnd[1]! } } : {}),
    };
  } finally {
    for (const sd of sides) {
      sd.child.kill('SIGTERM');
      await once(sd.child, 'exit');
    }
  }
}
