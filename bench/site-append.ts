/**
 * The site step of a full build and of daily builds at a network's page count (issue 23;
 * `npm run bench -- --only site-append [--series-factor 10] [--days 3] [--baseline REF]`): the demo network
 * `factor` times the demo's (fast values) over `days` days, cut into the archive and the last day as
 * timeseries-append does (bench/timeseries-append.ts appendSnapshots). The site's pages follow the stations and
 * series, not the observations: `--series-factor 10` gives the 10^9 network's 1,030 stations and 2,760 series
 * pages with tiny data. In one run, with this code:
 *   1. the archive built in full with the tree and the site (no charts: their step is not this bench's);
 *   2. archive + last day over it, the daily append: its site step (the day changed the pages' inputs: Astro);
 *   3. the same snapshot again over the archive's recycled folder (as a daily build finds it a day later): no
 *      input changed, the served build's pages are kept.
 * The site step is the build's phase `site` (`site: Astro`; wall and CPU seconds, Progress) and its parts
 * (site.ts SiteResult.parts). With `--baseline REF`, then `npm run site` of the built folder by the code of REF
 * (a `git archive` of it, timeseries-scale.ts baselineRoot) and by this code, one after the other (each a
 * process of its own, wall and CPU seconds), their pages compared byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildResult } from '../build-scripts/build.ts';
import { appendSnapshots } from './timeseries-append.ts';
import { baselineRoot } from './timeseries-scale.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SITE_PHASE = 'site';

export interface SiteStep {
  build: string;
  seconds: number;
  siteSeconds: number;
  siteCpuSeconds: number;
  pages: number;
  pagesKept: number;
  parts: Record<string, number>;
}

export interface SiteRun {
  code: string;
  seconds: number;
  cpuSeconds: number;
}

export interface SiteAppendBench {
  factor: number;
  days: number;
  steps: SiteStep[];
  /** `npm run site` of the archive's build by the baseline's code and by this code (with --baseline). */
  standalone?: { baseline: SiteRun; current: SiteRun; files: number; identical: boolean };
  load: string;
}

function step(name: string, r: BuildResult): SiteStep {
  const parts: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.stats)) if (k.startsWith('site ') && k.endsWith(' seconds')) parts[k.slice(5, -8)] = v;
  return { build: name, seconds: r.seconds, siteSeconds: r.phases[SITE_PHASE] ?? NaN, siteCpuSeconds: r.cpuPhases[SITE_PHASE] ?? NaN, pages: r.stats['site pages'] ?? 0, pagesKept: r.stats['site pages kept'] ?? 0, parts };
}

/** `npm run site -- --build folder --quiet` by the code at `root`, in a process of its own: wall and CPU seconds (GNU time). */
function timedSite(code: string, root: string, folder: string): SiteRun {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, join(root, 'build-scripts', 'site.ts'), '--build', folder, '--quiet'], { cwd: root, encoding: 'utf8' });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) throw new Error(`npm run site by ${code} failed: ${r.stderr}`);
  return { code, seconds: Number(m[1]), cpuSeconds: Number(m[2]) + Number(m[3]) };
}

/** The SHA-256 of every site file of a build (site-files.json's list), in order. */
function siteDigest(folder: string): { files: number; sha256: string } {
  const files = (JSON.parse(readFileSync(join(folder, 'site-files.json'), 'utf8')) as { files: string[] }).files;
  const h = createHash('sha256');
  for (const rel of files) h.update(`${rel}\0`).update(readFileSync(join(folder, 'site', rel)));
  return { files: files.length, sha256: h.digest('hex') };
}

export async function benchSiteAppend(opts: { factor: number; days: number; baseline?: string; log: (l: string) => void }): Promise<SiteAppendBench> {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const snaps = await appendSnapshots(opts);
  const out = join(snaps.work, 'site-dist');
  rmSync(out, { force: true }), rmSync(`${out}.builds`, { recursive: true, force: true }), rmSync(`${out}.cache`, { recursive: true, force: true });
  const steps: SiteStep[] = [];
  const run = async (name: string, snapshot: string, recycleAfterMs?: number) => {
    opts.log(`site-append: ${name} ...`);
    const r = await build({ snapshot, out, quiet: true, charts: false, ...(recycleAfterMs !== undefined ? { recycleAfterMs } : {}) });
    const s = step(name, r);
    opts.log(`  site step ${s.siteSeconds.toFixed(1)} s (${s.siteCpuSeconds.toFixed(1)} CPU s), ${s.pages} pages, ${s.pagesKept} kept; parts ${JSON.stringify(s.parts)}; build ${s.seconds.toFixed(1)} s`);
    steps.push(s);
    return r;
  };
  await run('archive, full', snaps.archive);
  const append = await run('daily append', snaps.daily);
  if (!append.stats['timeseries observations appended']) throw new Error(`the daily build did not append (${JSON.stringify(append.stats)})`);
  const again = await run('the same snapshot again (recycled folder)', snaps.daily, 0);
  if (again.stats['site pages kept'] !== again.stats['site pages']) throw new Error('the build of unchanged inputs made its pages again');
  const result: SiteAppendBench = { factor: opts.factor, days: opts.days, steps, load };
  if (opts.baseline) {
    const base = baselineRoot(opts.baseline);
    // the archive's folder was recycled by step 3: the standalone runs go over the served build
    const folder = again.folder;
    opts.log(`site-append: npm run site of ${folder} by ${base.sha} ...`);
    const baseline = timedSite(base.sha, base.root, folder);
    const b = siteDigest(folder);
    opts.log(`  ${baseline.seconds.toFixed(1)} s (${baseline.cpuSeconds.toFixed(1)} CPU s); by this code ...`);
    const current = timedSite('current', ROOT, folder);
    const c = siteDigest(folder);
    opts.log(`  ${current.seconds.toFixed(1)} s (${current.cpuSeconds.toFixed(1)} CPU s); pages ${b.sha256 === c.sha256 ? 'identical' : 'DIFFER'}`);
    result.standalone = { baseline, current, files: c.files, identical: b.sha256 === c.sha256 && b.files === c.files };
  }
  return result;
}
