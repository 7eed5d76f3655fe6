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
  /** The N-day catalogue built into an empty folder, and the next day built over it; each with its peak RSS (MB). */
  first: BuildResult;
  daily: BuildResult;
  firstPeakRssMb: number;
  dailyPeakRssMb: number;
  /** Seconds of the first (full) build's downloads phases (downloads.ts). */
  downloadsSeconds: number;
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

/** `f` with the process's resident memory sampled every 100 ms: its result and the highest RSS seen (MB). */
async function sampledRss<T>(f: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  try {
    const result = await f();
    return { result, peakMb: Math.max(peak, process.memoryUsage.rss()) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

/** Seconds of the phases whose name starts with `prefix` (the downloads are one phase per table). */
export function phaseSeconds(r: BuildResult, prefix: string): number {
  return Object.entries(r.phases).reduce((s, [k, v]) => (k.startsWith(prefix) ? s + v : s), 0);
}

export async function benchChanges(days: number, log: (l: string) => void): Promise<ChangesFigures> {
  const from = '2023-01-01';
  const [before, after] = [await radarSnapshot(from, days), await radarSnapshot(from, days + 1)];
  const out = join(WORK, `changes-${days}d`);
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}.builds`, { recursive: true, force: true });
  log(`building the ${days}-day catalogue (no site, no charts) ...`);
  const { result: first, peakMb: firstPeakRssMb } = await sampledRss(() => build({ snapshot: before, out, quiet: true, site: false, charts: false }));
  log(`  ${first.seconds.toFixed(1)} s, peak RSS ${firstPeakRssMb.toFixed(0)} MB; ${JSON.stringify(first.phases)}; the next day over it ...`);
  const { result: daily, peakMb: dailyPeakRssMb } = await sampledRss(() => build({ snapshot: after, out, quiet: true, site: false, charts: false }));
  log(`  ${daily.seconds.toFixed(1)} s, peak RSS ${dailyPeakRssMb.toFixed(0)} MB; ${JSON.stringify(daily.phases)}; history ${daily.phases['snapshot history']?.toFixed(2)} s, feeds ${daily.phases['feeds']?.toFixed(2)} s`);
  const since = (JSON.parse(readFileSync(join(before, 'snapshot.json'), 'utf8')) as { name: string }).name;
  const s = await serve({ build: out, port: 0, host: '127.0.0.1' });
  try {
    const url = `${s.url}${RADAR_PREFIX}/changes?since=${encodeURIComponent(since)}`;
    await timed(url, 20);
    const json = await timed(url, 200);
    const checksum = await timed(`${url}&contentType=checksumReport`, 200);
    return {
      days,
      first,
      daily,
      firstPeakRssMb,
      dailyPeakRssMb,
      downloadsSeconds: phaseSeconds(first, 'downloads'),
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
