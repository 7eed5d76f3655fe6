/**
 * The station map's markers as HTML, made once per map and status colouring (site/components/StationMap.astro):
 * when each station page showed the map of every station, rendering its markers through Astro page by page cost
 * the network's square (1,030 pages × 1,030 markers at national scale); a station page now maps its
 * neighbourhood (its own map), the list page the network. The strings are the bytes Astro
 * renders for the same element: attributes escape `&` and `"` (an absent value drops the attribute, an empty one
 * is written bare), text escapes `& < > ' "` (astro/dist/runtime/server: toAttributeString, escapeHTML).
 */
import type { MapGeometry, MapMarker } from './stations.ts';
import type { SeriesStatus } from './station-status.ts';

/** ` key="value"` as Astro writes an attribute; nothing for null or undefined, ` key` for the empty string. */
export function attribute(key: string, value: string | undefined | null): string {
  if (value == null) return '';
  if (value === '') return ` ${key}`;
  return ` ${key}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
}

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** Text content as Astro escapes it. */
export function escapeText(text: string): string {
  return text.replace(/[&<>'"]/g, (c) => ENTITY[c]!);
}

type Status = ReadonlyMap<string, SeriesStatus | undefined> | undefined;
const made = new WeakMap<MapGeometry, Map<Status, string[]>>();

/**
 * The HTML of every marker of `map` but `except`, in the map's order: `render` is called once per marker for
 * a map and status (the same objects on every page: stationMap and stationStatuses keep theirs), then only joined.
 */
export function otherMarkers(map: MapGeometry, status: Status, except: MapMarker | undefined, render: (m: MapMarker) => string): string {
  let byStatus = made.get(map);
  if (!byStatus) made.set(map, (byStatus = new Map()));
  let html = byStatus.get(status);
  if (!html) byStatus.set(status, (html = map.markers.map(render)));
  if (!except) return html.join('');
  const skip = map.markers.indexOf(except);
  let out = '';
  for (let i = 0; i < html.length; i++) if (i !== skip) out += html[i];
  return out;
}
