/**
 * The timeseries profile end to end: the shared timeseries demo build (profile spec) and a second build of the
 * same snapshot in profile 52north. Each records its profile in build.json; the two shapes the profile changes
 * (the unexpanded index, POST tvp) are answered live and from the static tree in the build's profile, whatever
 * the endpoint's own environment says; every file of the 52north tree is what its live endpoint answers; the
 * docs page names the profile; a profile that is none stops the build before anything is written.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { PROFILE_ENV, type TimeseriesProfile } from '../../core/timeseries/profile.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';
import { get, inParallel, startTreeAndLive, type Served } from '../helpers/servers.ts';

type Pair = Awaited<ReturnType<typeof startTreeAndLive>>;
const builds: Record<TimeseriesProfile, string> = { spec: '', '52north': '' };
const served: Partial<Record<TimeseriesProfile, Pair>> = {};
const P = '/api/v1';
const IDS = ['ts_koeln_rhein_water_level', 'ts_dresden_elbe_water_level'];

beforeAll(async () => {
  builds.spec = inject('tsBuild');
  builds['52north'] = runTmp(inject('tsSnapshot'), 'ts-dist-52north');
  await build({ snapshot: inject('tsSnapshot'), out: builds['52north'], quiet: true, charts: false, timeseriesProfile: '52north' });
  // the endpoint serves the build's profile, not its own environment's
  const before = process.env[PROFILE_ENV];
  process.env[PROFILE_ENV] = '52north';
  try {
    served.spec = await startTreeAndLive(builds.spec);
  } finally {
    if (before === undefined) delete process.env[PROFILE_ENV];
    else process.env[PROFILE_ENV] = before;
  }
  served['52north'] = await startTreeAndLive(builds['52north']);
}, 300_000);
afterAll(async () => {
  await served.spec?.close();
  await served['52north']?.close();
});

async function post(s: Served, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${s.url}${P}/timeseries/getData`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, text: await res.text() };
}

describe('a build in each profile', () => {
  test('build.json records the profile', () => {
    for (const p of ['spec', '52north'] as const) {
      expect(JSON.parse(readFileSync(join(builds[p], 'build.json'), 'utf8')).timeseriesProfile, p).toBe(p);
    }
  });

  test.each(['spec', '52north'] as const)('%s: the unexpanded index in its shape, from the tree and live alike; the expanded index the same in both', async (p) => {
    const { fromTree, live, site } = served[p]!;
    const file = readFileSync(join(site, 'api/v1/index.json'));
    for (const s of [fromTree, live]) {
      const r = await get(s.url, `${P}/`);
      expect(r.status).toBe(200);
      expect(r.body.equals(file), `${p} ${s === live ? 'live' : 'tree'}`).toBe(true);
    }
    const index = JSON.parse(file.toString('utf8')) as unknown;
    const entries = p === 'spec' ? Object.values(index as Record<string, object>) : (index as object[]);
    expect(Array.isArray(index)).toBe(p === '52north');
    if (p === 'spec') expect(Object.keys(index as object)).toEqual(entries.map((e) => (e as { id: string }).id));
    expect(entries.map((e) => Object.keys(e))).toEqual(Array(8).fill(['id', 'label', 'description']));
    expect(entries.map((e) => (e as { id: string }).id)).toEqual(['services', 'categories', 'offerings', 'features', 'procedures', 'phenomena', 'stations', 'timeseries']);
    const expanded = readFileSync(join(site, 'api/v1/index.expanded.json'));
    expect(expanded.equals(readFileSync(join(served.spec!.site, 'api/v1/index.expanded.json')))).toBe(true);
    expect((await get(live.url, `${P}/?expanded=true`)).body.equals(expanded)).toBe(true);
  });

  test('POST tvp: {"allTimeseries": {...}} (spec) or {id: ...} (52north), the same series otherwise; highchart the same in both', async () => {
    const body = { timespan: 'PT12H/2024-01-08TZ', timeseries: IDS };
    const spec = await post(served.spec!.live, body);
    const north = await post(served['52north']!.live, body);
    expect([spec.status, north.status]).toEqual([200, 200]);
    const wrapped = JSON.parse(spec.text) as { allTimeseries: Record<string, { values: unknown[] }> };
    expect(Object.keys(wrapped)).toEqual(['allTimeseries']);
    expect(Object.keys(wrapped.allTimeseries)).toEqual(IDS);
    expect(wrapped.allTimeseries[IDS[0]!]!.values.length).toBe(73);
    expect(JSON.parse(north.text)).toEqual(wrapped.allTimeseries);
    expect(north.text).toBe(JSON.stringify(wrapped.allTimeseries));
    const expanded = JSON.parse((await post(served['52north']!.live, { ...body, expanded: true })).text) as Record<string, { extra: object }>;
    expect(Object.keys(expanded)).toEqual(IDS);
    expect(expanded[IDS[0]!]!.extra).toHaveProperty('referenceValues');
    const highchart = { ...body, format: 'highchart' };
    expect((await post(served['52north']!.live, highchart)).text).toBe((await post(served.spec!.live, highchart)).text);
  });

  test('52north: every file of the tree is what the live endpoint answers, byte for byte; only the index differs from the spec tree', async () => {
    const { live, site } = served['52north']!;
    const files = walkFiles(join(site, 'api', 'v1')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(walkFiles(join(served.spec!.site, 'api', 'v1')).filter((f) => f.endsWith('.json')).length);
    const mismatches: string[] = [];
    const differ: string[] = [];
    await inParallel(files, 8, async (file) => {
      const rel = `/${relative(site, file)}`;
      const expanded = rel.endsWith('.expanded.json');
      let path = rel.slice(0, -(expanded ? '.expanded.json' : '.json').length);
      if (path.endsWith('/index')) path = path.slice(0, -'index'.length);
      const r = await get(live.url, `${path}${expanded ? '?expanded=true' : ''}`);
      const bytes = readFileSync(file);
      if (r.status !== 200 || !r.body.equals(bytes)) mismatches.push(`${path}: live ${r.status} ${r.text.slice(0, 120)}`);
      if (!bytes.equals(readFileSync(join(served.spec!.site, rel)))) differ.push(rel);
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(differ).toEqual(['/api/v1/index.json']);
  }, 120_000);

  test('the docs page names the profile this deployment serves and tabulates the differences', () => {
    for (const p of ['spec', '52north'] as const) {
      const html = readFileSync(join(realpathSync(builds[p]), 'site', 'docs', 'timeseries', 'index.html'), 'utf8');
      expect(html, p).toMatch(new RegExp(`serves the <strong data-profile="${p}"[^>]*><code[^>]*>${p}</code></strong> profile`));
      expect(html).toContain('Differences between the profiles');
      expect(html).toContain('POST /api/v1/timeseries/getData (JSON, format tvp)');
    }
  });
});

test('a build over the tree of the other profile (as npm start makes when the profile asked for changes) is that profile\'s tree', async () => {
  const out = runTmp(inject('tsSnapshot'), 'ts-dist-52north');
  const result = await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false, timeseriesProfile: 'spec' });
  expect(result.base).toBeDefined();
  expect(JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')).timeseriesProfile).toBe('spec');
  const again = join(realpathSync(out), 'site');
  const specSite = served.spec!.site;
  const files = walkFiles(join(specSite, 'api', 'v1')).filter((f) => f.endsWith('.json')).map((f) => relative(specSite, f));
  expect(walkFiles(join(again, 'api', 'v1')).filter((f) => f.endsWith('.json')).length).toBe(files.length);
  expect(files.filter((f) => !readFileSync(join(again, f)).equals(readFileSync(join(specSite, f))))).toEqual([]);
}, 300_000);

test(`a ${PROFILE_ENV} that is no profile stops the build before anything is written`, async () => {
  const out = runTmp(inject('tsSnapshot'), 'ts-dist-bad-profile');
  const before = process.env[PROFILE_ENV];
  process.env[PROFILE_ENV] = '52n';
  try {
    await expect(build({ snapshot: inject('tsSnapshot'), out, quiet: true })).rejects.toThrow(`${PROFILE_ENV} must be spec (the default: the spec's shapes) or 52north (the shapes of 52°North's v1 server), not "52n"`);
  } finally {
    if (before === undefined) delete process.env[PROFILE_ENV];
    else process.env[PROFILE_ENV] = before;
  }
  expect(existsSync(out)).toBe(false);
  await expect(build({ snapshot: inject('tsSnapshot'), out, quiet: true, timeseriesProfile: 'other' as TimeseriesProfile })).rejects.toThrow(/^timeseriesProfile must be spec/);
  expect(existsSync(out)).toBe(false);
});
