/**
 * What `npm start` does with the build it finds (build-scripts/start.ts): serve it as it is, or build the
 * snapshot first. Pure: it is handed the snapshot's manifest and the build's build.json as read (undefined
 * when missing or unreadable), and, for the demo, the name of the snapshot of the day before and the build's
 * snapshot history (its snapshots.json): a build without that day in its history is made again over it.
 */
import { parseProfile, type TimeseriesProfile } from '../../core/timeseries/profile.ts';

/** Why the snapshot must be built before it is served; undefined when the build at hand is the one asked for. */
export function reasonToBuild(manifest: unknown, built: { snapshot?: unknown; timeseriesProfile?: unknown } | undefined, profile: TimeseriesProfile, previousName?: string, history?: { snapshots?: { name?: unknown }[] }): string | undefined {
  if (built === undefined) return 'there is no build yet';
  if (JSON.stringify(built.snapshot) !== JSON.stringify(manifest)) return 'the build is of another snapshot';
  // the demo is published as two consecutive daily snapshots, so that the change feeds have content
  if (previousName !== undefined && history?.snapshots?.[1]?.name !== previousName) return `the build has no history over ${previousName}`;
  let builtProfile: TimeseriesProfile | undefined;
  try {
    builtProfile = parseProfile(built.timeseriesProfile, 'timeseriesProfile');
  } catch {
    builtProfile = undefined;
  }
  if (builtProfile !== profile) return `the build is in timeseries profile ${builtProfile ?? String(built.timeseriesProfile)}, not ${profile}`;
  return undefined;
}
