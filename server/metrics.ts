/**
 * The endpoint's metrics, in the Prometheus text format (prom-client), one registry per endpoint (app):
 * - requests by route family (core/http/route-family.ts, never the raw path: a bounded label) and status, and
 *   their latency as a histogram by family;
 * - admissions of every gate (lib/admission.ts: DuckDB connections, the bulk lane, chart render pages): how long
 *   each waited, how many had to queue, how many were refused (503), and how many are running and waiting now
 *   (the render queue is `gate="render"`);
 * - spools (lib/spool.ts): streamed answers waiting for their clients, in memory and spilled to files;
 * - the answers held in memory (answer-cache.ts): requests answered from them and requests that were not;
 * - the chart renderer's browser launches (more than one: browsers discarded after a render ran out of time);
 * - the build served: its name and `taken_at` as labels, and its age, since the snapshot was taken and since
 *   the build was made;
 * - prom-client's default process metrics (resident memory, heap, CPU, event loop lag, open handles).
 * With `--workers N` each process has its own registry; /metrics answers all of them summed
 * (lib/cluster-metrics.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GATES, observeAdmissions, type Gate } from '../lib/admission.ts';
import { routeFamily } from '../core/http/route-family.ts';
import type { ChartRenderer } from '../lib/chart-renderer.ts';
import type { Spooler } from '../lib/spool.ts';
import { bulkLaneLoad } from '../lib/duckdb-pool.ts';
import type { ServedBuild } from './served-build.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Latency buckets, s: a tree file answers in about a millisecond, a one-year query streams for seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Admission waits, s: most are 0 (straight through); a bulk turn may wait as long as a bulk answer runs. */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30];

export interface MetricsSources {
  getBuild: () => ServedBuild | undefined;
  renderer: ChartRenderer;
  /** Where streamed answers wait for their clients (none: the spool metrics stay 0). */
  spooler?: Spooler;
  /** The answers held in memory, if any (their lookups: none, the counters stay 0). */
  answers?: () => { hits: number; misses: number; declined: number; waited: number; unpackFallbacks: number; sharedHits: number; bytes: number; size: number; packed: number } | undefined;
}

export class EndpointMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'family' | 'status'>;
  readonly #latency: Histogram<'family'>;
  readonly #stopObserving: () => void;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({ name: 'snapcat_http_requests_total', help: 'HTTP requests answered, by route family and status', labelNames: ['family', 'status'], registers });
    this.#latency = new Histogram({ name: 'snapcat_http_request_duration_seconds', help: 'Time from request to the last byte of the answer, by route family', labelNames: ['family'], buckets: LATENCY_BUCKETS, registers });
    const waits = new Histogram({ name: 'snapcat_admission_wait_seconds', help: 'Time each admission waited at its gate (0: straight through)', labelNames: ['gate'], buckets: WAIT_BUCKETS, registers });
    const queued = new Counter({ name: 'snapcat_admission_queued_total', help: 'Admissions that had to wait their turn', labelNames: ['gate'], registers });
    const refused = new Counter({ name: 'snapcat_admission_refused_total', help: 'Requests refused (503 with Retry-After) by the gate: its waiting line full, or not let in within the time they may wait (a standing queue sheds by time)', labelNames: ['gate'], registers });
    for (const gate of GATES) {
      // every gate's series exists from the start, so rate() and alerts see 0 rather than nothing
      queued.inc({ gate }, 0);
      refused.inc({ gate }, 0);
    }
    const load = (gate: Gate): { busy: number; waiting: number } => {
      if (gate === 'bulk') return bulkLaneLoad();
      if (gate === 'render') return sources.renderer.load;
      return sources.getBuild()?.radar?.pool.load ?? { busy: 0, waiting: 0 };
    };
    new Gauge({
      name: 'snapcat_admission_waiting',
      help: 'Requests waiting at each gate now (gate="render": the render queue)',
      labelNames: ['gate'],
      registers,
      collect() {
        for (const gate of GATES) this.set({ gate }, load(gate).waiting);
      },
    });
    new Gauge({
      name: 'snapcat_admission_busy',
      help: 'Admissions holding each gate now (connections lent, bulk answers running, charts rendering)',
      labelNames: ['gate'],
      registers,
      collect() {
        for (const gate of GATES) this.set({ gate }, load(gate).busy);
      },
    });
    // a counter read from the cache's own tallies at each scrape
    const lookups = (which: 'hits' | 'misses' | 'declined' | 'waited' | 'unpackFallbacks' | 'sharedHits', name: string, help: string) => {
      let seen = 0;
      new Counter({
        name,
        help,
        registers,
        collect() {
          const now = sources.answers?.()?.[which] ?? 0;
          this.inc(Math.max(0, now - seen));
          seen = Math.max(seen, now);
        },
      });
    };
    let launchesSeen = 0;
    new Counter({
      name: 'snapcat_chart_browser_launches_total',
      help: 'Headless browsers the chart renderer started: the first, and one for each discarded (a render that ran out of time or a browser that crashed)',
      registers,
      collect() {
        const now = sources.renderer.launches;
        this.inc(Math.max(0, now - launchesSeen));
        launchesSeen = Math.max(launchesSeen, now);
      },
    });
    lookups('hits', 'snapcat_answer_cache_hits_total', 'GET and HEAD requests answered from the answers held in memory, or sent the answer made while they waited for it');
    lookups('misses', 'snapcat_answer_cache_misses_total', 'GET and HEAD requests looked up in the answers held in memory and not found there');
    lookups('declined', 'snapcat_answer_cache_declined_total', 'Answers sent and not held: the budget was full of answers asked for as often or more');
    lookups('waited', 'snapcat_answer_cache_waited_total', 'GET and HEAD requests that waited for another request making the same answer, then were sent it (or made it again if it was not made whole)');
    lookups('sharedHits', 'snapcat_answer_cache_shared_hits_total', 'GET and HEAD requests for an answer not held here, answered from one another endpoint process of this supervisor made and shared (then held here too) instead of making it again; a part of the hits');
    lookups('unpackFallbacks', 'snapcat_answer_cache_unpack_fallbacks_total', "Frames of packed answers unpacked by zlib's zstdDecompressSync into a new Buffer, not into a reused one: node's handle failed a frame, or its self-test at start (then every frame)");
    const heldNow = (which: 'bytes' | 'size' | 'packed', name: string, help: string) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(sources.answers?.()?.[which] ?? 0);
        },
      });
    heldNow('size', 'snapcat_answer_cache_answers', 'Answers held in memory now');
    heldNow('packed', 'snapcat_answer_cache_packed_answers', 'Answers held in memory packed now (over 64 KB: zstd frames, with or without their plain copy)');
    heldNow('bytes', 'snapcat_answer_cache_bytes', 'Bytes the answers held in memory count against the budget now (plain bodies and packed frames)');
    const spool = () => sources.spooler?.load ?? { open: 0, files: 0, memoryBytes: 0, diskBytes: 0, spilledBytes: 0 };
    new Gauge({
      name: 'snapcat_spool_answers',
      help: 'Streamed answers being sent from a spool now (their DuckDB connection already back, or soon)',
      registers,
      collect() {
        this.set(spool().open);
      },
    });
    new Gauge({
      name: 'snapcat_spool_files',
      help: 'Spools that spilled to a temporary file, open now',
      registers,
      collect() {
        this.set(spool().files);
      },
    });
    new Gauge({
      name: 'snapcat_spool_memory_bytes',
      help: 'Bytes of streamed answers held in memory for their clients now',
      registers,
      collect() {
        this.set(spool().memoryBytes);
      },
    });
    new Gauge({
      name: 'snapcat_spool_disk_bytes',
      help: 'Bytes of streamed answers held in temporary files for their clients now (bounded by SNAPCAT_SPOOL_DISK_MB)',
      registers,
      collect() {
        this.set(spool().diskBytes);
      },
    });
    let spilledSeen = 0;
    new Counter({
      name: 'snapcat_spool_spilled_bytes_total',
      help: 'Bytes of streamed answers written to temporary files, because their clients read slower than DuckDB made them',
      registers,
      collect() {
        const now = spool().spilledBytes;
        this.inc(Math.max(0, now - spilledSeen));
        spilledSeen = now;
      },
    });
    new Gauge({
      name: 'snapcat_endpoint_processes',
      help: 'Endpoint processes answering (summed over --workers)',
      registers,
      collect() {
        this.set(1);
      },
    });
    new Gauge({
      name: 'snapcat_build_info',
      help: 'The build served: 1 per endpoint process serving it, labelled with its snapshot name and taken_at',
      labelNames: ['name', 'taken_at'],
      registers,
      collect() {
        this.reset();
        const b = sources.getBuild();
        if (b) this.set({ name: b.manifest.name, taken_at: b.manifest.taken_at }, 1);
      },
    });
    // Ages: the oldest over the processes (a process still on the build before a swap counts); NaN while no build is
    // open (a gauge without labels cannot be absent in prom-client; NaN compares false in any alert rule)
    new Gauge({
      name: 'snapcat_snapshot_age_seconds',
      help: "Seconds since the served snapshot's taken_at",
      registers,
      aggregator: 'max',
      collect() {
        const b = sources.getBuild();
        this.set(b ? (Date.now() - Date.parse(b.manifest.taken_at)) / 1000 : NaN);
      },
    });
    new Gauge({
      name: 'snapcat_build_age_seconds',
      help: 'Seconds since the served build was made (its build.json written)',
      registers,
      aggregator: 'max',
      collect() {
        const b = sources.getBuild();
        this.set(b ? (Date.now() - b.builtAt) / 1000 : NaN);
      },
    });
    this.#stopObserving = observeAdmissions({
      admitted(gate, seconds, wasQueued) {
        waits.observe({ gate }, seconds);
        if (wasQueued) queued.inc({ gate });
      },
      refused(gate) {
        refused.inc({ gate });
      },
    });
  }

  /** Counts the request when its answer is done (or the client gone): its family, status and time. */
  observe(req: IncomingMessage, res: ServerResponse): void {
    const t0 = performance.now();
    res.once('close', () => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const family = routeFamily(q < 0 ? target : target.slice(0, q));
      this.#requests.inc({ family, status: String(res.statusCode) });
      this.#latency.observe({ family }, (performance.now() - t0) / 1000);
    });
  }

  /** This process's metrics as text. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  close(): void {
    this.#stopObserving();
  }
}
