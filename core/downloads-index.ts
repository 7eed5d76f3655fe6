/**
 * The downloads' index (`/downloads/index.json`): written by the build (build-scripts/downloads.ts), read by
 * clients and by the site's pages (site/lib/downloads.ts). Types only.
 */
import type { ApiName } from './snapshot/table-schema.ts';

/** One file of the downloads as the index lists it. */
export interface DownloadFile {
  /** The URL path, `/downloads/radar/files/year=2024/files-2024.parquet`, `/downloads/timeseries/observations/year=2024/month=3/observations-2024-03.parquet`. */
  path: string;
  /** The partition of a partitioned table's file: its year, and its month (1-12) when the table is partitioned by month too. */
  year?: number;
  month?: number;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface DownloadIndexTable {
  api: ApiName;
  name: string;
  description: string;
  /** Hive partition keys of the file paths (`year`, or `year` and `month`), empty for one file. */
  partitionedBy: string[];
  sortedBy: string;
  rowGroupRows: number;
  columns: { name: string; type: string }[];
  rows: number;
  files: DownloadFile[];
}

export interface DownloadIndex {
  snapshot: string;
  taken_at: string;
  tables: DownloadIndexTable[];
}
