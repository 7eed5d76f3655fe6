/**
 * The timeseries of the build, for the browse pages (`/browse/timeseries/<id>/`): their metadata from the
 * stations family's document (`<build>/site-data/stations.json`, core/site-data/stations.ts, made by the build
 * from the tree's `api/v1/timeseries.expanded.json` and each `api/v1/timeseries/<id>.json`), their data for the
 * default timespan (the page's own tree file `getData.expanded.json`, with reference values), and the URLs of
 * their data, static and live.
 *
 * What the static tree does not hold (first value, status intervals, rendering hints: the live answer to
 * `?status_intervals=true&rendering_hints=true`) comes from site/lib/timeseries-extras.ts (the timeseries document).
 */
import { defaultTimespan, type Timespan } from '../../core/timeseries/timespan.ts';
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { staticFile } from '../../core/timeseries/static-tree.ts';
import { PRERENDER_INTERVALS } from '../../core/snapshot/timeseries-config.ts';
import type { SeriesMeta } from '../../core/site-data/stations.ts';
import { buildInfo, readTreeText, siteData, treeHas, treeHref, treeList } from './data.ts';

export type { IdLabel, RefValueMeta, SeriesMeta } from '../../core/site-data/stations.ts';
export { seriesPage, stationPage } from '../../core/site-data/stations.ts';

export interface TimeValue {
  timestamp: number;
  value: number | null;
}

export interface DataLink {
  label: string;
  href: string;
  /** Answered by the endpoint only (a static host has no such file). */
  live: boolean;
  note?: string;
}

/** Every timeseries of the build, in the API's order (by label); none when the build has no timeseries tree. */
export function allSeries(): SeriesMeta[] {
  return siteData('stations')?.series ?? [];
}

let byId: ReadonlyMap<string, SeriesMeta> | undefined;
let byStation: ReadonlyMap<string, SeriesMeta[]> | undefined;

/** Every timeseries by id (made once for all pages). */
export function seriesById(): ReadonlyMap<string, SeriesMeta> {
  byId ??= new Map(allSeries().map((s) => [s.id, s]));
  return byId;
}

/** The timeseries of a station, in allSeries' order (the index made once for all pages, not a scan per page). */
export function seriesAt(stationId: string): readonly SeriesMeta[] {
  if (!byStation) {
    const m = new Map<string, SeriesMeta[]>();
    for (const s of allSeries()) {
      const list = m.get(s.station.id);
      if (list) list.push(s);
      else m.set(s.station.id, [s]);
    }
    byStation = m;
  }
  return byStation.get(stationId) ?? [];
}

/** The week ending at the snapshot's instant: the timespan of the tree's getData files. */
export function defaultSpan(): Timespan {
  return defaultTimespan(Date.parse(buildInfo().snapshot.taken_at));
}

export interface SeriesData {
  values: TimeValue[];
  /** Reference values sampled at the served timestamps, by id (empty when the tree has no expanded data). */
  refs: Record<string, TimeValue[]>;
}

/** The data of the default timespan from the tree, the expanded file when there is one; undefined when the tree has neither. */
export function seriesData(id: string): SeriesData | undefined {
  const base = `${TIMESERIES_PREFIX}/timeseries/${id}/getData`;
  for (const expanded of [true, false]) {
    const rel = staticFile(base, expanded);
    if (!treeHas(rel)) continue;
    // not kept: 276 files of 40 KB each are read once, by their page
    const json = JSON.parse(readTreeText(rel)) as Record<string, unknown>;
    const body = (Array.isArray(json['values']) ? json : json[id]) as { values?: TimeValue[]; extra?: { referenceValues?: Record<string, { values: TimeValue[] }> } } | undefined;
    if (!body?.values) continue;
    const refs: Record<string, TimeValue[]> = {};
    for (const [rid, r] of Object.entries(body.extra?.referenceValues ?? {})) refs[rid] = r.values;
    return { values: body.values, refs };
  }
  return undefined;
}

/** Pre-rendered chart images of the series in the tree (`lastWeek.png`, `lastMonth_with_legend.png`, ...). */
export function prerendered(id: string): { name: string; href: string }[] {
  const dir = `${TIMESERIES_PREFIX}/timeseries/${id}`.replace(/^\//, '');
  const order = (n: string) => {
    const i = PRERENDER_INTERVALS.findIndex((p) => n === p || n.startsWith(`${p}_`));
    return i < 0 ? PRERENDER_INTERVALS.length : i;
  };
  return treeList(dir, 'files')
    .filter((f) => f.endsWith('.png'))
    .map((f) => f.slice(0, -4))
    .sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({ name, href: treeHref(`${dir}/${name}.png`) }));
}

/** The data and charts of a series: the tree's files, then what the endpoint answers. */
export function dataLinks(s: SeriesMeta): DataLink[] {
  const api = `${TIMESERIES_PREFIX}/timeseries/${encodeURIComponent(s.id)}`;
  const out: DataLink[] = [];
  const file = (label: string, rel: string, note?: string) => {
    if (treeHas(rel)) out.push({ label, href: treeHref(rel), live: false, ...(note ? { note } : {}) });
  };
  file('Metadata (JSON)', staticFile(`${TIMESERIES_PREFIX}/timeseries/${s.id}`, false));
  file('Data of the week (JSON)', staticFile(`${TIMESERIES_PREFIX}/timeseries/${s.id}/getData`, false));
  file('Data of the week with reference values (JSON)', staticFile(`${TIMESERIES_PREFIX}/timeseries/${s.id}/getData`, true));
  for (const p of prerendered(s.id)) out.push({ label: `Pre-rendered chart ${p.name} (PNG)`, href: p.href, live: false });
  out.push(
    { label: 'Metadata with status intervals and rendering hints (JSON)', href: `${api}?status_intervals=true&rendering_hints=true`, live: true },
    { label: 'Data of the week, Highcharts format (JSON)', href: `${api}/getData?format=highchart&expanded=true`, live: true },
    { label: 'Chart of the week (PNG)', href: `${api}/getData.png?expanded=true`, live: true },
    { label: 'Report of the week (PDF)', href: `${api}/getData.pdf?expanded=true`, live: true },
    { label: 'Data of the last 30 days (JSON)', href: `${api}/getData?timespan=${encodeURIComponent(`P30D/${buildInfo().snapshot.taken_at}`)}`, live: true },
  );
  return out;
}

/** `50.937° N, 6.963° E` */
export function position(lon: number | undefined, lat: number | undefined): string {
  if (lon === undefined || lat === undefined) return '';
  return `${Math.abs(lat).toFixed(3)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(3)}° ${lon >= 0 ? 'E' : 'W'}`;
}

/** `2024-02-04 23:50 UTC` */
export function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}
