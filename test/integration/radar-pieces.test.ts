/**
 * One radar's answer on a big table (queries.ts radarPieces, issue 18: the first answers of a fresh endpoint): the
 * endpoint knows each radar's rows per table from the moment its build is open, reads an answer of at most
 * WHOLE_MAX_ROWS whole and a larger one in pieces of rowids, each read whole. What a user sees does not change:
 * the bytes are those of the query streamed, in every format, with the other filters, whatever the pieces; the
 * first answer of a fresh endpoint is the answer a warm one gives.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { answerPlan } from '../../core/radar/answer-plan.ts';
import { parseRadarParams } from '../../core/radar/params.ts';
import { WHOLE_MAX_ROWS, type RadarRows } from '../../core/radar/queries.ts';
import { matchRadarRoute, RADAR_PREFIX } from '../../core/radar/routes.ts';
import { all } from '../../lib/duckdb.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

const R = RADAR_PREFIX;

describe('answers of one radar, read whole or in pieces', () => {
  let s: Served;
  beforeAll(async () => {
    // every request a query (no tree, no held answers)
    s = await startEndpoint(inject('demoBuild'), { liveOnly: true, watchMs: 0 });
  });
  afterAll(() => s.close());
  const radar = () => s.build.radar!;

  test('the rows per radar read at open are the tables\' own counts', async () => {
    const rows = radar().facts.radarRows!;
    for (const table of ['files_x', 'transferred_x', 'transferred_alarm_x', 'files_blacklisted_x']) {
      const known = rows[table];
      expect(known, table).toBeDefined();
      const counted = await radar().pool.withoutLimit((c) => all(c, `SELECT radar_code, count(*) AS n FROM ${table} WHERE radar_code IS NOT NULL GROUP BY ALL`));
      expect(new Map(counted.map((r) => [String(r['radar_code']), Number(r['n'])]))).toEqual(known!.byRadar);
      const [total] = await radar().pool.withoutLimit((c) => all(c, `SELECT count(*) AS n FROM ${table}`));
      expect(known!.rows).toBe(Number(total!['n']));
    }
  });

  test('an answer planned in pieces is the answer streamed, byte for byte: JSON, CSV, checksum reports, expanded, with a timespan, on a subset table', async () => {
    const transferred = radar().facts.radarRows!['transferred_x']!;
    // the demo's busiest radar on /transferred/files
    const code = [...transferred.byRadar].sort((a, b) => b[1] - a[1])[0]![0];
    const paths = [
      `/transferred/files?radar_code=${code}&distinct=true`,
      `/transferred/files?radar_code=${code}`,
      `/transferred/files?radar_code=${code}&expanded=true&contentType=csv`,
      `/files?radar_code=${code}&contentType=checksumReport`,
      `/files?radar_code=${code}&timespan=2024-01-01/2024-01-15`,
      `/transferred/files/alarm?radar_code=${code.toUpperCase()}`,
    ];
    const before = await Promise.all(paths.map((p) => get(s.url, `${R}${p}`)));
    for (const [i, b] of before.entries()) expect(b.status, paths[i]).toBe(200);
    // records to cut in pieces (the alarm subset of one radar may have none)
    expect(JSON.parse(before[0]!.text).length).toBeGreaterThan(100);
    // the same build, its radars said to have more rows than may be read whole: 2, 3 and 7 pieces
    const saved = radar().facts.radarRows!;
    try {
      for (const claimed of [WHOLE_MAX_ROWS + 1, 2 * WHOLE_MAX_ROWS + 1, 3 * WHOLE_MAX_ROWS + 1]) {
        const more = (t: RadarRows | undefined): RadarRows | undefined => t && { rows: t.rows, byRadar: new Map([...t.byRadar].map(([k, n]) => [k, k === code ? claimed : n])) };
        radar().facts.radarRows = Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, more(v)]));
        for (const [i, p] of paths.entries()) {
          const url = new URL(`http://x${R}${p}`);
          const route = matchRadarRoute(url.pathname.slice(R.length))!.route;
          const plan = answerPlan({ prefix: R, route, id: undefined, format: 'json' }, parseRadarParams(url.searchParams), { tree: false, catalogue: radar().facts, resident: radar().resident });
          expect(plan.kind, p).toBe('pieces');
          if (plan.kind === 'pieces') expect(plan.pieces.length).toBe(Math.ceil(claimed / (WHOLE_MAX_ROWS / 2)));
          const after = await get(s.url, `${R}${p}`);
          expect(after.status, p).toBe(200);
          expect(after.type, p).toBe(before[i]!.type);
          expect(after.body.equals(before[i]!.body), `${p} in ${claimed} rows' pieces`).toBe(true);
        }
      }
    } finally {
      radar().facts.radarRows = saved;
    }
  });

  test('a radar known to fit is read whole; a radar without rows answers an empty list', async () => {
    const url = new URL(`http://x${R}/transferred/files?radar_code=sas&distinct=true`);
    const route = matchRadarRoute('/transferred/files')!.route;
    expect(answerPlan({ prefix: R, route, id: undefined, format: 'json' }, parseRadarParams(url.searchParams), { tree: false, catalogue: radar().facts, resident: radar().resident })).toMatchObject({ kind: 'query', mode: 'whole' });
    const none = await get(s.url, `${R}/transferred/files?radar_code=zzz&distinct=true`);
    expect(none.status).toBe(200);
    expect(JSON.parse(none.text)).toEqual([]);
  });
});

describe('a fresh endpoint', () => {
  test('its first answers are those a warm endpoint gives, byte for byte', async () => {
    const warm = await startEndpoint(inject('demoBuild'), { liveOnly: true, watchMs: 0 });
    try {
      const codes = [...warm.build.radar!.facts.radarRows!['transferred_x']!.byRadar.keys()].slice(0, 4);
      const paths = codes.flatMap((c) => [`${R}/transferred/files?radar_code=${c}&distinct=true`, `${R}/files?radar_code=${c}&contentType=csv`]);
      // warm: each asked twice, the second kept
      const warmed: Buffer[] = [];
      for (const p of paths) {
        await get(warm.url, p);
        warmed.push((await get(warm.url, p)).body);
      }
      const fresh = await startEndpoint(inject('demoBuild'), { watchMs: 0 });
      try {
        // all at once, as a crowd finds a new endpoint
        const first = await Promise.all(paths.map((p) => get(fresh.url, p)));
        for (const [i, f] of first.entries()) {
          expect(f.status, paths[i]).toBe(200);
          expect(f.body.equals(warmed[i]!), paths[i]).toBe(true);
        }
      } finally {
        await fresh.close();
      }
    } finally {
      await warm.close();
    }
  });
});

describe('a hot swap', () => {
  const dir = join(TEST_TMP, `pieces-swap-${process.pid}`);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("the rows per radar are the new build's once it is served, read before it is, and its answers follow them", async () => {
    const out = join(dir, 'dist');
    await build({ snapshot: inject('demoSnapshot'), out, quiet: true, dbOnly: true, history: false });
    const s = await startEndpoint(out, { watchMs: 50 });
    try {
      const old = s.build;
      const counts = (b: typeof old) => Object.fromEntries(b.radar!.facts.radarRows!['transferred_x']!.byRadar);
      const before = counts(old);
      const code = Object.entries(before).sort((a, b) => b[1] - a[1])[0]![0];
      const path = `${R}/transferred/files?radar_code=${code}`;
      const oldAnswer = JSON.parse((await get(s.url, path)).text) as unknown[];
      expect(oldAnswer.length).toBe(before[code]);
      // a snapshot of one more day, built into the same output while the endpoint serves the old one
      const next = join(dir, 'snapshot-next');
      await writeDemoSnapshot({ from: '2024-03-01', days: 3, seed: 7, out: next, apis: ['radarnet-mirror-v3'], log: () => {} });
      await build({ snapshot: next, out, quiet: true, dbOnly: true, history: false });
      const deadline = Date.now() + 20_000;
      while (s.build === old && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(s.build).not.toBe(old);
      // the served build's own counts, read when it was opened (before it answered anything)
      const after = counts(s.build);
      expect(after[code]).toBeGreaterThan(before[code]!);
      const newAnswer = JSON.parse((await get(s.url, path)).text) as unknown[];
      expect(newAnswer.length).toBe(after[code]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
