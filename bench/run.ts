/**
 * npm run bench -- [--scale small|full] [--only radar-build,radar-queries,incremental,changes,astro-pages,memory,timeseries,charts,site,static-vs-nginx,compression,compress-whole,postgres,overload,soak,timeseries-scale,timeseries-append,site-append,timeseries-postgres] [--minutes 10] [--ram-disk]
 *   [--days N] (incremental: the catalogue's days, default 30, or 90 with --scale full; timeseries-append: default 365)
 *   [--queries files-day,near,...] (postgres, tail: the queries to run, by short name (bench/postgres.ts QUERY_IDS); all by default)
 *   [--variants now,floor,...] (tail: the ways to run the endpoint compared, bench/tail.ts VARIANTS; all by default)
 *   site-append runs only when named: the site step of a full build, a daily append and an unchanged rebuild
 *   [--series-factor 10] [--days 3] [--baseline REF] (bench/site-append.ts)
 *   timeseries-append runs only when named: the daily append of a network ×1 (small) or ×10 (full) over N days
 *   [--scenarios crash,one-hour,mixed,slow] [--rounds 5] (overload: the parts to run, all by default; rounds of 1×, 2×, 4× per goodput scenario)
 *   fresh-endpoint runs only when named: a fresh endpoint's first radar answers, [--baseline REF] [--rounds 3] (bench/fresh-endpoint.ts)
 * npm run soak (the 10-minute soak alone)
 * npm run bench -- --only static-vs-nginx [--seconds 10] [--baseline main]   (wrk's runs; the endpoint of REF beside this one on the small files)
 * npm run bench -- --only timeseries-scale [--series-factor 1] [--days 3700] [--ts-from 2016-01-01] [--runs 90] [--baseline main]
 *   (issue 23's answer times over a scaled timeseries snapshot, generated and built once into bench/.work)
 * npm run bench -- --only timeseries-postgres [--days 365] [--ts-from 2024-01-01] [--series-factor 1] [--snapshot DIR --build DIR] [--runs 60] [--seconds 5]
 *   (issue 23's three queries side by side with PostgreSQL in 52°North's observation schema: load time, disk
 *   size, medians and p99 of both; the demo generated and built once into bench/.work, or an existing build)
 * npm run bench -- --only downloads-append [--series-factor 10] [--days 60,182] [--baseline main]
 *   (issue 23: the downloads phase of a full build and of a daily append over it, for each archive length, beside
 *   the baseline's code in the same run: bench/downloads-append.ts)
 *
 * Measures side by side in one run and prints ratios; writes the figures to BENCHMARKS.md with the
 * machine, the command and the date. small: a 7-day catalogue for the build, one year for the queries.
 * full: the 30-year catalogue (generated once into bench/.work, a few minutes).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, getPriority, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { commandLine, type CliOption, type CliSpec } from '../lib/cli.ts';
import { benchQueries, benchStaticBuild, radarDbBuild, radarSnapshot } from './radar.ts';
import { fullCatalogueDb, runAstroPagesBench } from './astro-pages.ts';
import { buildMemory, radarEndpointMemory, timeseriesBuild, timeseriesEndpointMemory } from './memory.ts';
import { runAlgorithmBenchmarks } from './timeseries-algorithms.ts';
import { runTimeseriesApiBenchmarks } from './timeseries-api.ts';
import { runChartBenchmarks } from './charts.ts';
import { runSoak } from './soak.ts';
import { ROUNDS, runGoodputBench, runOverloadBench, SCENARIOS, type GoodputScenario, type Scenario } from './overload.ts';
import { median } from './stats.ts';
import { runSiteBenchmarks } from './site.ts';
import { runStaticVsNginx } from './static-vs-nginx.ts';
import { indexSummary, runPostgresBench, SNAPCAT_WORKERS } from './postgres.ts';
import { BENCH_SETTINGS } from './lib/postgres.ts';
import { runTailBench, summary as tailSummary, VARIANTS } from './tail.ts';
import { mid, RADARS, runFreshEndpointBench, type FreshFigures } from './fresh-endpoint.ts';
import { describeDiagnosis } from './lib/endpoint-diagnosis.ts';
import { benchIncremental } from './incremental.ts';
import { benchChanges } from './changes.ts';
import { benchTimeseriesAppend } from './timeseries-append.ts';
import { benchSiteAppend } from './site-append.ts';
import { benchDownloadsAppend } from './downloads-append.ts';
import { runCompressionBench } from './compression.ts';
import { runCompressWholeBench } from './compress-whole.ts';
import { baselineRoot, runTimeseriesScaleBench, SCALE_MAX_TIMESPAN } from './timeseries-scale.ts';
import { loadedRatio, loadedText, runTimeseriesPostgresBench } from './timeseries-postgres.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { build } from '../build-scripts/build.ts';

/** The sections, in the order they run. */
const SECTIONS = ['radar-build', 'radar-queries', 'incremental', 'timeseries-append', 'site-append', 'downloads-append', 'changes', 'astro-pages', 'memory', 'timeseries', 'charts', 'site', 'static-vs-nginx', 'compress-whole', 'compression', 'overload', 'postgres', 'tail', 'timeseries-scale', 'fresh-endpoint', 'timeseries-postgres', 'soak'];
/** Those run only when named in --only (`only?.includes` below). */
const NAMED_ONLY = ['timeseries-append', 'site-append', 'downloads-append', 'changes', 'tail', 'timeseries-scale', 'fresh-endpoint', 'timeseries-postgres', 'soak'];

/** `npm run bench`'s command line (lib/cli.ts): --help, and one line with exit code 2 for a bad option. */
const BENCH_CLI = {
  command: 'npm run bench --',
  usage: '[--scale small|full] [--only SECTIONS] [options]',
  summary: `Measures side by side in one run and prints ratios; writes the figures to BENCHMARKS.md (the section of the\ncommand run) with the machine, the command and the date. Without --only every section runs but those run only\nwhen named: ${NAMED_ONLY.join(', ')}. The head of bench/run.ts says more of each section's options.`,
  options: {
    scale: { type: 'string', describe: 'small: a 7-day catalogue for the build, one year for the queries; full: the 30-year catalogue', value: 'small|full', default: 'small', check: (v: string) => (v === 'small' || v === 'full' ? undefined : 'must be small or full') },
    only: { type: 'string', describe: `the sections to run, comma-separated (${SECTIONS.join(', ')})`, value: 'SECTIONS', defaultText: 'all but those run only when named', check: (v: string) => { const bad = v.split(',').filter((x) => !SECTIONS.includes(x)); return bad.length ? `no such section ${bad.join(', ')}` : undefined; } },
    minutes: { type: 'string', describe: 'the soak\'s length', value: 'N', default: '10' },
    'ram-disk': { type: 'boolean', describe: 'the Astro comparison and the incremental builds write to /dev/shm (tmpfs)' },
    days: { type: 'string', describe: 'incremental: the catalogue\'s days (30, 90 with --scale full); timeseries-append: 365; downloads-append: a list (60,182)', value: 'N' },
    queries: { type: 'string', describe: 'postgres, tail: the queries to run by short name (bench/postgres.ts QUERY_IDS)', value: 'IDS' },
    variants: { type: 'string', describe: 'tail: the ways to run the endpoint compared (bench/tail.ts VARIANTS)', value: 'NAMES' },
    'series-factor': { type: 'string', describe: 'site-append, timeseries-scale, timeseries-postgres, downloads-append: the demo network times N', value: 'N' },
    'ts-from': { type: 'string', describe: 'timeseries-scale, timeseries-postgres: the first day of the series', value: 'DATE' },
    runs: { type: 'string', describe: 'timeseries-scale, timeseries-postgres: sequential requests per query', value: 'N' },
    baseline: { type: 'string', describe: 'a git ref whose code runs beside this one (static-vs-nginx, site-append, timeseries-scale, downloads-append, fresh-endpoint)', value: 'REF' },
    scenarios: { type: 'string', describe: `overload: the parts to run (${SCENARIOS.join(', ')})`, value: 'NAMES' },
    rounds: { type: 'string', describe: 'overload: rounds of 1×, 2×, 4× per goodput scenario; fresh-endpoint: rounds', value: 'N' },
    snapshot: { type: 'string', describe: 'timeseries-postgres: an existing snapshot (with --build)', value: 'DIR' },
    build: { type: 'string', describe: 'timeseries-postgres: an existing build of --snapshot', value: 'DIR' },
    seconds: { type: 'string', describe: 'static-vs-nginx, timeseries-postgres: seconds per wrk run', value: 'N' },
  },
  env: { CHROMIUM_PATH: 'the Chromium of the chart sections (else a system one, else @sparticuz/chromium)' },
  examples: ['npm run bench -- --scale small --only postgres', 'npm run bench -- --only overload', 'npm run bench -- --only static-vs-nginx --seconds 10'],
} satisfies CliSpec<Record<string, CliOption>>;
const { values } = commandLine(BENCH_CLI);
/** --ram-disk: the Astro comparison and the incremental builds write to /dev/shm, which takes the disk out of the rates. */
const ramDisk = values['ram-disk'] ? '/dev/shm/snapcat-bench' : undefined;
const scale = values.scale === 'full' ? 'full' : 'small';
// downloads-append takes a list of lengths (--days 60,182)
if (values.days !== undefined && !values.days.split(',').every((d) => Number.isInteger(Number(d)) && Number(d) >= 2)) {
  console.error(`--days must be a whole number of days, 2 or more (for example --days 365; downloads-append: a list, --days 60,182), not '${values.days}'`);
  process.exit(2);
}
const only = values.only?.split(',');
const loadAtStart = loadavg().map((x) => x.toFixed(1)).join(', ');
const want = (name: string) => !only || only.includes(name);
const lines: string[] = [];
const row = (what: string, figure: string, target: string) => lines.push(`| ${what} | ${figure} | ${target} |`);

if (want('radar-build')) {
  const snap = await radarSnapshot('2024-01-01', scale === 'full' ? 30 : 7);
  console.error(`static build against a plain write loop (${scale === 'full' ? 30 : 7}-day catalogue, 3 rounds) ...`);
  const b = await benchStaticBuild(snap, 3);
  row(`static build, ${b.files} files: build rate / plain loop replaying the same writes`, `${Math.round(b.buildFilesPerSec)} / ${Math.round(b.plainFilesPerSec)} files/s = **${(b.ratio * 100).toFixed(0)}%**`, '≥ 70%');
  row('build phases (median s)', Object.entries(b.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), '');
}
if (want('radar-queries')) {
  const [from, days] = scale === 'full' ? ['1993-09-01', 11000] : ['2023-01-01', 365];
  const snap = await radarSnapshot(from as string, days as number);
  console.error(`live queries on a ${days}-day catalogue (database-only build, endpoint in its own process) ...`);
  const q = await benchQueries(snap, from as string, days as number);
  row(`one-day timespan on /files, ${q.files} files in the catalogue (${q.oneDayRows} rows a day)`, `median **${q.oneDayMedianMs.toFixed(1)} ms**, p99 ${q.oneDayP99Ms.toFixed(1)} ms`, '≤ 10 ms median');
  row('one-year timespan on /files', `median ${q.oneYearMedianMs.toFixed(0)} ms`, '');
  row(`stream all of /files (${q.streamAllMb.toFixed(0)} MB)`, `${q.streamAllSeconds.toFixed(1)} s, endpoint peak RSS **${q.endpointPeakRssMb.toFixed(0)} MB**`, '< 300 MB');
}
if (want('incremental')) {
  const i = await benchIncremental(values.days ? Number(values.days) : scale === 'full' ? 90 : 30, (l) => console.error(l), ramDisk);
  if (ramDisk) row('where the builds wrote', `a RAM disk (${ramDisk}, tmpfs): build times without this machine's disk, on which one full build took 24 s and, an hour later, 140 s`, '');
  const same = i.differing === 0 ? `identical (every digest of the tree states, and ${i.sampled} files byte by byte)` : `**${i.differing} files differ**`;
  row(`full build of a ${i.days + 1}-day radar catalogue into an empty folder (database, tree of ${i.treeFiles} files, site)`, `${i.full.seconds.toFixed(1)} s`, '');
  row(`the same snapshot built over the ${i.days}-day build (one more day; served tree hard-linked): ${i.linked.stats['tree files written']} files written, ${i.linked.stats['tree files removed']} removed`, `${i.linked.seconds.toFixed(1)} s = **${((i.linked.seconds / i.full.seconds) * 100).toFixed(1)}%** of the full build; trees ${same}`, '≤ 5%');
  row(`${i.days + 2} days over the recycled ${i.days}-day folder (two days of changes, no links: every daily build after the first two)`, `${i.recycled.seconds.toFixed(1)} s = **${((i.recycled.seconds / i.full.seconds) * 100).toFixed(1)}%**; ${i.recycled.stats['tree files written']} written`, '≤ 5%');
  const phase = (r: typeof i.full) => Object.entries(r.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  row('phases (s): full / linked / recycled', `${phase(i.full)} / ${phase(i.linked)} / ${phase(i.recycled)}`, '');
}
if (only?.includes('timeseries-append')) {
  const factor = scale === 'full' ? 10 : 1;
  const days = values.days ? Number(values.days) : 365;
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const loadBefore = load();
  const a = await benchTimeseriesAppend({ factor, days, log: (l) => console.error(l) });
  const cpu = (m: typeof a.full) => `${m.seconds.toFixed(1)} s wall, ${m.cpuSeconds.toFixed(1)} CPU s`;
  const phase = (m: typeof a.full) => Object.entries(m.result.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  row('load average (1, 5, 15 min) before → after: **a loaded, shared machine**; the ratios are of builds run one after the other in this run', `${loadBefore} → ${load()}`, '');
  row(`database-only build in full of ${a.observations.toLocaleString('en')} observations (demo network ×${factor}, ${days} days, fast values; observations as two files: the archive and the last day; no snapshot history in either build: its cost is the changes section's)`, cpu(a.full), '');
  row(`the same snapshot as a daily append over the build of the archive alone: ${a.lastDay.toLocaleString('en')} new observations, one new segment`, `${cpu(a.append)} = **${((a.append.seconds / a.full.seconds) * 100).toFixed(1)}%** of the full build's wall time, ${((a.append.cpuSeconds / a.full.cpuSeconds) * 100).toFixed(1)}% of its CPU`, '≤ 5%');
  row('phases (s): full / append', `${phase(a.full)} / ${phase(a.append)}`, '');
}
if (only?.includes('site-append')) {
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const loadBefore = load();
  const factor = Number(values['series-factor'] ?? 10);
  const days = values.days ? Number(values.days) : 3;
  const a = await benchSiteAppend({ factor, days, ...(values.baseline ? { baseline: values.baseline } : {}), log: (l) => console.error(l) });
  const parts = (p: Record<string, number>) => Object.entries(p).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  row('load average (1, 5, 15 min) before → after: **a loaded, shared machine** (this run under nice 19 / ionice idle); compare the rows of this run with each other only', `${loadBefore} → ${load()}`, '');
  for (const s of a.steps) {
    row(`site step of the build: ${s.build} (demo network ×${factor}, ${days} days; ${s.pages} pages${s.pagesKept ? `, ${s.pagesKept} kept` : ''}; parts: ${parts(s.parts)})`, `**${s.siteSeconds.toFixed(1)} s** wall, ${s.siteCpuSeconds.toFixed(1)} CPU s (build ${s.seconds.toFixed(1)} s)`, s.build.startsWith('daily') ? '≤ 5 s' : '');
  }
  if (a.standalone) {
    const { baseline: b, current: c } = a.standalone;
    row(`\`npm run site\` of the same build by ${b.code} (before) / by this code: ${a.standalone.files} files, ${a.standalone.identical ? 'byte-identical' : '**differ**'}`, `${b.seconds.toFixed(1)} s wall, ${b.cpuSeconds.toFixed(1)} CPU s / **${c.seconds.toFixed(1)} s** wall, ${c.cpuSeconds.toFixed(1)} CPU s = ${((c.cpuSeconds / b.cpuSeconds) * 100).toFixed(0)}% of the CPU`, '');
  }
}
if (only?.includes('downloads-append')) {
  const factor = Number(values['series-factor'] ?? 10);
  const days = (values.days ?? '60,182').split(',').map(Number);
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const loadBefore = load();
  const r = await benchDownloadsAppend({ factor, days, ...(values.baseline ? { baseline: values.baseline } : {}), log: (l) => console.error(l) });
  row('load average (1, 5, 15 min) before → after: **a loaded, shared machine** (other engineers\' builds, tests and benches at normal priority; this run under `nice -n 19`): absolute seconds are loose, compare the sides of one length', `${loadBefore} → ${load()}`, '');
  for (const l of r) {
    for (const s of l.sides) {
      const who = s.code === 'this' ? 'this code' : `baseline ${s.code}`;
      row(
        `${l.days} days, ${l.observations.toLocaleString('en')} observations (demo ×${factor}, fast values), ${who}: full build (tree, no charts, no site) / the daily append of the last day (${l.lastDay.toLocaleString('en')} rows) over it`,
        `build ${s.fullSeconds.toFixed(1)} / ${s.appendSeconds.toFixed(1)} s; **downloads phase ${s.fullDownloads.toFixed(1)} / ${s.appendDownloads.toFixed(2)} s wall, ${s.fullDownloadsCpu.toFixed(1)} / ${s.appendDownloadsCpu.toFixed(2)} CPU s**; the append wrote ${s.written} download files, kept ${s.kept}${s.fromAppend === undefined ? '' : `, changed partitions from the append: ${s.fromAppend === 1 ? 'yes' : 'no'}`}; ${s.observationFiles} observation files, the largest ${s.largestObservationFileMb.toFixed(1)} MB`,
        s.code === 'this' ? '≤ 3 s at 10^9' : '',
      );
    }
  }
}
if (only?.includes('changes')) {
  const loadBefore = loadavg();
  const c = await benchChanges(values.days ? Number(values.days) : 365, (l) => console.error(l));
  row('machine load average (1, 5, 15 min) at the start / at the end (a shared machine)', `${loadBefore.map((x) => x.toFixed(1)).join(', ')} / ${loadavg().map((x) => x.toFixed(1)).join(', ')}`, '');
  const part = (s: number) => `${s.toFixed(2)} s = **${((s / c.daily.seconds) * 100).toFixed(1)}%**`;
  const phases = (r: typeof c.first) => Object.entries(r.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  const cpuPhases = (r: typeof c.first) => Object.entries(r.cpuPhases ?? {}).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  const manifestCounts = (r: typeof c.first) => ['manifest files hashed', 'manifest files hashed when written', 'manifest files reused'].map((k) => r.stats[k] ?? '-').join(' / ');
  row(`full build of the ${c.days}-day radar catalogue into an empty folder (no site, no charts): ${c.first.stats['tree files']} files`, `${c.first.seconds.toFixed(1)} s, peak RSS **${c.firstPeakRssMb.toFixed(0)} MB**`, 'peak RSS < 2 GB');
  row('its downloads (the catalogue as Parquet, downloads.ts)', `${c.downloadsSeconds.toFixed(1)} s = **${((c.downloadsSeconds / c.first.seconds) * 100).toFixed(1)}%**`, '≤ 20%');
  row('its phases (s)', phases(c.first), '');
  row('its phases, CPU s (the process, all threads: comparable across loads)', cpuPhases(c.first), '');
  row('its manifest: files read back / hashed as written / reused from the base', manifestCounts(c.first), '');
  row(`daily build of a ${c.days + 1}-day radar catalogue over the ${c.days}-day one (no site, no charts): ${c.daily.stats['tree files written']} files written`, `${c.daily.seconds.toFixed(1)} s, peak RSS **${c.dailyPeakRssMb.toFixed(0)} MB**`, '');
  row('its phases (s)', phases(c.daily), '');
  row('its phases, CPU s (the process, all threads: comparable across loads)', cpuPhases(c.daily), '');
  row('its manifest: files read back / hashed as written / reused from the base', manifestCounts(c.daily), '');
  row('its change set and snapshot history (key comparison, changed fields, history Parquet)', part(c.historySeconds), '≤ 5%');
  row('its Atom feeds', part(c.feedsSeconds), '');
  row(`change API, a day's changes (${c.entries} entries, ${(c.bytes / 1e6).toFixed(1)} MB JSON), one request at a time`, `median **${c.jsonMedianMs.toFixed(1)} ms**, p99 ${c.jsonP99Ms.toFixed(1)} ms; checksum report median ${c.checksumMedianMs.toFixed(1)} ms`, '≤ 10 ms median');
}
if (want('astro-pages')) {
  const days = scale === 'full' ? 30 : 7;
  const snap = await radarSnapshot('2024-01-01', days);
  const fullDb = await fullCatalogueDb(() => radarSnapshot('1993-09-01', 11000));
  console.error(`static build against Astro's own per-page generation (getStaticPaths) of /files/:id, ${days}-day catalogue ...`);
  if (ramDisk) console.error(`  both builds write to a RAM disk: ${ramDisk}`);
  const a = await runAstroPagesBench({ snapshot: snap, fullDb, samples: { props: { ids: 6000, rounds: 3 }, query: { ids: 2000, rounds: 1 } }, ...(ramDisk ? { workDir: ramDisk } : {}), log: (l) => console.error(l) });
  if (ramDisk) row('where both builds wrote', `a RAM disk (${ramDisk}, tmpfs): the rates are generation alone, without this machine's disk, which varied 3× between identical runs`, '');
  const how = { props: 'bodies rendered by one query per route in getStaticPaths and passed as props', query: 'one prepared query per page in GET' };
  const rates = (xs: number[]) => (xs.length > 1 ? ` (rounds: ${xs.map((x) => Math.round(x)).join(', ')})` : '');
  for (const r of a.runs) {
    const same = r.mismatches.length === 0 ? `all ${r.compared} byte-identical to snapcat's files` : `**${r.mismatches.length} of ${r.compared} differ** from snapcat's files (${r.mismatches.slice(0, 3).join(', ')})`;
    row(`Astro 7 static build of endpoints with \`getStaticPaths\`, /files/:id × 5 variants, ${r.ids} ids = ${r.pages} pages, ${how[r.access]}`, `**${Math.round(r.pagesPerSec)} pages/s**${rates(r.rounds)} from the first getStaticPaths to the last page (astro build ${r.wallSeconds.toFixed(0)} s in all, peak RSS ${r.peakRssMb.toFixed(0)} MB); ${same}`, '');
  }
  row(`snapcat full build of the same ${days}-day catalogue (database and tree; no site, no charts), ${a.snapcatFiles} files, side by side with the Astro builds`, `**${Math.round(a.snapcatFilesPerSec)} files/s**${rates(a.snapcatRounds)}`, '');
  row(`snapcat build rate / Astro page rate (Astro's faster way: ${a.best.access})`, `**${a.ratio.toFixed(1)}×**`, '≥ 20×');
  const hours = a.runs.map((r) => `Astro ${a.astroFullHours[r.access]!.toFixed(0)} h (${r.access}${r.access === 'props' ? `: holds every body until all pages are written, ${r.peakRssMb.toFixed(0)} MB at ${r.pages} pages, so it could not run at this size` : ''})`).join(', ');
  row(`30-year catalogue's full tree, ${a.fullTreeFiles} files (${a.fullTreeFileIds} file ids; every route × its variants): extrapolated from the rates above, not built (more files than the disk has free inodes)`, `snapcat **${a.snapcatFullHours.toFixed(1)} h**, ${hours}`, '');
}
if (want('memory')) {
  const days = scale === 'full' ? 30 : 7;
  const [dbFrom, dbDays] = scale === 'full' ? ['1993-09-01', 11000] : ['2023-01-01', 365];
  const snap = await radarSnapshot('2024-01-01', days);
  const dbSnap = await radarSnapshot(dbFrom as string, dbDays as number);
  console.error(`peak memory: build of the ${days}-day catalogue, database-only build of the ${dbDays}-day one, endpoint under mixed load ...`);
  const b = await buildMemory(snap, false);
  row(`full build (\`node build-scripts/build.ts --no-site --no-charts\`, own process, RSS with children every 50 ms and VmHWM) of the ${days}-day catalogue, ${b.files} files`, `peak **${b.peakRssMb.toFixed(0)} MB** (${b.seconds.toFixed(0)} s)`, '< 2 GB');
  const d = await buildMemory(dbSnap, true);
  row(`database-only build (--db-only) of the ${dbDays}-day catalogue`, `peak **${d.peakRssMb.toFixed(0)} MB** (${d.seconds.toFixed(0)} s)`, '< 2 GB');
  const dbBuild = await radarDbBuild(async () => dbSnap, dbDays as number);
  const fig = (e: Awaited<ReturnType<typeof radarEndpointMemory>>) =>
    `peak **${e.peakRssMb.toFixed(0)} MB** (${e.startRssMb.toFixed(0)} MB at start); ${e.requests} requests, ${e.mb.toFixed(0)} MB in ${e.seconds.toFixed(0)} s${e.failed.length ? `; **${e.failed.length} failed**: ${[...new Set(e.failed)].slice(0, 3).join('; ')}` : ''}`;
  let alone: Map<string, number> | undefined;
  // two rounds with one client and with four; then, on the 30-year catalogue, 15 rounds (a different year each) with
  // four: an endpoint that has served every part of the catalogue
  const runs: [number, number][] = scale === 'full' ? [[1, 2], [4, 2], [4, 15]] : [[1, 2], [4, 2]];
  for (const [clients, rounds] of runs) {
    const e = await radarEndpointMemory(dbBuild, dbFrom as string, dbDays as number, rounds, clients);
    // the same requests, one client and four at once: every whole answer must have the same length
    const differ = alone && rounds === 2 ? [...e.bytesByJob].filter(([k, n]) => alone!.has(k) && alone!.get(k) !== n && n > 0 && alone!.get(k)! > 0) : [];
    alone ??= e.bytesByJob;
    const same = clients > 1 && rounds === 2 ? (differ.length ? `; **${differ.length} answers differ in length** from the one-client run's (${differ.slice(0, 2).map(([k]) => k).join('; ')})` : `; every ${e.failed.length ? 'other ' : ''}answer as long as in the one-client run`) : '';
    row(`endpoint, radar catalogue of ${dbDays} days, mixed: collections, one-year timespans (JSON, expanded CSV, distinct transferred), month with bbox/radar_code, id paths; ${rounds} rounds${rounds > 2 ? ' (a different year each)' : ''}, ${clients} client${clients > 1 ? 's at once' : ''}`, fig(e) + same, '< 300 MB');
  }
  const ts = await timeseriesBuild((l) => console.error(l));
  const t = await timeseriesEndpointMemory(ts, 3, 4);
  const name = (JSON.parse(readFileSync(join(ts, 'build.json'), 'utf8')) as { snapshot: { name: string } }).snapshot.name;
  row(`endpoint, Timeseries API (${name}), mixed: paging (offset/limit, following \`next\`) through every station, expanded stations and timeseries, whole /stations, bbox, a year of getData, search; 3 rounds, 4 clients at once`, fig(t), '< 300 MB');
}
if (want('timeseries')) {
  console.error('timeseries algorithms and API (100,000 stations, a year of 10-minute values) ...');
  const a = await runAlgorithmBenchmarks();
  const t = await runTimeseriesApiBenchmarks({ reuse: true, log: (l) => console.error(`  ${l}`) });
  const ms = (x: number | undefined) => `${(x ?? NaN).toFixed(1)} ms`;
  row(`getData, one year of 10-minute values (${t['getData_year_points']} points), through the endpoint`, `median **${ms(t['getData_year_endpoint_ms'])}** (in process ${ms(t['getData_year_in_process_ms'])})`, '≤ 20 ms');
  row('getData of that year with generalize=true (LTTB, 200 points)', `median ${ms(t['getData_year_generalized_endpoint_ms'])}`, '');
  row('LTTB of 10^6 points to 200', `median **${ms(a['lttb_1e6_to_200_ms'])}**`, '≤ 50 ms');
  row('near (50 km) over 100,000 stations, through the endpoint', `median **${ms(t['near_50km_endpoint_ms'])}** (in process ${ms(t['near_50km_in_process_ms'])})`, '≤ 10 ms');
  row('bbox (1°) over 100,000 stations, through the endpoint', `median **${ms(t['bbox_1deg_endpoint_ms'])}** (in process ${ms(t['bbox_1deg_in_process_ms'])})`, '≤ 10 ms');
  for (const [k, v] of Object.entries(a)) if (k !== 'lttb_1e6_to_200_ms') row(`algorithms: ${k}`, v.toFixed(3), '');
}
if (want('charts')) {
  const c = await runChartBenchmarks(join(import.meta.dirname, '.work'), (l) => console.error(l));
  row(`pre-rendering ${c.charts} one-week 800×500 PNGs, warm browser and page pool (${c.chromium})`, `**${c.warmPerSec.toFixed(1)} charts/s**`, '≥ 20 charts/s');
  row(`the same, launching a browser per chart (${c.perChartBrowserCharts} charts)`, `${c.perChartBrowserPerSec.toFixed(1)} charts/s: warm is **${(c.warmPerSec / c.perChartBrowserPerSec).toFixed(1)}×** faster`, '');
  row(`on-demand one-week PNG through the endpoint (${(c.pngBytes / 1024).toFixed(0)} KB)`, `median **${c.pngMedianMs.toFixed(0)} ms**`, '≤ 150 ms');
  row(`on-demand one-week PDF report through the endpoint (${c.pdfPages} pages)`, `median **${c.pdfMedianMs.toFixed(0)} ms**`, '≤ 400 ms');
}
if (want('site')) {
  const r = await runSiteBenchmarks(join(import.meta.dirname, '.work'), (l) => console.error(l));
  row(`Astro build of the docs and browsing site, 30-day demo with both APIs (${r.pages} pages)`, `**${r.siteSeconds.toFixed(1)} s**`, '< 60 s');
  row('largest page (HTML, before images)', `${r.largestPage.kb.toFixed(0)} KB (${r.largestPage.path})`, '< 300 KB');
  for (const [page, ms] of Object.entries(r.renderMs)) row(`render in headless Chromium: ${page}, to the load event`, `median **${ms.toFixed(0)} ms**`, '< 1 s');
}
if (want('static-vs-nginx')) {
  // the site bench's build: the 30-day demo with both APIs, its site and charts
  const out = join(import.meta.dirname, '.work', 'site-dist');
  if (!existsSync(join(out, 'build.json'))) await runSiteBenchmarks(join(import.meta.dirname, '.work'), (l) => console.error(l));
  const base = values.baseline ? baselineRoot(values.baseline) : undefined;
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const r = await runStaticVsNginx(out, values.seconds ? Number(values.seconds) : 10, (l) => console.error(l), base);
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  row('machine (load average before, after: /proc/loadavg)', `${load0}; ${load1}${Number(load0.split(' ')[0]) > 1.5 ? ' (**loaded**: req/s is what the scheduler gave; the server CPU per request and its ratio are the figures to read)' : ''}`, '');
  const fig = (x: (typeof r.runs)[number]['small'][number]['nginx']) => `${x.rps.toFixed(0)} req/s, p50 ${x.p50Ms.toFixed(2)} ms, p99 ${x.p99Ms.toFixed(2)} ms, ${x.serverCpuUs.toFixed(1)} µs CPU/request${x.failures ? ` (**${x.failures} failed**)` : ''}`;
  const ratio = (p: (typeof r.runs)[number]['small'][number], side = p.endpoint) => `**${((side.rps / p.nginx.rps) * 100).toFixed(0)}%** (CPU/request: ${((p.nginx.serverCpuUs / side.serverCpuUs) * 100).toFixed(0)}%)`;
  const pairs = (ps: (typeof r.runs)[number]['small']) => ps.map((p, i) => `run ${i + 1}: endpoint ${fig(p.endpoint)}; nginx ${fig(p.nginx)}; ${ratio(p)}${p.baseline ? `; before (${r.baseline}): ${fig(p.baseline)}; ${ratio(p, p.baseline)}` : ''}`).join('<br>');
  row(`load tool: ${r.wrk}, \`-t1 -c32\`, ${r.seconds} s per run, a Lua script rotating the paths; its headroom: nginx (2 workers) on ${r.headroom.path}`, `${r.headroom.run.rps.toFixed(0)} req/s (wrk's thread ${(r.headroom.run.toolBusy * 100).toFixed(0)}% busy); in the runs below wrk was ${Math.round(Math.min(...r.runs.flatMap((x) => [...x.small, ...x.oneDay].flatMap((p) => [p.endpoint.toolBusy, p.nginx.toolBusy]))) * 100)}–${Math.round(Math.max(...r.runs.flatMap((x) => [...x.small, ...x.oneDay].flatMap((p) => [p.endpoint.toolBusy, p.nginx.toolBusy]))) * 100)}% busy`, '');
  for (const x of r.runs) {
    row(`static files (${r.paths.length} parameter-free paths of both APIs, docs and a chart): endpoint \`--workers ${x.workers}\` / nginx \`worker_processes ${x.workers}\` (${r.nginxVersion}, the build's nginx.conf)`, pairs(x.small), '≥ 80%');
    row(`one-day answer (${(r.oneDay.bytes / 1024).toFixed(0)} KB, 20 days of the one-year catalogue, \`${r.oneDay.example}\`): endpoint \`--workers ${x.workers}\` / nginx \`worker_processes ${x.workers}\` sending the same answers as files`, pairs(x.oneDay), '≥ 80%');
  }
}
if (want('compress-whole')) {
  const c = await runCompressWholeBench((l) => console.error(l));
  const kb = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : `${(b / 1024).toFixed(0)} KB`);
  row('machine', `**shared and loaded**: load average ${c.loadBefore} before, ${c.loadAfter} after (\`uptime\`); CPU ms (the process's, event loop and pool threads) is the figure to read, wall ms is inflated by the load`, '');
  row('levels (server/compression.ts LEVELS); rounds (medians, the three ways taking turns)', `${Object.entries(c.levels).map(([k, v]) => `${k} ${v}`).join(', ')}; ${c.rounds}`, '');
  for (const r of c.rows) {
    const w = r.ways;
    const way = (n: keyof typeof w) => `${w[n].cpuMs.toFixed(2)} ms CPU, ${w[n].wallMs.toFixed(2)} wall`;
    row(
      `${kb(r.bytes)} of JSON, ${r.coding} (→ ${kb(r.compressedBytes)}): pieces as before (16 KB output, ${Math.ceil(r.compressedBytes / 16384)}+ trips) / now (compressWhole) / sync on the loop`,
      `${way('pieces')} / **${way('now')}** / ${way('sync')}: now **×${(w.now.cpuMs / w.pieces.cpuMs).toFixed(2)}** the CPU of pieces, ×${(w.now.wallMs / w.pieces.wallMs).toFixed(2)} the wall`,
      '',
    );
  }
}
if (want('compression')) {
  const c = await runCompressionBench((l) => console.error(l));
  const mb = (b: number) => `${(b / 1e6).toFixed(b < 1e7 ? 2 : 1)} MB`;
  row('levels (server/compression.ts LEVELS)', Object.entries(c.levels).map(([k, v]) => `${k} ${v}`).join(', '), '');
  const sec = (x: number) => (x < 1 ? `${(x * 1000).toFixed(1)} ms` : `${x.toFixed(2)} s`);
  for (const a of c.answers) {
    const plain = a.transfers.find((t) => t.coding === 'identity')!;
    // curl's --limit-rate throttles only once it has read more than the rate allows: an answer of a few MB passes
    // at loopback speed, and then the modelled time (loopback time or bytes at 12.5 MB/s, whichever is longer) is the figure
    const throttled = plain.linkSeconds >= 0.8 * plain.modelSeconds;
    const how = throttled ? 'curl --limit-rate 12500000' : 'modelled: curl did not throttle an answer this short';
    row(
      `${a.name}, uncompressed, 100 Mbit/s (${how})`,
      `${mb(plain.bytes)} in **${sec(throttled ? plain.linkSeconds : plain.modelSeconds)}** (loopback without a limit: ${sec(plain.freeSeconds)}; ${throttled ? `modelled ${sec(plain.modelSeconds)}` : `curl with the limit ${sec(plain.linkSeconds)}`})`,
      '',
    );
    for (const t of a.transfers.filter((x) => x.coding !== 'identity')) {
      const speedup = throttled ? plain.linkSeconds / t.linkSeconds : plain.modelSeconds / t.modelSeconds;
      row(
        `the same, \`Accept-Encoding: ${t.coding}\``,
        `${mb(t.bytes)} (${(plain.bytes / t.bytes).toFixed(1)}:1) in ${sec(throttled ? t.linkSeconds : t.modelSeconds)} (loopback ${sec(t.freeSeconds)}): **${speedup.toFixed(1)}× faster**${throttled ? ` (modelled ${(plain.modelSeconds / t.modelSeconds).toFixed(1)}×)` : ''}`,
        '≥ 4×',
      );
    }
  }
  const o = c.oneDay;
  const plain = o.runs.find((r) => r.coding === 'identity')!;
  row(`one-day \`/files?timespan=\` (a different day of 2023 each request), ${o.wrk}, ${o.connections} connections, ${o.seconds} s, best of two each: uncompressed`, `${plain.rps.toFixed(0)} req/s (${plain.mbps.toFixed(0)} MB/s); endpoint CPU ${plain.cpuMsPerRequest.toFixed(2)} ms per request`, '');
  for (const r of o.runs.filter((x) => x.coding !== 'identity')) {
    row(`the same with \`-H 'Accept-Encoding: ${r.coding}'\``, `${r.rps.toFixed(0)} req/s (${r.mbps.toFixed(1)} MB/s): **${(r.rps / plain.rps).toFixed(2)}×** the uncompressed throughput; endpoint CPU ${r.cpuMsPerRequest.toFixed(2)} ms per request (+${(r.cpuMsPerRequest - plain.cpuMsPerRequest).toFixed(2)})`, r.coding === 'gzip' ? '≥ 0.8×' : '');
  }
}
if (want('overload')) {
  const scenarios = (values.scenarios?.split(',') ?? [...SCENARIOS]) as Scenario[];
  for (const sc of scenarios) if (!SCENARIOS.includes(sc)) throw new Error(`--scenarios: '${sc}' is none of ${SCENARIOS.join(', ')}`);
  const rounds = values.rounds ? Number(values.rounds) : ROUNDS;
  const o = scenarios.includes('crash') ? await runOverloadBench((l) => console.error(l)) : { mixes: [] };
  if (o.mixes.length) row('endpoint', '`npm run serve` (one endpoint process under its supervisor, ENDPOINT_NODE_FLAGS), 30-day timeseries demo; each mix sent at once; memory sampled every 50 ms', '');
  for (const m of o.mixes) {
    row(
      `crash mix of issue 18: ${m.name}`,
      `${m.ok} × 200, ${m.refused} × 503 with Retry-After, **${m.bad} other**; all answered in ${m.seconds.toFixed(1)} s (longest ${(m.longestMs / 1000).toFixed(1)} s); endpoint ${m.survived ? '**answered on**' : '**died or was replaced**'}; peak RSS: endpoint processes **${m.endpointPeakMb.toFixed(0)} MB**, their browser ${m.browserPeakMb.toFixed(0)} MB`,
      'no other answer, the same process answers on',
    );
  }
  const goodput = scenarios.filter((s) => s !== 'crash');
  const g = goodput.length ? await runGoodputBench((l) => console.error(l), { scenarios: goodput, rounds }) : undefined;
  if (g) row('goodput under overload', `${g.wrk} (two threads), every live request distinct (none from held answers); the saturating concurrency: connections doubling from 2 until goodput stops rising (two steps under +5%) or 512, the smallest reaching 90% of the best; then 1×, 2× and 4× it, 6 s each, back to back, ${rounds} rounds, the order of the three turning round by round; one endpoint process (\`npm run serve\`), 30-day demo of both APIs; good answers' latency from a probe client beside wrk; load average at the start: ${g.loadAverage}, at the end: ${g.loadAverageAtEnd}`, '');
  const gates = (r: GoodputScenario['runs'][number]) =>
    Object.entries(r.gates)
      .filter(([, x]) => x.queued + x.refused > 0)
      .map(([name, x]) => `${name} ${x.queued} waited (mean ${x.meanQueuedWaitMs.toFixed(0)} ms), ${x.refused} refused`)
      .join('; ') || 'none waited';
  for (const sc of g?.scenarios ?? []) {
    row(`${sc.name}: finding the saturating concurrency`, sc.search.map((x) => `${x.connections}: ${x.goodPerS.toFixed(0)}/s`).join(', ') + ` → **${sc.saturating}**`, '');
    sc.runs.forEach((r, i) => {
      const k = [1, 2, 4][i % 3];
      row(
        `${sc.name}: ${k}× = ${r.connections} connections (round ${Math.floor(i / 3) + 1})`,
        `**${r.goodPerS.toFixed(0)} good/s**, ${r.refusedPerS.toFixed(0)} × 503/s (${r.refusedWithoutRetryAfter} without Retry-After), ${r.otherPerS.toFixed(1)} other/s; good answers median ${r.goodMedianMs.toFixed(1)} ms, p99 ${r.goodP99Ms.toFixed(1)} ms; admission: ${gates(r)}; peak RSS ${r.peakRssMb.toFixed(0)} MB; endpoint CPU ${(r.cpuMsPerS / 10).toFixed(0)}% of a core; wrk ${(r.wrkBusy * 100).toFixed(0)}% busy`,
        '',
      );
    });
    const pct = (xs: number[]) => xs.map((x) => `${(x * 100).toFixed(0)}%`).join(', ');
    const spread = (xs: number[]) => `${(Math.min(...xs) * 100).toFixed(0)}-${(Math.max(...xs) * 100).toFixed(0)}%`;
    row(`${sc.name}: goodput at 4×, median of the rounds, over the best median of 1×, 2×, 4× (${sc.medians[1].toFixed(0)}, ${sc.medians[2].toFixed(0)}, ${sc.medians[4].toFixed(0)} good/s)`, `**${(sc.medianRatio * 100).toFixed(0)}%**; 4× over 1× of the same round: ${pct(sc.ratios4to1)} (spread ${spread(sc.ratios4to1)})`, '≥ 90%');
    // a single query only: in a mix a good answer's CPU depends on which it is, so the subtraction means nothing
    if (sc.name.startsWith('one-hour')) row(`${sc.name}: what a refusal costs the endpoint (CPU: at 4× less its good answers at 1×'s CPU each, over its 503s)`, Number.isFinite(sc.cpuMsPerRefusal) ? `${sc.cpuMsPerRefusal.toFixed(2)} ms a 503, against ${sc.cpuMsPerGood.toFixed(2)} ms a good answer at 1×` : `no 503 at 4× (nothing refused: the queue held every request); ${sc.cpuMsPerGood.toFixed(2)} ms a good answer at 1×`, '');
    row(`${sc.name}: goodput at 4× over the best of its round (rounds 1-${sc.ratios.length}; biased low: the best of three noisy runs)`, pct(sc.ratios), '');
    row(`${sc.name}: goodput at 4× over the best of every run (${sc.peak.toFixed(0)} good/s)`, pct(sc.ratiosToPeak), '');
  }
  const sl = g?.slow;
  if (sl) row(`${sl.readers} slow readers (${sl.bytesPerS / 1024} KB/s each) of \`/files?distinct=true&expanded=true&contentType=csv\`; one-hour \`/files\` asked one after another meanwhile (10 s)`, `${sl.waitsMs.length} answered: median ${median(sl.waitsMs).toFixed(1)} ms, longest ${Math.max(...sl.waitsMs).toFixed(1)} ms; ${sl.refused} refused; DuckDB connections busy meanwhile: ${sl.busyConnectionsSeen}`, 'no wait behind the readers');
}
if (want('postgres')) {
  console.error(`snapcat against PostgreSQL on the live queries (${scale === 'full' ? '30-year' : 'one-year'} radar catalogue, 100,000-station timeseries network) ...`);
  const r = await runPostgresBench(scale, (l) => console.error(`  ${l}`), values.queries ? { queries: values.queries.split(',') } : {});
  const load = (l: typeof r.radarLoad) => `${l.seconds.toFixed(1)} s (${Object.values(l.rows).reduce((a, b) => a + b, 0).toLocaleString('en')} rows: CSV and COPY ${l.copySeconds.toFixed(1)} s, indexes ${l.indexSeconds.toFixed(1)} s, VACUUM ANALYZE ${l.analyzeSeconds.toFixed(1)} s)`;
  row(`PostgreSQL: ${r.version}, ${r.settings}; pg-server (node:http, pg.Pool of ${r.pool}), JSON built in SQL`, `${r.loadCached ? 'loaded by an earlier run (bench/.work/pg-bench, reused: same builds, same loading code), its figures: ' : ''}load from the build's DuckDB files: radar catalogue **${load(r.radarLoad)}**, timeseries ${load(r.timeseriesLoad)}; database ${r.pgDatabaseMb.toFixed(0)} MB (DuckDB: ${r.radarDuckMb.toFixed(0)} + ${r.timeseriesDuckMb.toFixed(0)} MB)`, '');
  row('PostgreSQL indexes', indexSummary(), '');
  row('snapcat endpoint', `\`npm run serve -- --workers ${SNAPCAT_WORKERS}\` (one process per core, one DuckDB thread each, 4 connections each)`, '');
  const side = (s: typeof r.queries[number]['snapcat']) =>
    `${s.loadedMedianMs === undefined ? '' : `16 connections: median ${s.loadedMedianMs.toFixed(2)} ms, p99 ${s.loadedP99Ms!.toFixed(2)} ms, `}${s.rps >= 100 ? s.rps.toFixed(0) : s.rps.toFixed(1)} req/s${s.failures ? ` (${s.failures} failed)` : ''}; one at a time: median ${s.medianMs.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms`;
  for (const q of r.queries) {
    const kb = q.bytes.snapcat >= 1e6 ? `${(q.bytes.snapcat / 1e6).toFixed(1)} MB` : `${(q.bytes.snapcat / 1e3).toFixed(0)} KB`;
    const ratios = (sc: typeof q.snapcat, pg: typeof q.postgres) => {
      const loaded = sc.loadedMedianMs !== undefined && pg.loadedMedianMs !== undefined;
      const lat = loaded ? sc.loadedMedianMs! / pg.loadedMedianMs! : sc.medianMs / pg.medianMs;
      const tail = loaded ? sc.loadedP99Ms! / pg.loadedP99Ms! : sc.p99Ms / pg.p99Ms;
      const busy = Math.max(sc.toolBusy ?? 0, pg.toolBusy ?? 0);
      return `snapcat ${side(sc)}; PostgreSQL ${side(pg)}: ${loaded ? 'at 16 connections ' : 'one at a time '}median **×${lat.toFixed(2)}**, p99 **×${tail.toFixed(2)}**, throughput **×${(sc.rps / pg.rps).toFixed(2)}**${busy ? ` (wrk at most ${(busy * 100).toFixed(0)}% busy)` : ''}${sc.why ? `; snapcat's own account of its load run: ${describeDiagnosis(sc.why)}` : ''}`;
    };
    row(
      `${q.name} (${Math.round(q.records).toLocaleString('en')} records, ${kb}; ${q.runs} sequential requests, then ${q.load}${q.again ? ', twice: snapcat first, then PostgreSQL first' : ''})`,
      [ratios(q.snapcat, q.postgres), ...(q.again ? [ratios(q.again.snapcat, q.again.postgres)] : [])].join('<br>'),
      'snapcat/PostgreSQL at 16 connections: median ≤ 0.5, p99 ≤ 1',
    );
  }
  row('endpoint resident memory (supervisor and its 2 workers, `--max-semi-space-size=16 --max-old-space-size=1024`)', r.memory.map((m) => `${m.what}: idle ${m.idleMb.toFixed(0)} MB, after the queries ${m.afterMb.toFixed(0)} MB, peak ${m.peakMb.toFixed(0)} MB`).join('<br>'), '');
}
// snapcat's tail alone, variants of how node runs it against each other: only when named
if (only?.includes('tail')) {
  console.error('snapcat tail latency: endpoint variants against each other, 16 connections ...');
  const t = await runTailBench({ ...(values.queries ? { queries: values.queries.split(',') } : {}), ...(values.variants ? { variants: values.variants.split(',') } : {}), rounds: 3, log: (l) => console.error(`  ${l}`) });
  const ran = new Set(t.flatMap((q) => q.runs.map((r) => r.variant)));
  for (const [name, flags] of Object.entries(VARIANTS)) if (ran.has(name)) row(`variant \`${name}\``, `node ${flags.join(' ')}`, '');
  if (ran.has('floor')) row('variant `floor`', 'bench/floor-server.ts: node:http, 2 processes, each path answered with the bytes held in a Map', '');
  for (const q of t) {
    const s = tailSummary(q);
    const now = s.find((x) => x.variant === 'now');
    row(
      `${q.name} (16 connections, 5 s (wrk), 3 rounds, median of the rounds)`,
      s.map((x) => `${x.variant}: median ${x.p50Ms.toFixed(2)} ms, p99 ${x.p99Ms.toFixed(1)} ms${now && x !== now ? ` (**×${(x.p99Ms / now.p99Ms).toFixed(2)}** of now's)` : ''}, ${x.rps.toFixed(0)} req/s${Number.isNaN(x.gcOver10ms) ? '' : `, GC pauses over 10 ms ${x.gcOver10ms}, event-loop delay max ${x.loopMaxMs.toFixed(0)} ms`}`).join('<br>'),
      '',
    );
  }
}
// national scale (issue 23): generates and builds its snapshot once (minutes), so only when named
if (only?.includes('timeseries-scale')) {
  const r = await runTimeseriesScaleBench({ seriesFactor: Number(values['series-factor'] ?? 1), days: Number(values.days ?? 3700), from: values['ts-from'] ?? '2016-01-01', runs: Number(values.runs ?? 90), ...(values.baseline ? { baseline: values.baseline } : {}), log: (l) => console.error(l) });
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  row('machine', `**shared and loaded**: load average ${loadAtStart} at the start, ${load} at the end (\`uptime\`); rerun on a quiet machine for the targets' figures`, '');
  row(`snapshot ${r.snapshotName}: ${r.observations.toLocaleString('en')} observations, ${r.series} series; database-only build, requestIntervalRestriction ${SCALE_MAX_TIMESPAN}`, `pairs file ${(r.pairsBytes / 1e9).toFixed(2)} GB${r.generated ? `; generated in ${r.generated.seconds.toFixed(0)} s (peak ${r.generated.peakRssMb.toFixed(0)} MB)` : ''}${r.built ? `; built in ${r.built.seconds.toFixed(0)} s (peak ${r.built.peakRssMb.toFixed(0)} MB)` : ''}${r.generated || r.built ? '' : ' (cached in bench/.work)'}`, '');
  const target: Record<string, string> = { 'getData of one year': '≤ 20 ms', 'getData of ten years, generalize=true': '≤ 50 ms', 'POST getData of one week of 100 series': '≤ 50 ms' };
  const size = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(0)} KB`);
  for (const q of r.queries) {
    const what = q.name === 'getData of one year' ? `${q.name} (${r.yearPoints.toLocaleString('en')} values), 60 series` : q.name.startsWith('getData of ten') ? `${q.name} (${r.tenYearPoints.toLocaleString('en')} values read, the generalized answer's bytes), 60 series` : q.name;
    const b = r.baseline?.queries.find((x) => x.name === q.name && x.coding === q.coding);
    const before = b && r.baseline ? `<br>before (${r.baseline.sha}, the requests taking turns with this one's): median ${b.medianMs.toFixed(1)} ms, p99 ${b.p99Ms.toFixed(1)} ms, endpoint CPU ${b.cpuMs.toFixed(1)} ms a request: now **×${(q.medianMs / b.medianMs).toFixed(2)}** the median, **×${(q.cpuMs / b.cpuMs).toFixed(2)}** the CPU` : '';
    row(`${what}, ${q.coding === 'identity' ? 'uncompressed' : 'as a browser asks (zstd)'}, ${q.runs} runs one at a time`, `median **${q.medianMs.toFixed(1)} ms**, p99 ${q.p99Ms.toFixed(1)} ms, endpoint CPU **${q.cpuMs.toFixed(1)} ms** a request; ${size(q.bytes)}${before}`, q.coding === 'identity' ? target[q.name] ?? '' : '');
  }
  for (const [query, f] of Object.entries(r.stages)) row(`where the time goes, ${query}: each stage alone in the bench's process (this checkout), CPU ms a run`, Object.entries(f).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), '');
  row('endpoint resident memory (supervisor and worker), before the first request → after the last', `${r.rssStartMb.toFixed(0)} → **${r.rssEndMb.toFixed(0)} MB** (the pairs file stays on disk and in the page cache)${r.baseline ? `; before (${r.baseline.sha}): ${r.baseline.rssStartMb.toFixed(0)} → ${r.baseline.rssEndMb.toFixed(0)} MB` : ''}`, 'flat');
}
if (only?.includes('fresh-endpoint')) {
  const r = await runFreshEndpointBench({ rounds: Number(values.rounds ?? 3), ...(values.baseline ? { baseline: values.baseline } : {}), log: (l) => console.error(l) });
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  row('machine', `**shared and loaded**: load average ${loadAtStart} at the start, ${load} at the end (\`uptime\`); figures are medians over ${r.rounds} rounds${r.baseline ? `, the baseline's endpoint taking turns with this one's` : ''}`, '');
  const sides: [string, FreshFigures[]][] = [['this checkout', r.current], ...(r.baseline ? [[`before (${r.baseline.sha})`, r.baseline.figures] as [string, FreshFigures[]]] : [])];
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  const ratio = (f: (x: FreshFigures) => number) => (r.baseline ? ` (**×${(mid(r.current, f) / mid(r.baseline.figures, f)).toFixed(2)}** of before)` : '');
  for (const [name, fs] of sides) {
    const per = RADARS.map((c, i) => `${c} ${mid(fs, (x) => x.cold[i]!).toFixed(0)}/${mid(fs, (x) => x.warm[i]!).toFixed(0)}`).join(', ');
    row(`${name}: spawn to serving; the twelve radars' radar_code + distinct on /transferred/files, one at a time on a fresh endpoint (one worker): first answer / the same query again (another ETag), ms`, `start ${mid(fs, (x) => x.startMs).toFixed(0)} ms; first answers ${mid(fs, (x) => sum(x.cold)).toFixed(0)} ms in all${fs === r.current ? ratio((x) => sum(x.cold)) : ''}, again ${mid(fs, (x) => sum(x.warm)).toFixed(0)} ms${fs === r.current ? ratio((x) => sum(x.warm)) : ''}; sas (11,908 rows) ${mid(fs, (x) => x.cold[1]!).toFixed(0)} ms${fs === r.current ? ratio((x) => x.cold[1]!) : ''}; ${per}`, '');
    row(`${name}: 8 clients × 36 requests over the twelve answers on a fresh endpoint whose held-answer budget the expanded one-day answers filled (800 requests)`, `longest ${mid(fs, (x) => x.crowd.longestMs).toFixed(0)} ms${fs === r.current ? ratio((x) => x.crowd.longestMs) : ''}, 95th percentile ${mid(fs, (x) => x.crowd.p95Ms).toFixed(0)} ms${fs === r.current ? ratio((x) => x.crowd.p95Ms) : ''}; misses (queries) ${mid(fs, (x) => x.crowd.misses)}, declined ${mid(fs, (x) => x.crowd.declined)}, waited ${mid(fs, (x) => x.crowd.waited)}`, '');
  }
}
// issue 23 beside PostgreSQL: generates, builds and loads its data once (minutes to hours by size), so only when named
if (only?.includes('timeseries-postgres')) {
  const r = await runTimeseriesPostgresBench({
    ...(values.build ? { build: values.build } : {}),
    ...(values.snapshot ? { snapshot: values.snapshot } : {}),
    seriesFactor: Number(values['series-factor'] ?? 1),
    days: Number(values.days ?? 365),
    from: values['ts-from'] ?? '2024-01-01',
    runs: Number(values.runs ?? 60),
    seconds: Number(values.seconds ?? 5),
    log: (l) => console.error(l),
  });
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
  const l = r.load;
  const nice = getPriority();
  row('machine', `load average ${loadAtStart} at the start, ${load} at the end (\`uptime\`); the bench ran at nice ${nice}${nice > 0 ? ' (below other work on the machine)' : ''}; the ratios are of the two sides taking turns in this run`, '');
  row(`snapshot ${r.snapshotName}: ${r.observations.toLocaleString('en')} observations in ${r.series} series`, `snapcat: series file ${gib(r.snapcatBytes.pairs)} + its index ${(r.snapcatBytes.index / 2 ** 20).toFixed(1)} MiB + database ${gib(r.snapcatBytes.database)} = **${gib(r.snapcatBytes.pairs + r.snapcatBytes.index + r.snapcatBytes.database)}**, what the endpoint reads${r.sourceBytes === undefined ? '' : `; the snapshot's observations (Parquet, what both sides load from): ${gib(r.sourceBytes)}`}`, '');
  row(`PostgreSQL: ${r.version}, ${r.settings}; 52°North's observation schema trimmed to what the answers read (bench/pg-timeseries-load.ts)`, `${r.loadCached ? 'loaded by an earlier run (bench/.work/pg-timeseries, reused: same snapshot, same loading code), its figures: ' : ''}load **${l.seconds.toFixed(0)} s** = ${(l.rows / l.seconds).toFixed(0)} rows/s (${l.rows.toLocaleString('en')} rows in ${l.chunks} CSV chunks: DuckDB export ${l.exportSeconds.toFixed(0)} s, COPY ${l.copySeconds.toFixed(0)} s = ${(l.rows / l.copySeconds).toFixed(0)} rows/s, primary keys ${l.indexSeconds.toFixed(0)} s, VACUUM ANALYZE ${l.analyzeSeconds.toFixed(0)} s, CHECKPOINT ${l.checkpointSeconds.toFixed(0)} s); observation table **${gib(l.totalBytes)}** (heap ${gib(l.heapBytes)}, primary key ${gib(l.indexBytes)}; ${(l.totalBytes / l.rows).toFixed(1)} bytes a row), database ${gib(l.databaseBytes)}; largest CSV chunk ${gib(l.largestChunkBytes)}`, '');
  row('disk: PostgreSQL observation table / snapcat (series file, index, database)', `**×${(l.totalBytes / (r.snapcatBytes.pairs + r.snapcatBytes.index + r.snapcatBytes.database)).toFixed(2)}**`, '');
  const target: Record<string, string> = { 'getData of one year': '≤ 20 ms', 'getData of ten years, generalize=true': '≤ 50 ms' };
  for (const q of r.queries) {
    const s = q.snapcat;
    const p = q.postgres;
    const loaded = (x: typeof s) => x.loaded.map(loadedText).join(' / ');
    const ratios = s.loaded.map((w, k) => loadedRatio(w, p.loaded[k]!)).join(' / ');
    row(
      `${q.name} (${(q.bytes.snapcat / 1e3).toFixed(0)} KB; answers compared equal), one at a time (the sides taking turns), then 16 connections (wrk, ${values.seconds ?? 5} s a side, snapcat first / PostgreSQL first)`,
      `one at a time: snapcat median **${s.medianMs.toFixed(1)} ms**, p99 ${s.p99Ms.toFixed(1)} ms; PostgreSQL median **${p.medianMs.toFixed(1)} ms**, p99 ${p.p99Ms.toFixed(1)} ms: snapcat/PostgreSQL median **×${(s.medianMs / p.medianMs).toFixed(2)}**, p99 **×${(s.p99Ms / p.p99Ms).toFixed(2)}**<br>16 connections: snapcat ${loaded(s)}; PostgreSQL ${loaded(p)}; snapcat/PostgreSQL ${ratios}<br>snapcat's own account of its load runs: ${s.why!.map((w) => describeDiagnosis(w)).join(' / ')}`,
      target[q.name] ?? (q.name.startsWith('POST') ? '≤ 50 ms' : ''),
    );
  }
  row('resident memory after the queries', `snapcat endpoint (supervisor and workers) ${r.memory.snapcatMb.toFixed(0)} MB; pg-timeseries-server ${r.memory.pgServerMb.toFixed(0)} MB (PostgreSQL's own: shared_buffers ${BENCH_SETTINGS['shared_buffers']} and its backends)`, '');
}
// the soak takes minutes: only when named (npm run soak)
if (only?.includes('soak')) {
  const work = join(import.meta.dirname, '.work');
  const snap = join(work, 'soak-snapshot');
  const out = join(work, 'soak-dist');
  if (!existsSync(join(out, 'build.json'))) {
    await writeDemoSnapshot({ from: '2024-01-01', days: 14, seed: 3, out: snap, apis: ['radarnet-mirror-v3', 'timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true });
  }
  const minutes = Number(values.minutes) || 10;
  const r = await runSoak({ build: out, seconds: Math.round(minutes * 60), log: (l) => console.error(l) });
  row(`soak, ${minutes} min, 8 connections, a mix of ${r.mix.length} static, live, POST, chart and bad requests (14-day demo, both APIs)`, `${r.requests} requests (${r.rps.toFixed(0)}/s), **${r.errors} errors** (5xx, resets), ${r.timeouts} timeouts; latency p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`, 'zero errors');
  row('soak: endpoint resident memory after warm-up → at the end', `${r.rssStartMb.toFixed(0)} → ${r.rssEndMb.toFixed(0)} MB: **${(r.rssGrowth * 100).toFixed(1)}%**`, '≤ 10% growth');
}

const command = `npm run bench -- --scale ${scale}${values.only ? ` --only ${values.only}` : ''}${only?.includes('soak') && values.minutes !== '10' ? ` --minutes ${values.minutes}` : ''}${ramDisk ? ' --ram-disk' : ''}${values.days ? ` --days ${values.days}` : ''}${values.queries ? ` --queries ${values.queries}` : ''}${values.variants ? ` --variants ${values.variants}` : ''}${values['series-factor'] ? ` --series-factor ${values['series-factor']}` : ''}${values['ts-from'] ? ` --ts-from ${values['ts-from']}` : ''}${values.runs ? ` --runs ${values.runs}` : ''}${values.baseline ? ` --baseline ${values.baseline}` : ''}${values.scenarios ? ` --scenarios ${values.scenarios}` : ''}${values.rounds ? ` --rounds ${values.rounds}` : ''}${values.snapshot ? ` --snapshot ${values.snapshot}` : ''}${values.build ? ` --build ${values.build}` : ''}${values.seconds ? ` --seconds ${values.seconds}` : ''}`;
const report = [
  `## ${command}`,
  '',
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  '',
  '| what | measured | target |',
  '|---|---|---|',
  ...lines,
  '',
].join('\n');
console.log(report);

// BENCHMARKS.md keeps the latest report of each command: replace this command's section, keep the others.
const file = join(import.meta.dirname, '..', 'BENCHMARKS.md');
const head = '# Benchmarks\n\nLatest figures of `npm run bench`, one section per command, written by bench/run.ts. Every ratio is measured side by side in one run.\n';
const sections = (existsSync(file) ? readFileSync(file, 'utf8') : head).split(/^(?=## )/m);
const kept = sections.filter((sec) => !sec.startsWith(`## ${command}\n`));
writeFileSync(file, [...kept, report].map((sec) => sec.replace(/\n*$/, '\n\n')).join('').replace(/\n*$/, '\n'));
