/**
 * Progress of validation inside a table: the stage (`observations.parquet: uniqueness of timeseries_id, timestamp,
 * pass 3 of 12`) and how far DuckDB's query of it has come (`45%`, DuckDB's own estimate from the rows its scans
 * have read), reported every `everyMs` while a stage runs. A 10^9-row snapshot is one big Parquet file whose
 * checks take minutes; without this the build showed "0 files, 0.0 MB" all along (issue 23).
 *
 * DuckDB tracks a query's progress only with its progress bar enabled: it is enabled on the connection without
 * printing (`enable_progress_bar_print = false`) for as long as the watch runs, and reset after.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

export type ProgressReport = (text: string) => void;

export interface QueryWatch {
  /** The stage now running; reported at once. */
  stage(text: string): void;
  /** Stops reporting and resets the connection's progress settings. */
  stop(): Promise<void>;
}

/** The percentage DuckDB reports for the connection's running query, or undefined while it has none. */
export function queryPercent(conn: DuckDBConnection): number | undefined {
  const p = conn.progress.percentage;
  return Number.isFinite(p) && p >= 0 ? Math.min(100, p) : undefined;
}

/** A watch that reports nothing (no reporter given). */
const SILENT: QueryWatch = { stage: () => {}, stop: async () => {} };

export async function watchQueries(conn: DuckDBConnection, report: ProgressReport | undefined, everyMs = 1000): Promise<QueryWatch> {
  if (!report) return SILENT;
  await conn.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0');
  let stage = '';
  const tell = () => {
    if (!stage) return;
    const pct = queryPercent(conn);
    report(pct === undefined ? stage : `${stage} ${pct.toFixed(0)}%`);
  };
  const timer = setInterval(tell, everyMs);
  timer.unref();
  return {
    stage(text: string) {
      stage = text;
      report(text);
    },
    async stop() {
      clearInterval(timer);
      await conn.run('RESET enable_progress_bar; RESET enable_progress_bar_print; RESET progress_bar_time');
    },
  };
}
