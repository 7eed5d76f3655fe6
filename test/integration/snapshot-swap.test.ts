/**
 * A new snapshot is picked up while serving without one failed request: the endpoint serves `dist` (the link a
 * build swaps), requests run without pause while a new snapshot is built into the same output, and every one of
 * them is answered 200, first by the old build, then by the new one.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { startEndpoint } from '../helpers/servers.ts';

const dir = join(TEST_TMP, `swap-${process.pid}`);
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a new build is served without a failed request, and the old one is closed', async () => {
  await mkdir(dir, { recursive: true });
  const out = join(dir, 'dist');
  await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false });
  const next = join(dir, 'snapshot-next');
  await writeDemoSnapshot({ from: '2024-01-01', days: 9, seed: 1, out: next, apis: ['timeseries-v1'], log: () => {} });

  const s = await startEndpoint(out, { watchMs: 50 });
  const first = s.build;
  const failures: string[] = [];
  let running = true;
  const paths = ['/api/v1/', '/api/v1/stations?locale=de', '/api/v1/timeseries/ts_koeln_rhein_water_level/getData?timespan=P1D/2024-01-08TZ', '/api/v1/timeseries/ts_koeln_rhein_water_level'];
  const loops = paths.map(async (path) => {
    while (running) {
      const r = await fetch(`${s.url}${path}`).catch((e: Error) => ({ status: 0, statusText: e.message, text: async () => '' }));
      const body = await r.text();
      if (r.status !== 200) failures.push(`${path}: ${r.status} ${body.slice(0, 100)}`);
    }
  });
  try {
    await build({ snapshot: next, out, quiet: true, charts: false });
    const deadline = Date.now() + 10_000;
    while (s.build === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await Promise.all(loops);
    expect(s.build).not.toBe(first);
    expect(s.build.manifest.name).toMatch(/9d/);
    expect(failures).toEqual([]);
    // the old build answered its requests and was then closed
    const deadline2 = Date.now() + 5_000;
    while (first.inFlight > 0 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 50));
    expect(first.inFlight).toBe(0);
  } finally {
    running = false;
    await Promise.all(loops);
    await s.close();
  }
}, 120_000);
