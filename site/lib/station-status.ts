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

/** Every series' status by id (none when the build has no timeseries database). */
export async function seriesStatuses(): Promise<Map<string, SeriesStatus | undefined>> {
  return asMap(siteData('stations')?.seriesStatus);
}

/** Each station's status: its most severe series'. */
export async function stationStatuses(): Promise<Map<string, SeriesStatus | undefined>> {
  return asMap(siteData('stations')?.stationStatus);
}
