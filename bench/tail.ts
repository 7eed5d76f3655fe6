/**
 * snapcat's tail latency alone, variant against variant in one run (issue 18): `npm run bench -- --only tail
 * [--queries files-day,near] [--variants now,single-gc,...]`.
 *
 * The postgres bench's queries (bench/postgres.ts), the same URL rotations and load (wrk, 16 connections, 5 s),
 * against endpoint processes (`--workers 2`) that differ only in how node runs them (VARIANTS). All the variants'
 * endpoints are up at once; each round runs every variant once, in an order that turns round by round, so a
 * variant does not always get the quieter or the busier moment of a shared machine. Each run reports wrk's median
 * and p99 and the endpoint's own account of the run (bench/lib/endpoint-diagnosis.ts: GC pauses, event-loop
 * delay, queueing for DuckDB, held answers). The variant `floor` is no endpoint: bench/floor-server.ts, node:http
 * answering each path with the bytes the first endpoint gave it, held in a Map: the floor of serving held answers
 * with node on this machine at that moment.
 */
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../test/helpers/nginx.ts';
import { ENDPOINT_NODE_FLAGS } from '../server/node-flags.ts';
import { load, QUERY_IDS, radarQueries, SNAPCAT_WORKERS, stopProcess, timeseriesQueries, watch, type QuerySpec } from './postgres.ts';
import { radarDbBuild, radarSnapshot, startEndpointProcess, WORK } from './radar.ts';
import { timeseriesBenchBuild } from './timeseries-api.ts';
import { describeDiagnosis, diagnose, scrape, type Diagnosis } from './lib/endpoint-diagnosis.ts';
import { median } from './stats.ts';
import { spawn, type ChildProcess } from 'node:child_process';

/** Ways to run the endpoint's node: the flags of server/node-flags.ts, and candidates against them. */
export const VARIANTS: Record<string, readonly string[]> = {
  now: ENDPOINT_NODE_FLAGS,
  /** V8's garbage collection on the main thread alone: no pause waits for a helper thread the OS has not scheduled. */
  'single-gc': [...ENDPOINT_NODE_FLAGS, '--single-threaded-gc'],
  /** The young generation at its full 16 MB from the start (V8 starts it at 1 MB and grows it). */
  'young-16-fixed': [...ENDPOINT_NODE_FLAGS, '--min-semi-space-size=16'],
  /** A young generation four times as large: a quarter of the scavenges. */
  'young-64': [...ENDPOINT_NODE_FLAGS.filter((f) => !f.startsWith('--max-semi-space-size')), '--max-semi-space-size=64', '--min-semi-space-size=64'],
};

/** Not an endpoint: bench/floor-server.ts in front of the first variant's endpoint. */
export const FLOOR = 'floor';

async function startFloor(upstream: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/floor-server.ts', '--upstream', upstream, '--port', String(port), '--workers', String(SNAPCAT_WORKERS)], { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += String(d);
      if (log.includes('floor serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`floor server exited (${code}): ${log}`)));
  });
  return child;
}

export interface TailRun {
  variant: string;
  round: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
  failures: number;
  /** The endpoint's account (none for the floor). */
  why?: Diagnosis;
}

export interface TailQuery {
  id: string;
  name: string;
  runs: TailRun[];
}

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

/** Each variant's figures over its rounds: the median of its p99s and p50s. */
export function summary(q: TailQuery): { variant: string; p50Ms: number; p99Ms: number; rps: number; gcOver10ms: number; loopMaxMs: number }[] {
  const names = [...new Set(q.runs.map((r) => r.variant))];
  return names.map((variant) => {
    const rs = q.runs.filter((r) => r.variant === variant);
    return {
      variant,
      p50Ms: median(rs.map((r) => r.p50Ms)),
      p99Ms: median(rs.map((r) => r.p99Ms)),
      rps: median(rs.map((r) => r.rps)),
      gcOver10ms: median(rs.map((r) => r.why?.gcOver10ms ?? NaN)),
      loopMaxMs: median(rs.map((r) => r.why?.loopMaxMs ?? NaN)),
    };
  });
}

export async function runTailBench(opts: { queries?: string[]; variants?: string[]; rounds?: number; log: (line: string) => void }): Promise<TailQuery[]> {
  const log = opts.log;
  const variants = opts.variants ?? [...Object.keys(VARIANTS), FLOOR];
  const unknown = [...variants.filter((v) => !VARIANTS[v] && v !== FLOOR), ...(opts.queries ?? []).filter((q) => !QUERY_IDS.includes(q))];
  if (unknown.length > 0) throw new Error(`unknown: ${unknown.join(', ')} (variants ${Object.keys(VARIANTS).join(', ')}; queries ${QUERY_IDS.join(', ')})`);
  const rounds = opts.rounds ?? 3;
  const wanted = (specs: QuerySpec[]) => specs.filter((s) => !s.amount && (!opts.queries || opts.queries.includes(s.id)));
  const out: TailQuery[] = [];
  const radarBuild = await radarDbBuild(() => radarSnapshot('2023-01-01', 365), 365, log);
  const ts = await timeseriesBenchBuild({ stations: 100_000, dir: join(WORK, 'pg-timeseries-100000'), reuse: true, dbOnly: true, log });
  for (const [build, specsOf] of [
    [radarBuild, async (base: string) => {
      const radars = (await getJson(`${base}/radarnet/mirror/v3/radars`)) as { radar_code: string }[];
      return wanted(radarQueries('2023-01-01', 365, radars.map((r) => r.radar_code).filter((_, i) => i % 4 === 1), false));
    }],
    [ts.dist, async () => wanted(timeseriesQueries())],
  ] as const) {
    const endpoints: { variant: string; base: string; child: ChildProcess }[] = [];
    try {
      for (const variant of variants.filter((v) => v !== FLOOR)) {
        const port = await freePort();
        const child = watch(await startEndpointProcess(build, port, SNAPCAT_WORKERS, VARIANTS[variant]!), `${variant} endpoint`, () => {});
        endpoints.push({ variant, base: `http://127.0.0.1:${port}`, child });
      }
      if (variants.includes(FLOOR)) {
        const port = await freePort();
        endpoints.push({ variant: FLOOR, base: `http://127.0.0.1:${port}`, child: await startFloor(endpoints[0]!.base, port) });
      }
      const specs = await specsOf(endpoints[0]!.base);
      for (const spec of specs) {
        const q: TailQuery = { id: spec.id, name: spec.name, runs: [] };
        // every URL asked once of each endpoint first: what the postgres bench's sequential requests leave behind
        for (const e of endpoints) for (const path of spec.paths) await getJson(`${e.base}${path}`).catch(() => undefined);
        for (let round = 0; round < rounds; round++) {
          for (let i = 0; i < endpoints.length; i++) {
            const e = endpoints[(i + round) % endpoints.length]!;
            const floor = e.variant === FLOOR;
            const before = floor ? undefined : await scrape(e.base);
            const l = await load(e.base, spec);
            const why = before ? diagnose(before, await scrape(e.base)) : undefined;
            const run: TailRun = { variant: e.variant, round, p50Ms: l.loadedMedianMs!, p99Ms: l.loadedP99Ms!, rps: l.rps, failures: l.failures, ...(why ? { why } : {}) };
            q.runs.push(run);
            log(`${spec.id} ${e.variant}: median ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, ${run.rps.toFixed(0)} req/s${run.failures ? ` (${run.failures} failures)` : ''}${why ? `; ${describeDiagnosis(why)}` : ''}`);
          }
        }
        for (const s of summary(q)) log(`  ${spec.id} ${s.variant}: median of ${rounds} rounds: p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, ${s.rps.toFixed(0)} req/s, GC pauses over 10 ms ${s.gcOver10ms}, event-loop delay max ${s.loopMaxMs.toFixed(0)} ms`);
        out.push(q);
      }
    } finally {
      for (const e of endpoints) await stopProcess(e.child);
    }
  }
  return out;
}

if (import.meta.main) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const r = await runTailBench({ queries: arg('queries')?.split(','), variants: arg('variants')?.split(','), rounds: Number(arg('rounds') ?? 3), log: (l) => console.error(l) });
  console.log(JSON.stringify(r.map((q) => ({ id: q.id, summary: summary(q) })), null, 2));
}
