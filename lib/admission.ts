/**
 * An admission gate: work is let in against a limit of things at once and a budget of their summed cost
 * (bytes, for charts), in arrival order; what does not fit waits, up to a waiting cap and a wait deadline, and is
 * otherwise refused at once with the seconds after which a retry may fit (nginx `limit_conn` with a queue, as
 * Netflix's concurrency-limits puts it: a fixed limit, a bounded queue, a bounded wait).
 *
 * - First come, first in: a large job at the head is not overtaken by small ones behind it, so it never starves.
 * - A job costing more than the whole budget is let in alone (it counts as the whole budget).
 * - `Retry-After`: the time the jobs ahead would take at the mean hold time seen so far (at least 1 s).
 * - Shed by time, not by count (CoDel, as Facebook's and Netflix's servers use it on request queues): with a
 *   `targetMs`, the gate watches the shortest wait of the jobs it let in over each `intervalMs`. While that minimum
 *   stays above the target, the queue is a standing one (more work arrives than goes out), and a job arriving then
 *   waits at most `targetMs` before it is refused, instead of its whole deadline: clients retry after Retry-After
 *   rather than pile up, and the jobs let in are let in while their answer is still of use. A queue that drains
 *   (a burst) never trips it: its shortest wait falls to 0. The waiting cap stays as the bound on memory.
 */

export class AdmissionRefused extends Error {
  /** Whole seconds after which a retry may be let in. */
  readonly retryAfterS: number;
  /** 'full': the waiting cap was reached; 'deadline': it waited its longest. */
  readonly why: 'full' | 'deadline';
  constructor(why: 'full' | 'deadline', retryAfterS: number, what: string) {
    super(why === 'full' ? `too many ${what} are waiting` : `no room for this ${what} came free in time`);
    this.name = 'AdmissionRefused';
    this.why = why;
    this.retryAfterS = retryAfterS;
  }
}

export interface GateLimits {
  /** Jobs in at once. */
  concurrency: number;
  /** Summed cost of the jobs in at once. */
  budget: number;
  /** Jobs that may wait; one more is refused at once. */
  maxWaiting: number;
  /** How long a job may wait to be let in, ms. */
  maxWaitMs: number;
  /** What a job is, for messages ("charts"). */
  what?: string;
  /** The gate's name in what the gates report (the endpoint's metrics), if it reports. */
  gate?: Gate;
  /** The hold time assumed until one is measured, ms (default 1000): the first Retry-After estimates. */
  initialHoldMs?: number;
  /** CoDel's target: the shortest wait, ms, above which the queue counts as standing (none: never). */
  targetMs?: number;
  /** CoDel's interval, ms (default 500): how long the shortest wait must stay above the target. */
  intervalMs?: number;
}

/** A job let in: release it when its work (and its hold on memory) is done. */
export interface Admitted {
  /** When it was let in (ms, performance.now()). */
  readonly since: number;
  release(): void;
}

interface Waiter {
  cost: number;
  admit: (a: Admitted) => void;
  timer: NodeJS.Timeout;
  /** When it began to wait (ms, performance.now()). */
  since: number;
}

export class AdmissionGate {
  readonly limits: GateLimits;
  #inUse = 0;
  #used = 0;
  #queue: Waiter[] = [];
  /** Mean hold time, ms (exponentially weighted; 1 s until something was let in and released). */
  #meanHoldMs = 1000;
  /** The most cost let in at once so far (for tests and the bench). */
  peakCost = 0;
  /** CoDel: the queue is standing (its shortest wait stayed above the target for an interval). */
  #standing = false;
  #intervalEnds = 0;
  #shortestWait = Infinity;

  constructor(limits: GateLimits) {
    this.limits = { ...limits, concurrency: Math.max(1, limits.concurrency), budget: Math.max(1, limits.budget) };
    this.#meanHoldMs = limits.initialHoldMs ?? 1000;
  }

  get inUse(): number {
    return this.#inUse;
  }

  get used(): number {
    return this.#used;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Whether the gate sheds by time now (CoDel: its queue is standing). */
  get standing(): boolean {
    return this.#standing;
  }

  /** CoDel's bookkeeping: a job let in after waiting `waitedMs`. */
  #sojourn(waitedMs: number): void {
    const target = this.limits.targetMs;
    if (target === undefined) return;
    const now = performance.now();
    this.#shortestWait = Math.min(this.#shortestWait, waitedMs);
    if (now >= this.#intervalEnds) {
      this.#standing = this.#shortestWait > target;
      this.#shortestWait = Infinity;
      this.#intervalEnds = now + (this.limits.intervalMs ?? 500);
    }
  }

  /** Seconds after which a job arriving now would likely be let in. */
  retryAfterS(): number {
    const ahead = this.#queue.length + 1;
    return Math.max(1, Math.ceil((this.#meanHoldMs * ahead) / this.limits.concurrency / 1000));
  }

  /**
   * Lets a job of `cost` in, or waits its turn; refuses (AdmissionRefused) when the queue is full or the wait too
   * long. `maxWaitMs` shortens the gate's wait deadline for this job (what is left of a request's time limit); at 0
   * or less, a job that cannot go straight in is refused at once.
   */
  acquire(cost: number, opts: { maxWaitMs?: number } = {}): Promise<Admitted> {
    const c = Math.min(this.limits.budget, Math.max(0, cost));
    const gate = this.limits.gate;
    if (this.#queue.length === 0 && this.#fits(c)) {
      if (gate) reportAdmitted(gate, 0, false);
      this.#sojourn(0);
      return Promise.resolve(this.#enter(c));
    }
    if (this.#queue.length >= this.limits.maxWaiting) {
      if (gate) reportRefused(gate);
      return Promise.reject(this.#refusal('full'));
    }
    const maxWaitMs = Math.min(this.limits.maxWaitMs, opts.maxWaitMs ?? Infinity, this.#standing ? this.limits.targetMs! : Infinity);
    if (maxWaitMs <= 0) {
      if (gate) reportRefused(gate);
      return Promise.reject(this.#refusal('deadline'));
    }
    return new Promise<Admitted>((resolve, reject) => {
      const w: Waiter = {
        cost: c,
        since: performance.now(),
        admit: (a) => {
          if (gate) reportAdmitted(gate, (a.since - w.since) / 1000, true);
          this.#sojourn(a.since - w.since);
          resolve(a);
        },
        timer: setTimeout(() => {
          const i = this.#queue.indexOf(w);
          if (i >= 0) this.#queue.splice(i, 1);
          if (gate) reportRefused(gate);
          this.#sojourn(performance.now() - w.since);
          reject(this.#refusal('deadline'));
          this.#drain();
        }, maxWaitMs),
      };
      this.#queue.push(w);
    });
  }

  /**
   * A refusal, made once per kind and Retry-After and then reused: refusing must cost less than the work it
   * protects, and an Error's stack trace is most of what making one costs.
   */
  readonly #refusals = new Map<string, AdmissionRefused>();
  #refusal(why: 'full' | 'deadline'): AdmissionRefused {
    const retryAfterS = this.retryAfterS();
    const key = `${why} ${retryAfterS}`;
    let r = this.#refusals.get(key);
    if (!r) this.#refusals.set(key, (r = new AdmissionRefused(why, retryAfterS, this.limits.what ?? 'jobs')));
    return r;
  }

  #fits(cost: number): boolean {
    return this.#inUse < this.limits.concurrency && (this.#inUse === 0 || this.#used + cost <= this.limits.budget);
  }

  #enter(cost: number): Admitted {
    this.#inUse++;
    this.#used += cost;
    this.peakCost = Math.max(this.peakCost, this.#used);
    const since = performance.now();
    let released = false;
    return {
      since,
      release: () => {
        if (released) return;
        released = true;
        this.#inUse--;
        this.#used -= cost;
        this.#meanHoldMs = 0.8 * this.#meanHoldMs + 0.2 * (performance.now() - since);
        this.#drain();
      },
    };
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#fits(this.#queue[0]!.cost)) {
      const w = this.#queue.shift()!;
      clearTimeout(w.timer);
      w.admit(this.#enter(w.cost));
    }
  }
}

// ---------- what the gates report ----------

/**
 * What the process's admission gates report: how long each admission waited and which were refused. The gates
 * (the DuckDB connection pool and its bulk lane, lib/duckdb-pool.ts; the chart renderer's pages,
 * lib/chart-renderer.ts) call `admitted` and `refused`; whoever wants to know (the endpoint's metrics,
 * server/metrics.ts) subscribes. Nothing is kept here: with no subscriber a report costs a loop over an empty set.
 */

/** The gates: `duckdb` a connection of the radar catalogue's pool, `bulk` a turn of the bulk lane, `render` a page of the chart renderer. */
export const GATES = ['duckdb', 'bulk', 'render'] as const;
export type Gate = (typeof GATES)[number];

export interface AdmissionObserver {
  /** An admission: `waitedSeconds` 0 when it went straight through, `queued` whether it had to wait its turn. */
  admitted(gate: Gate, waitedSeconds: number, queued: boolean): void;
  /** Refused (answered 503): the waiting line was full, or, at a gate with a wait deadline, the wait too long. */
  refused(gate: Gate): void;
}

const observers = new Set<AdmissionObserver>();

/** Subscribes `o` to every gate of this process; returns the unsubscribe. */
export function observeAdmissions(o: AdmissionObserver): () => void {
  observers.add(o);
  return () => void observers.delete(o);
}

export function reportAdmitted(gate: Gate, waitedSeconds: number, queued: boolean): void {
  for (const o of observers) o.admitted(gate, waitedSeconds, queued);
}

export function reportRefused(gate: Gate): void {
  for (const o of observers) o.refused(gate);
}
