/**
 * What the process's admission gates report: how long each admission waited and which were refused. The gates
 * (the DuckDB connection pool and its bulk lane, server/served-build.ts; the chart renderer's pages,
 * lib/chart-renderer.ts) call `admitted` and `refused`; whoever wants to know (the endpoint's metrics,
 * server/metrics.ts) subscribes. Nothing is kept here: with no subscriber a report costs a loop over an empty set.
 */

/** The gates: `duckdb` a connection of the radar catalogue's pool, `bulk` a turn of the bulk lane, `render` a page of the chart renderer. */
export const GATES = ['duckdb', 'bulk', 'render'] as const;
export type Gate = (typeof GATES)[number];

export interface AdmissionObserver {
  /** An admission: `waitedSeconds` 0 when it went straight through, `queued` whether it had to wait its turn. */
  admitted(gate: Gate, waitedSeconds: number, queued: boolean): void;
  /** Refused at once, the waiting line being full (answered 503). */
  refused(gate: Gate): void;
}

const observers = new Set<AdmissionObserver>();

/** Subscribes `o` to every gate of this process; returns the unsubscribe. */
export function observeAdmissions(o: AdmissionObserver): () => void {
  observers.add(o);
  return () => void observers.delete(o);
}

export function reportAdmitted(gate: Gate, waitedSeconds: number, queued: boolean): void {
  for (const o of observers) o.admitted(gate, waitedSeconds, queued);
}

export function reportRefused(gate: Gate): void {
  for (const o of observers) o.refused(gate);
}

/** A clock for waits: call the result when admitted. */
export function waitClock(gate: Gate): () => void {
  const t0 = performance.now();
  return () => reportAdmitted(gate, (performance.now() - t0) / 1000, true);
}
