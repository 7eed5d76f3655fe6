/**
 * Where an endpoint's latency went during a load run, from its own /metrics (server/metrics.ts) read before and
 * after the run: the differences of its counters and histograms, summed over its processes (lib/cluster-metrics.ts
 * aggregates the workers). What it tells about a tail:
 * - garbage collection: V8's pauses (prom-client's `nodejs_gc_duration_seconds`, by kind), how many passed 10 ms;
 * - the event loop: its delay during the run (`nodejs_eventloop_lag_*`, monitorEventLoopDelay, reset at each
 *   scrape: the largest of the processes and their mean p99);
 * - the DuckDB pool: requests that queued for a connection and how many waited past 10 ms;
 * - the answers held in memory: hits and misses (a miss is a query);
 * - the endpoint's own time for a request (`snapcat_http_request_duration_seconds`): its p99, as the upper bound
 *   of the histogram's bucket; a client p99 far above it is time spent before the endpoint read the request
 *   (a busy loop, the scheduler) or after it wrote the answer.
 */
import { get as httpGet } from 'node:http';

/** One scrape: `name{labels}` → value. */
export type Scrape = Map<string, number>;

export function parseMetrics(text: string): Scrape {
  const m: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    m.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return m;
}

export function scrape(base: string): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    // a connection of its own: a kept-alive one may have been closed by the server during the run
    httpGet(`${base}/metrics`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(parseMetrics(text)) : reject(new Error(`${base}/metrics: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

/** The sum of the samples named `name` whose labels include every one of `where` (`le="0.01"`). */
function sum(m: Scrape, name: string, ...where: string[]): number {
  let total = 0;
  for (const [k, v] of m) {
    const brace = k.indexOf('{');
    if ((brace === -1 ? k : k.slice(0, brace)) !== name) continue;
    if (where.every((w) => k.includes(w))) total += v;
  }
  return total;
}

export interface Diagnosis {
  requests: number;
  gcPauses: number;
  gcMs: number;
  /** Pauses longer than 10 ms. */
  gcOver10ms: number;
  /** The longest event-loop delay of any process during the run, and the processes' mean p99, ms. */
  loopMaxMs: number;
  loopP99Ms: number;
  /** Endpoint CPU seconds over the run (all its processes). */
  cpuS: number;
  hits: number;
  misses: number;
  /** Answers sent and not held (the budget full of answers asked for as often). */
  declined: number;
  /** Requests that queued for a DuckDB connection; of them, waits past 10 ms. */
  queued: number;
  waitedOver10ms: number;
  /** The endpoint's own p99 (request read to last byte written), the upper bound of its histogram bucket, ms. */
  serverP99Ms: number;
}

const LATENCY = 'snapcat_http_request_duration_seconds';

export function diagnose(before: Scrape, after: Scrape): Diagnosis {
  const d = (name: string, ...where: string[]) => sum(after, name, ...where) - sum(before, name, ...where);
  const requests = d(`${LATENCY}_count`);
  // the latency histogram's buckets, summed over route families
  const les = [...new Set([...after.keys()].filter((k) => k.startsWith(`${LATENCY}_bucket{`)).map((k) => /le="([^"]+)"/.exec(k)![1]!))];
  const bounds = les.map((le) => (le === '+Inf' ? Infinity : Number(le))).sort((a, b) => a - b);
  let serverP99Ms = NaN;
  for (const b of bounds) {
    if (d(`${LATENCY}_bucket`, `le="${b === Infinity ? '+Inf' : String(b)}"`) >= 0.99 * requests) {
      serverP99Ms = b * 1000;
      break;
    }
  }
  const gcPauses = d('nodejs_gc_duration_seconds_count');
  return {
    requests,
    gcPauses,
    gcMs: d('nodejs_gc_duration_seconds_sum') * 1000,
    gcOver10ms: gcPauses - d('nodejs_gc_duration_seconds_bucket', 'le="0.01"'),
    loopMaxMs: sum(after, 'nodejs_eventloop_lag_max_seconds') * 1000,
    loopP99Ms: sum(after, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    cpuS: d('process_cpu_seconds_total'),
    hits: d('snapcat_answer_cache_hits_total'),
    misses: d('snapcat_answer_cache_misses_total'),
    declined: d('snapcat_answer_cache_declined_total'),
    queued: d('snapcat_admission_queued_total', 'gate="duckdb"'),
    waitedOver10ms: d('snapcat_admission_wait_seconds_count', 'gate="duckdb"') - d('snapcat_admission_wait_seconds_bucket', 'gate="duckdb"', 'le="0.01"'),
    serverP99Ms,
  };
}

export function describeDiagnosis(x: Diagnosis): string {
  return `endpoint p99 ≤ ${x.serverP99Ms} ms of ${x.requests} requests; GC ${x.gcPauses} pauses, ${x.gcMs.toFixed(0)} ms, ${x.gcOver10ms} over 10 ms; event loop delay max ${x.loopMaxMs.toFixed(0)} ms, p99 ${x.loopP99Ms.toFixed(0)} ms; held answers ${x.hits} hits, ${x.misses} misses (${x.declined} not held: budget full); ${x.queued} queued for a connection, ${x.waitedOver10ms} over 10 ms; CPU ${x.cpuS.toFixed(1)} s`;
}
