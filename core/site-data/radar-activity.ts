/**
 * The radar activity family's document (`<build>/site-data/radar-activity.json`): what the radar pages
 * (`/browse/radars/<slug>/`, `/browse/alarms/`, `/browse/availability/`) show of the radar catalogue's
 * collections, computed here from their records and written by the build (build-scripts/site-data.ts) before
 * Astro runs; the site only reads it (site/lib/radar-activity.ts). Pure: the records come in as iterables, and
 * whether the tree holds a file (for links) is the caller's predicate.
 * - `files`, `transfers`: the radar browse summary of `/files` and `/transferred/files` (made in DuckDB by
 *   build-scripts/radar/browse-summary.ts), with each latest file's links;
 * - `categories`: the transfer categories of the route table (`ok` and each alarm category);
 * - `recentAlarms`, `latestAlarms`, `alarmDays`: from the alarm collection (`transferred/files/alarm.expanded.json`),
 *   read once;
 * - `coverage`: each radar's coverage intervals per file type and coverage type (`coverage/temporal.json`).
 * Maps are arrays of `[key, value]` entries, in the order the site's Maps hold them (first appearance).
 */
import { RECENT, type BrowseSummary, type RecentFileEntry, type TypeCountEntry } from '../radar/browse-summary-file.ts';
import { RADAR_PREFIX, RADAR_ROUTES } from '../radar/routes.ts';
import { radarPathFiles, type FileLink, type TreeHas } from './links.ts';

/** Files of one radar and file type; `first`/`last` as the records write datetimes. */
export type TypeCount = TypeCountEntry;

export interface RecentFile extends RecentFileEntry {
  /** JSON, CSV, checksum report of `/files/<id>`. */
  links: FileLink[];
}

export interface RadarFilesEntry {
  /** By file type (localeCompare). */
  byType: TypeCount[];
  /** The RECENT latest files (by file start, then id), latest first. */
  recent: RecentFile[];
}

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

export interface AlarmRecord {
  id: number;
  filename: string;
  fileType: string;
  status: string;
  transferStart: string;
  /** The instances of that file id in its category: JSON, CSV, checksum report. */
  links: FileLink[];
}

export interface CoverageSeries {
  fileType: string;
  coverageType: string;
  /** Intervals in ms since the epoch, in start order. */
  intervals: { start: number; end: number; flagged: boolean }[];
  /** Seconds covered (sum of durations). */
  seconds: number;
}

export interface RadarActivityData {
  files: [string, RadarFilesEntry][];
  transfers: BrowseSummary['transfers'];
  categories: Category[];
  /** Each radar's RECENT most recent alarm instances (by transfer start, then id), latest first. */
  recentAlarms: [string, AlarmRecord[]][];
  /** The alarm instances of the latest UTC day that has any, latest first, with their radar code. */
  latestAlarms: { day?: string; alarms: (AlarmRecord & { radarCode: string })[] };
  /** Alarm instances per radar code and UTC day (`YYYY-MM-DD`) of the transfer start. */
  alarmDays: [string, [string, number][]][];
  coverage: [string, CoverageSeries[]][];
}

/** A record of the transferred-file collections, as the tree's expanded JSON writes it. */
export interface TransferredRecord {
  id: number;
  file_path: string;
  radar_code: string;
  file_type: string;
  transferred_file_status: string | null;
  transfer_start_datetime: string;
}

/** A record of `coverage/temporal.json`. */
export interface CoverageRecord {
  id: number;
  radar_code: string;
  file_type: string;
  coverage_type: string;
  start_datetime: string;
  end_datetime: string;
  duration: number;
  status_flag: number;
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

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The categories of transferred files, as the route table selects them: `ok` (no alarm) and each alarm
 * category (`/transferred/files/<category>`, a fixed `transferred_file_status = '…'` condition), with the
 * status table's meanings (`metadata/transferred/file/status`).
 */
export function transferCategories(statusRows: readonly { status: string; description: string }[], has: TreeHas): Category[] {
  const meanings = new Map(statusRows.map((s) => [s.status, s.description]));
  return RADAR_ROUTES.filter((r) => r.resource === 'transferred' && r.shape === 'collection' && r.where !== undefined)
    .map((r) => {
      const m = /^transferred_file_status = '([^']+)'$/.exec(r.where!);
      const status = m ? m[1]! : r.where === 'transferred_file_status IS NULL' ? 'ok' : undefined;
      if (!status) return undefined;
      const apiPath = `${RADAR_PREFIX}${r.path}`;
      return { status, apiPath, description: r.description, meaning: meanings.get(status) ?? (status === 'ok' ? 'No alarm.' : ''), files: radarPathFiles(apiPath, has) };
    })
    .filter((c): c is Category => c !== undefined);
}

/** The browse summary's files per radar: types sorted by name, each latest file with its links. */
export function filesEntries(summary: BrowseSummary['files'], has: TreeHas): [string, RadarFilesEntry][] {
  return summary.map(([code, f]) => [
    code,
    {
      byType: [...f.byType].sort((x, y) => x.fileType.localeCompare(y.fileType)),
      recent: f.recent.map((r) => ({ ...r, links: radarPathFiles(`${RADAR_PREFIX}/files/${r.id}`, has) })),
    },
  ]);
}

const EMPTY_TRANSFERS: BrowseSummary['transfers'] = { byCategoryDay: [], byRadar: [], totals: [], instances: 0 };

/** What the pages show of the alarm collection, in one pass over its records (in file order). */
export function alarmDigest(
  records: Iterable<TransferredRecord>,
  categories: readonly Category[],
  has: TreeHas,
): Pick<RadarActivityData, 'recentAlarms' | 'latestAlarms' | 'alarmDays'> {
  const recent = new Map<string, TransferredRecord[]>();
  const days = new Map<string, Map<string, number>>();
  let latestDay: string | undefined;
  let latest: TransferredRecord[] = [];
  for (const t of records) {
    let list = recent.get(t.radar_code);
    if (!list) recent.set(t.radar_code, (list = []));
    keepLatest(list, t, (x) => `${x.transfer_start_datetime}|${String(x.id).padStart(20, '0')}`);
    const day = t.transfer_start_datetime.slice(0, 10);
    let perDay = days.get(t.radar_code);
    if (!perDay) days.set(t.radar_code, (perDay = new Map()));
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    if (latestDay === undefined || day > latestDay) {
      latestDay = day;
      latest = [];
    }
    if (day === latestDay) latest.push(t);
  }
  const pathOf = new Map(categories.map((c) => [c.status, c.apiPath]));
  const alarm = (t: TransferredRecord): AlarmRecord => {
    const status = t.transferred_file_status ?? 'ok';
    const base = pathOf.get(status) ?? `${RADAR_PREFIX}/transferred/files/alarm`;
    return { id: t.id, filename: baseName(t.file_path), fileType: t.file_type, status, transferStart: t.transfer_start_datetime, links: radarPathFiles(`${base}/${t.id}`, has) };
  };
  latest.sort((a, b) => b.transfer_start_datetime.localeCompare(a.transfer_start_datetime) || a.radar_code.localeCompare(b.radar_code) || a.id - b.id);
  return {
    recentAlarms: [...recent].map(([code, list]) => [code, list.map(alarm)]),
    latestAlarms: { ...(latestDay === undefined ? {} : { day: latestDay }), alarms: latest.map((t) => ({ radarCode: t.radar_code, ...alarm(t) })) },
    alarmDays: [...days].map(([code, m]) => [code, [...m]]),
  };
}

/** Each radar's coverage, one series per file type and coverage type (sorted by both), intervals in start order. */
export function coverageDigest(records: Iterable<CoverageRecord>): [string, CoverageSeries[]][] {
  const acc = new Map<string, Map<string, CoverageSeries>>();
  for (const c of records) {
    let series = acc.get(c.radar_code);
    if (!series) acc.set(c.radar_code, (series = new Map()));
    const key = `${c.file_type}\u0000${c.coverage_type}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { fileType: c.file_type, coverageType: c.coverage_type, intervals: [], seconds: 0 }));
    s.intervals.push({ start: Date.parse(c.start_datetime), end: Date.parse(c.end_datetime), flagged: c.status_flag !== 0 });
    s.seconds += Number(c.duration) || 0;
  }
  return [...acc].map(([code, series]) => [
    code,
    [...series.values()]
      .map((s) => ({ ...s, intervals: s.intervals.sort((x, y) => x.start - y.start) }))
      .sort((x, y) => x.fileType.localeCompare(y.fileType) || x.coverageType.localeCompare(y.coverageType)),
  ]);
}

/** The whole document. `summary` undefined (a build without one) gives no files and no transfers. */
export function radarActivityData(input: {
  summary: BrowseSummary | undefined;
  transferStatuses: readonly { status: string; description: string }[];
  alarms: Iterable<TransferredRecord>;
  coverage: Iterable<CoverageRecord>;
  has: TreeHas;
}): RadarActivityData {
  const categories = transferCategories(input.transferStatuses, input.has);
  return {
    files: filesEntries(input.summary?.files ?? [], input.has),
    transfers: input.summary?.transfers ?? EMPTY_TRANSFERS,
    categories,
    ...alarmDigest(input.alarms, categories, input.has),
    coverage: coverageDigest(input.coverage),
  };
}
