/**
 * npm run bench -- [--scale small|full] [--only radar-build,radar-queries,timeseries,charts,site,static-vs-nginx,soak] [--minutes 10]
 * npm run soak (the 10-minute soak alone)
 *
 * Measures side by side in one run and prints ratios; writes the figures to BENCHMARKS.md with the
 * machine, the command and the date. small: a 7-day catalogue for the build, one year for the queries.
 * full: the 30-year catalogue (generated once into bench/.work, a few minutes).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchQueries, benchStaticBuild, radarSnapshot } from './radar.ts';
import { runAlgorithmBenchmarks } from './timeseries-algorithms.ts';
import { runTimeseriesApiBenchmarks } from './timeseries-api.ts';
import { runChartBenchmarks } from './charts.ts';
import { runSoak } from './soak.ts';
import { runSiteBenchmarks } from './site.ts';
import { runStaticVsNginx } from './static-vs-nginx.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { build } from '../build-scripts/build.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: 'small' }, only: { type: 'string' }, minutes: { type: 'string', default: '10' } } });
const scale = values.scale === 'full' ? 'full' : 'small';
const only = values.only?.split(',');
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
  const r = await runStaticVsNginx(out, 10, (l) => console.error(l));
  const fig = (x: typeof r.nginx) => `${x.rps.toFixed(0)} req/s (${x.mbps.toFixed(0)} MB/s), p50 ${x.p50} ms, p99 ${x.p99} ms`;
  row(`static files (${r.paths.length} parameter-free paths of both APIs, docs and a chart), 16 connections: snapcat endpoint`, fig(r.endpoint), '');
  row(`the same through nginx serving the tree (${r.nginxVersion}, the build's nginx.conf)`, fig(r.nginx), '');
  row('endpoint throughput / nginx throughput', `**${(r.ratio * 100).toFixed(0)}%**`, '≥ 50%');
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

const command = `npm run bench -- --scale ${scale}${values.only ? ` --only ${values.only}` : ''}${only?.includes('soak') && values.minutes !== '10' ? ` --minutes ${values.minutes}` : ''}`;
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
