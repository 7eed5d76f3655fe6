/**
 * npm run bench -- [--scale small|full] [--only radar-build,radar-queries,timeseries]
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

const { values } = parseArgs({ options: { scale: { type: 'string', default: 'small' }, only: { type: 'string' } } });
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
  const a = await runAlgorithmBenchmarks();
  for (const [k, v] of Object.entries(a)) row(`timeseries: ${k}`, `${v.toFixed(3)}`, '');
}

const command = `npm run bench -- --scale ${scale}${values.only ? ` --only ${values.only}` : ''}`;
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
writeFileSync(file, [...kept, report].join('').replace(/\n*$/, '\n'));
