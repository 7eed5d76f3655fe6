/**
 * What the radar browse pages summarise of the radar catalogue. The two largest collections (gigabytes on a long
 * catalogue) are summarised by the build in DuckDB, into the build folder's radar browse summary
 * (core/radar/browse-summary-file.ts, written by build-scripts/radar/browse-summary.ts), which is read here:
 * - of `/files`: files per radar and file type (count, bytes, blacklisted, first and last), and each radar's
 *   latest files;
 * - of `/transferred/files`: every transfer instance, counted per alarm category (null status: `ok`) and day
 *   of the transfer start, and per radar.
 * Smaller files of the tree are read once per site build, record by record (radar-records.ts):
 * - `transferred/files/alarm.expanded.json`: each radar's most recent alarms;
 * - `coverage/temporal.json`: each radar's coverage intervals per file type and coverage type.
 */
import { BROWSE_SUMMARY_FILE, RECENT, type BrowseSummary, type RecentFileEntry, type TypeCountEntry } from '../../core/radar/browse-summary-file.ts';
import { RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { staticFile, VARIANTS } from '../../core/radar/static-tree.ts';
import { hasTree, readBuildJson, readTreeJson, treeHas, treeHref } from './data.ts';
import type { FileLink } from './examples.ts';
import { forEachTreeRecord } from './radar-records.ts';

const JSON_V = VARIANTS.find((v) => v.suffix === '.json')!;
const EXPANDED_JSON = VARIANTS.find((v) => v.suffix === '.expanded.json')!;

/** JSON, CSV and checksum report of one API path, those the tree holds. */
export function pathFiles(apiPath: string): FileLink[] {
  const labels: Record<string, string> = { '.json': 'JSON', '.csv': 'CSV', '.sha1': 'checksum report' };
  return VARIANTS.filter((v) => labels[v.suffix])
    .map((v) => ({ label: labels[v.suffix]!, rel: staticFile(apiPath, v) }))
    .filter((f) => treeHas(f.rel))
    .map((f) => ({ label: f.label, href: treeHref(f.rel) }));
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

// ---------------------------------------------------------------------------------------------- summary

let summaryCache: { summary: BrowseSummary | undefined } | undefined;

/** The build's radar browse summary; none when the build has no radar tree (or no summary: a --db-only build). */
function browseSummary(): BrowseSummary | undefined {
  summaryCache ??= { summary: hasTree('radarnet-mirror-v3') ? readBuildJson<BrowseSummary>(BROWSE_SUMMARY_FILE) : undefined };
  return summaryCache.summary;
}

// ---------------------------------------------------------------------------------------------- files

/** Files of one radar and file type; `first`/`last` as the records write datetimes. */
export type TypeCount = TypeCountEntry;

export interface RecentFile extends RecentFileEntry {
  /** JSON, CSV, checksum report of `/files/<id>`. */
  links: FileLink[];
}

export interface RadarFiles {
  /** By file type (localeCompare). */
  byType: TypeCount[];
  /** The RECENT latest files (by file start, then id), latest first. */
  recent: RecentFile[];
}

let filesCache: Map<string, RadarFiles> | undefined;

/** Files per radar code, of the file collection (`/files`), from the browse summary. */
export function filesByRadar(): Map<string, RadarFiles> {
  filesCache ??= new Map(
    (browseSummary()?.files ?? []).map(([code, f]) => [
      code,
      {
        byType: [...f.byType].sort((x, y) => x.fileType.localeCompare(y.fileType)),
        recent: f.recent.map((r) => ({ ...r, links: pathFiles(`${RADAR_PREFIX}/files/${r.id}`) })),
      },
    ]),
  );
  return filesCache;
}

/** Keeps the RECENT largest items by key in `list`, largest first. */
export function keepLatest<T>(list: T[], item: T, key: (x: T) => string): void {
  const k = key(item);
  if (list.length === RECENT && key(list[RECENT - 1]!) >= k) return;
  let i = list.length;
  while (i > 0 && key(list[i - 1]!) < k) i--;
  list.splice(i, 0, item);
  if (list.length > RECENT) list.pop();
}

// ---------------------------------------------------------------------------------------------- alarm categories

export interface Category {
  /** `transferred_file_status` value; `ok` for null (no alarm). */
  status: string;
  /** API path of the category's collection (`/radarnet/mirror/v3/transferred/files/nomatch`). */
  apiPath: string;
  description: string;
  /** The status table's description, when it has one. */
  meaning: string;
  files: FileLink[];
}

let categoriesCache: Category[] | undefined;

/**
 * The categories of transferred files, as the route table selects them: `ok` (no alarm) and each alarm
 * category (`/transferred/files/<category>`, a fixed `transferred_file_status = '…'` condition).
 */
export function categories(): Category[] {
  if (categoriesCache) return categoriesCache;
  const statusRel = staticFile(`${RADAR_PREFIX}/metadata/transferred/file/status`, JSON_V);
  const meanings = new Map(
    hasTree('radarnet-mirror-v3') && treeHas(statusRel) ? readTreeJson<{ status: string; description: string }[]>(statusRel).map((s) => [s.status, s.description]) : [],
  );
  categoriesCache = RADAR_ROUTES.filter((r) => r.resource === 'transferred' && r.shape === 'collection' && r.where !== undefined)
    .map((r) => {
      const m = /^transferred_file_status = '([^']+)'$/.exec(r.where!);
      const status = m ? m[1]! : r.where === 'transferred_file_status IS NULL' ? 'ok' : undefined;
      if (!status) return undefined;
      const apiPath = `${RADAR_PREFIX}${r.path}`;
      return { status, apiPath, description: r.description, meaning: meanings.get(status) ?? (status === 'ok' ? 'No alarm.' : ''), files: pathFiles(apiPath) };
    })
    .filter((c): c is Category => c !== undefined);
  return categoriesCache;
}

export function categoryWords(status: string): string {
  return status === 'ok' ? 'no alarm (ok)' : status.replaceAll('_', ' ');
}

// ---------------------------------------------------------------------------------------------- transfers

interface TransferredRecord {
  id: number;
  file_path: string;
  radar_code: string;
  file_type: string;
  transferred_file_status: string | null;
  transfer_start_datetime: string;
}

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
  const t = browseSummary()?.transfers;
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

export interface AlarmRecord {
  id: number;
  filename: string;
  fileType: string;
  status: string;
  transferStart: string;
  /** The instances of that file id in its category: JSON, CSV, checksum report. */
  links: FileLink[];
}

let alarmsCache: Map<string, AlarmRecord[]> | undefined;

/** Each radar's most recent alarm instances (by transfer start), from the alarm collection. */
export function recentAlarmsByRadar(): Map<string, AlarmRecord[]> {
  if (alarmsCache) return alarmsCache;
  const acc = new Map<string, TransferredRecord[]>();
  if (hasTree('radarnet-mirror-v3')) {
    forEachTreeRecord<TransferredRecord>(staticFile(`${RADAR_PREFIX}/transferred/files/alarm`, EXPANDED_JSON), (t) => {
      let list = acc.get(t.radar_code);
      if (!list) acc.set(t.radar_code, (list = []));
      keepLatest(list, t, (x) => `${x.transfer_start_datetime}|${String(x.id).padStart(20, '0')}`);
    });
  }
  const pathOf = new Map(categories().map((c) => [c.status, c.apiPath]));
  alarmsCache = new Map(
    [...acc].map(([code, list]) => [
      code,
      list.map((t) => {
        const status = t.transferred_file_status ?? 'ok';
        const base = pathOf.get(status) ?? `${RADAR_PREFIX}/transferred/files/alarm`;
        return { id: t.id, filename: baseName(t.file_path), fileType: t.file_type, status, transferStart: t.transfer_start_datetime, links: pathFiles(`${base}/${t.id}`) };
      }),
    ]),
  );
  return alarmsCache;
}

export interface LatestAlarms {
  /** The latest UTC day (`YYYY-MM-DD`, by transfer start) with an alarm instance; undefined without any. */
  day: string | undefined;
  /** That day's alarm instances, latest first, with the radar code. */
  alarms: (AlarmRecord & { radarCode: string })[];
}

let latestCache: LatestAlarms | undefined;

/** The alarm instances of the latest day that has any, from the alarm collection. */
export function latestDayAlarms(): LatestAlarms {
  if (latestCache) return latestCache;
  let day: string | undefined;
  let list: TransferredRecord[] = [];
  if (hasTree('radarnet-mirror-v3')) {
    forEachTreeRecord<TransferredRecord>(staticFile(`${RADAR_PREFIX}/transferred/files/alarm`, EXPANDED_JSON), (t) => {
      const d = t.transfer_start_datetime.slice(0, 10);
      if (day === undefined || d > day) {
        day = d;
        list = [];
      }
      if (d === day) list.push(t);
    });
  }
  const pathOf = new Map(categories().map((c) => [c.status, c.apiPath]));
  list.sort((a, b) => b.transfer_start_datetime.localeCompare(a.transfer_start_datetime) || a.radar_code.localeCompare(b.radar_code) || a.id - b.id);
  latestCache = {
    day,
    alarms: list.map((t) => {
      const status = t.transferred_file_status ?? 'ok';
      const base = pathOf.get(status) ?? `${RADAR_PREFIX}/transferred/files/alarm`;
      return { radarCode: t.radar_code, id: t.id, filename: baseName(t.file_path), fileType: t.file_type, status, transferStart: t.transfer_start_datetime, links: pathFiles(`${base}/${t.id}`) };
    }),
  };
  return latestCache;
}

let alarmDaysCache: Map<string, Map<string, number>> | undefined;

/** Alarm instances per radar code and UTC day (`YYYY-MM-DD`) of the transfer start, from the alarm collection. */
export function alarmsByRadarDay(): Map<string, Map<string, number>> {
  if (alarmDaysCache) return alarmDaysCache;
  alarmDaysCache = new Map();
  if (hasTree('radarnet-mirror-v3')) {
    forEachTreeRecord<TransferredRecord>(staticFile(`${RADAR_PREFIX}/transferred/files/alarm`, EXPANDED_JSON), (t) => {
      let days = alarmDaysCache!.get(t.radar_code);
      if (!days) alarmDaysCache!.set(t.radar_code, (days = new Map()));
      const day = t.transfer_start_datetime.slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    });
  }
  return alarmDaysCache;
}

// ---------------------------------------------------------------------------------------------- coverage

interface CoverageRecord {
  id: number;
  radar_code: string;
  file_type: string;
  coverage_type: string;
  start_datetime: string;
  end_datetime: string;
  duration: number;
  status_flag: number;
}

export interface CoverageSeries {
  fileType: string;
  coverageType: string;
  /** Intervals in ms since the epoch, in start order. */
  intervals: { start: number; end: number; flagged: boolean }[];
  /** Seconds covered (sum of durations). */
  seconds: number;
}

let coverageCache: Map<string, CoverageSeries[]> | undefined;

/** Each radar's coverage, one series per file type and coverage type (sorted by both). */
export function coverageByRadar(): Map<string, CoverageSeries[]> {
  if (coverageCache) return coverageCache;
  const acc = new Map<string, Map<string, CoverageSeries>>();
  if (hasTree('radarnet-mirror-v3')) {
    forEachTreeRecord<CoverageRecord>(staticFile(`${RADAR_PREFIX}/coverage/temporal`, JSON_V), (c) => {
      let series = acc.get(c.radar_code);
      if (!series) acc.set(c.radar_code, (series = new Map()));
      const key = `${c.file_type}\u0000${c.coverage_type}`;
      let s = series.get(key);
      if (!s) series.set(key, (s = { fileType: c.file_type, coverageType: c.coverage_type, intervals: [], seconds: 0 }));
      s.intervals.push({ start: Date.parse(c.start_datetime), end: Date.parse(c.end_datetime), flagged: c.status_flag !== 0 });
      s.seconds += Number(c.duration) || 0;
    });
  }
  coverageCache = new Map(
    [...acc].map(([code, series]) => [
      code,
      [...series.values()]
        .map((s) => ({ ...s, intervals: s.intervals.sort((x, y) => x.start - y.start) }))
        .sort((x, y) => x.fileType.localeCompare(y.fileType) || x.coverageType.localeCompare(y.coverageType)),
    ]),
  );
  return coverageCache;
}
