/**
 * The status of each timeseries and station, for the stations map and the station pages: read from the stations
 * family's document (`<build>/site-data/stations.json`), where the build put them (core/site-data/stations.ts:
 * the status interval a series' last value lies in, what the endpoint answers with `status_intervals=true`; a
 * station's is its most severe series'). None when the build has no timeseries database.
 */
import type { SeriesStatus } from '../../core/site-data/stations.ts';
import { siteData } from './data.ts';

export { statusOf, worstStatus, type SeriesStatus } from '../../core/site-data/stations.ts';

const asMap = (entries: [string, SeriesStatus | null][] | undefined) => new Map((entries ?? []).map(([id, s]) => [id, s ?? undefined]));

type Statuses = ReadonlyMap<string, SeriesStatus | undefined>;
let bySeries: Statuses | undefined;
let byStation: Statuses | undefined;

/** Every series' status by id (none when the build has no timeseries database). Made once: the same map for every page. */
export async function seriesStatuses(): Promise<Statuses> {
  bySeries ??= asMap(siteData('stations')?.seriesStatus);
  return bySeries;
}

/** Each station's status: its most severe series'. Made once: the same map for every page (the station map's markers are made once per map). */
export async function stationStatuses(): Promise<Statuses> {
  byStation ??= asMap(siteData('stations')?.stationStatus);
  return byStation;
}
