/**
 * The timeseries profile (DECISIONS.md "Real clients"): `spec` answers the spec's shapes, `52north` those of
 * 52°North's running v1 server, which real clients (Helgoland) were written against. Only two shapes differ
 * (PROFILE_DIFFERENCES); everything else is the same in both. The build chooses the profile
 * (`SNAPCAT_TIMESERIES_PROFILE`, or build()'s `timeseriesProfile` option), records it in build.json and writes
 * the static tree in its shapes; the endpoint serves what the build made.
 */

export const TIMESERIES_PROFILES = ['spec', '52north'] as const;
export type TimeseriesProfile = (typeof TIMESERIES_PROFILES)[number];
export const DEFAULT_PROFILE: TimeseriesProfile = 'spec';
/** The environment variable `npm start`, `npm run build` and `npm run serve` read. */
export const PROFILE_ENV = 'SNAPCAT_TIMESERIES_PROFILE';

/**
 * A profile from its text (an environment variable's or build.json's value; `from` names where it came from).
 * Absent or empty: the default. Anything but `spec` or `52north` (case and surrounding blanks aside) throws,
 * naming the values there are.
 */
export function parseProfile(value: unknown, from = PROFILE_ENV): TimeseriesProfile {
  if (value === undefined || value === null || value === '') return DEFAULT_PROFILE;
  const s = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (s === 'spec' || s === '52north') return s;
  throw new Error(`${from} must be spec (the default: the spec's shapes) or 52north (the shapes of 52°North's v1 server), not ${JSON.stringify(value)}`);
}

/** What differs between the profiles, for the docs: a request and its answer in each. */
export const PROFILE_DIFFERENCES: { request: string; spec: string; '52north': string }[] = [
  { request: 'GET /api/v1/ (unexpanded)', spec: 'an object keyed by collection id: {"services": {id, label, description}, ...}', '52north': 'an array of {id, label, description}' },
  { request: 'POST /api/v1/timeseries/getData (JSON, format tvp)', spec: '{"allTimeseries": {"<id>": {"values": [...]}}}', '52north': '{"<id>": {"values": [...]}}' },
];
