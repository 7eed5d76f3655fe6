/**
 * Daily append: a snapshot one day newer is built over the last build, writing only what changed.
 *
 * A snapshot can be appended to when its observations are a folder of Parquet files (`observations/…`, any
 * layout, for example one file a day: `observations/day=2024-03-01/part-0.parquet`) and the new snapshot holds
 * every file the last build was made from, unchanged, plus new ones. Every build records the files it read
 * (`data/observations-sources.json`: each file's path in the folder, size and the SHA-256 of its Parquet footer,
 * which holds every row group's size, row count and column statistics); a file whose size or footer differs,
 * or one missing, makes the build a full one. Then:
 * - validation checks the new files' rows alone (the others were checked by the last build: same files), with
 *   the whole snapshot's other tables (small);
 * - the timeseries database is a copy of the last build's, its metadata tables made again from the snapshot,
 *   the new observations added, each series' first and last values carried forward (timeseries-db.ts
 *   appendTimeseriesDb);
 * - the series file keeps the last build's segments (hard links) and adds one with the new observations alone
 *   (lib/series-segments.ts); segments are merged when there are more than `maxDeltas` (6) appended ones (the two
 *   adjacent ones with the fewest rows, again until there are 6), and all into one when the appended
 *   rows pass a quarter (`mergeAllShare`) of the first segment's, so the endpoint reads at most 7 ranges a series.
 * A new observation at or before its series' last one in the last build (a late value, a correction), or a
 * change in the set of timeseries, makes the build a full one (AppendRejected, build.ts): the answers of an
 * appended build are those of a full build of the same snapshot (test/integration/daily-append.test.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, constants, existsSync, linkSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parquetFilesBelow } from '../../lib/hive.ts';
import { openSeriesStore, SEGMENTS_FILE, segmentNames } from '../../lib/series-segments.ts';
import { PAIR_BYTES, SERIES_FILE_NAME, STRIDE, writeSeriesIndex, type SeriesFile } from '../../lib/series-file.ts';
import { TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';

/** The observation files a build was made from. */
export const SOURCES_FILE = 'observations-sources.json';
export const appendLimits = {
  /** Appended segments the series file may have before two are merged. */
  maxDeltas: 6,
  /** All segments are merged into one when the appended ones hold more than this share of the first one's rows. */
  mergeAllShare: 0.25,
};

export interface SourceFile {
  /** Path below the snapshot's `observations/` folder, `/`-separated (`observations.parquet` for a single file). */
  path: string;
  size: number;
  footerSha256: string;
}

export interface AppendPlan {
  /** The last build's folder, appended to. */
  previous: string;
  /** Files of the snapshot the last build was made from (absolute): not validated or read again. */
  known: Set<string>;
  /** The new files (absolute), in sorted order. */
  added: string[];
}

/** SHA-256 of a Parquet file's footer (its metadata and the 8 bytes after it). */
function footerDigest(file: string, size: number): string {
  const fd = openSync(file, 'r');
  try {
    const tail = Buffer.alloc(8);
    if (size < 12 || readSync(fd, tail, 0, 8, size - 8) !== 8) return 'short';
    const length = Math.min(tail.readUInt32LE(0) + 8, size);
    const footer = Buffer.alloc(length);
    readSync(fd, footer, 0, length, size - length);
    return createHash('sha256').update(footer).digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** The observation files of a snapshot folder with their fingerprints: its `observations/` folder's, else `observations.parquet`. */
export function observationSources(snapshotDir: string): { partitioned: boolean; files: (SourceFile & { abs: string })[] } {
  const folder = join(snapshotDir, 'observations');
  const partitioned = existsSync(folder) && statSync(folder).isDirectory();
  const abs = partitioned ? parquetFilesBelow(folder) : existsSync(join(snapshotDir, 'observations.parquet')) ? [join(snapshotDir, 'observations.parquet')] : [];
  return {
    partitioned,
    files: abs.map((f) => {
      const size = statSync(f).size;
      return { abs: f, path: partitioned ? relative(folder, f).split(sep).join('/') : 'observations.parquet', size, footerSha256: footerDigest(f, size) };
    }),
  };
}

/** Records the observation files a build read (every build with the Timeseries API). */
export function writeSources(dataDir: string, snapshotDir: string): void {
  const { partitioned, files } = observationSources(snapshotDir);
  writeFileSync(join(dataDir, SOURCES_FILE), JSON.stringify({ partitioned, files: files.map(({ abs: _, ...f }) => f) }, null, 1) + '\n');
}

/**
 * Whether the snapshot can be built as a daily append over the build in `previous` (undefined: none): the plan,
 * or the reason it cannot (a full build then).
 */
export function planAppend(previous: string | undefined, snapshotDir: string): AppendPlan | string {
  if (previous === undefined) return 'no last build';
  const data = join(previous, 'data');
  if (!existsSync(join(data, SOURCES_FILE)) || !existsSync(join(data, TIMESERIES_DB_FILE))) return 'the last build recorded no observation files';
  const before = JSON.parse(readFileSync(join(data, SOURCES_FILE), 'utf8')) as { partitioned: boolean; files: SourceFile[] };
  const now = observationSources(snapshotDir);
  if (!now.partitioned || !before.partitioned) return 'the observations are not a folder of files';
  const byPath = new Map(now.files.map((f) => [f.path, f]));
  const known = new Set<string>();
  for (const f of before.files) {
    const n = byPath.get(f.path);
    if (!n) return `observations/${f.path} is gone`;
    if (n.size !== f.size || n.footerSha256 !== f.footerSha256) return `observations/${f.path} changed`;
    known.add(n.abs);
  }
  try {
    openSeriesStore(data).close();
  } catch (e) {
    return `the last build's series file cannot be read (${(e as Error).message})`;
  }
  return { previous, known, added: now.files.filter((f) => !known.has(f.abs)).map((f) => f.abs) };
}

/** Each series' last observation's timestamp (null values included) in a build's series file, -Infinity for none. */
export function lastTimestamps(dataDir: string): Float64Array {
  const store = openSeriesStore(dataDir);
  try {
    const n = store.segments[0]!.count.length;
    const last = new Float64Array(n).fill(-Infinity);
    const pair = new Float64Array(2);
    const bytes = new Uint8Array(pair.buffer);
    for (let sid = 0; sid < n; sid++) {
      for (let i = store.segments.length - 1; i >= 0; i--) {
        const f = store.segments[i]!;
        const c = f.count[sid]!;
        if (c === 0) continue;
        readSync(f.pairs, bytes, 0, PAIR_BYTES, (f.first[sid]! + c - 1) * PAIR_BYTES);
        last[sid] = pair[0]!;
        break;
      }
    }
    return last;
  } finally {
    store.close();
  }
}

/** Copies the last build's timeseries database into `dataDir` (a copy-on-write clone where the file system can). */
export function copyDatabase(previous: string, dataDir: string): void {
  copyFileSync(join(previous, 'data', TIMESERIES_DB_FILE), join(dataDir, TIMESERIES_DB_FILE), constants.COPYFILE_FICLONE);
}

/** Hard-links the last build's segments into `dataDir`; returns their names, oldest first. */
export function linkSegments(previous: string, dataDir: string): string[] {
  const names = segmentNames(join(previous, 'data'));
  for (const name of names) for (const ext of ['pairs', 'index']) linkSync(join(previous, 'data', `${name}.${ext}`), join(dataDir, `${name}.${ext}`));
  return names;
}

/** A segment name not in `names`: `observations-v1.<n>`, n one above the highest. */
export function nextSegmentName(names: string[]): string {
  const top = Math.max(0, ...names.map((n) => Number(/\.(\d+)$/.exec(n)?.[1] ?? 0)));
  return `${SERIES_FILE_NAME}.${top + 1}`;
}

/** Merges consecutive segments `names` of `dataDir` into one named `into` (written beside, then renamed in). */
function mergeSegments(dataDir: string, names: string[], into: string): void {
  const store = openSeriesStore(dataDir);
  const parts: SeriesFile[] = names.map((n) => store.segments[store.names.indexOf(n)]!);
  const n = parts[0]!.count.length;
  const count = new Float64Array(n);
  const sparse: number[] = [];
  const tmp = join(dataDir, `${into}.merging`);
  const out = openSync(`${tmp}.pairs`, 'w');
  const buffer = new Float64Array(1 << 17);
  const bytes = new Uint8Array(buffer.buffer);
  let rows = 0;
  try {
    for (let sid = 0; sid < n; sid++) {
      for (const f of parts) {
        let left = f.count[sid]!;
        let at = f.first[sid]!;
        while (left > 0) {
          const take = Math.min(left, buffer.length / 2);
          readSync(f.pairs, bytes, 0, take * PAIR_BYTES, at * PAIR_BYTES);
          for (let i = 0; i < take; i++) {
            if (count[sid]! % STRIDE === 0) sparse.push(buffer[2 * i]!);
            count[sid]!++;
          }
          writeSync(out, bytes, 0, take * PAIR_BYTES);
          rows += take;
          left -= take;
          at += take;
        }
      }
    }
  } finally {
    closeSync(out);
    store.close();
  }
  writeSeriesIndex(`${tmp}.index`, count, sparse, rows);
  // the merged segments' names are links shared with earlier builds: unlinked, never written
  for (const name of names) for (const ext of ['pairs', 'index']) rmSync(join(dataDir, `${name}.${ext}`));
  renameSync(`${tmp}.pairs`, join(dataDir, `${into}.pairs`));
  renameSync(`${tmp}.index`, join(dataDir, `${into}.index`));
}

/** Rows per segment, from the indexes. */
function segmentRows(dataDir: string): Map<string, number> {
  const store = openSeriesStore(dataDir);
  try {
    return new Map(store.names.map((name, i) => [name, store.segments[i]!.count.reduce((a, c) => a + c, 0)]));
  } finally {
    store.close();
  }
}

/**
 * Merges segments as the module's comment says and writes the segment list (none when one segment is left).
 * Returns the segment names and how many rows were rewritten.
 */
export function settleSegments(dataDir: string, names: string[]): { names: string[]; rewritten: number } {
  let rewritten = 0;
  const writeList = () => {
    rmSync(join(dataDir, SEGMENTS_FILE), { force: true });
    if (names.length > 1) writeFileSync(join(dataDir, SEGMENTS_FILE), JSON.stringify({ segments: names }) + '\n');
  };
  writeList();
  let rows = segmentRows(dataDir);
  const deltaRows = names.slice(1).reduce((a, n) => a + rows.get(n)!, 0);
  if (names.length > 1 && deltaRows > appendLimits.mergeAllShare * rows.get(names[0]!)!) {
    const into = names[0]!;
    mergeSegments(dataDir, names, into);
    rewritten += deltaRows + rows.get(names[0]!)!;
    names = [into];
    writeList();
    return { names, rewritten };
  }
  while (names.length - 1 > appendLimits.maxDeltas) {
    let best = 1;
    for (let i = 1; i < names.length - 1; i++) if (rows.get(names[i]!)! + rows.get(names[i + 1]!)! < rows.get(names[best]!)! + rows.get(names[best + 1]!)!) best = i;
    const pair = [names[best]!, names[best + 1]!];
    const into = nextSegmentName(names);
    mergeSegments(dataDir, pair, into);
    rewritten += rows.get(pair[0]!)! + rows.get(pair[1]!)!;
    names = [...names.slice(0, best), into, ...names.slice(best + 2)];
    writeList();
    rows = segmentRows(dataDir);
  }
  return { names, rewritten };
}
