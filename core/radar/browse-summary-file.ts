/**
 * The radar browse summary: what the site's browse pages show of the two big collections of the radar tree
 * (`/files` and `/transferred/files`, gigabytes on a long catalogue), computed by the build in DuckDB
 * (build-scripts/radar/browse-summary.ts) and read by the site (site/lib/radar-activity.ts) instead of the
 * collections. A JSON file in the build folder beside build.json, not in the static tree. Maps are stored as
 * arrays of `[key, value]` entries in the order the site's Maps hold them: the order in which each key first
 * appears in the collection file (its records in stored order).
 */

/** File name in the build folder. */
export const BROWSE_SUMMARY_FILE = 'radar-summary.json';

/** How many latest files (and most recent alarms) a radar page lists. */
export const RECENT = 10;

/** Files of one radar and file type. Datetimes as the records' JSON writes them (`2024-01-01T00:00:00.000Z`). */
export interface TypeCountEntry {
  fileType: string;
  files: number;
  bytes: number;
  /** Files whose status_flag is not 0 (blacklisted). */
  flagged: number;
  /** The earliest file_start_datetime. */
  first: string;
  /** The latest file_end_datetime. */
  last: string;
}

/** One of a radar's latest files (by file_start_datetime, then id). */
export interface RecentFileEntry {
  id: number;
  /** The file_path after its last `/`. */
  filename: string;
  fileType: string;
  start: string;
  end: string;
  bytes: number;
  flagged: boolean;
}

export interface BrowseSummary {
  /** Per radar code: its files per file type (in order of first appearance), and its RECENT latest files, latest first. */
  files: [string, { byType: TypeCountEntry[]; recent: RecentFileEntry[] }][];
  transfers: {
    /** Transfer instances per category (`transferred_file_status`, `ok` for null) and UTC day (`YYYY-MM-DD`) of the transfer start. */
    byCategoryDay: [string, [string, number][]][];
    /** Transfer instances per radar code and category. */
    byRadar: [string, [string, number][]][];
    totals: [string, number][];
    /** Absent when there are no transfer instances. */
    firstDay?: string;
    lastDay?: string;
    instances: number;
  };
}
