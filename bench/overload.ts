/**
 * Overload, the crash mixes of issue 18: chart requests that once ran the endpoint out of memory, at once,
 * against an endpoint process started as `npm run serve` starts it (ENDPOINT_NODE_FLAGS, under its supervisor),
 * over the 30-day timeseries demo. Per mix: the answers (200, or 503 with Retry-After), the longest wait for
 * an answer, whether the same endpoint process answered on, and the peak resident memory of the endpoint
 * processes and, apart, of their browser.
 *
 * Then the goodput scenarios (wrk, /usr/bin/wrk or Debian's package): the one-hour `/files` query alone, and a
 * mixed load (tree files, live radar queries, GET and POST getData, PNG charts). Every live request is distinct (a
 * random second of the 30 days, a random series, a random chart width, per wrk thread its own random sequence), so
 * none is answered from the held answers (server/answer-cache.ts): the one-hour scenario measures DuckDB queries.
 * The saturating concurrency: connections doubling from 2 until two steps in a row gain less than 5% over the best
 * before them (or 512, a gate's waiting cap); the smallest that reached 90% of the best. Then 1×, 2× and 4× that, back to back, in three rounds
 * (alternating order): good answers/s, 503/s (and any 503 without Retry-After), median and p99 of good answers (a
 * probe client asking one distinct one-hour query at a time beside wrk, whose own latency figures mix good answers
 * with refusals), admission waits and refusals per gate (the endpoint's /metrics before and after), peak RSS of the
 * endpoint, and wrk's own CPU share (its headroom); goodput at 4× over the best of its round, and over the best of
 * every run. And four slow readers (40 KB/s) of `/files?distinct=true&expanded=true&contentType=csv` with one-hour
 * queries asked meanwhile: how long those waited.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { build } from '../build-scripts/build.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { freePort } from '../test/helpers/nginx.ts';
import { startEndpointProcess, WORK } from './radar.ts';
import { childrenOf, endpointRss, median, percentile, treeRssMb } from './stats.ts';
import { ensureWrk } from './lib/wrk.ts';

export interface MixResult {
  name: string;
  requests: number;
  ok: number;
  refused: number;
  /** Answers neither 200 nor 503 with Retry-After, and requests that failed (reset, crash). */
  bad: number;
  longestMs: number;
  seconds: number;
  endpointPeakMb: number;
  browserPeakMb: number;
  /** The same endpoint process answered after the mix. */
  survived: boolean;
  /** What the endpoint (supervisor and worker) wrote to stderr during the mix: an exception, the supervisor's line on a death. */
  said: string;
}

async function demoBuild(log: (l: string) => void): Promise<string> {
  const snap = join(WORK, 'overload-ts-snapshot');
  const out = join(WORK, 'overload-ts-dist');
  if (!existsSync(join(out, 'build.json'))) {
    log('overload: the 30-day timeseries demo (generated and built once into bench/.work) ...');
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: snap, apis: ['timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true, charts: false, site: false });
  }
  return out;
}

export async function runOverloadBench(log: (l: string) => void = () => {}): Promise<{ mixes: MixResult[] }> {
  const dist = await demoBuild(log);
  const port = await freePort();
  const supervisor = await startEndpointProcess(dist, port);
  let said = '';
  supervisor.stderr!.on('data', (d: Buffer) => (said += String(d)));
  const base = `http://127.0.0.1:${port}/api/v1`;
  try {
    const ids = ((await (await fetch(`${base}/timeseries?limit=100`)).json()) as { id: string }[]).map((t) => t.id);
    // warm: the browser started, the first chart drawn
    await (await fetch(`${base}/timeseries/${ids[0]}/getData.png`)).arrayBuffer();
    const pdf = () => ({ accept: 'application/pdf', body: { timespan: 'P1Y/2024-01-31TZ', timeseries: ids } });
    const png = () => ({ accept: 'image/png', body: { timespan: 'P1Y/2024-01-31TZ', timeseries: ids, width: 4000, height: 4000, legend: true } });
    const mixes: [string, { accept: string; body: object }[]][] = [
      ['4 PDFs of 100 series, P1Y/2024-01-31TZ', [pdf(), pdf(), pdf(), pdf()]],
      ['2 such PDFs and 2 PNGs of 4000×4000 with a legend', [pdf(), pdf(), png(), png()]],
      ['4 such PDFs and 2 such PNGs', [pdf(), pdf(), pdf(), pdf(), png(), png()]],
    ];
    const results: MixResult[] = [];
    for (const [name, requests] of mixes) {
      const [worker] = childrenOf(supervisor.pid!);
      let endpointPeakMb = 0;
      let browserPeakMb = 0;
      const sample = () => {
        const e = endpointRss(supervisor.pid!).rssMb;
        endpointPeakMb = Math.max(endpointPeakMb, e);
        browserPeakMb = Math.max(browserPeakMb, treeRssMb(supervisor.pid!).rssMb - e);
      };
      const sampler = setInterval(sample, 50);
      said = '';
      const t0 = performance.now();
      const answers = await Promise.all(requests.map(async (r) => {
        const s = performance.now();
        try {
          const res = await fetch(`${base}/timeseries/getData`, { method: 'POST', headers: { Accept: r.accept, 'Content-Type': 'application/json' }, body: JSON.stringify(r.body) });
          await res.arrayBuffer();
          return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - s };
        } catch {
          return { status: 0, retryAfter: null, ms: performance.now() - s };
        }
      }));
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      sample();
      const survived = (await fetch(`${base}/stations`).then((r) => r.status, () => 0)) === 200 && childrenOf(supervisor.pid!)[0] === worker;
      const ok = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 503 && Number(a.retryAfter) >= 1).length;
      const r: MixResult = { name, requests: answers.length, ok, refused, bad: answers.length - ok - refused, longestMs: Math.max(...answers.map((a) => a.ms)), seconds, endpointPeakMb, browserPeakMb, survived, said: said.trim() };
      log(`overload: ${name}: ${JSON.stringify({ ...r, said: undefined })}`);
      // a failure is explained by what the endpoint said (its exception, the supervisor's line on the death)
      if (r.bad > 0 || !survived) log(`overload: the endpoint's stderr during the mix:\n${r.said || '(nothing)'}`);
      results.push(r);
    }
    return { mixes: results };
  } finally {
    supervisor.kill('SIGTERM');
    await new Promise((r) => supervisor.once('exit', r));
  }
}

// ---------- goodput under overload ----------

export interface GateFigures {
  /** Admissions that had to wait their turn, refusals, and the mean wait of the queued ones (ms), in one run. */
  queued: number;
  refused: number;
  meanQueuedWaitMs: number;
}

export interface LoadRun {
  connections: number;
  goodPerS: number;
  refusedPerS: number;
  /** Answers neither 2xx nor 503, and socket errors, per second. */
  otherPerS: number;
  /** 503s without a Retry-After header (wrk's Lua counts them): a refusal must always say when to come back. */
  refusedWithoutRetryAfter: number;
  /** Good answers' latency as a probe beside wrk saw it, ms. */
  goodMedianMs: number;
  goodP99Ms: number;
  peakRssMb: number;
  /** wrk's own CPU (user + system) over the run's wall time, per wrk thread: its headroom is 1 minus this. */
  wrkBusy: number;
  /** By gate (duckdb, bulk, render): from the endpoint's /metrics before and after the run. */
  gates: Record<string, GateFigures>;
  /** The endpoint process's CPU (user and system, its browser included) per second of the run, ms: 1000 is one core. */
  cpuMsPerS: number;
}

/** CPU ms (user and system) a process and its children have used, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const ticks = (p: number): number => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]) + childrenOf(p).reduce((s, c) => s + ticks(c), 0); // utime, stime (fields 14 and 15)
    } catch {
      return 0;
    }
  };
  return ticks(pid) * 10;
}

export interface GoodputScenario {
  name: string;
  saturating: number;
  /** Good answers/s at each tried concurrency (finding the saturating one), doubling until goodput stops rising. */
  search: { connections: number; goodPerS: number }[];
  /** 1×, 2×, 4× the saturating concurrency, each twice. */
  runs: LoadRun[];
  /** The best good answers/s of the search and the runs. */
  peak: number;
  /** Per round: good answers/s at 4× over the best of that round's 1×, 2× and 4× (run back to back). */
  ratios: number[];
  /** Per round: good answers/s at 4× over `peak` (the best of every run, the search's included). */
  ratiosToPeak: number[];
  /** Median good answers/s over the rounds, at 1×, 2× and 4×. */
  medians: Record<1 | 2 | 4, number>;
  /**
   * The headline: the median at 4× over the best of the three medians. Medians of interleaved runs: a machine
   * that gets busier or quieter, or one slow run, moves neither side; the best of three single runs (the per-round
   * ratio above) is biased low, since the best of three noisy figures is above their mean even when the three
   * levels are the same.
   */
  medianRatio: number;
  /** Per round: good answers/s at 4× over 1× of the same round (the spread of the headline). */
  ratios4to1: number[];
  /**
   * What a refusal costs the endpoint, CPU ms, from the medians: the CPU at 4× less its good answers at the CPU a
   * good answer cost at 1× (refusals included there too, a few), over the refusals at 4×. And a good answer's CPU at 1×.
   */
  cpuMsPerRefusal: number;
  cpuMsPerGood: number;
}

export interface SlowReaderResult {
  readers: number;
  bytesPerS: number;
  /** One-hour queries asked one after another while the readers read: their times, ms. */
  waitsMs: number[];
  refused: number;
  busyConnectionsSeen: number;
}

const RUN_SECONDS = 6;
/** Rounds of 1×, 2× and 4× per scenario (`--rounds`). */
export const ROUNDS = 5;
/**
 * The order of the levels in each round, turn by turn: every level comes first, second and last equally often,
 * so a machine getting busier or quieter over the rounds favours none.
 */
const ORDERS: (1 | 2 | 4)[][] = [
  [1, 2, 4],
  [4, 2, 1],
  [2, 4, 1],
  [1, 4, 2],
  [4, 1, 2],
  [2, 1, 4],
];

/** What to run of the section (`--scenarios`): the crash mixes, and the goodput scenarios and slow readers. */
export const SCENARIOS = ['crash', 'one-hour', 'mixed', 'slow'] as const;
export type Scenario = (typeof SCENARIOS)[number];
/** The search doubles the connections from 2 until two steps in a row gain less than this over the best before. */
const RISING = 1.05;
/**
 * The search's last step: 512 connections, a gate's waiting cap. Past it a gate refuses at once, and connections
 * only queue in node's event loop and the kernel's accept backlog (the mixed load's tree files and getData have no
 * gate): 4× is then up to 2,048 connections.
 */
const MAX_CONNECTIONS = 512;

/** The admission figures of /metrics: per gate, queued and refused counts and the summed wait. */
async function gateCounters(base: string): Promise<Record<string, { queued: number; refused: number; waitSum: number; waitCount: number }>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: Record<string, { queued: number; refused: number; waitSum: number; waitCount: number }> = {};
  for (const gate of ['duckdb', 'bulk', 'render']) {
    const num = (name: string) => Number(new RegExp(`^${name}\\{gate="${gate}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
    out[gate] = { queued: num('snapcat_admission_queued_total'), refused: num('snapcat_admission_refused_total'), waitSum: num('snapcat_admission_wait_seconds_sum'), waitCount: num('snapcat_admission_wait_seconds_count') };
  }
  return out;
}

/**
 * wrk over a Lua script for `seconds` at `connections`; its counts, wrk's own CPU time (bash's `times` after it),
 * a probe's good-answer latencies meanwhile (`probe(i)`: the i-th probe path) and the gates' figures.
 */
async function wrkRun(bin: string, base: string, script: string, connections: number, seconds: number, probe: (i: number) => string, pid: number): Promise<LoadRun> {
  const before = await gateCounters(base);
  const cpuBefore = cpuMsOf(pid);
  let peakRssMb = 0;
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, endpointRss(pid).rssMb)), 100);
  const latencies: number[] = [];
  let probing = true;
  const prober = (async () => {
    for (let i = 0; probing; i++) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = request(`${base}${probe(i)}`, { agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', () => resolve(0));
        req.end();
      });
      if (status === 200) latencies.push(performance.now() - t0);
      else await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const threads = Math.min(2, connections);
  const t0 = performance.now();
  const child = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
    // not spawnSync: the probe and the memory sampler run in this process meanwhile; bash's `times` prints wrk's CPU
    const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '15s', '-s', script, base];
    const w = spawn('bash', ['-c', '"$@"; times', 'wrk', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    w.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    w.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    w.on('close', () => resolve({ stdout, stderr }));
  });
  const wall = (performance.now() - t0) / 1000;
  const cpuMsPerS = (cpuMsOf(pid) - cpuBefore) / wall;
  probing = false;
  await prober;
  clearInterval(sampler);
  const after = await gateCounters(base);
  const total = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(child.stdout)?.[1]);
  const dur = /requests in ([\d.]+)(m?s)/.exec(child.stdout);
  const secs = dur ? Number(dur[1]) / (dur[2] === 'ms' ? 1000 : 1) : seconds;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(child.stdout)?.[1] ?? 0);
  const refused = Number(/-- 503: (\d+)/.exec(child.stdout)?.[1] ?? 0);
  const bare = Number(/-- 503 without Retry-After: (\d+)/.exec(child.stdout)?.[1] ?? 0);
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(child.stdout);
  const socketErrors = errs ? Number(errs[1]) + Number(errs[2]) + Number(errs[3]) + Number(errs[4]) : 0;
  if (!Number.isFinite(total)) throw new Error(`wrk gave no count:\n${child.stdout}\n${child.stderr}`);
  const times = child.stdout.trim().split('\n').slice(-1)[0]!.trim().split(/\s+/);
  const sec = (t: string | undefined) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t ?? '');
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const gates: Record<string, GateFigures> = {};
  for (const [g, a] of Object.entries(after)) {
    const b = before[g]!;
    const waitCount = a.waitCount - b.waitCount;
    const queued = a.queued - b.queued;
    // straight-through admissions add 0 to the sum, so the sum over the queued ones is the whole sum
    gates[g] = { queued, refused: a.refused - b.refused, meanQueuedWaitMs: queued > 0 && waitCount > 0 ? ((a.waitSum - b.waitSum) / queued) * 1000 : 0 };
  }
  return {
    connections,
    goodPerS: (total - non2xx) / secs,
    refusedPerS: refused / secs,
    otherPerS: (non2xx - refused + socketErrors) / secs,
    refusedWithoutRetryAfter: bare,
    goodMedianMs: latencies.length ? median(latencies) : NaN,
    goodP99Ms: latencies.length ? percentile(latencies, 99) : NaN,
    peakRssMb,
    wrkBusy: (sec(times[0]) + sec(times[1])) / wall / threads,
    gates,
    cpuMsPerS,
  };
}

interface Weighted {
  weight: number;
  /** A Lua expression giving the request (wrk.format(...)); `rnd(a, b)` is a whole number from a to b. */
  make: string;
}

/**
 * The Lua of a wrk run: requests chosen by weight at random, each wrk thread with its own seed (thread number and
 * the clock: no two runs or threads send the same sequence); 503s counted apart, and those without Retry-After.
 */
function luaScript(file: string, requests: Weighted[]): string {
  const total = requests.reduce((a, p) => a + p.weight, 0);
  let acc = 0;
  const branches = requests
    .map((p) => {
      acc += p.weight;
      return `  if r < ${acc / total} then return ${p.make} end`;
    })
    .join('\n');
  writeFileSync(
    file,
    `local threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
  table.insert(threads, thread)
end
function init(args)
  refused = 0
  bare = 0
  math.randomseed(os.time() * 1000 + (tonumber(seed) or 0) * 7919)
end
function rnd(a, b) return math.random(a, b) end
function response(status, headers, body)
  if status == 503 then
    refused = refused + 1
    if headers["Retry-After"] == nil and headers["retry-after"] == nil then bare = bare + 1 end
  end
end
request = function()
  local r = math.random()
${branches}
end
function done(summary, latency, requests)
  local total, without = 0, 0
  for _, t in ipairs(threads) do
    total = total + t:get("refused")
    without = without + t:get("bare")
  end
  io.write("-- 503: " .. total .. "\\n")
  io.write("-- 503 without Retry-After: " .. without .. "\\n")
end
`,
  );
  return file;
}

/** The demo's 30 days, from 2024-01-01T00:00Z, in seconds since 1970 (Lua's os.date reads them as UTC with "!"). */
const DEMO_START_S = Date.UTC(2024, 0, 1) / 1000;
const DEMO_SECONDS = 30 * 86_400;
const luaIso = (t: string) => `os.date("!%Y-%m-%dT%H:%M:%SZ", ${t})`;

/**
 * A one-hour `/files` query starting at a random second of the 30 days: 2.6 million distinct paths, so an answer is
 * almost never held (server/answer-cache.ts holds 48 MB, about 10,000 such answers): each is a DuckDB query.
 */
const ONE_HOUR_LUA = `(function() local t = ${DEMO_START_S} + rnd(0, ${DEMO_SECONDS - 3600}); return wrk.format("GET", "/radarnet/mirror/v3/files?timespan=" .. ${luaIso('t')} .. "/" .. ${luaIso('t + 3600')}) end)()`;

/** The probe's i-th one-hour path: distinct too (minutes of the 30 days the wrk sequence is unlikely to hit). */
function oneHourProbe(i: number): string {
  const t = DEMO_START_S * 1000 + ((i * 7919 * 60 + 17_000) % ((DEMO_SECONDS - 3600) * 1000));
  const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
  return `/radarnet/mirror/v3/files?timespan=${iso(t)}/${iso(t + 3_600_000)}`;
}

async function goodputScenario(bin: string, base: string, pid: number, name: string, script: string, probe: (i: number) => string, log: (l: string) => void, rounds = ROUNDS): Promise<GoodputScenario> {
  await wrkRun(bin, base, script, 8, 3, probe, pid); // warm
  const search: { connections: number; goodPerS: number }[] = [];
  let flat = 0;
  for (let c = 2; c <= MAX_CONNECTIONS && flat < 2; c *= 2) {
    const r = await wrkRun(bin, base, script, c, RUN_SECONDS, probe, pid);
    const bestBefore = Math.max(0, ...search.map((s) => s.goodPerS));
    flat = r.goodPerS < RISING * bestBefore ? flat + 1 : 0;
    search.push({ connections: c, goodPerS: r.goodPerS });
    log(`overload: ${name}: ${c} connections: ${r.goodPerS.toFixed(0)} good/s, ${r.refusedPerS.toFixed(0)} 503/s, wrk ${(r.wrkBusy * 100).toFixed(0)}% busy`);
  }
  const best = Math.max(...search.map((s) => s.goodPerS));
  const saturating = search.find((s) => s.goodPerS >= 0.9 * best)!.connections;
  const runs: LoadRun[] = [];
  const ratios: number[] = [];
  const ratios4to1: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = ORDERS[round % ORDERS.length]!;
    const byK = new Map<number, LoadRun>();
    for (const k of order) {
      const r = await wrkRun(bin, base, script, saturating * k, RUN_SECONDS, probe, pid);
      log(`overload: ${name}: ${k}× (${r.connections} connections), round ${round + 1}: ${r.goodPerS.toFixed(0)} good/s, ${r.refusedPerS.toFixed(0)} 503/s, ${r.otherPerS.toFixed(1)} other/s, good median ${r.goodMedianMs.toFixed(1)} ms, p99 ${r.goodP99Ms.toFixed(1)} ms, peak RSS ${r.peakRssMb.toFixed(0)} MB, wrk ${(r.wrkBusy * 100).toFixed(0)}% busy, gates ${JSON.stringify(r.gates)}`);
      byK.set(k, r);
    }
    for (const k of [1, 2, 4]) runs.push(byK.get(k)!);
    ratios.push(byK.get(4)!.goodPerS / Math.max(...[...byK.values()].map((r) => r.goodPerS)));
    ratios4to1.push(byK.get(4)!.goodPerS / byK.get(1)!.goodPerS);
  }
  const peak = Math.max(best, ...runs.map((r) => r.goodPerS));
  const ratiosToPeak = runs.filter((_, i) => i % 3 === 2).map((r) => r.goodPerS / peak);
  const at = (k: number) => median(runs.filter((_, i) => i % 3 === [1, 2, 4].indexOf(k)).map((r) => r.goodPerS));
  const medians = { 1: at(1), 2: at(2), 4: at(4) };
  const medianRatio = medians[4] / Math.max(medians[1], medians[2], medians[4]);
  const med = (k: number, f: (r: LoadRun) => number) => median(runs.filter((_, i) => i % 3 === [1, 2, 4].indexOf(k)).map(f));
  const cpuMsPerGood = med(1, (r) => r.cpuMsPerS / r.goodPerS);
  const cpuMsPerRefusal = (med(4, (r) => r.cpuMsPerS) - medians[4] * cpuMsPerGood) / med(4, (r) => r.refusedPerS);
  log(`overload: ${name}: median good/s 1× ${medians[1].toFixed(0)}, 2× ${medians[2].toFixed(0)}, 4× ${medians[4].toFixed(0)}: 4× at ${(medianRatio * 100).toFixed(0)}% of the best median; 4×/1× per round ${ratios4to1.map((r) => r.toFixed(2)).join(', ')}`);
  // no refusal at 4× (every request queued and answered): there is no cost per refusal to print
  log(`overload: ${name}: CPU per good answer at 1× ${cpuMsPerGood.toFixed(2)} ms, per refusal at 4× ${Number.isFinite(cpuMsPerRefusal) ? `${cpuMsPerRefusal.toFixed(2)} ms` : 'none refused'}`);
  return { name, saturating, search, runs, peak, ratios, ratiosToPeak, medians, medianRatio, ratios4to1, cpuMsPerRefusal, cpuMsPerGood };
}

/** Four clients reading a large streamed answer at `bytesPerS` each; one-hour queries asked meanwhile, one at a time. */
async function slowReaders(base: string, pid: number, log: (l: string) => void): Promise<SlowReaderResult> {
  const readers = 4;
  const bytesPerS = 40 * 1024;
  const sockets: import('node:http').ClientRequest[] = [];
  for (let i = 0; i < readers; i++) {
    const req = request(`${base}/radarnet/mirror/v3/files?distinct=true&expanded=true&contentType=csv`, { agent: false }, (res) => {
      // read at most bytesPerS: pause after each piece for as long as it would take
      res.on('data', (d: Buffer) => {
        res.pause();
        setTimeout(() => res.resume(), (d.length / bytesPerS) * 1000);
      });
    });
    req.on('error', () => undefined);
    req.end();
    sockets.push(req);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const waitsMs: number[] = [];
  let refused = 0;
  const t0 = performance.now();
  for (let h = 0; performance.now() - t0 < 10_000; h++) {
    const s = performance.now();
    const from = new Date(Date.UTC(2024, 0, 2, h % 24)).toISOString().slice(0, 19);
    const to = new Date(Date.UTC(2024, 0, 2, (h % 24) + 1)).toISOString().slice(0, 19);
    const r = await fetch(`${base}/radarnet/mirror/v3/files?timespan=${from}Z/${to}Z`);
    await r.arrayBuffer();
    if (r.status === 200) waitsMs.push(performance.now() - s);
    else refused++;
  }
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const busy = Number(/^snapcat_admission_busy\{gate="duckdb"\} (\S+)/m.exec(metrics)?.[1] ?? NaN);
  for (const s of sockets) s.destroy();
  log(`overload: slow readers: ${readers} at ${bytesPerS / 1024} KB/s; one-hour queries meanwhile: ${waitsMs.length} answered, median ${median(waitsMs).toFixed(1)} ms, longest ${Math.max(...waitsMs).toFixed(1)} ms, ${refused} refused; DuckDB connections busy: ${busy} (endpoint pid ${pid})`);
  return { readers, bytesPerS, waitsMs, refused, busyConnectionsSeen: busy };
}

async function mixedBuild(log: (l: string) => void): Promise<string> {
  const snap = join(WORK, 'overload-mixed-snapshot');
  const out = join(WORK, 'overload-mixed-dist');
  if (!existsSync(join(out, 'build.json'))) {
    log('overload: a 30-day demo of both APIs (generated and built once into bench/.work) ...');
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: snap, apis: ['radarnet-mirror-v3', 'timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true, charts: false, site: false });
  }
  return out;
}

export async function runGoodputBench(log: (l: string) => void = () => {}, opts: { scenarios?: readonly Scenario[]; rounds?: number } = {}): Promise<{ wrk: string; loadAverage: string; loadAverageAtEnd: string; scenarios: GoodputScenario[]; slow: SlowReaderResult | undefined }> {
  const want = (s: Scenario) => !opts.scenarios || opts.scenarios.includes(s);
  const bin = ensureWrk();
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  const wrkVersion = /wrk [^\s]+/.exec(`${version.stdout}${version.stderr}`)?.[0] ?? 'wrk';
  const dist = await mixedBuild(log);
  const loadAverage = loadavg().map((x) => x.toFixed(1)).join(', ');
  const port = await freePort();
  const supervisor = await startEndpointProcess(dist, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const [pid] = childrenOf(supervisor.pid!);
    const ids = ((await (await fetch(`${base}/api/v1/timeseries?limit=20`)).json()) as { id: string }[]).map((t) => t.id);
    await (await fetch(`${base}/api/v1/timeseries/${ids[0]}/getData.png?width=301&height=200`)).arrayBuffer();
    const idList = `{${ids.map((i) => `"${i}"`).join(',')}}`;
    const hourScript = luaScript(join(WORK, 'overload-one-hour.lua'), [{ weight: 1, make: ONE_HOUR_LUA }]);
    // every live request distinct (a random second of the 30 days, a random series, a random chart width): none is
    // a held answer; the tree files are files, held as a file cache holds them
    const series = `ids[rnd(1, ${ids.length})]`;
    const day = `${luaIso(`${DEMO_START_S} + rnd(0, ${DEMO_SECONDS - 86_400})`)} .. "/P1D"`;
    const mixedScript = luaScript(join(WORK, 'overload-mixed.lua'), [
      { weight: 35, make: `wrk.format("GET", (rnd(0, 1) == 0) and "/api/v1/stations" or "/radarnet/mirror/v3/radars")` },
      { weight: 30, make: ONE_HOUR_LUA },
      { weight: 15, make: `(function() local ids = ${idList}; return wrk.format("GET", "/api/v1/timeseries/" .. ${series} .. "/getData?timespan=" .. ${day}) end)()` },
      {
        weight: 15,
        make: `(function() local ids = ${idList}; return wrk.format("POST", "/api/v1/timeseries/getData", {["Content-Type"] = "application/json"}, '{"timespan":"' .. ${day} .. '","timeseries":["' .. ${series} .. '","' .. ${series} .. '","' .. ${series} .. '"]}') end)()`,
      },
      { weight: 5, make: `(function() local ids = ${idList}; return wrk.format("GET", "/api/v1/timeseries/" .. ${series} .. "/getData.png?width=" .. rnd(300, 800) .. "&height=200") end)()` },
    ]);
    const scenarios: GoodputScenario[] = [];
    if (want('one-hour')) scenarios.push(await goodputScenario(bin, base, pid!, 'one-hour /files (distinct, uncached)', hourScript, oneHourProbe, log, opts.rounds));
    if (want('mixed')) scenarios.push(await goodputScenario(bin, base, pid!, 'mixed (35% tree files, 30% one-hour /files, 15% GET getData, 15% POST getData of 3 series, 5% PNG charts; live ones distinct)', mixedScript, oneHourProbe, log, opts.rounds));
    const slow = want('slow') ? await slowReaders(base, pid!, log) : undefined;
    return { wrk: wrkVersion, loadAverage, loadAverageAtEnd: loadavg().map((x) => x.toFixed(1)).join(', '), scenarios, slow };
  } finally {
    supervisor.kill('SIGTERM');
    await new Promise((r) => supervisor.once('exit', r));
  }
}
