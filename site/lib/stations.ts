/** The timeseries stations of the build, for the browse pages: read from the static tree's expanded station collection. */
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { staticFile } from '../../core/timeseries/static-tree.ts';
import { hasTree, readTreeJson, treeHas, treeHref } from './data.ts';

interface StationFeature {
  properties: { id: string; label: string; timeseries?: Record<string, { phenomenon?: { label?: string }; offering?: { label?: string } }> };
  geometry: { type: string; coordinates: number[] } | null;
}

export interface Series {
  id: string;
  label: string;
  /** Its metadata file (`/api/v1/timeseries/<id>.json`). */
  href: string;
  /** Its data for the default timespan (`/api/v1/timeseries/<id>/getData.json`), when the tree holds it. */
  dataHref: string | undefined;
}

export interface Station {
  id: string;
  label: string;
  lon: number | undefined;
  lat: number | undefined;
  href: string;
  series: Series[];
}

/** Every station, in the API's order (by label); none when the build has no timeseries catalogue files. */
export function stations(): Station[] {
  if (!hasTree('timeseries-v1')) return [];
  const features = readTreeJson<StationFeature[]>(staticFile(`${TIMESERIES_PREFIX}/stations`, true));
  return features.map((f) => {
    const id = f.properties.id;
    const series = Object.entries(f.properties.timeseries ?? {}).map(([sid, s]) => {
      const base = `${TIMESERIES_PREFIX}/timeseries/${sid}`;
      const data = staticFile(`${base}/getData`, false);
      return {
        id: sid,
        label: s.phenomenon?.label ?? sid,
        href: treeHref(staticFile(base, false)),
        dataHref: treeHas(data) ? treeHref(data) : undefined,
      };
    });
    return {
      id,
      label: f.properties.label,
      lon: f.geometry?.coordinates[0],
      lat: f.geometry?.coordinates[1],
      href: treeHref(staticFile(`${TIMESERIES_PREFIX}/stations/${id}`, false)),
      series,
    };
  });
}
