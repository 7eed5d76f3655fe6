/**
 * Raw data answers: the values of the requested series in the timespan, optionally completed
 * (`force_latest_values`), generalized, and, with `expanded=true`, accompanied by their reference values.
 * Pure apart from the `SeriesSource` it is handed (DuckDB at the endpoint and in the build).
 *
 * Order of the steps for each series:
 * 1. the values with timestamps in [start, end] (inclusive);
 * 2. `force_latest_values=true`: when none of them is a number (no values, or only nulls), the series' last
 *    non-null value before `start` is put in front, so a client always has the latest known value;
 * 3. `generalize=true`: LTTB or Douglas-Peucker (generalize.ts), first and last points kept;
 * 4. `expanded=true`: each reference value is sampled at the timestamps of step 3: the value of its latest
 *    change point at or before the timestamp (timestamps before its first change point have none); in format
 *    flot also the nearest non-null values outside the timespan (`valueBeforeTimespan`, `valueAfterTimespan`),
 *    which steps 2 and 3 do not touch.
 */
import type { Catalogue, RefValueRec, SeriesRec } from './catalogue.ts';
import { dataBody, type BodyShape, type Points, type SeriesData } from './data-body.ts';
import { generalize, type GeneralizeOptions } from './generalize.ts';
import type { Timespan } from './timespan.ts';

export interface SeriesSource {
  /** The series' values with timestamps in [span.start, span.end], in time order (NaN for null). */
  read(s: SeriesRec, span: Timespan): Promise<Points>;
  /** The series' last non-null value with a timestamp before `before`: zero or one point. */
  lastBefore(s: SeriesRec, before: number): Promise<Points>;
  /** The series' first non-null value with a timestamp after `after`: zero or one point. */
  firstAfter(s: SeriesRec, after: number): Promise<Points>;
}

export interface DataRequest extends BodyShape {
  /** Positions of the series in the catalogue, in answer order. */
  series: number[];
  span: Timespan;
  generalize: GeneralizeOptions | undefined;
  forceLatestValues: boolean;
}

function hasNumber(p: Points): boolean {
  for (let i = 0; i < p.v.length; i++) if (p.v[i] === p.v[i]) return true;
  return false;
}

function concat(a: Points, b: Points): Points {
  if (a.t.length === 0) return b;
  const t = new Float64Array(a.t.length + b.t.length);
  const v = new Float64Array(t.length);
  t.set(a.t);
  t.set(b.t, a.t.length);
  v.set(a.v);
  v.set(b.v, a.v.length);
  return { t, v };
}

/** A step function (change points, ascending) sampled at ascending timestamps `at`. */
export function sampleSteps(steps: Points, at: Float64Array): Points {
  const t: number[] = [];
  const v: number[] = [];
  let j = -1;
  for (let i = 0; i < at.length; i++) {
    const x = at[i]!;
    while (j + 1 < steps.t.length && steps.t[j + 1]! <= x) j++;
    if (j < 0) continue;
    t.push(x);
    v.push(steps.v[j]!);
  }
  return { t: Float64Array.from(t), v: Float64Array.from(v) };
}

async function seriesData(cat: Catalogue, source: SeriesSource, k: number, req: DataRequest): Promise<SeriesData> {
  const s = cat.timeseries[k]!;
  let points = await source.read(s, req.span);
  if (req.forceLatestValues && !hasNumber(points)) points = concat(await source.lastBefore(s, req.span.start), points);
  if (req.generalize) points = generalize(points, req.generalize);
  const refs = req.expanded
    ? s.refs.map((r) => {
        const rv: RefValueRec = cat.refValues[r]!;
        return { id: rv.id, points: sampleSteps(rv.steps, points.t) };
      })
    : [];
  if (req.expanded && req.format === 'flot') {
    return { id: s.id, points, refs, before: await source.lastBefore(s, req.span.start), after: await source.firstAfter(s, req.span.end) };
  }
  return { id: s.id, points, refs };
}

/**
 * The data of each requested series, in answer order (for the JSON bodies and the CSV downloads). The series
 * are read at once, not one after another: each read is a positioned read on libuv's thread pool, so a POST of
 * 100 series waits for the pool's threads working side by side instead of 100 round trips in a row (issue 23).
 */
export async function dataOf(cat: Catalogue, source: SeriesSource, req: DataRequest): Promise<SeriesData[]> {
  return Promise.all(req.series.map((k) => seriesData(cat, source, k, req)));
}

export async function answerData(cat: Catalogue, source: SeriesSource, req: DataRequest): Promise<Uint8Array> {
  return dataBody(await dataOf(cat, source, req), req);
}
