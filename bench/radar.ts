/**
 * Radar catalogue benchmarks: the static build against a plain loop replaying the same writes, and live
 * queries on a large catalogue (latency, and the endpoint's memory while it streams all of /files).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { build } from '../build-scripts/build.ts';
import { RADAR_DB_FILE, readCatalogueFacts } from '../lib/radar-catalogue.ts';
import { openDuckDB } from '../lib/duckdb.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { ENDPOINT_NODE_ENV, ENDPOINT_NODE_FLAGS } from '../server/node-flags.ts';
import { plainWrite, readFiles } from './plain-write.ts';
import { BUILD_CODE, cacheKey, stamp, stamped } from './lib/bench-cache.ts';
import { endpointRss, median, percentile } from './stats.ts';

export const WORK = join(import.meta.dirname, '.work');
const ROOT = join(import.meta.dirname, '..');

/** The code that writes the demo radar snapshots (the key of a generated one, with its inputs). */
export const RADAR_GENERATOR_CODE = ['build-scripts/demo-snapshot.ts', 'build-scripts/demo', 'core/snapshot'];

/**
 * The demo radar snapshot of `days` days from `from` (seed 1) in bench/.work, generated again when missing or
 * made by other generator code (bench/lib/bench-cache.ts).
 */
export async function radarSnapshot(from: string, days: number): Promise<string> {
  const dir = join(WORK, `radar-${from}-${days}d`);
  const key = cacheKey({ from, days, seed: 1, apis: ['radarnet-mirror-v3'] }, RADAR_GENERATOR_CODE);
  if (!stamped(dir, key)) {
    console.error(`generating a ${days}-day radar snapshot from ${from} ...`);
    await writeDemoSnapshot({ from, days, seed: 1, out: dir, apis: ['radarnet-mirror-v3'], log: () => {} });
    stamp(dir, key);
  }
  return dir;
}

export interface BuildFigures {
  phases: Record<string, number>;
  files: number;
  buildFilesPerSec: number;
  plainFilesPerSec: number;
  ratio: number;
}

/** Alternates full builds and plain replays of the same writes, in the same order, on the same disk. */
export async function benchStaticBuild(snapshot: string, rounds: number): Promise<BuildFigures> {
  const out = join(WORK, 'radar-build');
  const plain = join(WORK, 'plain-write');
  const buildRates: number[] = [];
  const phases: Record<string, number>[] = [];
  const plainRates: number[] = [];
  let files = 0;
  for (let i = 0; i < rounds; i++) {
    rmSync(out, { force: true });
    rmSync(`${out}.builds`, { recursive: true, force: true });
    // Each timed run starts with no dirty pages of the one before: writeback throttling of the previous
    // run's 100k+ files otherwise slows whichever runs second by up to 4x.
    execFileSync('sync');
    const r = await build({ snapshot, out, quiet: true, recordOrder: true });
    files = r.files;
    buildRates.push(r.files / r.seconds);
    phases.push(r.phases);
    const written = readFiles(join(out, 'site'), r.order!);
    rmSync(plain, { recursive: true, force: true });
    execFileSync('sync');
    const s = plainWrite(written, plain);
    plainRates.push(written.length / s);
    console.error(`  round ${i + 1}: build ${Math.round(r.files / r.seconds)} files/s, plain loop ${Math.round(written.length / s)} files/s; build phases ${JSON.stringify(r.phases, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`);
  }
  rmSync(plain, { recursive: true, force: true });
  const b = median(buildRates);
  const p = median(plainRates);
  const phaseMedians = Object.fromEntries(Object.keys(phases[0] ?? {}).map((k) => [k, median(phases.map((ph) => ph[k] ?? 0))]));
  return { files, buildFilesPerSec: b, plainFilesPerSec: p, ratio: b / p, phases: phaseMedians };
}

export async function startEndpointProcess(buildDir: string, port: number, workers = 1, nodeFlags: readonly string[] = ENDPOINT_NODE_FLAGS, env: NodeJS.ProcessEnv = {}, root = ROOT): Promise<ChildProcess> {
  // root: the checkout whose endpoint runs (a baseline's: bench/timeseries-scale.ts baselineRoot)
  const child = spawn(process.execPath, [...nodeFlags, 'server/main.ts', '--build', buildDir, '--port', String(port), '--workers', String(workers)], {
    cwd: root,
    env: { ...process.env, ...ENDPOINT_NODE_ENV, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Keep reading stderr to the end: a closed pipe would kill the endpoint at its next log line.
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += String(d);
      if (log.includes('serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`endpoint exited (${code}): ${log}`)));
  });
  return child;
}

/** One request, its body read to the end without being kept; `records` counts `{` (one per simple-view record). */
async function timed(url: string): Promise<{ ms: number; bytes: number; records: number }> {
  const t0 = performance.now();
  const r = await fetch(url);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  let bytes = 0;
  let records = 0;
  const reader = r.body!.getReader();
  for (let c = await reader.read(); !c.done; c = await reader.read()) {
    const chunk = Buffer.from(c.value.buffer, c.value.byteOffset, c.value.byteLength);
    bytes += chunk.byteLength;
    for (let i = chunk.indexOf(123); i !== -1; i = chunk.indexOf(123, i + 1)) records++;
  }
  return { ms: performance.now() - t0, bytes, records };
}

export interface QueryFigures {
  files: number;
  oneDayMedianMs: number;
  oneDayP99Ms: number;
  oneDayRows: number;
  oneYearMedianMs: number;
  streamAllSeconds: number;
  streamAllMb: number;
  endpointPeakRssMb: number;
}

/** True when `out` holds a radar catalogue database this version of snapcat serves (readCatalogueFacts accepts it). */
async function radarDbCurrent(out: string): Promise<boolean> {
  if (!existsSync(join(out, 'build.json'))) return false;
  const instance = await openDuckDB({ path: join(out, 'data', RADAR_DB_FILE), readOnly: true, threads: 1 });
  const conn = await instance.connect();
  try {
    await readCatalogueFacts(conn);
    return true;
  } catch {
    return false;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * The database-only build of a `days`-day catalogue the benches share (`bench/.work/radar-db-<days>d`), built
 * again when missing or made by an earlier snapcat.
 */
export async function radarDbBuild(snapshot: () => Promise<string>, days: number, log?: (line: string) => void): Promise<string> {
  const out = join(WORK, `radar-db-${days}d`);
  // the snapshot of `days` days is the one radarSnapshot generates for them: keyed by its code and the build's
  const key = cacheKey({ days, build: 'db-only' }, [...RADAR_GENERATOR_CODE, ...BUILD_CODE]);
  if (stamped(out, key) && (await radarDbCurrent(out))) return out;
  log?.(`building the ${days}-day radar catalogue (database only) ...`);
  await build({ snapshot: await snapshot(), out, quiet: true, dbOnly: true });
  stamp(out, key);
  return out;
}

/** Live queries through a real endpoint process over a database-only build of `snapshot`. */
export async function benchQueries(snapshot: string, from: string, days: number, port = 18765): Promise<QueryFigures> {
  const out = await radarDbBuild(async () => snapshot, days);
  const child = await startEndpointProcess(out, port);
  try {
    const base = `http://127.0.0.1:${port}/radarnet/mirror/v3`;
    const start = Date.parse(`${from}T00:00:00Z`);
    /** The i-th one-day span, spread over the catalogue's days. */
    const oneDay = (i: number) => {
      const d = start + ((i * 7919) % (days - 1)) * 86_400_000;
      return `${new Date(d).toISOString().slice(0, 10)}/${new Date(d + 86_400_000).toISOString().slice(0, 10)}`;
    };
    for (let i = 0; i < 20; i++) await timed(`${base}/files?timespan=${oneDay(i + 1000)}`); // warm
    const dayTimes: number[] = [];
    let rows = 0;
    for (let i = 0; i < 200; i++) {
      const r = await timed(`${base}/files?timespan=${oneDay(i)}`);
      dayTimes.push(r.ms);
      rows += r.records;
    }
    const yearTimes: number[] = [];
    const firstYear = Number(from.slice(0, 4));
    const years = Math.max(1, Math.floor(days / 365.25));
    for (let i = 0; i < 5; i++) {
      const y = firstYear + ((i * 7) % years);
      yearTimes.push((await timed(`${base}/files?timespan=${y}/${y + 1}`)).ms);
    }
    // Stream every file record, sampling the endpoint's resident memory meanwhile.
    let peak = endpointRss(child.pid!).rssMb;
    const sampler = setInterval(() => (peak = Math.max(peak, endpointRss(child.pid!).rssMb)), 50);
    const all = await timed(`${base}/files`);
    clearInterval(sampler);
    peak = Math.max(peak, endpointRss(child.pid!).peakMb);
    return {
      files: all.records,
      oneDayMedianMs: median(dayTimes),
      oneDayP99Ms: percentile(dayTimes, 99),
      oneDayRows: Math.round(rows / dayTimes.length),
      oneYearMedianMs: median(yearTimes),
      streamAllSeconds: all.ms / 1000,
      streamAllMb: all.bytes / 1e6,
      endpointPeakRssMb: peak,
    };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}
