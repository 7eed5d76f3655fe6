/**
 * A read-only DuckDB database with a small pool of connections, as the endpoint queries it: requests borrow a
 * connection for the life of a query, let in by the process's one admission primitive (lib/admission.ts
 * `AdmissionGate`: a limit, a waiting cap, a wait deadline, a Retry-After estimate), and each connection keeps the
 * statements it prepared.
 *
 * One time limit per request, from the moment it asks: the time it waits to be let in (a bulk turn, then a
 * connection) counts against it, and a request that cannot be let in before it runs out, or finds the waiting
 * line full, is refused at once (503 with Retry-After). Once let in, the query runs in what is left of the limit;
 * past it, DuckDB is interrupted and the request gets 503.
 */
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { HttpError } from '../core/http/errors.ts';
import { AdmissionGate, AdmissionRefused, type Admitted } from './admission.ts';
import { openDuckDB } from './duckdb.ts';

/**
 * Defaults: a request may take 10 s to be let in and get its answer started; at most 512 requests wait for a
 * connection. The cap bounds memory (a waiting request holds its parsed head and a promise, a few KB), not load:
 * load is shed by time (CODEL_TARGET_MS). A small cap made closed-loop clients past it spin on 503s, each
 * answered and asked again at once, which is how goodput collapsed under 4× load (issue 18: 64 waiting, 200
 * connections, 58 good answers a second against 770 at 50).
 */
export const QUERY_TIMEOUT_MS = 10_000;
export const MAX_WAITING = 512;

/**
 * Shedding by time on the connection queue (lib/admission.ts, Facebook's controlled delay with adaptive LIFO and
 * CoDel's test of a standing queue): when for half a second the queue has neither been empty nor let its oldest
 * request in within 100 ms, and its oldest has waited 100 ms, it stands, and no request waits longer than 100 ms: a
 * new one gets that deadline, older ones past it are refused, and once the oldest has waited 50 ms the newest goes
 * first. A burst that drains never trips it, nor a closed loop of a few more clients than connections (16 clients
 * on two processes of 4 connections: the queue is never empty, but its oldest goes in within the target again and
 * again; issue 18, where the earlier test, "not empty for half a second", refused 68-233 of them in 5 s). A live
 * query holds a connection for milliseconds (a one-day /files 1.5 ms of DuckDB), so 100 ms of queue is dozens of
 * answers' worth: the pool stays busy, and the answers it gives are given while their clients still wait for them.
 */
export const CODEL_TARGET_MS = 100;
export const CODEL_INTERVAL_MS = 500;

/**
 * Bulk answers (more than a week of a big table, or all of it: queries.ts `isBulk`) an endpoint process runs at
 * once; more wait their turn, in order. One bulk answer keeps both of this machine's cores busy already: DuckDB
 * computes the next chunk while node writes this one. Each more at once held its own scan, chunks and buffers: on
 * the 30-year catalogue, four clients peaked at 331 MB with no lane and 294 MB with one turn, serving 15 years'
 * mixed load in about the same time (35 against 31 s). The cost: 16 connections asking for one-year answers got
 * 2.9-4.6 instead of 5.1 answers a second from two processes (still 1.8-2.5 times PostgreSQL's, BENCHMARKS.md).
 * Small answers (a week or less, an id, a radar) never wait behind them. More cores: more processes (--workers),
 * each with a turn.
 */
export const BULK_AT_ONCE = 1;

/**
 * A DuckDB query's hold of a connection assumed until one is measured, ms: the first Retry-After estimates (a
 * small query holds one for a few ms, a bulk answer up to seconds; the gate learns the mean as it goes).
 */
const INITIAL_HOLD_MS = 100;

export interface PoolLimits {
  /** Time a request may take until its answer starts, waiting to be let in included, ms; then 503. */
  queryTimeoutMs?: number;
  /** Requests that may wait for a connection; one more is 503 at once (back-pressure, not an unbounded queue). */
  maxWaiting?: number;
  /**
   * DuckDB threads of the pool's database (default 1). Requests, not a query's parts, are what an endpoint runs
   * side by side: one thread answers a small query faster (no parallel set-up: a one-day query 1.6 ms against
   * 4 ms of CPU), streams a large one as fast (the client and JS set the pace) and needs no reorder buffers,
   * which ran 2 threads out of a 64 MB budget with 4 one-year answers at once. More cores: --workers.
   */
  threads?: number;
}

function queryTimedOut(ms: number): HttpError {
  return new HttpError(503, `The query took longer than ${ms / 1000} s and was stopped`, {
    hints: ['Ask for less: a shorter timespan, a radar_code or a limit', 'Parameter-free paths are static files and always fast'],
    headers: { 'Retry-After': '5' },
  });
}

/** DuckDB ran out of its memory budget, shared by the queries running at once: transient, so 503. */
function outOfMemory(): HttpError {
  return new HttpError(503, 'The catalogue is answering too many large queries at once just now', {
    hints: ['Try again in a few seconds', 'A narrower timespan, bbox or radar_code makes a smaller answer'],
    headers: { 'Retry-After': '5' },
  });
}

/**
 * Not let in: the waiting line was full, or no connection came free in time (the request's time limit, or, while
 * the queue stands, the gate's target). One error per kind, limit and Retry-After, made once: a refusal under
 * overload must cost next to nothing (no stack trace; its JSON body is small).
 */
const refusals = new Map<string, HttpError>();
function tooBusy(e: AdmissionRefused, timeoutMs: number): HttpError {
  const key = `${e.why} ${e.retryAfterS} ${timeoutMs}`;
  let err = refusals.get(key);
  if (!err) {
    const why = e.why === 'full' ? 'The catalogue is answering too many queries just now' : `The catalogue could not start this query in time (its limit is ${timeoutMs / 1000} s)`;
    err = new HttpError(503, why, { hints: [`Try again in ${e.retryAfterS} s`], headers: { 'Retry-After': String(e.retryAfterS) } });
    refusals.set(key, err);
  }
  return err;
}

/**
 * The process's one bulk lane, shared by its pools: a new build takes turns from the lane the old one still uses.
 * Its waiting cap is MAX_WAITING; each request's wait is bounded by what is left of its own time limit.
 */
const bulkLane = new AdmissionGate({ concurrency: BULK_AT_ONCE, budget: BULK_AT_ONCE, maxWaiting: MAX_WAITING, maxWaitMs: QUERY_TIMEOUT_MS, what: 'bulk answers', gate: 'bulk', initialHoldMs: 1000 });

/** The bulk lane's answers running and waiting (for the endpoint's metrics). */
export function bulkLaneLoad(): { busy: number; waiting: number } {
  return { busy: bulkLane.inUse, waiting: bulkLane.waiting };
}

/**
 * DuckDB's buffers for a database build. What they cache is in the OS page cache as well (the database file), so
 * they are kept small: with 48 rather than 64 MB, the memory bench's peak on the 30-year catalogue fell by 15-20 MB
 * (BENCHMARKS.md), one-day answers as fast. 32 MB ran out with four one-year answers at once (503): a scan pins a
 * block of every column it reads.
 */
export const DATABASE_BUFFERS = '48MB';
/** A partitioned catalogue sorts every answer (`ORDER BY`): its sorts get more room before they spill. */
export const PARTITIONED_BUFFERS = '64MB';

/**
 * Statements prepared on one connection, by SQL text; the oldest is dropped past 64. Preparing is most of a small
 * query's time: bbox on radars 1.8 ms prepared per request, 0.7 ms re-bound.
 */
class StatementCache {
  readonly #conn: DuckDBConnection;
  readonly #byText = new Map<string, DuckDBPreparedStatement>();

  constructor(conn: DuckDBConnection) {
    this.#conn = conn;
  }

  async get(sql: string): Promise<DuckDBPreparedStatement> {
    let ps = this.#byText.get(sql);
    if (ps) {
      this.#byText.delete(sql); // most recently used goes last
    } else {
      ps = await this.#conn.prepare(sql);
      if (this.#byText.size >= 64) {
        const [oldest, old] = this.#byText.entries().next().value!;
        this.#byText.delete(oldest);
        old.destroySync();
      }
    }
    this.#byText.set(sql, ps);
    return ps;
  }

  close(): void {
    for (const ps of this.#byText.values()) ps.destroySync();
    this.#byText.clear();
  }
}

/** A pooled connection and its statements. */
interface Pooled {
  conn: DuckDBConnection;
  statements: StatementCache;
}

/**
 * The connection a request's work gets: the pooled one, except that parameterised `stream` and `run` go through
 * its prepared statements, and that past the time limit every call fails as interrupted (a request of several
 * queries does not start another).
 */
function limitedConnection(p: Pooled, timedOut: () => boolean): DuckDBConnection {
  return new Proxy(p.conn, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== 'function') return v;
      if (timedOut()) return () => Promise.reject(new Error('INTERRUPT Error: Interrupted! (time limit)'));
      if (key === 'stream' || key === 'run') {
        return async (sql: string, values?: Record<string, DuckDBValue>) => {
          if (values === undefined) return (v as (sql: string) => Promise<unknown>).call(target, sql);
          const ps = await p.statements.get(sql);
          ps.bind(values);
          return key === 'stream' ? ps.stream() : ps.run();
        };
      }
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

let pools = 0;

export class ConnectionPool {
  readonly #idle: Pooled[] = [];
  readonly #instance: DuckDBInstance;
  /** Lends the connections: `size` at once, `maxWaiting` waiting. */
  readonly gate: AdmissionGate;
  readonly queryTimeoutMs: number;
  readonly maxWaiting: number;
  readonly size: number;

  private constructor(instance: DuckDBInstance, limits: PoolLimits, size: number) {
    this.#instance = instance;
    this.size = size;
    this.queryTimeoutMs = limits.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
    this.maxWaiting = limits.maxWaiting ?? MAX_WAITING;
    this.gate = new AdmissionGate({
      concurrency: size,
      budget: size,
      maxWaiting: this.maxWaiting,
      maxWaitMs: this.queryTimeoutMs,
      what: 'queries',
      gate: 'duckdb',
      initialHoldMs: INITIAL_HOLD_MS,
      targetMs: CODEL_TARGET_MS,
      intervalMs: CODEL_INTERVAL_MS,
    });
  }

  static async open(path: string, size: number, limits: PoolLimits = {}): Promise<ConnectionPool> {
    // Relative paths (a partitioned catalogue's Parquet) are the database folder's; what a sort spills goes to a
    // folder of this process's own, not beside a database other endpoints share (and may only read).
    const instance = await openDuckDB({
      path,
      readOnly: true,
      threads: limits.threads ?? 1,
      memoryLimit: DATABASE_BUFFERS,
      fileSearchPath: dirname(path),
      tempDirectory: join(tmpdir(), `snapcat-duckdb-${process.pid}-${++pools}`),
    });
    const pool = new ConnectionPool(instance, limits, size);
    for (let i = 0; i < size; i++) {
      const conn = await instance.connect();
      const p = { conn, statements: new StatementCache(conn) };
      pool.#idle.push(p);
    }
    return pool;
  }

  /** Connections lent out and requests waiting for one (for the endpoint's metrics). */
  get load(): { busy: number; waiting: number } {
    return { busy: this.gate.inUse, waiting: this.gate.waiting };
  }

  /** A connection, once the gate lets the request in (it holds one of `size` places, so one is idle). */
  async #borrow(maxWaitMs: number): Promise<{ p: Pooled; admitted: Admitted }> {
    const admitted = await this.gate.acquire(1, { maxWaitMs });
    return { p: this.#idle.pop()!, admitted };
  }

  #giveBack(p: Pooled, admitted: Admitted): void {
    this.#idle.push(p);
    admitted.release();
  }

  /**
   * Runs `fn` with a connection. A `bulk` answer first waits for a turn of the bulk lane (BULK_AT_ONCE); then any
   * request waits for a connection; both waits count against the time limit. Until `fn` calls `answering()` (its
   * answer has begun), the query runs under what is left of the limit: past it, DuckDB is interrupted and the
   * request gets 503. `leaveLane()` hands the bulk turn on before `fn` ends.
   */
  async with<T>(fn: (c: DuckDBConnection, answering: () => void, leaveLane: () => void) => Promise<T>, opts: { bulk?: boolean } = {}): Promise<T> {
    const deadline = performance.now() + this.queryTimeoutMs;
    let turn: Admitted | undefined;
    if (opts.bulk) {
      try {
        turn = await bulkLane.acquire(1, { maxWaitMs: this.queryTimeoutMs });
      } catch (e) {
        throw e instanceof AdmissionRefused ? tooBusy(e, this.queryTimeoutMs) : e;
      }
    }
    const leaveLane = () => turn?.release();
    try {
      let borrowed: { p: Pooled; admitted: Admitted };
      try {
        borrowed = await this.#borrow(deadline - performance.now());
      } catch (e) {
        throw e instanceof AdmissionRefused ? tooBusy(e, this.queryTimeoutMs) : e;
      }
      return await this.#limited(borrowed, deadline, (c, answering) => fn(c, answering, leaveLane));
    } finally {
      leaveLane();
    }
  }

  async #limited<T>({ p, admitted }: { p: Pooled; admitted: Admitted }, deadline: number, fn: (c: DuckDBConnection, answering: () => void) => Promise<T>): Promise<T> {
    let timedOut = false;
    let again: ReturnType<typeof setInterval> | undefined;
    const timer = setTimeout(
      () => {
        timedOut = true;
        p.conn.interrupt();
        // An interrupt that comes before DuckDB has begun the query is lost (a query clears it as it begins): one
        // query in 30 ran its 7 s to the end past a 1 ms limit. Repeated until the work ends or its answer starts.
        again = setInterval(() => p.conn.interrupt(), 10);
      },
      Math.max(0, deadline - performance.now()),
    );
    const stopTimers = () => {
      clearTimeout(timer);
      clearInterval(again);
    };
    try {
      return await fn(limitedConnection(p, () => timedOut), stopTimers);
    } catch (e) {
      if (timedOut && /interrupt/i.test((e as Error)?.message ?? '')) throw queryTimedOut(this.queryTimeoutMs);
      if (/^Out of Memory Error/.test((e as Error)?.message ?? '')) throw outOfMemory();
      throw e;
    } finally {
      stopTimers();
      this.#giveBack(p, admitted);
    }
  }

  /** Runs `fn` with a connection and no time limit: for opening a build, not for requests. */
  async withoutLimit<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const { p, admitted } = await this.#borrow(Infinity);
    try {
      return await fn(p.conn);
    } finally {
      this.#giveBack(p, admitted);
    }
  }

  /** Closes the idle connections and the database (a build is closed once no request uses it). */
  close(): void {
    for (const p of this.#idle) {
      p.statements.close();
      p.conn.closeSync();
    }
    this.#instance.closeSync();
  }
}
