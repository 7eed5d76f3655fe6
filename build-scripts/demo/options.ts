/** Options shared by the demo snapshot generators. */
export interface DemoOptions {
  /** First day of data, UTC midnight. */
  from: Date;
  /** Number of days of data. */
  days: number;
  /** How many times over the timeseries network is (build-scripts/demo/timeseries/network.ts `buildNetwork`); default 1. */
  seriesFactor?: number;
  /** Cheap value model for the timeseries (series.ts fastModelOf): scale tests of 10^9 observations. */
  fastValues?: boolean;
  /** Seed of the deterministic pseudo-random streams. */
  seed: number;
  /** Folder the Parquet files are written to (already exists, empty). */
  outDir: string;
  /** The snapshot's `taken_at`: the end of the last generated day. */
  takenAt: Date;
  /** Progress lines for the terminal. */
  log: (line: string) => void;
}
