/**
 * What the radar browse pages show of the radar catalogue's collections: read from the radar activity
 * family's document (`<build>/site-data/radar-activity.json`, core/site-data/radar-activity.ts), which the build
 * computes before Astro runs (build-scripts/site-data.ts) from the radar browse summary (the two big collections,
 * summed in DuckDB), the alarm collection and the coverage collection. Here the document's entry lists become
 * the Maps the pages use, and the activity charts' buckets are made (presentation).
 */
import type { AlarmRecord, Category, CoverageSeries, RadarActivityData, RadarFilesEntry, RecentFile, TypeCount } from '../../core/site-data/radar-activity.ts';
import { radarPathFiles } from '../../core/site-data/links.ts';
import { siteData, treeHas } from './data.ts';
import type { FileLink } from './examples.ts';

export type { AlarmRecord, Category, CoverageSeries, RecentFile, TypeCount };
export type RadarFiles = RadarFilesEntry;

/** JSON, CSV and checksum report of one API path, those the tree holds. */
export function pathFiles(apiPath: string): FileLink[] {
  return radarPathFiles(apiPath, treeHas);
}

const EMPTY: RadarActivityData = {
  files: [],
  transfers: { byCategoryDay: [], byRadar: [], totals: [], instances: 0 },
  categories: [],
  recentAlarms: [],
  latestAlarms: { alarms: [] },
  alarmDays: [],
  coverage: [],
};

/** The build's document; an empty one when the build wrote none. */
function activity(): RadarActivityData {
  return siteData('radar-activity') ?? EMPTY;
}

// ---------------------------------------------------------------------------------------------- files

let filesCache: Map<string, RadarFiles> | undefined;

/** Files per radar code, of the file collection (`/files`), from the browse summary. */
export function filesByRadar(): Map<string, RadarFiles> {
  filesCache ??= new Map(activity().files);
  return filesCache;
}

// ---------------------------------------------------------------------------------------------- alarm categories

/**
 * The categories of transferred files, as the route table selects them: `ok` (no alarm) and each alarm
 * category (`/transferred/files/<category>`, a fixed `transferred_file_status = '…'` condition).
 */
export function categories(): Category[] {
  return activity().categories;
}

export function categoryWords(status: string): string {
  return status === 'ok' ? 'no alarm (ok)' : status.replaceAll('_', ' ');
}

// ---------------------------------------------------------------------------------------------- transfers

export interface TransferActivity {
  /** Transfer instances per category and UTC day (`YYYY-MM-DD`) of the transfer start. */
  byCategoryDay: Map<string, Map<string, number>>;
  /** Transfer instances per radar code and category. */
  byRadar: Map<string, Map<string, number>>;
  totals: Map<string, number>;
  firstDay: string | undefined;
  lastDay: string | undefined;
  instances: number;
}

let activityCache: TransferActivity | undefined;

/** Transfer instances of the transferred-file collection (`/transferred/files`), from the browse summary. */
export function transferActivity(): TransferActivity {
  if (activityCache) return activityCache;
  const t = activity().transfers;
  activityCache = {
    byCategoryDay: new Map((t?.byCategoryDay ?? []).map(([category, days]) => [category, new Map(days)])),
    byRadar: new Map((t?.byRadar ?? []).map(([code, perCategory]) => [code, new Map(perCategory)])),
    totals: new Map(t?.totals ?? []),
    firstDay: t?.firstDay,
    lastDay: t?.lastDay,
    instances: t?.instances ?? 0,
  };
  return activityCache;
}

export interface Bucket {
  /** First day of the bucket, `YYYY-MM-DD`. */
  start: string;
  /** Last day. */
  end: string;
  count: number;
}

export type BucketSize = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The bucket size for a span of days: days up to 120, weeks up to some 2.5 years, else months (at most some 130 bars). */
export function bucketSizeFor(firstDay: string, lastDay: string): BucketSize {
  const days = (Date.parse(lastDay) - Date.parse(firstDay)) / DAY_MS + 1;
  return days <= 120 ? 'day' : days <= 900 ? 'week' : 'month';
}

/** Counts per day summed into buckets covering firstDay..lastDay (empty buckets included). Weeks start on Monday. */
export function buckets(perDay: Map<string, number> | undefined, firstDay: string, lastDay: string, size: BucketSize): Bucket[] {
  const startOf = (ms: number): number => {
    const d = new Date(ms);
    if (size === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    if (size === 'week') return ms - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    return ms;
  };
  const next = (ms: number): number => {
    const d = new Date(ms);
    if (size === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    return ms + (size === 'week' ? 7 : 1) * DAY_MS;
  };
  const out: Bucket[] = [];
  const last = Date.parse(lastDay);
  for (let ms = startOf(Date.parse(firstDay)); ms <= last; ms = next(ms)) out.push({ start: isoDay(ms), end: isoDay(next(ms) - DAY_MS), count: 0 });
  if (perDay) {
    for (const [day, n] of perDay) {
      const t = Date.parse(day);
      // buckets are in order: binary search for the last whose start is not after the day
      let lo = 0;
      let hi = out.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (Date.parse(out[mid]!.start) <= t) lo = mid;
        else hi = mid - 1;
      }
      if (out[lo]) out[lo]!.count += n;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- alarms

let alarmsCache: Map<string, AlarmRecord[]> | undefined;

/** Each radar's most recent alarm instances (by transfer start), from the alarm collection. */
export function recentAlarmsByRadar(): Map<string, AlarmRecord[]> {
  alarmsCache ??= new Map(activity().recentAlarms);
  return alarmsCache;
}

export interface LatestAlarms {
  /** The latest UTC day (`YYYY-MM-DD`, by transfer start) with an alarm instance; undefined without any. */
  day: string | undefined;
  /** That day's alarm instances, latest first, with the radar code. */
  alarms: (AlarmRecord & { radarCode: string })[];
}

/** The alarm instances of the latest day that has any, from the alarm collection. */
export function latestDayAlarms(): LatestAlarms {
  const l = activity().latestAlarms;
  return { day: l.day, alarms: l.alarms };
}

let alarmDaysCache: Map<string, Map<string, number>> | undefined;

/** Alarm instances per radar code and UTC day (`YYYY-MM-DD`) of the transfer start, from the alarm collection. */
export function alarmsByRadarDay(): Map<string, Map<string, number>> {
  alarmDaysCache ??= new Map(activity().alarmDays.map(([code, days]) => [code, new Map(days)]));
  return alarmDaysCache;
}

// ---------------------------------------------------------------------------------------------- coverage

let coverageCache: Map<string, CoverageSeries[]> | undefined;

/** Each radar's coverage, one series per file type and coverage type (sorted by both). */
export function coverageByRadar(): Map<string, CoverageSeries[]> {
  coverageCache ??= new Map(activity().coverage);
  return coverageCache;
}
