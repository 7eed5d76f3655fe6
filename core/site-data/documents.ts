/**
 * The site's data: one JSON document per page family, written by the build into `<build>/site-data/<family>.json`
 * (build-scripts/site-data.ts, the I/O: tree files and DuckDB) before Astro runs, computed by the pure functions
 * of core/site-data/; the pages and site/lib only read them (site/lib/data.ts `siteData`) and render. Not part of
 * the static tree, not served.
 */
import type { RadarActivityData } from './radar-activity.ts';
import type { RadarsData } from './radars.ts';
import type { SearchIndex } from './search.ts';
import type { StationsData } from './stations.ts';
import type { TimeseriesData } from './timeseries.ts';

/** The folder of the documents in a build folder, beside build.json. */
export const SITE_DATA_DIR = 'site-data';

/** Each family's document. */
export interface SiteDataDocuments {
  radars: RadarsData;
  'radar-activity': RadarActivityData;
  timeseries: TimeseriesData;
  stations: StationsData;
  search: SearchIndex;
}

export type SiteDataFamily = keyof SiteDataDocuments;

/** The file of a family's document, relative to the build folder. */
export function siteDataFile(family: SiteDataFamily): string {
  return `${SITE_DATA_DIR}/${family}.json`;
}
