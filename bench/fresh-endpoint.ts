/**
 * npm run bench -- --scale small --only fresh-endpoint [--baseline REF] [--rounds 3]
 *
 * A fresh endpoint's first answers (issue 18: what an operator has after every start and snapshot swap), on the
 * one-year catalogue of the postgres bench (database-only build) and its twelve radars' radar_code + distinct on
 * /transferred/files. Each round starts a new endpoint process (one worker) per measure:
 * - `sequential`: each radar's answer once, one at a time (the first answers: cold), then each once more under
 *   another ETag (`&contentType=json`, the same query again: warm); and the time from spawn to serving.
 * - `crowd-full`: the held-answer budget filled first as the postgres bench's expanded query leaves it (200 one-day
 *   expanded answers of 670 KB, 4 times each, 4 clients), then 8 clients going round the twelve radar answers
 *   (36 requests each, from their own places): the longest wait, the 95th percentile, and the endpoint's own
 *   count of misses (queries), declined answers and requests that waited for another making the same answer.
 * With `--baseline REF` the endpoint of that revision (bench/timeseries-scale.ts baselineRoot) takes turns with
 * this one in every round, so both meet the same machine.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { ENDPOINT_NODE_FLAGS } from '../server/node-flags.ts';
import { freePort } from '../test/helpers/nginx.ts';
import { radarDbBuild, radarSnapshot, startEndpointProcess } from './radar.ts';
import { median } from './stats.ts';
import { baselineRoot } from './timeseries-scale.ts';

const ROOT = join(import.meta.dirname, '..');
/** The twelve radars of the postgres bench (every fourth by id, from the second: bench/postgres.ts). */
export const RADARS = ['gbr', 'sas', 'pyk', 'sye', 'unw', 'sps', 'hok', 'ljw', 'hjw', 'lyr', 'fhe', 'ade'];

export interface FreshFigures {
  /** Spawn to serving, ms. */
  startMs: number;
  /** Per radar, the first answer (cold) and the same query again (warm), ms. */
  cold: number[];
  warm: number[];
  crowd: { longestMs: number; p95Ms: number; misses: number; declined: number; waited: number };
}

async function startEndpoint(root: string, build: string): Promise<{ child: ChildProcess; base: string; startMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = await startEndpointProcess(build, port, 1, ENDPOINT_NODE_FLAGS, {}, root);
  return { child, base: `http://127.0.0.1:${port}`, startMs: performance.now() - t0 };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** One GET, read to the end (no content coding asked for: the client's own work stays small), ms. */
function timed(url: string, agent: Agent): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    httpGet(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${url}: ${res.statusCode}`))));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function metric(base: string, name: string): Promise<number> {
  const agent = new Agent();
  const text = await new Promise<string>((resolve, reject) => {
    httpGet(`${base}/metrics`, { agent }, (res) => {
      let t = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (t += c));
      res.on('end', () => resolve(t));
    }).on('error', reject);
  });
  agent.destroy();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
}

const radarUrl = (base: string, code: string, extra = '') => `${base}/radarnet/mirror/v3/transferred/files?radar_code=${code}&distinct=true${extra}`;

async function sequential(root: string, build: string): Promise<Pick<FreshFigures, 'startMs' | 'cold' | 'warm'>> {
  const e = await startEndpoint(root, build);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const cold: number[] = [];
    const warm: number[] = [];
    for (const c of RADARS) cold.push(await timed(radarUrl(e.base, c), agent));
    for (const c of RADARS) warm.push(await timed(radarUrl(e.base, c, '&contentType=json'), agent));
    return { startMs: e.startMs, cold, warm };
  } finally {
    agent.destroy();
    await stop(e.child);
  }
}

async function crowdFull(root: string, build: string): Promise<FreshFigures['crowd']> {
  const e = await startEndpoint(root, build);
  const agents = Array.from({ length: 8 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    const day = (i: number) => new Date(Date.UTC(2023, 0, 1) + ((i * 7919) % 364) * 86_400_000).toISOString().slice(0, 10);
    const next = (d: string) => new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10);
    let n = 0;
    await Promise.all(
      agents.slice(0, 4).map(async (agent) => {
        while (n < 800) {
          const d = day(n++ % 200);
          await timed(`${e.base}/radarnet/mirror/v3/files?timespan=${d}/${next(d)}&expanded=true`, agent);
        }
      }),
    );
    const names = { misses: 'snapcat_answer_cache_misses_total', declined: 'snapcat_answer_cache_declined_total', waited: 'snapcat_answer_cache_waited_total' } as const;
    const before = { misses: await metric(e.base, names.misses), declined: await metric(e.base, names.declined), waited: await metric(e.base, names.waited) };
    const lat: number[] = [];
    await Promise.all(
      agents.map(async (agent, k) => {
        for (let i = 0; i < 36; i++) lat.push(await timed(radarUrl(e.base, RADARS[(k * 7 + i) % RADARS.length]!), agent));
      }),
    );
    lat.sort((a, b) => a - b);
    return {
      longestMs: lat.at(-1)!,
      p95Ms: lat[Math.floor(lat.length * 0.95)]!,
      misses: (await metric(e.base, names.misses)) - before.misses,
      declined: (await metric(e.base, names.declined)) - before.declined,
      waited: (await metric(e.base, names.waited)) - before.waited,
    };
  } finally {
    for (const a of agents) a.destroy();
    await stop(e.child);
  }
}

export interface FreshBench {
  rounds: number;
  current: FreshFigures[];
  baseline?: { sha: string; figures: FreshFigures[] };
}

export async function runFreshEndpointBench(o: { rounds: number; baseline?: string; log: (l: string) => void }): Promise<FreshBench> {
  const build = await radarDbBuild(() => radarSnapshot('2023-01-01', 365), 365, o.log);
  const base = o.baseline ? baselineRoot(o.baseline) : undefined;
  const current: FreshFigures[] = [];
  const before: FreshFigures[] = [];
  for (let r = 0; r < o.rounds; r++) {
    // taking turns, in the other order each round
    const sides = base ? (r % 2 === 0 ? [ROOT, base.root] : [base.root, ROOT]) : [ROOT];
    for (const root of sides) {
      const s = await sequential(root, build);
      const crowd = await crowdFull(root, build);
      const f = { ...s, crowd };
      (root === ROOT ? current : before).push(f);
      const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
      o.log(`  round ${r + 1}, ${root === ROOT ? 'this checkout' : `baseline ${base!.sha}`}: start ${f.startMs.toFixed(0)} ms; first answers ${f.cold.map((x) => x.toFixed(0)).join(' ')} (sum ${sum(f.cold).toFixed(0)}); again ${f.warm.map((x) => x.toFixed(0)).join(' ')} (sum ${sum(f.warm).toFixed(0)}); crowd ${JSON.stringify(crowd, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`);
    }
  }
  return { rounds: o.rounds, current, ...(base ? { baseline: { sha: base.sha, figures: before } } : {}) };
}

/** The median over rounds of a figure. */
export function mid(fs: FreshFigures[], f: (x: FreshFigures) => number): number {
  return median(fs.map(f));
}
