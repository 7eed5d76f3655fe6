/**
 * The timeseries profile, pure: reading it from its text, the two shapes it changes (the unexpanded index, the
 * POST tvp answer) and nothing else, and when `npm start` builds again.
 */
import { describe, expect, test } from 'vitest';
import { indexAnswer } from '../../core/timeseries/answer.ts';
import { dataBody, type Points } from '../../core/timeseries/data-body.ts';
import { readPostData } from '../../core/timeseries/data-request.ts';
import { parseProfile, PROFILE_DIFFERENCES, PROFILE_ENV, TIMESERIES_PROFILES } from '../../core/timeseries/profile.ts';
import { reasonToBuild } from '../../build-scripts/lib/start-plan.ts';
import { tinyCatalogue } from '../helpers/ts-catalogue.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const pts = (t: number[], v: number[]): Points => ({ t: Float64Array.from(t), v: Float64Array.from(v) });

describe('parseProfile', () => {
  test.each([
    [undefined, 'spec'],
    ['', 'spec'],
    ['spec', 'spec'],
    ['52north', '52north'],
    [' 52North ', '52north'],
    ['SPEC', 'spec'],
  ])('%j is %s', (value, profile) => {
    expect(parseProfile(value)).toBe(profile);
  });

  test.each(['52n', 'north', 'spec,52north', 'default', 42, true])('%j is refused with a message naming the variable and the profiles', (value) => {
    let message = '';
    try {
      parseProfile(value);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.startsWith(`${PROFILE_ENV} must be spec (`)).toBe(true);
    expect(message).toContain(' or 52north (');
    expect(message.endsWith(`, not ${JSON.stringify(value)}`)).toBe(true);
    expect(() => parseProfile(value, 'timeseriesProfile in dist/build.json')).toThrow(/^timeseriesProfile in dist\/build\.json must be/);
  });

  test('the docs table has a column per profile', () => {
    expect(PROFILE_DIFFERENCES).toHaveLength(2);
    for (const d of PROFILE_DIFFERENCES) for (const p of TIMESERIES_PROFILES) expect(d[p].length).toBeGreaterThan(5);
  });
});

describe('the shapes a profile changes', () => {
  const cat = tinyCatalogue();

  test('the unexpanded index: an object keyed by collection id (spec), an array of the same entries (52north)', () => {
    const spec = JSON.parse(indexAnswer(cat, false, 'spec')) as Record<string, { id: string; label: string; description: string }>;
    const north = JSON.parse(indexAnswer(cat, false, '52north')) as { id: string; label: string; description: string }[];
    expect(Array.isArray(north)).toBe(true);
    expect(north).toEqual(Object.values(spec));
    expect(north.map((e) => e.id)).toEqual(['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries']);
    for (const e of north) expect(Object.keys(e)).toEqual(['id', 'label', 'description']);
    expect(indexAnswer(cat, false)).toBe(indexAnswer(cat, false, 'spec'));
    // the expanded index is the same in both
    expect(indexAnswer(cat, true, '52north')).toBe(indexAnswer(cat, true, 'spec'));
  });

  test('POST tvp: wrapped in allTimeseries (spec) or keyed by id (52north); highchart and GET shapes are the same in both', () => {
    const a = { id: 'ts_a', points: pts([1], [2.5]), refs: [{ id: 'ref_a', points: pts([1], [7]) }] };
    const b = { id: 'ts_b', points: pts([], []), refs: [] };
    const body = (profile: 'spec' | '52north', over: object) => JSON.parse(text(dataBody([a, b], { format: 'tvp', expanded: false, mode: 'multiple', profile, ...over })));
    const byId = { ts_a: { values: [{ timestamp: 1, value: 2.5 }] }, ts_b: { values: [] } };
    expect(body('spec', {})).toEqual({ allTimeseries: byId });
    expect(body('52north', {})).toEqual(byId);
    expect(Object.keys(body('52north', { expanded: true }))).toEqual(['ts_a', 'ts_b']);
    expect(body('52north', { expanded: true }).ts_a.extra).toEqual({ referenceValues: { ref_a: { values: [{ timestamp: 1, value: 7 }] } } });
    for (const over of [{ format: 'highchart' }, { format: 'highchart', expanded: true }, { mode: 'single' }, { mode: 'single', expanded: true }]) {
      expect(body('52north', over), JSON.stringify(over)).toEqual(body('spec', over));
    }
  });

  test('readPostData carries the profile it is given (spec by default)', () => {
    const body = { timeseries: ['ts_zug_temp'] };
    expect(readPostData(body, new URLSearchParams(), cat).profile).toBe('spec');
    expect(readPostData(body, new URLSearchParams(), cat, '52north').profile).toBe('52north');
  });
});

describe('npm start builds again when the build is not the one asked for', () => {
  const manifest = { name: 'demo', taken_at: '2024-01-09T00:00:00Z', apis: ['timeseries-v1'] };
  test.each([
    [undefined, 'spec', 'there is no build yet'],
    [{ snapshot: { ...manifest, name: 'other' }, timeseriesProfile: 'spec' }, 'spec', 'the build is of another snapshot'],
    [{ snapshot: manifest, timeseriesProfile: 'spec' }, '52north', 'the build is in timeseries profile spec, not 52north'],
    [{ snapshot: manifest, timeseriesProfile: '52north' }, 'spec', 'the build is in timeseries profile 52north, not spec'],
    [{ snapshot: manifest, timeseriesProfile: 'odd' }, 'spec', 'the build is in timeseries profile odd, not spec'],
    // a build from before profiles is a spec build
    [{ snapshot: manifest }, '52north', 'the build is in timeseries profile spec, not 52north'],
    [{ snapshot: manifest }, 'spec', undefined],
    [{ snapshot: manifest, timeseriesProfile: '52north' }, '52north', undefined],
  ] as const)('%j, asked %s: %s', (built, profile, reason) => {
    expect(reasonToBuild(manifest, built, profile)).toBe(reason);
  });

  test('the demo: a build without the day before in its history is made again over it', () => {
    const built = { snapshot: manifest, timeseriesProfile: 'spec' };
    expect(reasonToBuild(manifest, built, 'spec', 'day-before', undefined)).toBe('the build has no history over day-before');
    expect(reasonToBuild(manifest, built, 'spec', 'day-before', { snapshots: [{ name: manifest.name }] })).toBe('the build has no history over day-before');
    expect(reasonToBuild(manifest, built, 'spec', 'day-before', { snapshots: [{ name: manifest.name }, { name: 'day-before' }] })).toBeUndefined();
    // another snapshot than the demo's: no history asked for
    expect(reasonToBuild(manifest, built, 'spec')).toBeUndefined();
  });
});
