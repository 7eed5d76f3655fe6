/**
 * Peak resident memory of the build and of the endpoint (issue #6).
 *
 * Build: `node build-scripts/build.ts` in a child process, as `npm run build` runs it, its resident set (with
 * any children) sampled from /proc every 50 ms and its high-water mark (VmHWM) read with each sample: a full
 * build (tree, no site, no charts) and a database-only build. Endpoint: its own process, as `npm run serve`
 * starts it, under a mixed load of one client, then of 4 clients at once (collections, one-year timespans, filters, id paths;
 * for the Timeseries API paging through every station and the timeseries, and a year of getData), sampled
 * the same way.
 */
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { build } from '../build-scripts/build.ts';
import { RADAR_DB_FILE } from '../lib/radar-catalogue.ts';
import { all, openDuckDB } from '../lib/duckdb.ts';
import { seriesStoreCurrent } from '../lib/series-segments.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { startEndpointProcess, WORK } from './radar.ts';
import { runSampled, treeRssMb } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');

export interface BuildMemory {
  files: number;
  seconds: number;
  peakRssMb: number;
}

/** A build of `snapshot` in its own process (output removed afterwards). */
export async function buildMemory(snapshot: string, dbOnly: boolean): Promise<BuildMemory> {
  const out = join(WORK, dbOnly ? 'memory-db' : 'memory-build');
  const clean = () => {
    rmSync(out, { force: true });
    rmSync(`${out}.builds`, { recursive: true, force: true });
    rmSync(`${out}.cache`, { recursive: true, force: true });
  };
  clean();
  try {
    const args = ['build-scripts/build.ts', '--snapshot', snapshot, '--out', out, '--quiet', '--no-charts', '--no-site', ...(dbOnly ? ['--db-only'] : [])];
    const r = await runSampled(args, ROOT);
    const files = (JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')) as { files: number }).files;
    return { files, seconds: r.seconds, peakRssMb: r.peakRssMb };
  } finally {
    clean();
  }
}

/** Reads a body to its end without keeping it. */
async function drain(url: string): Promise<{ status: number; bytes: number; link: string | null; error?: string }> {
  const r = await fetch(url);
  if (r.status !== 200) return { status: r.status, bytes: 0, link: null, error: `${r.status} ${url.replace(/^http:\/\/[^/]*/, '')}` };
  let bytes = 0;
  const reader = r.body!.getReader();
  try {
    for (let c = await reader.read(); !c.done; c = await reader.read()) bytes += c.value.byteLength;
  } catch (e) {
    return { status: 200, bytes, link: null, error: `200 cut after ${bytes} bytes (${(e as Error).message}) ${url.replace(/^http:\/\/[^/]*/, '')}` };
  }
  return { status: 200, bytes, link: r.headers.get('link') };
}

/** What a job did: requests made, bytes received, answers other than a whole 200. */
interface JobResult {
  requests: number;
  bytes: number;
  failed: string[];
}
/** A job: its first URL, and the requests it makes. */
type Job = { url: string; run: () => Promise<JobResult> };

export interface EndpointMemory {
  requests: number;
  /** Answers other than a whole 200 (status and path). */
  failed: string[];
  /** Bytes received per job (`<index> <first path>`), to compare runs of the same jobs. */
  bytesByJob: Map<string, number>;
  mb: number;
  seconds: number;
  /** Resident set once the endpoint is serving, before the first request. */
  startRssMb: number;
  peakRssMb: number;
}

/**
 * Runs `jobs` (each a function making one or more requests) on `clients` clients at once against an endpoint
 * process over `buildDir`, sampling its resident set every 50 ms.
 */
async function loadEndpoint(buildDir: string, port: number, jobs: Job[], clients: number): Promise<EndpointMemory> {
  // a start and stop first fills node's compile cache, as the first start after an upgrade does (node-flags.ts)
  const warm = await startEndpointProcess(buildDir, port);
  warm.kill('SIGTERM');
  await once(warm, 'exit');
  const child = await startEndpointProcess(buildDir, port);
  const startRssMb = treeRssMb(child.pid!).rssMb;
  let peak = 0;
  const sample = () => {
    const r = treeRssMb(child.pid!);
    peak = Math.max(peak, r.rssMb, r.hwmMb);
  };
  const sampler = setInterval(sample, 50);
  const t0 = performance.now();
  try {
    let next = 0;
    let requests = 0;
    let bytes = 0;
    const failed: string[] = [];
    const bytesByJob = new Map<string, number>();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let j = next++; j < jobs.length; j = next++) {
          const r = await jobs[j]!.run();
          bytesByJob.set(`${j} ${jobs[j]!.url.replace(/^http:\/\/[^/]*/, '')}`, r.bytes);
          requests += r.requests;
          bytes += r.bytes;
          failed.push(...r.failed);
        }
      }),
    );
    sample();
    return { requests, failed, bytesByJob, mb: bytes / 1e6, seconds: (performance.now() - t0) / 1000, startRssMb, peakRssMb: peak };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

const one = (url: string): Job => ({
  url,
  run: async () => {
    const r = await drain(url);
    return { requests: 1, bytes: r.bytes, failed: r.error ? [r.error] : [] };
  },
});

/** Radar catalogue: collections, one-year and shorter timespans, filters and id paths, `rounds` times over, shuffled. */
export async function radarEndpointMemory(buildDir: string, from: string, days: number, rounds: number, clients: number, port = 18790): Promise<EndpointMemory> {
  const instance = await openDuckDB({ path: join(buildDir, 'data', RADAR_DB_FILE), readOnly: true });
  const conn = await instance.connect();
  const [row] = await all(conn, 'SELECT (SELECT max(id) FROM files_x) AS files, (SELECT max(id) FROM transfers_x) AS transfers');
  conn.closeSync();
  instance.closeSync();
  const max = { files: Number(row!['files']), transfers: Number(row!['transfers']) };
  return loadEndpoint(buildDir, port, radarJobs(`http://127.0.0.1:${port}/radarnet/mirror/v3`, from, days, rounds, max), clients);
}

export function radarJobs(base: string, from: string, days: number, rounds: number, max: { files: number; transfers: number }): Job[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const day = (d: number) => new Date(start + d * 86_400_000).toISOString().slice(0, 10);
  const years = Math.max(1, Math.floor(days / 365.25));
  const firstYear = Number(from.slice(0, 4)) + (years > 1 ? 1 : 0);
  const jobs: Job[] = [];
  for (let round = 0; round < rounds; round++) {
    const y = firstYear + ((round * 7) % years);
    const span = years > 1 ? `${y}/${y + 1}` : `${day(0)}/${day(days)}`;
    const d = (round * 7919) % (days - 31);
    const month = `${day(d)}/${day(d + 30)}`;
    const id = 1 + ((round * 104_729) % max.files);
    for (const path of [
      '/',
      '/?contentType=html',
      '/radars',
      '/radars?expanded=true&contentType=csv',
      '/metadata/institutes',
      '/metadata/transfer/methods?contentType=csv',
      '/coverage/temporal',
      '/files/blacklisted',
      '/transferred/files/alarm?distinct=true',
      `/transfers?timespan=${span}`,
      `/files?timespan=${span}`,
      `/files?timespan=${span}&expanded=true&contentType=csv`,
      `/transferred/files?timespan=${span}&distinct=true&expanded=true`,
      `/files?timespan=${month}&bbox=-30,40,40,75`,
      `/files?timespan=${month}&radar_code=kap&contentType=checksumReport`,
      `/files?timespan=${day(d)}/${day(d + 1)}`,
      `/files/${id}`,
      `/files/${id}?expanded=true`,
      `/files/${id}?contentType=csv&expanded=true`,
      `/files/${id}?contentType=checksumReport`,
      `/transferred/files/${id}`,
      `/transfers/${1 + ((round * 7919) % max.transfers)}`,
    ]) {
      jobs.push(one(`${base}${path}`));
    }
  }
  // a fixed shuffle, so the heavy requests do not all run at once or all apart
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!];
  }
  return jobs;
}

/** Follows `next` links from the first page to the end. */
function pages(first: string): Job {
  const run = async () => {
    let requests = 0;
    let bytes = 0;
    const failed: string[] = [];
    for (let url: string | undefined = first; url; ) {
      const r = await drain(url);
      requests++;
      bytes += r.bytes;
      if (r.error) failed.push(r.error);
      const next = r.link && /<([^>]*)>; rel="next"/.exec(r.link)?.[1];
      url = next ? new URL(next, url).href : undefined;
    }
    return { requests, bytes, failed };
  };
  return { url: first, run };
}

/** Timeseries API: paging through every station and every timeseries, whole collections, a year of getData. */
export async function timeseriesEndpointMemory(buildDir: string, rounds: number, clients: number, port = 18791): Promise<EndpointMemory> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const series = (JSON.parse(readFileSync(join(buildDir, 'site', 'api', 'v1', 'timeseries.json'), 'utf8')) as { id: string }[]).map((s) => s.id);
  const stations = (JSON.parse(readFileSync(join(buildDir, 'site', 'api', 'v1', 'stations.json'), 'utf8')) as unknown[]).length;
  const limit = Math.max(10, Math.min(1000, Math.floor(stations / 100)));
  const jobs: Job[] = [];
  for (let round = 0; round < rounds; round++) {
    const ts = series[round % series.length]!;
    jobs.push(
      pages(`${base}/stations?offset=0&limit=${limit}`),
      pages(`${base}/stations?expanded=true&offset=0&limit=${limit}`),
      pages(`${base}/timeseries?expanded=true&offset=0&limit=${Math.max(1, Math.floor(limit / 10))}`),
      one(`${base}/stations?locale=de`),
      one(`${base}/stations?bbox=${encodeURIComponent(JSON.stringify({ ll: { type: 'Point', coordinates: [0, 45] }, ur: { type: 'Point', coordinates: [10, 55] } }))}`),
      one(`${base}/timeseries/${ts}/getData?timespan=P1Y/2024-01-01T00:00:00Z`),
      one(`${base}/timeseries/${ts}/getData?timespan=P1Y/2024-01-01T00:00:00Z&generalize=true`),
      one(`${base}/search?q=station%201`),
    );
  }
  return loadEndpoint(buildDir, port, jobs, clients);
}

/** The Timeseries API build to page through: the timeseries bench's (100,000 stations) when there, else a 14-day demo. */
export async function timeseriesBuild(log: (l: string) => void): Promise<string> {
  const bench = join(ROOT, '.cache', 'bench-timeseries', 'dist');
  const current = (dist: string) => existsSync(join(dist, 'build.json')) && seriesStoreCurrent(join(dist, 'data'));
  if (current(bench)) return realpathSync(bench);
  const out = join(WORK, 'memory-timeseries');
  if (!current(out)) {
    log('memory: no timeseries bench build (.cache/bench-timeseries): building a 14-day timeseries demo ...');
    const snap = join(WORK, 'memory-timeseries-snapshot');
    await writeDemoSnapshot({ from: '2024-01-01', days: 14, seed: 2, out: snap, apis: ['timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true, charts: false, site: false });
  }
  return realpathSync(out);
}
