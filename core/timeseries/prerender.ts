/**
 * The charts a build pre-renders (DECISIONS.md: pre-rendered charts), from the snapshot's
 * `web_config-task-prerendering.json`:
 * - a `phenomenonStyles` entry names every timeseries of the phenomenon; a `timeseriesStyles` entry one
 *   timeseries, and wins over a phenomenon entry for the same timeseries, interval and qualifier;
 * - each interval (`lastDay` P1D, `lastWeek` P7D, `lastMonth` P1M) ends at the snapshot's `taken_at`;
 * - the chart is the entry's `config` over `generalConfig` (size, language, grid, legend, generalize,
 *   expanded) with the entry's style;
 * - `title` may hold 52°North's placeholders: %1$s station, %2$s phenomenon, %3$s procedure, %4$s category,
 *   %5$s offering, %6$s feature, %7$s service, %8$s unit (typeset, m³/s: core/units.ts).
 * Only single-series charts are pre-rendered.
 */
import { chartLanguage, type ChartRequest } from './chart-request.ts';
import { prerenderedFile } from './charts.ts';
import type { Catalogue, SeriesRec } from './catalogue.ts';
import { paperFor } from '../charts/report.ts';
import type { PrerenderInterval, PrerenderTask } from '../snapshot/timeseries-config.ts';
import { labelIn, normaliseLocale } from './locale.ts';
import { DEFAULT_DP_TOLERANCE, DEFAULT_LTTB_THRESHOLD } from './generalize.ts';
import { parsePeriod, shiftByPeriod, type Timespan } from './timespan.ts';
import { typesetUnit } from '../units.ts';

export const INTERVAL_PERIOD: Record<PrerenderInterval, string> = { lastDay: 'P1D', lastWeek: 'P7D', lastMonth: 'P1M' };

export interface PrerenderJob {
  /** The static tree's file. */
  file: string;
  seriesId: string;
  interval: PrerenderInterval;
  qualifier: string | undefined;
  request: ChartRequest;
}

export function intervalSpan(interval: PrerenderInterval, takenAt: number): Timespan {
  return { start: shiftByPeriod(takenAt, parsePeriod(INTERVAL_PERIOD[interval])!, -1), end: takenAt };
}

/** A title with 52°North's positional placeholders filled in from the series' labels. */
export function formatTitle(template: string, cat: Catalogue, s: SeriesRec, locale: string | undefined): string {
  const values = [
    labelIn(cat.stations[s.station]!, locale),
    labelIn(cat.phenomena[s.phenomenon]!, locale),
    labelIn(cat.procedures[s.procedure]!, locale),
    labelIn(cat.categories[s.category]!, locale),
    labelIn(cat.offerings[s.offering]!, locale),
    labelIn(cat.features[s.feature]!, locale),
    labelIn(cat.services[s.service]!, locale),
    typesetUnit(s.uom),
  ];
  return template.replace(/%(\d)\$s/g, (m, n: string) => values[Number(n) - 1] ?? m);
}

function job(cat: Catalogue, k: number, task: PrerenderTask, interval: PrerenderInterval): PrerenderJob {
  const s = cat.timeseries[k]!;
  const c = task.chart;
  const locale = normaliseLocale(c.language);
  const request: ChartRequest = {
    kind: 'png',
    series: [{ k, style: task.style }],
    span: intervalSpan(interval, cat.takenAt),
    width: c.width,
    height: c.height,
    grid: c.grid,
    legend: c.legend,
    locale,
    language: chartLanguage(locale),
    paper: paperFor(locale),
    generalize: c.generalize ? (cat.config.defaultGeneralizer === 'dp' ? { algorithm: 'dp', tolerance: DEFAULT_DP_TOLERANCE } : { algorithm: 'lttb', threshold: DEFAULT_LTTB_THRESHOLD }) : undefined,
    expanded: c.expanded,
    fitReferenceValues: false,
    base64: false,
    ...(task.title !== undefined ? { title: formatTitle(task.title, cat, s, locale) } : {}),
  };
  return { file: prerenderedFile(s.id, interval, task.chartQualifier), seriesId: s.id, interval, qualifier: task.chartQualifier, request };
}

/** Every chart to pre-render, one per file, in a stable order (by timeseries id, then file name). */
export function prerenderJobs(cat: Catalogue): PrerenderJob[] {
  const byFile = new Map<string, PrerenderJob>();
  const add = (k: number, task: PrerenderTask) => {
    for (const interval of task.intervals) {
      const j = job(cat, k, task, interval);
      byFile.set(j.file, j);
    }
  };
  const pre = cat.config.prerendering;
  for (const task of pre.phenomenon) {
    const p = cat.ids.phenomena.get(task.id);
    if (p === undefined) continue;
    cat.timeseries.forEach((s, k) => {
      if (s.phenomenon === p) add(k, task);
    });
  }
  // timeseries entries last: they replace a phenomenon entry's chart of the same file
  for (const task of pre.timeseries) {
    const k = cat.ids.timeseries.get(task.id);
    if (k !== undefined) add(k, task);
  }
  return [...byFile.values()].sort((a, b) => (a.seriesId < b.seriesId ? -1 : a.seriesId > b.seriesId ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
