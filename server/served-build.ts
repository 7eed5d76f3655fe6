/**
 * A build folder as the endpoint serves it: the static tree; the radar catalogue's read-only DuckDB database
 * with a small pool of connections (requests borrow one for the life of a query); the Timeseries API's metadata,
 * read from its database at start, and its series file.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { DuckDBConnection, DuckDBInstance, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import type { CatalogueFacts } from '../core/radar/queries.ts';
import { HttpError } from '../core/http/errors.ts';
import type { SnapshotManifest } from '../core/snapshot/table-schema.ts';
import { openDuckDB, run, sqlString } from '../lib/duckdb.ts';
import { assertNoHiveKeys } from '../lib/hive.ts';
import { readCatalogueFacts } from '../build-scripts/radar/catalogue-db.ts';
import { RADAR_DB_FILE } from '../build-scripts/radar/build-radar.ts';
import type { Catalogue } from '../core/timeseries/catalogue.ts';
import { closeSeriesFile, openSeriesFile, type SeriesFile } from '../lib/series-file.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../lib/timeseries-store.ts';
import { parseProfile, type TimeseriesProfile } from '../core/timeseries/profile.ts';
import type { ResidentTable } from '../core/radar/resident.ts';
import type { ResourceName } from '../core/radar/resources.ts';
import { loadResidentTables } from './resident-tables.ts';
import { reportAdmitted, reportRefused, waitClock } from '../lib/admission.ts';

/** Defaults: a query may run 10 s before it is interrupted; at most 64 requests wait for a connection. */
export const QUERY_TIMEOUT_MS = 10_000;
export const MAX_WAITING = 64;

/**
 * Bulk answers (more than a week of a big table, or all of it: queries.ts `isBulk`) an endpoint process runs at
 * once; more wait their turn, in order. One bulk answer keeps both of this machine's cores busy already: DuckDB
 * computes the next chunk while node writes this one. Each more at once held its own scan, chunks and buffers: on
 * the 30-year catalogue, four clients peaked at 331 MB with no lane and 294 MB with one turn, serving 15 years'
 * mixed load in about the same time (35 against 31 s). The cost: 16 connections asking for one-year answers got
 * 2.9-4.6 instead of 5.1 answers a second from two processes (still 1.8-2.5 times PostgreSQL's, BENCHMARKS.md).
 * Small answers (a week or less, an id, a radar) never wait behind them, and an answer whose client keeps it
 * waiting a second hands its turn on (radar-handler.ts). More cores: more processes (--workers), each with a turn.
 */
export const BULK_AT_ONCE = 1;

export interface PoolLimits {
  /** Time a query may run until its answer starts, ms; then it is interrupted in DuckDB and answered 503. */
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

function tooBusy(): HttpError {
  return new HttpError(503, 'The catalogue is answering too many queries just now', { hints: ['Try again in a second'], headers: { 'Retry-After': '1' } });
}

let pools = 0;

/** Turns of the bulk lane, BULK_AT_ONCE at a time, in the order asked. */
class BulkLane {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  get waiting(): number {
    return this.queue.length;
  }

  get busy(): number {
    return this.running;
  }

  async enter(): Promise<void> {
    if (this.running < BULK_AT_ONCE) {
      this.running++;
      reportAdmitted('bulk', 0, false);
      return;
    }
    // the turn is handed over by leave, with `running` left as it was
    const admitted = waitClock('bulk');
    await new Promise<void>((resolve) => this.queue.push(resolve));
    admitted();
  }

  leave(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.running--;
  }
}

/** The process's one bulk lane, shared by its pools: a new build takes turns from the lane the old one still uses. */
const bulkLane = new BulkLane();

/** The bulk lane's answers running and waiting (for the endpoint's metrics). */
export function bulkLaneLoad(): { busy: number; waiting: number } {
  return { busy: bulkLane.busy, waiting: bulkLane.waiting };
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

/** Statements prepared on a connection, by SQL text; the oldest is dropped past 64. */
const PREPARED = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

async function preparedStatement(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let cache = PREPARED.get(conn);
  if (!cache) PREPARED.set(conn, (cache = new Map()));
  let ps = cache.get(sql);
  if (ps) {
    cache.delete(sql);
  } else {
    ps = await conn.prepare(sql);
    if (cache.size >= 64) {
      const [oldest, old] = cache.entries().next().value!;
      cache.delete(oldest);
      old.destroySync();
    }
  }
  cache.set(sql, ps);
  return ps;
}

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((c: DuckDBConnection) => void)[] = [];
  private readonly instance: DuckDBInstance;
  readonly queryTimeoutMs: number;
  readonly maxWaiting: number;
  readonly size: number;

  private constructor(instance: DuckDBInstance, limits: PoolLimits, size: number) {
    this.instance = instance;
    this.size = size;
    this.queryTimeoutMs = limits.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
    this.maxWaiting = limits.maxWaiting ?? MAX_WAITING;
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
    for (let i = 0; i < size; i++) pool.idle.push(await instance.connect());
    return pool;
  }

  /** Connections lent out and requests waiting for one (for the endpoint's metrics). */
  get load(): { busy: number; waiting: number } {
    return { busy: this.size - this.idle.length, waiting: this.waiting.length };
  }

  async acquire(): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) {
      reportAdmitted('duckdb', 0, false);
      return c;
    }
    if (this.waiting.length >= this.maxWaiting) {
      reportRefused('duckdb');
      throw tooBusy();
    }
    const admitted = waitClock('duckdb');
    const conn = await new Promise<DuckDBConnection>((resolve) => this.waiting.push(resolve));
    admitted();
    return conn;
  }

  release(c: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /**
   * Runs `fn` with a connection. Until `fn` calls `answering()` (a streamed answer has begun), the query runs
   * under the time limit: past it, DuckDB is interrupted and the request gets 503. A `bulk` answer first waits for
   * a turn of the bulk lane (BULK_AT_ONCE); the time limit starts once it has its connection. `leaveLane()` hands the
   * turn on before `fn` ends (for an answer its client keeps waiting).
   */
  async with<T>(fn: (c: DuckDBConnection, answering: () => void, leaveLane: () => void) => Promise<T>, opts: { bulk?: boolean } = {}): Promise<T> {
    if (!opts.bulk) return this.withConnection((c, answering) => fn(c, answering, () => {}));
    if (bulkLane.waiting + this.waiting.length >= this.maxWaiting) {
      reportRefused('bulk');
      throw tooBusy();
    }
    await bulkLane.enter();
    let inLane = true;
    const leaveLane = () => {
      if (!inLane) return;
      inLane = false;
      bulkLane.leave();
    };
    try {
      return await this.withConnection((c, answering) => fn(c, answering, leaveLane));
    } finally {
      leaveLane();
    }
  }

  private async withConnection<T>(fn: (c: DuckDBConnection, answering: () => void) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    let timedOut = false;
    let again: ReturnType<typeof setInterval> | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      c.interrupt();
      // An interrupt that comes before DuckDB has begun the query is lost (a query clears it as it begins): one
      // query in 30 ran its 7 s to the end past a 1 ms limit. Repeated until the work ends or its answer starts.
      again = setInterval(() => c.interrupt(), 10);
    }, this.queryTimeoutMs);
    const stopTimers = () => {
      clearTimeout(timer);
      clearInterval(again);
    };
    // Past the limit, a query started after the interrupt (a request of several queries) fails too.
    // Parameterised `stream` and `run` go through statements prepared once per connection (preparing is most of
    // a small query's time: bbox on radars 1.8 ms prepared per request, 0.7 ms re-bound).
    const guarded = new Proxy(c, {
      get(target, key) {
        const v = Reflect.get(target, key, target) as unknown;
        if (typeof v !== 'function') return v;
        if (timedOut) return () => Promise.reject(new Error('INTERRUPT Error: Interrupted! (time limit)'));
        if (key === 'stream' || key === 'run') {
          return async (sql: string, values?: Record<string, DuckDBValue>) => {
            if (values === undefined) return (v as (sql: string) => Promise<unknown>).call(target, sql);
            const ps = await preparedStatement(target, sql);
            ps.bind(values);
            return key === 'stream' ? ps.stream() : ps.run();
          };
        }
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
    try {
      return await fn(guarded, stopTimers);
    } catch (e) {
      if (timedOut && /interrupt/i.test((e as Error)?.message ?? '')) throw queryTimedOut(this.queryTimeoutMs);
      if (/^Out of Memory Error/.test((e as Error)?.message ?? '')) throw outOfMemory();
      throw e;
    } finally {
      stopTimers();
      this.release(c);
    }
  }

  /** Runs `fn` with a connection and no time limit: for opening a build, not for requests. */
  async withoutLimit<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    try {
      return await fn(c);
    } finally {
      this.release(c);
    }
  }

  close(): void {
    for (const c of this.idle) {
      for (const ps of PREPARED.get(c)?.values() ?? []) ps.destroySync();
      PREPARED.delete(c);
      c.closeSync();
    }
    this.instance.closeSync();
  }
}

export interface ServedBuild {
  folder: string;
  site: string;
  manifest: SnapshotManifest;
  /** Requests being answered from this build (a replaced build is closed when none are left). */
  inFlight: number;
  /** Identifies this build's answers: a hash of its build.json and folder name, the base of every ETag. */
  tag: string;
  /** When the build was made: the time its build.json was written, ms since the epoch (build.json holds no clock time). */
  builtAt: number;
  /** The radar catalogue: its database, facts about it, and its small tables in memory. */
  radar?: { pool: ConnectionPool; facts: CatalogueFacts; resident: Partial<Record<ResourceName, ResidentTable>> };
  /**
   * The Timeseries API: its metadata in memory, its observations in the series file (lib/series-file.ts). The
   * database is read once, when the build is opened.
   */
  timeseries?: { catalogue: Catalogue; series: SeriesFile; profile: TimeseriesProfile };
  close(): void;
}

export async function openServedBuild(folder: string, poolSize = 4, limits: PoolLimits = {}): Promise<ServedBuild> {
  const buildJson = readFileSync(join(folder, 'build.json'), 'utf8');
  const info = JSON.parse(buildJson) as { snapshot: SnapshotManifest; timeseriesProfile?: unknown };
  // the profile the build made its tree in, never this process's environment (a build from before profiles: spec)
  const profile = parseProfile(info.timeseriesProfile, `timeseriesProfile in ${join(folder, 'build.json')}`);
  const build: ServedBuild = {
    folder,
    site: join(folder, 'site'),
    manifest: info.snapshot,
    inFlight: 0,
    tag: createHash('sha1').update(`${basename(folder)}\n${buildJson}`).digest('base64url').slice(0, 16),
    builtAt: statSync(join(folder, 'build.json')).mtimeMs,
    close() {
      build.radar?.pool.close();
      if (build.timeseries) closeSeriesFile(build.timeseries.series);
    },
  };
  const radarDb = join(folder, 'data', RADAR_DB_FILE);
  if (existsSync(radarDb)) {
    const pool = await ConnectionPool.open(radarDb, poolSize, limits);
    try {
      const facts = await pool.withoutLimit(readCatalogueFacts);
      // a partitioned catalogue below a folder named like `key=value` is refused before anything is read from it
      if (facts.partitioned) {
        assertNoHiveKeys(dirname(radarDb));
        await pool.withoutLimit((c) => run(c, `SET memory_limit = ${sqlString(PARTITIONED_BUFFERS)}`));
      }
      build.radar = { pool, facts, resident: await pool.withoutLimit((c) => loadResidentTables(c, facts)) };
    } catch (e) {
      pool.close();
      throw e;
    }
  }
  const timeseriesDb = join(folder, 'data', TIMESERIES_DB_FILE);
  if (existsSync(timeseriesDb)) {
    try {
      build.timeseries = { catalogue: await readTimeseriesCatalogue(timeseriesDb, Date.parse(info.snapshot.taken_at), limits), series: openSeriesFile(dirname(timeseriesDb)), profile };
    } catch (e) {
      // the radar catalogue's pool, opened already, is not left open
      build.close();
      throw e;
    }
  }
  return build;
}

/** The Timeseries API's metadata, read once from its database, which is then closed. */
async function readTimeseriesCatalogue(path: string, takenAt: number, limits: PoolLimits): Promise<Catalogue> {
  const pool = await ConnectionPool.open(path, 1, limits);
  try {
    return await pool.withoutLimit((c) => loadCatalogue(c, takenAt));
  } finally {
    pool.close();
  }
}
