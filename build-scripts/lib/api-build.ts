/** What each API's part of a build is handed. */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SnapshotManifest } from '../../core/snapshot/table-schema.ts';
import type { TimeseriesProfile } from '../../core/timeseries/profile.ts';
import type { AppendPlan } from '../timeseries/append.ts';
import type { AppendedObservations } from '../downloads.ts';
import type { Progress } from './progress.ts';
import type { TreeState } from './tree-state.ts';
import type { TreeWriter } from './tree-writer.ts';

export interface ApiBuildContext {
  conn: DuckDBConnection;
  manifest: SnapshotManifest;
  /** `read_parquet(...)` over a validated table (its file, or its partitioned folder's files). */
  tableSql: (table: string) => string;
  /** Snapshot folder (for configuration files beside the tables). */
  snapshotDir: string;
  /** The build folder (build.json; files for the site beside the tree, such as the radar browse summary). */
  buildDir: string;
  /** Folder for the endpoint's databases (`<buildDir>/data`). */
  dataDir: string;
  writer: TreeWriter;
  /** The tree's files and those of the base tree the build writes over (incremental builds). */
  state: TreeState;
  progress: Progress;
  /** DuckDB's memory limit as the build set it (`1GB`): what releaseBuffers (lib/duckdb.ts) sets back. */
  memoryLimit: string;
  /** False for a database-only build (`--db-only`): the endpoint then answers every request by a query. */
  writeTree: boolean;
  /** Write the big tables as hive-partitioned Parquet beside the databases (`--partitioned`, docs/scale-out.md); never with a tree. */
  partitioned?: boolean;
  /** Pre-render the configured charts into the tree (needs Chromium); false with `--no-charts`. */
  charts: boolean;
  /** Counts an API reports about its build (`charts rendered`, ...), returned by build(). */
  stats: Record<string, number>;
  /** A folder kept between builds of the same output (`<out>.cache`), for what a build may reuse. */
  cacheDir: string;
  /** The Timeseries API's profile: the shapes of its static tree (core/timeseries/profile.ts). */
  timeseriesProfile: TimeseriesProfile;
  /** A daily append over the last build's timeseries data (timeseries/append.ts); undefined: built in full. */
  timeseriesAppend?: AppendPlan;
  /**
   * Set by the Timeseries API's part of a daily append: the table of the observations it added (kept until the
   * build ends) and the digest of the build appended to, for the downloads (downloads.ts AppendedObservations).
   */
  appended: { observations?: AppendedObservations };
}
