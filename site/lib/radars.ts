/**
 * The radars of the build, for the browse pages: read from the radars family's document
 * (`<build>/site-data/radars.json`, core/site-data/radars.ts), which the build makes before Astro runs from the
 * static tree's expanded radar collection and the radar status table.
 */
import type { Radar, RadarStatus } from '../../core/site-data/radars.ts';
import { siteData } from './data.ts';

export type { Radar, RadarStatus };

/** The radar status table (`metadata/radar/status`), in id order; empty without the radar tree. */
export function radarStatuses(): RadarStatus[] {
  return siteData('radars')?.statuses ?? [];
}

/** Every radar of the build, in the API's order; none when the build has no radar catalogue files. */
export function radars(): Radar[] {
  return siteData('radars')?.radars ?? [];
}
export function radarPage(r: Radar): string {
  return `/browse/radars/${r.slug}/`;
}

/** The browse page of the radar with that code, when exactly one radar has it. */
export function radarPageOfCode(code: string): string | undefined {
  const found = radars().filter((r) => r.code === code);
  return found.length === 1 ? radarPage(found[0]!) : undefined;
}
