/**
 * What the live endpoint adds to a timeseries' metadata with `status_intervals=true&rendering_hints=true`
 * (first value, status intervals, rendering hints), which the static tree does not hold: read at site build
 * time from the build's own timeseries database (`<build>/data/timeseries-v1.duckdb`, read-only, the catalogue
 * the endpoint loads) and computed by the endpoint's functions (core/timeseries/extras.ts), so the pages show
 * what the endpoint answers. Nothing is fetched. Without the database (a site built over a copy of the tree
 * only), `undefined`: the pages then show what the tree holds and link the live answer.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChartStyle } from '../../core/snapshot/timeseries-config.ts';
import type { Catalogue } from '../../core/timeseries/catalogue.ts';
import { renderingHintsOf, statusIntervalsOf, type RenderingHintsView, type StatusIntervalView } from '../../core/timeseries/extras.ts';
import { defaultStyle } from '../../core/timeseries/chart-document.ts';
import { buildFolder, buildInfo } from './data.ts';

export interface SeriesExtras {
  firstValue: { timestamp: number; value: number } | undefined;
  statusIntervals: StatusIntervalView[];
  renderingHints: RenderingHintsView | undefined;
  /** The style the endpoint draws the series with when a request names none (its rendering hints). */
  style: ChartStyle | undefined;
  /** The general configuration's `noDataGapThreshold`: where chart lines break (core/charts/gaps.ts). */
  noDataGapThreshold: number | undefined;
}

let loading: Promise<Catalogue | undefined> | undefined;

async function catalogue(): Promise<Catalogue | undefined> {
  const { TIMESERIES_DB_FILE, loadCatalogue } = await import('../../lib/timeseries-store.ts');
  const file = join(buildFolder(), 'data', TIMESERIES_DB_FILE);
  if (!existsSync(file)) return undefined;
  const { openDuckDB } = await import('../../lib/duckdb.ts');
  const db = await openDuckDB({ path: file, readOnly: true, threads: 1 });
  const conn = await db.connect();
  try {
    return await loadCatalogue(conn, Date.parse(buildInfo().snapshot.taken_at));
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** The extras of a series, or undefined when the build has no timeseries database to read them from. */
export async function seriesExtras(id: string): Promise<SeriesExtras | undefined> {
  loading ??= catalogue().catch((e: unknown) => {
    process.stderr.write(`site: timeseries extras unavailable (${(e as Error).message}); the pages link the live answer\n`);
    return undefined;
  });
  const cat = await loading;
  if (!cat) return undefined;
  const k = cat.ids.timeseries.get(id);
  if (k === undefined) return undefined;
  const s = cat.timeseries[k]!;
  return {
    firstValue: s.first,
    statusIntervals: statusIntervalsOf(cat, s),
    renderingHints: renderingHintsOf(cat, s),
    style: defaultStyle(cat, s),
    noDataGapThreshold: cat.config.noDataGapThreshold,
  };
}
