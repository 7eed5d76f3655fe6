/**
 * The snapshot history's cost and the change API's speed (docs/changes.md): an N-day radar catalogue is built,
 * then the next day's snapshot over it (the daily incremental build); the change set, its history files and the
 * feeds are that build's `snapshot history` and `feeds` phases, set against the whole build. Then the endpoint
 * answers a day's changes (`/changes?since=<the N-day snapshot>`) in JSON and as a checksum report, timed one
 * after another over HTTP. `npm run bench -- --only changes --days N` (default 365).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildResult } from '../build-scripts/build.ts';
import { RADAR_PREFIX } from '../core/radar/routes.ts';
import { serve } from '../server/main.ts';
import { radarSnapshot, WORK } from './radar.ts';
import { median, percentile } from './stats.ts';

export interface ChangesFigures {
  days: number;
  daily: BuildResult;
  /** Seconds of the daily build's change set and history files, and of its feeds. */
  historySeconds: number;
  feedsSeconds: number;
  entries: number;
  jsonMedianMs: number;
  jsonP99Ms: number;
  checksumMedianMs: number;
  bytes: number;
}

async function timed(url: string, rounds: number): Promise<{ ms: number[]; text: string }> {
  const ms: number[] = [];
  let text = '';
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    text = await res.text();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
    ms.push(performance.now() - t0);
  }
  return { ms, text };
}

export async function benchChanges(days: number, log: (l: string) => void): Promise<ChangesFigures> {
  const from = '2023-01-01';
  const [before, after] = [await radarSnapshot(from, days), await radarSnapshot(from, days + 1)];
  const out = join(WORK, `changes-${days}d`);
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}.builds`, { recursive: true, force: true });
  log(`building the ${days}-day catalogue (no site, no charts) ...`);
  const first = await build({ snapshot: before, out, quiet: true, site: false, charts: false });
  log(`  ${first.seconds.toFixed(1)} s; the next day over it ...`);
  const daily = await build({ snapshot: after, out, quiet: true, site: false, charts: false });
  log(`  ${daily.seconds.toFixed(1)} s; history ${daily.phases['snapshot history']?.toFixed(2)} s, feeds ${daily.phases['feeds']?.toFixed(2)} s`);
  const since = (JSON.parse(readFileSync(join(before, 'snapshot.json'), 'utf8')) as { name: string }).name;
  const s = await serve({ build: out, port: 0, host: '127.0.0.1' });
  try {
    const url = `${s.url}${RADAR_PREFIX}/changes?since=${encodeURIComponent(since)}`;
    await timed(url, 20);
    const json = await timed(url, 200);
    const checksum = await timed(`${url}&contentType=checksumReport`, 200);
    return {
      days,
      daily,
      historySeconds: daily.phases['snapshot history'] ?? NaN,
      feedsSeconds: daily.phases['feeds'] ?? NaN,
      entries: (JSON.parse(json.text) as unknown[]).length,
      jsonMedianMs: median(json.ms),
      jsonP99Ms: percentile(json.ms, 99),
      checksumMedianMs: median(checksum.ms),
      bytes: Buffer.byteLength(json.text),
    };
  } finally {
    await s.close();
  }
}
