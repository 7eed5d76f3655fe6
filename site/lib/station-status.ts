/**
 * The status of each timeseries and station, for the stations map and the station pages: the status interval
 * (site/lib/timeseries-extras.ts, what the endpoint answers with `status_intervals=true`) the series' last value
 * lies in, lower bound inclusive, upper exclusive (core/charts/references.ts `statusColor`'s rule).
 *
 * A station's status is that of its most severe series. Interval sets differ by phenomenon (water level
 * "below warning level 1 … warning level 3", PM10 "good … very poor"), so severity is a series' interval's
 * place in its own set, ordered by lower bound: 0 for the lowest, 1 for the highest; ties go to the first
 * series in the API's order. A series without intervals, or without a last value in any of them, has no status.
 */
import { seriesExtras } from './timeseries-extras.ts';
import { allSeries } from './timeseries.ts';

export interface SeriesStatus {
  name: string;
  color: string;
  /** 0 (the lowest interval of its set) to 1 (the highest). */
  severity: number;
}

/** The interval `v` lies in, with its severity; undefined when none holds it. */
export function statusOf(intervals: readonly { name: string; lower: string; upper?: string; color: string }[], v: number | undefined): SeriesStatus | undefined {
  if (v === undefined || !Number.isFinite(v)) return undefined;
  const sorted = [...intervals].sort((a, b) => Number(a.lower) - Number(b.lower));
  for (let k = 0; k < sorted.length; k++) {
    const i = sorted[k]!;
    const lo = Number(i.lower);
    const hi = i.upper === undefined ? Infinity : Number(i.upper);
    if ((Number.isNaN(lo) || v >= lo) && (Number.isNaN(hi) || v < hi)) return { name: i.name, color: i.color, severity: sorted.length > 1 ? k / (sorted.length - 1) : 0 };
  }
  return undefined;
}

/** The most severe of some statuses (the first of equals), or undefined. */
export function worstStatus(list: readonly (SeriesStatus | undefined)[]): SeriesStatus | undefined {
  let worst: SeriesStatus | undefined;
  for (const s of list) if (s && (!worst || s.severity > worst.severity)) worst = s;
  return worst;
}

let cache: Promise<Map<string, SeriesStatus | undefined>> | undefined;

/** Every series' status by id (none when the build has no timeseries database). */
export function seriesStatuses(): Promise<Map<string, SeriesStatus | undefined>> {
  cache ??= (async () => {
    const out = new Map<string, SeriesStatus | undefined>();
    for (const s of allSeries()) {
      const extras = await seriesExtras(s.id);
      out.set(s.id, statusOf(extras?.statusIntervals ?? [], s.lastValue?.value));
    }
    return out;
  })();
  return cache;
}

/** Each station's status: its most severe series'. */
export async function stationStatuses(): Promise<Map<string, SeriesStatus | undefined>> {
  const bySeries = await seriesStatuses();
  const out = new Map<string, SeriesStatus[]>();
  for (const s of allSeries()) {
    const st = bySeries.get(s.id);
    const list = out.get(s.station.id) ?? [];
    if (st) list.push(st);
    out.set(s.station.id, list);
  }
  return new Map([...out].map(([id, list]) => [id, worstStatus(list)]));
}
