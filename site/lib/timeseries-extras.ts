/**
 * What the live endpoint adds to a timeseries' metadata with `status_intervals=true&rendering_hints=true`
 * (first value, status intervals, rendering hints), which the static tree does not hold: read from the
 * timeseries family's document (`<build>/site-data/timeseries.json`, core/site-data/timeseries.ts), which the
 * build computes before Astro runs from its own timeseries database with the endpoint's functions, so the pages
 * show what the endpoint answers. Nothing is fetched. Without the document (a site built over a copy of the tree
 * without its database), `undefined`: the pages then show what the tree holds and link the live answer.
 */
import type { SeriesExtras } from '../../core/site-data/timeseries.ts';
import { siteData } from './data.ts';

export type { SeriesExtras };

let byId: Map<string, SeriesExtras> | undefined;

/** The extras of a series, or undefined when the build has no timeseries document to read them from. */
export async function seriesExtras(id: string): Promise<SeriesExtras | undefined> {
  byId ??= new Map(siteData('timeseries')?.extras ?? []);
  return byId.get(id);
}
