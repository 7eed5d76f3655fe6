/**
 * The observations as the endpoint reads them, over daily appends: a build's series file (lib/series-file.ts)
 * is one segment or several. A full build writes one, `observations-v1.pairs` and `.index`, and no segment
 * list. A daily append (build-scripts/timeseries/append.ts) keeps the segments of the build it appends to
 * (hard links, never written again) and adds one of its own, `observations-v1.<n>.pairs` and `.index`, with
 * the new observations alone; `observations-v1.segments.json` lists the segments in order. Every observation
 * of a segment is later than every observation of the same series in the segments before it (the append
 * checks it), so a series' observations in time order are its rows of segment 0, then 1, ...: a span is read
 * as a range of each segment that holds rows of the series in it (an index lookup each, in memory), and
 * concatenated. The append keeps their number small by merging them (build-scripts/timeseries/append.ts).
 *
 * A build of one segment is read exactly as before: `source` is lib/series-file.ts's own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeriesRec } from '../core/timeseries/catalogue.ts';
import type { SeriesSource } from '../core/timeseries/data.ts';
import type { Points } from '../core/timeseries/data-body.ts';
import type { Timespan } from '../core/timeseries/timespan.ts';
import { closeSeriesFile, fileSeriesSource, openSeriesFile, readFirstAfter, readLastBefore, readSpan, SERIES_FILE_NAME, spanCountAtMost, type SeriesFile } from './series-file.ts';

/** The segment list of a build with more than one segment. */
export const SEGMENTS_FILE = `${SERIES_FILE_NAME}.segments.json`;

export interface SeriesStore {
  /** The segments' files, oldest first. */
  segments: SeriesFile[];
  /** Their names (`observations-v1`, `observations-v1.1`, ...). */
  names: string[];
  /** The observations of a series, over all segments. */
  source: SeriesSource;
  /** At most how many observations of `s` lie in `span`, from the indexes alone (series-file.ts spanCountAtMost). */
  countAtMost(s: SeriesRec, span: Timespan): number;
  close(): void;
}

/** The segment names of the build whose data folder is `dataDir`, oldest first. */
export function segmentNames(dataDir: string): string[] {
  const list = join(dataDir, SEGMENTS_FILE);
  if (!existsSync(list)) return [SERIES_FILE_NAME];
  const doc = JSON.parse(readFileSync(list, 'utf8')) as { segments?: unknown };
  if (!Array.isArray(doc.segments) || doc.segments.length === 0 || !doc.segments.every((n) => typeof n === 'string' && /^observations-v1(\.\d+)?$/.test(n))) {
    throw new Error(`${list}: not a segment list (rebuild the snapshot with --full)`);
  }
  return doc.segments as string[];
}

const concat = (parts: Points[]): Points => {
  const nonEmpty = parts.filter((p) => p.t.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? { t: new Float64Array(0), v: new Float64Array(0) };
  const n = nonEmpty.reduce((a, p) => a + p.t.length, 0);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  let at = 0;
  for (const p of nonEmpty) {
    t.set(p.t, at);
    v.set(p.v, at);
    at += p.t.length;
  }
  return { t, v };
};

/** Opens the series file(s) in `dataDir`. */
export function openSeriesStore(dataDir: string): SeriesStore {
  const names = segmentNames(dataDir);
  const segments: SeriesFile[] = [];
  try {
    for (const name of names) segments.push(openSeriesFile(dataDir, name));
  } catch (e) {
    for (const f of segments) closeSeriesFile(f);
    throw e;
  }
  if (segments.length === 1) {
    const f = segments[0]!;
    return { segments, names, source: fileSeriesSource(f), countAtMost: (s, span) => spanCountAtMost(f, s, span), close: () => closeSeriesFile(f) };
  }
  // the segments holding rows of a series (most series have rows in every one; a silent series in none)
  const holding = (s: SeriesRec) => segments.filter((f) => f.count[s.sid]! > 0);
  const source: SeriesSource = {
    read: async (s, span) => concat(await Promise.all(holding(s).map((f) => readSpan(f, s, span)))),
    lastBefore: async (s, before) => {
      const hs = holding(s);
      for (let i = hs.length - 1; i >= 0; i--) {
        const p = await readLastBefore(hs[i]!, s, before);
        if (p.t.length > 0) return p;
      }
      return { t: new Float64Array(0), v: new Float64Array(0) };
    },
    firstAfter: async (s, after) => {
      for (const f of holding(s)) {
        const p = await readFirstAfter(f, s, after);
        if (p.t.length > 0) return p;
      }
      return { t: new Float64Array(0), v: new Float64Array(0) };
    },
  };
  return { segments, names, source, countAtMost: (s, span) => segments.reduce((a, f) => a + spanCountAtMost(f, s, span), 0), close: () => segments.forEach(closeSeriesFile) };
}

/** Whether `dataDir` holds series files of this format (a build to reuse; otherwise build again). */
export function seriesStoreCurrent(dataDir: string): boolean {
  try {
    openSeriesStore(dataDir).close();
    return true;
  } catch {
    return false;
  }
}
