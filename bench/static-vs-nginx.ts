/**
 * Static answers through the snapcat endpoint against nginx, at equal worker counts (nginx `worker_processes N`,
 * the endpoint `--workers N`), side by side in one run. The load tool is wrk (bench/lib/wrk.ts), one thread and
 * 32 connections, a Lua script rotating through the paths; autocannon saturated near 12k req/s here and measured
 * itself (issue 18).
 *
 * - small tree files: parameter-free paths of both APIs, a docs page, a chart, on the site bench's build (the
 *   30-day demo); nginx with the configuration the build writes.
 * - the one-day answer: `/radarnet/mirror/v3/files?timespan=<one day>` on the one-year database-only catalogue
 *   (about 127 KB, a live answer of the endpoint), 20 different days; nginx serves the same 20 answers as files
 *   (fetched from the endpoint once): the floor of sending those bytes.
 * - the tool's headroom: wrk against nginx's smallest file of the tree with 2 workers (the highest rate this
 *   machine gives), and wrk's own CPU share in every run.
 * Each comparison runs twice, endpoint and nginx alternating, so neither gets the quieter machine.
 * Every run also reports the server's own CPU per request (the process and its children: the endpoint's supervisor
 * and worker, nginx's master and workers; /proc): on a shared, loaded machine req/s is what the scheduler gave,
 * CPU per request is what each answer cost, and their ratio is the throughput ratio of two servers each with a
 * core to itself. With `--baseline REF` the endpoint of git revision REF runs beside this one on the small files
 * (bench/timeseries-scale.ts baselineRoot): before and after a change in one run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { nginxConfig } from '../build-scripts/nginx-config.ts';
import { ensureNginx, freePort, startNginx, type RunningNginx } from '../test/helpers/nginx.ts';
import { radarDbBuild, radarSnapshot, startEndpointProcess, WORK } from './radar.ts';
import { ensureWrk, rotationScript, runWrk, wrkVersion, type WrkRun } from './lib/wrk.ts';
import { cpuMsOf } from './stats.ts';

export const WRK_THREADS = 1;
export const WRK_CONNECTIONS = 32;

/** A wrk run and the server's CPU per request meanwhile (µs: its process and children, user and system). */
export type ServedRun = WrkRun & { serverCpuUs: number };

export interface Pair {
  endpoint: ServedRun;
  nginx: ServedRun;
  /** The endpoint of `--baseline REF` (small files only). */
  baseline?: ServedRun;
}

export interface StaticBench {
  paths: string[];
  oneDay: { example: string; bytes: number };
  runs: { workers: number; small: Pair[]; oneDay: Pair[] }[];
  headroom: { path: string; run: ServedRun };
  /** The baseline's revision, when one ran. */
  baseline?: string;
  seconds: number;
  nginxVersion: string;
  wrk: string;
}

/** Parameter-free paths of the tree: API records and collections of both APIs, a docs page, a chart. */
function staticPaths(buildDir: string): string[] {
  const site = join(buildDir, 'site');
  const json = <T>(p: string) => JSON.parse(readFileSync(join(site, p), 'utf8')) as T;
  const radars = json<{ id: number }[]>('radarnet/mirror/v3/radars.json');
  const series = json<{ id: string }[]>('api/v1/timeseries.json');
  return [
    '/radarnet/mirror/v3/',
    '/radarnet/mirror/v3/radars',
    `/radarnet/mirror/v3/radars/${radars[0]!.id}`,
    `/radarnet/mirror/v3/radars/${radars[5]!.id}?contentType=csv`,
    '/api/v1/',
    '/api/v1/stations',
    `/api/v1/timeseries/${series[0]!.id}`,
    `/api/v1/timeseries/${series[0]!.id}/getData`,
    '/api/v1/timeseries/ts_koeln_rhein_water_level/lastWeek',
    '/docs/radar/',
    '/browse/radars/',
  ];
}

/** The i-th one-day span of 2023, spread over the year (as bench/postgres.ts). */
function oneDayPath(i: number): string {
  const d = Date.UTC(2023, 0, 1) + ((i * 7919) % 364) * 86_400_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `/radarnet/mirror/v3/files?timespan=${day(d)}/${day(d + 86_400_000)}`;
}

/** A plain static nginx over `root` (the one-day answers as files), `workers` processes, as the build's config sends files. */
function plainNginxConfig(root: string, workers: number, listen: string): string {
  return `worker_processes ${workers};
pid nginx.pid;
error_log error.log warn;
events { worker_connections 1024; }
http {
  default_type application/json;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65s;
  client_body_temp_path client_body_temp;
  proxy_temp_path proxy_temp;
  fastcgi_temp_path fastcgi_temp;
  uwsgi_temp_path uwsgi_temp;
  scgi_temp_path scgi_temp;
  access_log access.log;
  server {
    listen ${listen};
    root ${root};
  }
}
`;
}

async function bodyOf(url: string): Promise<Buffer> {
  const r = await fetch(url);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return Buffer.from(await r.arrayBuffer());
}

function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

export async function runStaticVsNginx(siteBuild: string, seconds: number, log: (l: string) => void, baseline?: { root: string; sha: string }): Promise<StaticBench> {
  const bin = ensureNginx();
  if ('skip' in bin) throw new Error(`nginx is not available: ${bin.skip}`);
  const wrk = ensureWrk();
  const radarBuild = await radarDbBuild(() => radarSnapshot('2023-01-01', 365), 365, log);
  const work = join(WORK, `static-vs-nginx-${process.pid}`);
  mkdirSync(join(work, 'one-day'), { recursive: true });
  const paths = staticPaths(siteBuild);
  const dayPaths = Array.from({ length: 20 }, (_, i) => oneDayPath(i));
  const dayFiles = dayPaths.map((_, i) => `/${i}.json`);
  const script = (name: string, p: string[]) => rotationScript(join(work, `${name}.lua`), p);
  const scripts = { small: script('small', paths), dayEndpoint: script('day-endpoint', dayPaths), dayNginx: script('day-nginx', dayFiles) };
  // failed requests (non-2xx, socket errors) are counted and reported with the figures, not thrown
  // the server's process (its pid by its URL) and children: CPU used during each run, per request
  const pids = new Map<string, number>();
  const wrkRun = (base: string, s: string, secs = seconds): ServedRun => {
    const pid = pids.get(base);
    const cpu0 = pid === undefined ? NaN : cpuMsOf(pid);
    const r = runWrk(wrk, { base, script: s, threads: WRK_THREADS, connections: WRK_CONNECTIONS, seconds: secs });
    return { ...r, serverCpuUs: pid === undefined ? NaN : ((cpuMsOf(pid) - cpu0) * 1000) / r.requests };
  };
  const fmt = (r: ServedRun) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, server CPU ${r.serverCpuUs.toFixed(1)} µs/request (wrk ${(r.toolBusy * 100).toFixed(0)}% busy)${r.failures ? `, ${r.failures} failed` : ''}`;
  const ratios = (p: Pair, side: ServedRun = p.endpoint) => `ratio ${(side.rps / p.nginx.rps).toFixed(2)}, CPU ratio ${(p.nginx.serverCpuUs / side.serverCpuUs).toFixed(2)}`;
  log(`static answers: wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS}, ${seconds} s per run, endpoint --workers N against nginx worker_processes N, each twice`);

  const runs: StaticBench['runs'] = [];
  let oneDay: StaticBench['oneDay'] | undefined;
  let headroom: StaticBench['headroom'] | undefined;
  for (const workers of [1, 2]) {
    const started: { endpoints: ChildProcess[]; nginx: RunningNginx[] } = { endpoints: [], nginx: [] };
    try {
      const sitePort = await freePort();
      const siteEndpoint = await startEndpointProcess(siteBuild, sitePort, workers);
      started.endpoints.push(siteEndpoint);
      pids.set(`http://127.0.0.1:${sitePort}`, siteEndpoint.pid!);
      let baseBase: string | undefined;
      if (baseline) {
        const basePort = await freePort();
        const baseEndpoint = await startEndpointProcess(siteBuild, basePort, workers, undefined, {}, baseline.root);
        started.endpoints.push(baseEndpoint);
        baseBase = `http://127.0.0.1:${basePort}`;
        pids.set(baseBase, baseEndpoint.pid!);
      }
      const ngx = await startNginx(bin.path, join(work, `nginx-site-${workers}`), (listen) => nginxConfig({ site: join(siteBuild, 'site'), endpoint: `http://127.0.0.1:${sitePort}`, listen, workers }));
      started.nginx.push(ngx);
      pids.set(ngx.url, ngx.process.pid!);
      const dayPort = await freePort();
      const dayEndpoint = await startEndpointProcess(radarBuild, dayPort, workers);
      started.endpoints.push(dayEndpoint);
      const dayBase = `http://127.0.0.1:${dayPort}`;
      pids.set(dayBase, dayEndpoint.pid!);
      if (!oneDay) {
        const bodies = await Promise.all(dayPaths.map((p) => bodyOf(`${dayBase}${p}`)));
        bodies.forEach((b, i) => writeFileSync(join(work, 'one-day', `${i}.json`), b));
        oneDay = { example: dayPaths[0]!, bytes: bodies.reduce((a, b) => a + b.length, 0) / bodies.length };
      }
      const dayNginx = await startNginx(bin.path, join(work, `nginx-day-${workers}`), (listen) => plainNginxConfig(join(work, 'one-day'), workers, listen));
      started.nginx.push(dayNginx);
      pids.set(dayNginx.url, dayNginx.process.pid!);
      // the same bytes: nginx's file and the endpoint's answer
      const [a, b] = [await bodyOf(`${dayBase}${dayPaths[3]}`), await bodyOf(`${dayNginx.url}${dayFiles[3]}`)];
      if (!a.equals(b)) throw new Error('nginx does not send the one-day answer the endpoint sends');

      // warm both (page cache, first opens, compressed and held files)
      wrkRun(`http://127.0.0.1:${sitePort}`, scripts.small, 2);
      wrkRun(ngx.url, scripts.small, 2);
      if (baseBase) wrkRun(baseBase, scripts.small, 2);
      wrkRun(dayBase, scripts.dayEndpoint, 2);
      wrkRun(dayNginx.url, scripts.dayNginx, 2);
      if (workers === 2) {
        // headroom: nginx's smallest answer of the tree, at the rate this machine gives with wrk on one core
        const tiny = '/radarnet/mirror/v3/radars/' + JSON.parse(readFileSync(join(siteBuild, 'site', 'radarnet/mirror/v3/radars.json'), 'utf8'))[0].id + '.sha1';
        headroom = { path: tiny, run: wrkRun(ngx.url, script('tiny', [tiny])) };
        log(`  wrk's headroom: nginx (2 workers) on ${tiny}: ${fmt(headroom.run)}`);
      }
      const small: Pair[] = [];
      const day: Pair[] = [];
      for (let round = 0; round < 2; round++) {
        // round 1: endpoint, (baseline,) nginx; round 2: nginx, (baseline,) endpoint
        const pair = (e: () => ServedRun, n: () => ServedRun, b?: () => ServedRun): Pair => {
          if (round === 0) {
            const endpoint = e();
            const before = b?.();
            return { endpoint, nginx: n(), ...(before ? { baseline: before } : {}) };
          }
          const nginx = n();
          const before = b?.();
          return { endpoint: e(), nginx, ...(before ? { baseline: before } : {}) };
        };
        const p = pair(() => wrkRun(`http://127.0.0.1:${sitePort}`, scripts.small), () => wrkRun(ngx.url, scripts.small), baseBase ? () => wrkRun(baseBase, scripts.small) : undefined);
        small.push(p);
        log(`  N=${workers} small tree files, round ${round + 1}: endpoint ${fmt(p.endpoint)}; nginx ${fmt(p.nginx)}; ${ratios(p)}${p.baseline ? `; baseline ${baseline!.sha} ${fmt(p.baseline)}, ${ratios(p, p.baseline)}` : ''}`);
        day.push(pair(() => wrkRun(dayBase, scripts.dayEndpoint), () => wrkRun(dayNginx.url, scripts.dayNginx)));
        log(`  N=${workers} one-day answer, round ${round + 1}: endpoint ${fmt(day.at(-1)!.endpoint)}; nginx ${fmt(day.at(-1)!.nginx)}; ${ratios(day.at(-1)!)}`);
      }
      runs.push({ workers, small, oneDay: day });
    } finally {
      for (const n of started.nginx) await n.stop();
      for (const e of started.endpoints) await stop(e);
    }
  }
  return { paths, oneDay: oneDay!, runs, headroom: headroom!, ...(baseline ? { baseline: baseline.sha } : {}), seconds, nginxVersion: bin.version, wrk: wrkVersion(wrk) };
}
