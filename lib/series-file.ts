/**
 * The observations as the endpoint reads them: `data/observations-v1.pairs`, every observation as two
 * little-endian float64s (timestamp in ms, value; NaN for null) in the database's order, by series key `sid`
 * and time; and `data/observations-v1.index`, how many observations each series has and, every STRIDE
 * observations, its timestamp. Both are written by the build (SeriesFileWriter): a full build pass by pass with
 * the timeseries database's observations table (build-scripts/timeseries/timeseries-db.ts), a daily append from
 * its new observations (writeSeriesFile).
 *
 * Why a file beside the database: a week of one series is 1,008 observations, and DuckDB spends 0.5 ms on it,
 * most of it planning (a prepared statement with parameters in a filter is planned again on every run). Here
 * it is a binary search in memory and one read of 16-32 KB from the page cache, in about 0.05 ms. The index
 * holds 8 bytes per series and 8 per STRIDE observations: 2.4 MB for 10^8 observations in 100,000 series;
 * the pairs stay on disk, in the page cache.
 *
 * The index file is float64s: [FORMAT, STRIDE, series, observations], then each series' count of observations
 * (a series starts where the one before ends), then the sparse timestamps of series 0, 1, ... (ceil(count /
 * STRIDE) each). Values are finite or null in a snapshot
 * (core/snapshot/timeseries-tables.ts), so NaN stands for null alone.
 */
import { closeSync, existsSync, fstatSync, openSync, read, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SeriesRec } from '../core/timeseries/catalogue.ts';
import type { SeriesSource } from '../core/timeseries/data.ts';
import type { Points } from '../core/timeseries/data-body.ts';
import type { Timespan } from '../core/timeseries/timespan.ts';
import { doubles } from './timeseries-store.ts';

/** The files' name without its extension: a full build's one series file (daily appends add segments: lib/series-segments.ts). */
export const SERIES_FILE_NAME = 'observations-v1';
export const PAIRS_FILE = `${SERIES_FILE_NAME}.pairs`;
export const INDEX_FILE = `${SERIES_FILE_NAME}.index`;
const FORMAT = 2;
/** Observations per sparse timestamp: a week of 10-minute values is read in 2-4 blocks of 8 KB. */
export const STRIDE = 512;
export const PAIR_BYTES = 16;

export interface SeriesFile {
  /** The pairs file, open for reading (closeSeriesFile). */
  pairs: number;
  /** Per series key: its first row in the pairs file. */
  first: Float64Array;
  count: Float64Array;
  /** Per series key: where its sparse timestamps start in `sparse`. */
  sparseAt: Int32Array;
  sparse: Float64Array;
}

/**
 * Writes a series file (`<name>.pairs` and `<name>.index` in `dataDir`) from the rows of one or more queries of
 * `(sid, timestamp, value)`, added in order: together they must be in (sid, timestamp) order, a row out of that
 * order fails the build. A full build adds each pass's sorted rows as it writes them (timeseries-db.ts), so no
 * statement streams the whole observations table (issue 23); writeSeriesFile adds one table whole. Holds only
 * the counts, every STRIDE-th timestamp and a 4 MB buffer.
 */
export class SeriesFileWriter {
  readonly #fd: number;
  readonly #indexPath: string;
  readonly #count: Float64Array;
  readonly #sparse: number[] = [];
  readonly #buffer = new Float64Array(1 << 19); // 4 MB: 262,144 pairs a write
  #held = 0;
  #rows = 0;
  #lastSid = -1;
  #lastT = -Infinity;
  #open = true;

  constructor(dataDir: string, seriesCount: number, name = SERIES_FILE_NAME) {
    this.#count = new Float64Array(seriesCount);
    this.#indexPath = join(dataDir, `${name}.index`);
    this.#fd = openSync(join(dataDir, `${name}.pairs`), 'w');
  }

  /** Streams the rows of `table` (a table or a parenthesised query with columns sid, timestamp, value) in its order. */
  async add(conn: DuckDBConnection, table: string): Promise<void> {
    const seriesCount = this.#count.length;
    const count = this.#count;
    const buffer = this.#buffer;
    const result = await conn.stream(`SELECT sid::DOUBLE AS sid, "timestamp"::DOUBLE AS t, coalesce("value", 'NaN'::DOUBLE) AS v FROM ${table}`);
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const n = chunk.rowCount;
      const sids = doubles(chunk.getColumnVector(0), n);
      const ts = doubles(chunk.getColumnVector(1), n);
      const vs = doubles(chunk.getColumnVector(2), n);
      for (let i = 0; i < n; i++) {
        const sid = sids[i]!;
        const t = ts[i]!;
        if (sid !== this.#lastSid) {
          if (sid < this.#lastSid || sid >= seriesCount) throw new Error(`observations: series key ${sid} after ${this.#lastSid} (of ${seriesCount}): the table is not in (sid, timestamp) order`);
          this.#lastSid = sid;
          this.#lastT = -Infinity;
        }
        if (t < this.#lastT) throw new Error(`observations of series key ${sid}: ${t} after ${this.#lastT}: the table is not in (sid, timestamp) order`);
        this.#lastT = t;
        if (count[sid]! % STRIDE === 0) this.#sparse.push(t);
        count[sid]!++;
        const at = 2 * this.#held;
        buffer[at] = t;
        buffer[at + 1] = vs[i]!;
        this.#rows++;
        if (++this.#held === buffer.length / 2) this.#flush();
      }
      chunk.reset();
    }
  }

  #flush(): void {
    if (this.#held > 0) writeSync(this.#fd, new Uint8Array(this.#buffer.buffer, 0, this.#held * PAIR_BYTES));
    this.#held = 0;
  }

  /** Writes what is held and the index, closes the pairs file; returns the number of observations written. */
  finish(): number {
    try {
      this.#flush();
    } finally {
      this.close();
    }
    writeSeriesIndex(this.#indexPath, this.#count, this.#sparse, this.#rows);
    return this.#rows;
  }

  /** Closes the pairs file (after a failure: the build fails, its files are not used). */
  close(): void {
    if (this.#open) closeSync(this.#fd);
    this.#open = false;
  }
}

/**
 * Writes both files from the database's `observations (sid, timestamp, value)` into `dataDir`. The table is
 * read in its stored order, which must be by (sid, timestamp): a row out of that order fails the build.
 * `table` reads another table of that shape, `name` names the files `<name>.pairs` and `<name>.index`
 * (a daily append's segment, lib/series-segments.ts). Returns the number of observations written.
 */
export async function writeSeriesFile(conn: DuckDBConnection, dataDir: string, seriesCount: number, opts: { table?: string; name?: string } = {}): Promise<number> {
  const writer = new SeriesFileWriter(dataDir, seriesCount, opts.name);
  try {
    await writer.add(conn, opts.table ?? 'observations');
  } catch (e) {
    writer.close();
    throw e;
  }
  return writer.finish();
}

/** Writes an index file: each series' count of observations, and every STRIDE-th timestamp of each series in order. */
export function writeSeriesIndex(path: string, count: Float64Array, sparse: number[], rows: number): void {
  const seriesCount = count.length;
  const index = new Float64Array(4 + seriesCount + sparse.length);
  index.set([FORMAT, STRIDE, seriesCount, rows]);
  index.set(count, 4);
  index.set(sparse, 4 + seriesCount);
  const ifd = openSync(path, 'w');
  try {
    writeSync(ifd, new Uint8Array(index.buffer));
  } finally {
    closeSync(ifd);
  }
}

/** Opens the files in `dataDir` (`name`: those of a daily append's segment). */
export function openSeriesFile(dataDir: string, name = SERIES_FILE_NAME): SeriesFile {
  const INDEX_FILE = `${name}.index`;
  const PAIRS_FILE = `${name}.pairs`;
  if (!existsSync(join(dataDir, INDEX_FILE))) throw new Error(`${join(dataDir, INDEX_FILE)} is missing: the build was made by an older snapcat (rebuild the snapshot)`);
  const bytes = readFileSync(join(dataDir, INDEX_FILE));
  const index = new Float64Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 8));
  const [format, stride, seriesCount, rows] = index;
  if (format !== FORMAT || stride !== STRIDE || bytes.byteLength % 8 !== 0) throw new Error(`${INDEX_FILE}: not an index of format ${FORMAT} (rebuild the snapshot)`);
  const count = index.slice(4, 4 + seriesCount!);
  const first = new Float64Array(seriesCount!);
  const sparseAt = new Int32Array(seriesCount!);
  let at = 0;
  for (let s = 1; s < seriesCount!; s++) first[s] = first[s - 1]! + count[s - 1]!;
  for (let s = 0; s < seriesCount!; s++) {
    sparseAt[s] = at;
    at += Math.ceil(count[s]! / STRIDE);
  }
  const sparse = index.slice(4 + seriesCount!);
  if (sparse.length !== at) throw new Error(`${INDEX_FILE}: ${sparse.length} sparse timestamps, ${at} expected (rebuild the snapshot)`);
  const pairs = openSync(join(dataDir, PAIRS_FILE), 'r');
  const size = fstatSync(pairs).size;
  if (size !== rows! * PAIR_BYTES) {
    closeSync(pairs);
    throw new Error(`${PAIRS_FILE}: ${size} bytes, ${rows! * PAIR_BYTES} expected (rebuild the snapshot)`);
  }
  return { pairs, first, count, sparseAt, sparse };
}

export function closeSeriesFile(f: SeriesFile): void {
  closeSync(f.pairs);
}

/** The number of blocks of series `sid` whose first timestamp is below `t` (`strict`) or at most `t`. */
function blocksBefore(f: SeriesFile, sid: number, t: number, strict: boolean): number {
  let lo = 0;
  let hi = Math.ceil(f.count[sid]! / STRIDE);
  const base = f.sparseAt[sid]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = f.sparse[base + mid]!;
    if (strict ? x < t : x <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows [from, to) of series `sid` (positions within the series), as interleaved (t, v) pairs. */
async function readRows(f: SeriesFile, sid: number, from: number, to: number): Promise<Float64Array> {
  const pairs = new Float64Array(2 * (to - from));
  if (to > from) {
    const bytes = new Uint8Array(pairs.buffer);
    const bytesRead = await new Promise<number>((resolve, reject) =>
      read(f.pairs, bytes, 0, bytes.byteLength, (f.first[sid]! + from) * PAIR_BYTES, (e, n) => (e ? reject(e) : resolve(n))),
    );
    if (bytesRead !== bytes.byteLength) throw new Error(`${PAIRS_FILE}: ${bytesRead} of ${bytes.byteLength} bytes read`);
  }
  return pairs;
}

/**
 * At most how many observations of `s` lie in [span.start, span.end], from the index in memory alone (nothing is
 * read): the rows readSpan would read, which hold the span's and up to two blocks more. For admission's cost.
 */
export function spanCountAtMost(f: SeriesFile, s: SeriesRec, span: Timespan): number {
  const sid = s.sid;
  const hiBlock = blocksBefore(f, sid, span.end, false);
  if (hiBlock === 0 || span.end < span.start) return 0;
  const from = Math.max(0, blocksBefore(f, sid, span.start, true) - 1) * STRIDE;
  return Math.max(0, Math.min(f.count[sid]!, hiBlock * STRIDE) - from);
}

/** The observations of `s` with timestamps in [span.start, span.end], in time order. */
export async function readSpan(f: SeriesFile, s: SeriesRec, span: Timespan): Promise<Points> {
  const sid = s.sid;
  const n = f.count[sid]!;
  // the blocks that may hold the span: from the last one starting before `start` (an equal timestamp may end
  // the block before) to the last one starting at or before `end`
  const hiBlock = blocksBefore(f, sid, span.end, false);
  if (hiBlock === 0 || span.end < span.start) return { t: new Float64Array(0), v: new Float64Array(0) };
  const from = Math.max(0, blocksBefore(f, sid, span.start, true) - 1) * STRIDE;
  const to = Math.min(n, hiBlock * STRIDE);
  const pairs = await readRows(f, sid, from, to);
  let a = 0;
  let b = to - from;
  while (a < b && pairs[2 * a]! < span.start) a++;
  while (b > a && pairs[2 * (b - 1)]! > span.end) b--;
  // decode: the times into an array of their own, the values into the front of the pairs' buffer, in place (row
  // i's value goes to i - a, which rows a..i have already been read from), so a read allocates 3 doubles a row,
  // not 4 (ten years of a 10-minute series: 12.6 MB instead of 16.8, less for the collector; issue 23)
  const t = new Float64Array(b - a);
  for (let i = a; i < b; i++) {
    t[i - a] = pairs[2 * i]!;
    pairs[i - a] = pairs[2 * i + 1]!;
  }
  return { t, v: pairs.subarray(0, b - a) };
}

/** The last non-null observation of `s` before `before`: zero or one point. */
export async function readLastBefore(f: SeriesFile, s: SeriesRec, before: number): Promise<Points> {
  const sid = s.sid;
  // blocks from the last one starting before `before`, back to the first, until a value is found
  for (let block = blocksBefore(f, sid, before, true) - 1; block >= 0; block--) {
    const from = block * STRIDE;
    const pairs = await readRows(f, sid, from, Math.min(f.count[sid]!, from + STRIDE));
    for (let i = pairs.length / 2 - 1; i >= 0; i--) {
      if (pairs[2 * i]! < before && !Number.isNaN(pairs[2 * i + 1]!)) return { t: Float64Array.of(pairs[2 * i]!), v: Float64Array.of(pairs[2 * i + 1]!) };
    }
  }
  return { t: new Float64Array(0), v: new Float64Array(0) };
}

/** The first non-null observation of `s` after `after`: zero or one point. */
export async function readFirstAfter(f: SeriesFile, s: SeriesRec, after: number): Promise<Points> {
  const sid = s.sid;
  const blocks = Math.ceil(f.count[sid]! / STRIDE);
  // blocks from the one that may hold `after` (the last starting at or before it), forward, until a value is found
  for (let block = Math.max(0, blocksBefore(f, sid, after, false) - 1); block < blocks; block++) {
    const from = block * STRIDE;
    const pairs = await readRows(f, sid, from, Math.min(f.count[sid]!, from + STRIDE));
    for (let i = 0; i < pairs.length / 2; i++) {
      if (pairs[2 * i]! > after && !Number.isNaN(pairs[2 * i + 1]!)) return { t: Float64Array.of(pairs[2 * i]!), v: Float64Array.of(pairs[2 * i + 1]!) };
    }
  }
  return { t: new Float64Array(0), v: new Float64Array(0) };
}

export function fileSeriesSource(f: SeriesFile): SeriesSource {
  return { read: (s, span) => readSpan(f, s, span), lastBefore: (s, before) => readLastBefore(f, s, before), firstAfter: (s, after) => readFirstAfter(f, s, after) };
}
