/**
 * An admission gate: work is let in against a limit of things at once and a budget of their summed cost
 * (bytes, for charts), in arrival order; what does not fit waits, up to a waiting cap and a wait deadline, and is
 * otherwise refused with the seconds after which a retry may fit (nginx `limit_conn` with a queue, as
 * Netflix's concurrency-limits puts it: a fixed limit, a bounded queue, a bounded wait).
 *
 * - First come, first in: a large job at the head is not overtaken by small ones behind it, so it never starves
 *   (but under overload, below).
 * - A job costing more than the whole budget is let in alone (it counts as the whole budget).
 * - `Retry-After`: the time the jobs ahead would take at the mean hold time seen so far (at least 1 s).
 * - Shed by time, not by count: the controlled-delay queue of Facebook's servers (CoDel applied to request queues,
 *   "Fail at scale", ACM Queue 2015), with CoDel's own test of a standing queue. With a `targetMs`, the queue is
 *   *standing* once, for a whole `intervalMs`, it has neither been empty nor let its oldest waiter in within the
 *   target (CoDel: the least sojourn over an interval is above the target), and its oldest waiter has waited
 *   `targetMs`: more work keeps arriving than goes out in time, which no burst does (a burst drains, and the queue
 *   is empty again), nor a long queue that moves quickly (a closed loop of more clients than places: its oldest is let
 *   in within the target again and again, though the queue is never empty). While it stands, no job waits longer
 *   than `targetMs`: a new one gets that deadline, and a waiter already past it is refused, from the head, as CoDel
 *   drops from the head (those are the jobs whose clients have waited longest for an answer), when a new job arrives
 *   to take their place. Clients retry after Retry-After rather than pile up, and the jobs let in are let in while
 *   their answer is still of use. Outside a standing queue every job may wait its whole deadline. The waiting cap
 *   stays, as the bound on memory.
 * - Adaptive LIFO (Facebook's, as above): once the queue has gone an interval without going well (as above) and its
 *   oldest waiter has waited half the target, the newest waiter goes in first (#drain). Under overload a FIFO queue with a deadline lets nothing in while it
 *   is still of use; LIFO keeps the gate's work going to answers whose clients still wait for them.
 * - The clock is injectable (`clock`), so the policy can be tested against a clock that only moves when told.
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

/** Time as the gate sees it: ms, and timers. */
export interface GateClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const REAL_CLOCK: GateClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout),
};

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
  /** The longest wait while the queue stands, ms (none: the gate never sheds by time). */
  targetMs?: number;
  /** How long the queue must go without going well (empty, or its oldest let in within the target) to count as standing, ms (default 500). */
  intervalMs?: number;
  /** The clock (default: performance.now() and node's timers). */
  clock?: GateClock;
}

/** A job let in: release it when its work (and its hold on memory) is done. */
export interface Admitted {
  /** When it was let in (ms, on the gate's clock). */
  readonly since: number;
  release(): void;
}

interface Waiter {
  cost: number;
  admit: (a: Admitted) => void;
  refuse: (e: AdmissionRefused) => void;
  timer: unknown;
  /** When it began to wait (ms, on the gate's clock). */
  since: number;
}

export class AdmissionGate {
  readonly limits: GateLimits;
  readonly #clock: GateClock;
  #inUse = 0;
  #used = 0;
  #queue: Waiter[] = [];
  /** Mean hold time, ms (exponentially weighted; 1 s until something was let in and released). */
  #meanHoldMs = 1000;
  /** The most cost let in at once so far (for tests and the bench). */
  peakCost = 0;
  /**
   * When the queue last went well (ms): it was empty, or its oldest waiter was let in having waited less than the
   * target. It stands once that is an interval ago (and its oldest has waited the target).
   */
  #wellSince: number;
  /**
   * The queue is empty because its waiters were refused, not let in: the overload goes on, so a waiter arriving
   * now does not start a new interval (else refusing a standing queue whole would end its standing at once).
   */
  #emptiedByRefusals = false;

  constructor(limits: GateLimits) {
    this.limits = { ...limits, concurrency: Math.max(1, limits.concurrency), budget: Math.max(1, limits.budget) };
    this.#clock = limits.clock ?? REAL_CLOCK;
    this.#meanHoldMs = limits.initialHoldMs ?? 1000;
    this.#wellSince = this.#clock.now();
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

  /**
   * Whether the gate sheds by time now: it has a target, its queue has gone an interval without going well (empty
   * by letting its jobs in, or its oldest let in within the target; a queue emptied by refusing them is the same
   * overload), and its oldest waiter has waited the target.
   */
  get standing(): boolean {
    return this.#queueAged(this.limits.targetMs ?? Infinity);
  }

  /**
   * The queue has gone an interval without going well (emptied by letting its jobs in, or its oldest waiter let in
   * within the target), and its oldest waiter has waited `ms`: a queue that is long but quick (its oldest let in
   * within the target, again and again, as with a closed loop of a few more clients than places) never stands, nor
   * does a burst that drains.
   */
  #queueAged(ms: number): boolean {
    if (this.limits.targetMs === undefined || this.#queue.length === 0) return false;
    const now = this.#clock.now();
    return now - this.#wellSince >= (this.limits.intervalMs ?? 500) && now - this.#queue[0]!.since >= ms;
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
      this.#emptiedByRefusals = false;
      if (gate) reportAdmitted(gate, 0, false);
      return Promise.resolve(this.#enter(c));
    }
    const standing = this.standing;
    if (standing) {
      this.#shedOverdue();
      // the waiters refused were what held it back (a large chart waiting for the budget): it may go in now
      if (this.#queue.length === 0 && this.#fits(c)) {
        if (gate) reportAdmitted(gate, 0, false);
        return Promise.resolve(this.#enter(c));
      }
    }
    if (this.#queue.length >= this.limits.maxWaiting) {
      if (gate) reportRefused(gate);
      return Promise.reject(this.#refusal('full'));
    }
    const maxWaitMs = Math.min(this.limits.maxWaitMs, opts.maxWaitMs ?? Infinity, standing ? this.limits.targetMs! : Infinity);
    if (maxWaitMs <= 0) {
      if (gate) reportRefused(gate);
      return Promise.reject(this.#refusal('deadline'));
    }
    return new Promise<Admitted>((resolve, reject) => {
      const w: Waiter = {
        cost: c,
        since: this.#clock.now(),
        admit: (a) => {
          if (gate) reportAdmitted(gate, (a.since - w.since) / 1000, true);
          resolve(a);
        },
        refuse: (e) => {
          if (gate) reportRefused(gate);
          reject(e);
        },
        timer: undefined,
      };
      w.timer = this.#clock.setTimeout(() => {
        const i = this.#queue.indexOf(w);
        if (i < 0) return;
        this.#remove(i, true);
        w.refuse(this.#refusal('deadline'));
        this.#drain();
      }, maxWaitMs);
      if (this.#queue.length === 0 && !this.#emptiedByRefusals) this.#wellSince = this.#clock.now();
      this.#queue.push(w);
    });
  }

  /** While the queue stands: refuses, from the head, the waiters that have waited the target or longer. */
  #shedOverdue(): void {
    const target = this.limits.targetMs!;
    const now = this.#clock.now();
    while (this.#queue.length > 0 && now - this.#queue[0]!.since >= target) {
      const w = this.#queue[0]!;
      this.#remove(0, true);
      this.#clock.clearTimeout(w.timer);
      w.refuse(this.#refusal('deadline'));
    }
  }

  /**
   * Takes waiter `i` off the queue; `refused`: it leaves without being let in. The queue went well if it is empty
   * now by letting its jobs in, or if its oldest was let in within the target (CoDel's sojourn time, taken at the
   * head: a newer waiter let in first, out of turn, says nothing of how long the queue keeps its jobs).
   */
  #remove(i: number, refused: boolean): void {
    const [w] = this.#queue.splice(i, 1);
    const now = this.#clock.now();
    if (!refused && i === 0 && now - w!.since < (this.limits.targetMs ?? Infinity)) this.#wellSince = now;
    if (this.#queue.length > 0) return;
    this.#emptiedByRefusals = refused;
    if (!refused) this.#wellSince = now;
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
    const since = this.#clock.now();
    let released = false;
    return {
      since,
      release: () => {
        if (released) return;
        released = true;
        this.#inUse--;
        this.#used -= cost;
        this.#meanHoldMs = 0.8 * this.#meanHoldMs + 0.2 * (this.#clock.now() - since);
        this.#drain();
      },
    };
  }

  /**
   * Lets waiters in while they fit. First come, first in; but once the queue has gone an interval without going
   * well and its oldest waiter has already waited half the target, newest first (Facebook's adaptive LIFO): in FIFO order every waiter would wait
   * about as long as the queue is, past the target, and be refused just before its turn, so nothing would be let
   * in while still of use; in LIFO order the new ones are let in at once and the old ones run out at the target.
   * Below half the target (a long but quick queue) the order stays FIFO, and nobody is overtaken. A waiter is
   * never refused here, with a place free for it: only a new arrival (acquire) sheds the overdue, to take their
   * place. So a few long jobs (two PDFs rendering for seconds, two more waiting) keep their queue standing, but
   * whoever waits behind them is still let in when they end, unless newer work has come for the places.
   */
  #drain(): void {
    while (this.#queue.length > 0) {
      const lifo = this.#queueAged((this.limits.targetMs ?? Infinity) / 2);
      const i = lifo ? this.#queue.length - 1 : 0;
      const w = this.#queue[i]!;
      if (!this.#fits(w.cost)) break;
      this.#remove(i, false);
      this.#clock.clearTimeout(w.timer);
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
