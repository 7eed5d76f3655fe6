/**
 * DuckDB access shared by the build and the endpoint: open an instance, run bound queries, and stream a
 * query's text column in batches without holding the result in memory.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import type { SqlFragment } from '../core/radar/filters.ts';
import { joinChunkTexts } from './text-bytes.ts';

export interface OpenOptions {
  /** Database file; ':memory:' for none. */
  path?: string;
  readOnly?: boolean;
  threads?: number;
  memoryLimit?: string;
  tempDirectory?: string;
  /** Folder relative file paths in queries are resolved against (a partitioned catalogue's views name their files so). */
  fileSearchPath?: string;
}

export async function openDuckDB(opts: OpenOptions = {}): Promise<DuckDBInstance> {
  // No TimeZone setting: it needs the ICU extension, which cannot be downloaded here; without ICU, DuckDB reads times as UTC.
  // A background thread of DuckDB's allocator hands freed memory back to the system as it goes; without it,
  // freed pages wait for the allocator's next use of that arena. The 30-year database-only build peaked at
  // 1,726 MB without, 1,299 MB with, in the same time.
  const config: Record<string, string> = { threads: String(opts.threads ?? 2), allocator_background_threads: 'true' };
  if (opts.readOnly) config['access_mode'] = 'READ_ONLY';
  if (opts.memoryLimit) config['memory_limit'] = opts.memoryLimit;
  if (opts.tempDirectory) config['temp_directory'] = opts.tempDirectory;
  if (opts.fileSearchPath) config['file_search_path'] = opts.fileSearchPath;
  return DuckDBInstance.create(opts.path ?? ':memory:', config);
}

/**
 * Rows per row group of the databases a build writes (DuckDB's default is 122,880). Zone maps skip whole row
 * groups, so a selective query (one day of files, one week of a series) reads at most a few small ones: a one-day
 * /files answer cost 2.3-2.7 ms of DuckDB CPU with the default and 1.5-1.6 with 8,192, a week of one series
 * 0.94 against 0.78; a year-long answer the same either way.
 */
export const ROW_GROUP_SIZE = 8192;

/**
 * Rows per row group of the timeseries database (DuckDB's default), whose observations table grows with the
 * snapshot (10^9 rows and more). DuckDB keeps every row group it has written or scanned of an attached database
 * in memory, outside its buffer pool and its `memory_limit`: about 6.5 KB a row group of 8,192 rows of this
 * table's three columns, 12 KB one of 122,880 (bench/rowgroup-memory.ts, docs/scale-out.md "Memory budget of a
 * build"). With 8,192 rows a group that was 0.8 GB per 10^9 observations, held from the database phase to its
 * DETACH and again by each phase that attaches and scans the database; with 122,880 it is about 0.1 GB. No
 * answer of the endpoint reads this table (getData reads the series file, a partitioned build's Parquet files
 * have their own small row groups); the build's readers by time (the snapshot history, the observations
 * downloads by year) prune fewer rows with these groups (docs/scale-out.md).
 */
export const TIMESERIES_ROW_GROUP_SIZE = 122_880;

/** DuckDB's cache after releaseBuffers: what a phase that needs little of DuckDB keeps (its appenders' blocks). */
export const RELEASED_BUFFERS = '128MB';

/**
 * Hands DuckDB's cached buffers back to the system between phases (issue 23): DuckDB keeps its buffer pool full up to
 * its `memory_limit` (1 GB in a build) after the statements that filled it, so a phase that needs little of DuckDB
 * (the timeseries tree and charts, the site) would carry the database phase's gigabyte. Lowering the limit evicts
 * the unpinned buffers (persistent blocks are dropped, temporary ones written to the temporary folder), and the
 * allocator's background threads return the pages within seconds; the limit is then set back, so the next phase
 * that needs memory has it all. Measured (a 10^8-row table scanned at a 1 GB limit): 810 MB resident before, 161
 * MB three seconds after. A limit that pinned buffers do not fit under leaves everything cached, never an error.
 * `limit` is the instance's limit as it was set (`1GB`), set back at the end.
 */
export async function releaseBuffers(conn: DuckDBConnection, limit: string): Promise<void> {
  const floor = parseMemoryLimit(RELEASED_BUFFERS);
  const now = parseMemoryLimit(limit);
  if (now === undefined || floor === undefined || now <= floor) return;
  try {
    await run(conn, `SET memory_limit = ${sqlString(RELEASED_BUFFERS)}`);
  } catch {
    // more pinned than the floor: nothing evicted, nothing lost
  } finally {
    // the limit as the caller set it: current_setting's text is rounded (1GB reads `953.6 MiB`), and setting that
    // back would lower the limit a little at each release
    await run(conn, `SET memory_limit = ${sqlString(limit)}`);
  }
}

/**
 * Runs `f` with DuckDB held to `cap` when that is below the instance's `limit` (as it was set), and sets `limit`
 * back after, whatever `f` does. For a phase whose work is bounded by something smaller than the database (the
 * downloads: one month's rows sorted at a time, which DuckDB's sort spills past the cap), so its cached blocks
 * do not fill the whole limit on top of the phase's own memory (issue 23: at 10^9 the downloads phase peaked at
 * 1.94 GiB resident with DuckDB at 1 GB).
 */
export async function withMemoryCap<T>(conn: DuckDBConnection, cap: string, limit: string, f: () => Promise<T>): Promise<T> {
  const capBytes = parseMemoryLimit(cap);
  const limitBytes = parseMemoryLimit(limit);
  if (capBytes === undefined || limitBytes === undefined || capBytes >= limitBytes) return f();
  await releaseBuffers(conn, limit);
  await run(conn, `SET memory_limit = ${sqlString(cap)}`);
  try {
    return await f();
  } finally {
    await run(conn, `SET memory_limit = ${sqlString(limit)}`);
  }
}

const UNITS: Record<string, number> = { b: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** DuckDB's `memory_limit` setting (`976.5 MiB`, `16.0 MB`, `128MB`, ...) in bytes; undefined when it cannot be read. */
export function parseMemoryLimit(text: string): number | undefined {
  const m = /^\s*([\d.]+)\s*([a-z]+)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = UNITS[(m[2] ?? '').toLowerCase()];
  const value = Number(m[1]);
  return unit === undefined || !Number.isFinite(value) || value <= 0 ? undefined : value * unit;
}

/** Quotes a string as a SQL literal, for the few statements DuckDB cannot bind (ATTACH, COPY targets). */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

export async function run(conn: DuckDBConnection, q: SqlFragment | string): Promise<void> {
  if (typeof q === 'string') await conn.run(q);
  else await conn.run(q.sql, q.params);
}

/** All rows of a small query as plain JS objects (numbers for integers that fit). */
export async function all(conn: DuckDBConnection, q: SqlFragment | string): Promise<Record<string, unknown>[]> {
  const reader = typeof q === 'string' ? await conn.runAndReadAll(q) : await conn.runAndReadAll(q.sql, q.params);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

export interface KeyedBatch {
  keys: bigint[];
  /** Null where the record has no text in this format. */
  texts: (string | null)[];
}

/**
 * Streams a query of two columns `(k, t)`, a BIGINT-compatible key and a text, batch by batch (a DuckDB
 * chunk each, up to 2048 rows). The next chunk is requested before the current one is handed out, so
 * DuckDB's threads compute while the consumer writes. Stops early when the consumer breaks out of the loop.
 */
export async function* streamKeyedText(conn: DuckDBConnection, q: SqlFragment): AsyncGenerator<KeyedBatch> {
  for await (const chunk of chunksOf(conn, q)) {
    const kv = chunk.getColumnVector(0);
    const tv = chunk.getColumnVector(1);
    const n = chunk.rowCount;
    const keys = new Array<bigint>(n);
    const texts = new Array<string | null>(n);
    for (let i = 0; i < n; i++) {
      const k = kv.getItem(i);
      keys[i] = typeof k === 'bigint' ? k : BigInt(k as number);
      texts[i] = tv.getItem(i) as string | null;
    }
    yield { keys, texts };
  }
}

/**
 * The chunks of `q`, streamed. The next is requested before the current one is handed out, so DuckDB computes
 * while the consumer works. Once the consumer asks for the next, the current one is reset: its string heap is
 * freed at once, not when V8 gets round to collecting the chunk's wrapper (it does not hurry, not seeing the
 * native memory behind it: streaming a year of expanded transfers peaked at 438 MB without, 229 MB with).
 *
 * Fails unless the stream gave every row of its query. A streamed query that DuckDB ends early (an error in its
 * middle, or another statement on its connection, such as an appender flushing) reaches node-api's `fetchChunk`
 * as an empty chunk, the same as the end: the stream just stops short. A build whose tree-state appender shared
 * the connection wrote 208,896 of 385,306 id files of a route without noticing (tree-state.ts). So at the end the
 * rows are counted again, by a query that computes no texts (DuckDB drops the unused columns), through `run`, which
 * an endpoint's pool answers from statements prepared once (planning is most of its cost).
 */
async function* chunksOf(conn: DuckDBConnection, q: SqlFragment): AsyncGenerator<DuckDBDataChunk> {
  const result = await conn.stream(q.sql, q.params);
  let rows = 0;
  let next = result.fetchChunk();
  try {
    for (;;) {
      const chunk = await next;
      if (!chunk || chunk.rowCount === 0) break;
      rows += chunk.rowCount;
      next = result.fetchChunk();
      yield chunk;
      chunk.reset();
    }
  } finally {
    // A consumer that stopped early leaves one request open: let it settle quietly.
    next.catch(() => undefined);
  }
  const [r] = await (await conn.run(`SELECT count(*) AS n FROM (${q.sql})`, q.params)).getRowObjectsJS();
  const expected = Number(r!['n']);
  if (rows !== expected) throw new Error(`DuckDB ended a streamed query after ${rows} of its ${expected} rows (an error in its middle, or another statement on its connection)`);
}

export interface JoinedBatch {
  /** Rows in the chunk, with or without a text. */
  rows: number;
  /** The chunk's texts joined as `joinChunkTexts` joins them (none: empty). */
  bytes: Buffer;
}

/**
 * Streams a query `(k, t)` as `streamKeyedText` does, but each chunk's texts come joined as UTF-8 bytes, with
 * `separator` between two and `terminator` after each (text-bytes.ts): for a consumer that writes bytes.
 */
export async function* streamJoinedBytes(conn: DuckDBConnection, q: SqlFragment, separator: string, terminator: string): AsyncGenerator<JoinedBatch> {
  const join = joiner(separator, terminator);
  for await (const chunk of chunksOf(conn, q)) yield join(chunk);
}

/**
 * The answer of `q` whole, as `streamJoinedBytes` batches, if it has at most `maxRows` rows; undefined if it has
 * more (then stream it). A streamed result hands out each chunk as its scan made it: a filter that keeps one row
 * in 45 (one radar of 43) gives chunks of 46 rows, each one fetch through node's thread pool (about 70 us). A
 * materialized result comes in full chunks of 2,048: one radar's 8,598 transfers in 5 fetches instead of 188
 * (CPU 5 against 19 ms). The cap bounds what is held: at most `maxRows` texts.
 */
export async function materializedJoinedBytes(conn: DuckDBConnection, q: SqlFragment, maxRows: number, separator: string, terminator: string): Promise<JoinedBatch[] | undefined> {
  const result = await conn.run(`SELECT * FROM (${q.sql}) LIMIT ${maxRows + 1}`, q.params);
  if (result.rowCount > maxRows) return undefined;
  // a materialized result's chunks are read synchronously: no trip through node's thread pool per chunk
  const join = joiner(separator, terminator);
  const batches: JoinedBatch[] = [];
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    if (chunk.rowCount > 0) batches.push(join(chunk));
  }
  return batches;
}

/** A chunk's `(k, t)` rows as a JoinedBatch, with these separators. */
function joiner(separator: string, terminator: string): (chunk: DuckDBDataChunk) => JoinedBatch {
  const sep = Buffer.from(separator);
  const term = Buffer.from(terminator);
  return (chunk) => ({ rows: chunk.rowCount, bytes: joinChunkTexts(chunk, 1, sep, term).bytes });
}
