/**
 * The network's availability by radar and day (`/browse/availability/`), pure: from each radar's coverage
 * intervals and its alarm instances per day, the share of each UTC day its files cover and the alarms of that day,
 * for a window of days. A day's share is the union of the radar's `file` coverage intervals (every file type;
 * `data` coverage when the radar has no `file` coverage) clipped to the day, over 24 hours. Computed by the
 * availability page and each radar page from the radar activity document's coverage and alarm days.
 */
import type { CoverageSeries } from './radar-activity.ts';

const DAY_MS = 86_400_000;

export interface AvailabilityCell {
  /** `YYYY-MM-DD`. */
  day: string;
  /** 0 to 1. */
  share: number;
  alarms: number;
}

export interface AvailabilityRow {
  code: string;
  cells: AvailabilityCell[];
}

/** The days of the window: `count` days ending with `lastDay`, oldest first. */
export function windowDays(lastDay: string, count: number): string[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** The union of intervals, merged, in start order. */
export function union(intervals: readonly { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}

/** Each UTC day's covered share, for the days given. */
export function dailyShares(intervals: readonly { start: number; end: number }[], days: readonly string[]): number[] {
  const merged = union(intervals);
  return days.map((d) => {
    const start = Date.parse(`${d}T00:00:00Z`);
    const end = start + DAY_MS;
    let covered = 0;
    for (const i of merged) {
      if (i.end <= start) continue;
      if (i.start >= end) break;
      covered += Math.min(i.end, end) - Math.max(i.start, start);
    }
    return Math.min(1, covered / DAY_MS);
  });
}

export function availability(codes: readonly string[], coverage: ReadonlyMap<string, CoverageSeries[]>, alarms: ReadonlyMap<string, ReadonlyMap<string, number>>, days: readonly string[]): AvailabilityRow[] {
  return codes.map((code) => {
    const shares = dailyShares(coverageIntervals(coverage.get(code) ?? []), days);
    return { code, cells: days.map((day, i) => ({ day, share: shares[i]!, alarms: alarms.get(code)?.get(day) ?? 0 })) };
  });
}

/** The colour class of a share: none, under a quarter, under half, under three quarters, under whole, whole. */
export function shareLevel(share: number): 0 | 1 | 2 | 3 | 4 | 5 {
  if (share <= 0) return 0;
  if (share >= 0.9995) return 5;
  return (1 + Math.floor(share * 4)) as 1 | 2 | 3 | 4;
}

/** The rows without the leading days on which no radar has a file or an alarm (a catalogue younger than the window). */
export function trimLeadingEmpty(rows: AvailabilityRow[]): AvailabilityRow[] {
  const width = rows[0]?.cells.length ?? 0;
  let first = 0;
  while (first < width - 1 && rows.every((r) => r.cells[first]!.share === 0 && r.cells[first]!.alarms === 0)) first++;
  return rows.map((r) => ({ code: r.code, cells: r.cells.slice(first) }));
}

/** The gaps between a radar's merged coverage intervals (none before the first or after the last), in time order. */
export function gaps(intervals: readonly { start: number; end: number }[]): { start: number; end: number }[] {
  const merged = union(intervals);
  return merged.slice(1).map((m, i) => ({ start: merged[i]!.end, end: m.start }));
}

/** The intervals a radar's day shares and gaps are computed from: `file` coverage of every type, else `data` coverage. */
export function coverageIntervals(series: readonly CoverageSeries[]): { start: number; end: number }[] {
  const file = series.filter((s) => s.coverageType === 'file');
  return (file.length > 0 ? file : series.filter((s) => s.coverageType === 'data')).flatMap((s) => s.intervals);
}
