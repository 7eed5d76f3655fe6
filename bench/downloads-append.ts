/**
 * The downloads step of a daily append (issue 23; `npm run bench -- --only downloads-append --series-factor 10
 * --days 60,182 [--baseline main]`): for each archive length, the demo network ×factor over that many days from
 * 2024-01-01 (bench/timeseries-append.ts appendSnapshots: the archive and the last day as two observation files),
 * built with its static tree (no charts, no site, no history), then the snapshot one day newer appended over it;
 * the `downloads` phase's seconds of both builds. With `--baseline REF` the same two builds by the code of git
 * revision REF (a `git archive` of it in bench/.work, timeseries-scale.ts baselineRoot), in the same run, one
 * after the other for each length: the ratios are of one run on one machine. The builds are removed after each
 * length; the snapshots stay in bench/.work for a rerun.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions, BuildResult } from '../build-scripts/build.ts';
import { build } from '../build-scripts/build.ts';
import type { DownloadIndex } from '../build-scripts/downloads.ts';
import { appendSnapshots } from './timeseries-append.ts';
import { baselineRoot } from './timeseries-scale.ts';
import { readFileSync } from 'node:fs';

export interface DownloadsSide {
  /** `this` or the baseline's short SHA. */
  code: string;
  fullSeconds: number;
  fullDownloads: number;
  appendSeconds: number;
  appendDownloads: number;
  /** CPU seconds of the downloads phase (the process's, DuckDB's threads included: Progress.cpuPhases). */
  fullDownloadsCpu: number;
  appendDownloadsCpu: number;
  /** Download files written and kept by the append. */
  written: number;
  kept: number;
  /** Tables whose partitions the append learned without a scan (undefined: the baseline has no such count). */
  fromAppend: number | undefined;
  /** The observations' files and the bytes of the largest of them (the current period's, rewritten by the append). */
  observationFiles: number;
  largestObservationFileMb: number;
}

export interface DownloadsLength {
  days: number;
  observations: number;
  lastDay: number;
  sides: DownloadsSide[];
}

type BuildFn = (o: BuildOptions) => Promise<BuildResult>;

async function side(code: string, buildFn: BuildFn, archive: string, daily: string, out: string, lastDay: number): Promise<DownloadsSide> {
  rmSync(out, { force: true });
  rmSync(`${out}.builds`, { recursive: true, force: true });
  rmSync(`${out}.cache`, { recursive: true, force: true });
  const opts = { out, quiet: true, charts: false, site: false, history: false };
  try {
    const full = await buildFn({ snapshot: archive, ...opts });
    const append = await buildFn({ snapshot: daily, ...opts });
    if (append.stats['timeseries observations appended'] !== lastDay) throw new Error(`${code}: the daily build did not append (${JSON.stringify(append.stats)})`);
    const index = JSON.parse(readFileSync(join(append.folder, 'site', 'downloads', 'index.json'), 'utf8')) as DownloadIndex;
    const obs = index.tables.find((t) => t.name === 'observations')!.files;
    const largest = Math.max(...obs.map((f) => statSync(join(append.folder, 'site', f.path)).size));
    return {
      code,
      fullSeconds: full.seconds,
      fullDownloads: full.phases['downloads'] ?? 0,
      appendSeconds: append.seconds,
      appendDownloads: append.phases['downloads'] ?? 0,
      fullDownloadsCpu: full.cpuPhases['downloads'] ?? 0,
      appendDownloadsCpu: append.cpuPhases['downloads'] ?? 0,
      written: append.stats['downloads written'] ?? 0,
      kept: append.stats['downloads kept'] ?? 0,
      fromAppend: append.stats['downloads tables from the append'],
      observationFiles: obs.length,
      largestObservationFileMb: largest / 1e6,
    };
  } finally {
    rmSync(out, { force: true });
    rmSync(`${out}.builds`, { recursive: true, force: true });
    rmSync(`${out}.cache`, { recursive: true, force: true });
  }
}

export async function benchDownloadsAppend(o: { factor: number; days: number[]; baseline?: string; log: (l: string) => void }): Promise<DownloadsLength[]> {
  const base = o.baseline ? baselineRoot(o.baseline) : undefined;
  const baseBuild = base ? ((await import(join(base.root, 'build-scripts', 'build.ts'))) as { build: BuildFn }).build : undefined;
  const lengths: DownloadsLength[] = [];
  for (const days of o.days) {
    const s = await appendSnapshots({ factor: o.factor, days, log: o.log });
    const sides: DownloadsSide[] = [];
    o.log(`downloads-append: ${days} days, ${s.observations.toLocaleString('en')} observations: this code ...`);
    sides.push(await side('this', build, s.archive, s.daily, join(s.work, 'dl-this'), s.lastDay));
    o.log(`  ${JSON.stringify(sides.at(-1))}`);
    if (base && baseBuild) {
      o.log(`downloads-append: ${days} days: the baseline ${base.sha} ...`);
      sides.push(await side(base.sha, baseBuild, s.archive, s.daily, join(s.work, 'dl-baseline'), s.lastDay));
      o.log(`  ${JSON.stringify(sides.at(-1))}`);
    }
    lengths.push({ days, observations: s.observations, lastDay: s.lastDay, sides });
  }
  return lengths;
}
