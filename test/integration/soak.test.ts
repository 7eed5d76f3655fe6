/**
 * The soak in a short form: the same realistic mix as `npm run soak` (bench/soak.ts) against an endpoint
 * process over each demo build for a few seconds: no 5xx, no reset, no timeout, and resident memory sane.
 */
import { realpathSync } from 'node:fs';
import { expect, inject, test } from 'vitest';
import { runSoak } from '../../bench/soak.ts';

test.each([['radar', 'demoBuild'], ['timeseries', 'tsBuild']] as const)('%s: 8 s of mixed load, zero errors', async (_, key) => {
  const r = await runSoak({ build: realpathSync(inject(key)), seconds: 8, connections: 4, port: 19000 + (process.pid % 500) + (key === 'tsBuild' ? 500 : 0) });
  expect(r.requests).toBeGreaterThan(100);
  expect(r.errors).toBe(0);
  expect(r.timeouts).toBe(0);
  expect(r.rssEndMb).toBeLessThan(400);
}, 120_000);
