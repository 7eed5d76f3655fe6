/**
 * The timeseries build's resident memory in its database phase (issue 23), by hand: the observations table in
 * passes and the series file, as build-scripts/timeseries/build-timeseries.ts writes them, without validation
 * and with the pairs file written to /dev/null (at 10^9 observations it is 16 GB: the disk is shared). The
 * process's resident memory is sampled every 5 s; /usr/bin/time -v gives its peak.
 *
 *   MODE=passes nice -n 19 ionice -c3 /usr/bin/time -v node bench/timeseries-db-memory.ts SNAPSHOT OUTDIR
 *
 * MODE=passes (default): the series file pass by pass, as the build does; MODE=table: the database first, then
 * one stream of the whole observations table into the series file (the build before issue 23's change). OUTDIR
 * must not exist; it holds the database (3.2 GB at 10^9) and DuckDB's spill while running and is removed at the end.
 * ML sets DuckDB's memory limit (the build's: 1GB); RG the database's rows per row group (the build's:
 * lib/duckdb.ts TIMESERIES_ROW_GROUP_SIZE, 122,880; before issue 23's fix 8,192).
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDuckDB, run, sqlString, all, TIMESERIES_ROW_GROUP_SIZE } from '../lib/duckdb.ts';
import { buildTimeseriesDb } from '../build-scripts/timeseries/timeseries-db.ts';
import { readConfigFiles } from '../build-scripts/timeseries/config-files.ts';
import { PAIRS_FILE, writeSeriesFile } from '../lib/series-file.ts';

const [snapshot, out] = process.argv.slice(2).map((a) => resolve(a!));
const mode = process.env['MODE'] ?? 'passes';
const status = () => readFileSync('/proc/self/status', 'utf8');
const mb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status())![1]) / 1024);
if (existsSync(out!)) throw new Error(`${out}: exists (give a new folder)`);
mkdirSync(join(out!, 'data'), { recursive: true });
mkdirSync(join(out!, 'spill'), { recursive: true });
symlinkSync('/dev/null', join(out!, 'data', PAIRS_FILE));
const t0 = performance.now();
let phase = 'open';
let peakOfPhase = 0;
const timer = setInterval(() => {
  const rss = mb('VmRSS');
  peakOfPhase = Math.max(peakOfPhase, rss);
  console.error(`${((performance.now() - t0) / 1000).toFixed(0)} s ${phase} rss ${rss} MB`);
}, 5000);
const mark = (next: string) => {
  console.error(`== ${phase} done at ${((performance.now() - t0) / 1000).toFixed(1)} s, peak rss sampled ${Math.max(peakOfPhase, mb('VmRSS'))} MB, VmHWM ${mb('VmHWM')} MB`);
  phase = next;
  peakOfPhase = 0;
};
const instance = await openDuckDB({ threads: 2, memoryLimit: process.env['ML'] ?? '1GB', tempDirectory: join(out!, 'spill') });
const conn = await instance.connect();
await run(conn, `ATTACH ${sqlString(join(out!, 'data', 'timeseries-v1.duckdb'))} AS timeseries_v1 (ROW_GROUP_SIZE ${process.env['RG'] ?? TIMESERIES_ROW_GROUP_SIZE})`);
await run(conn, 'USE timeseries_v1');
const p = (t: string) => `read_parquet(${sqlString(join(snapshot!, `${t}.parquet`))}, hive_partitioning = false)`;
mark(mode === 'passes' ? 'database and series file in passes' : 'database');
await buildTimeseriesDb(conn, p, readConfigFiles(snapshot!), (name) => console.error(`table ${name}`), mode === 'passes' ? { seriesFileDir: join(out!, 'data') } : {});
if (mode !== 'passes') {
  mark('series file, one stream of the table');
  const [n] = await all(conn, 'SELECT count(*) AS n FROM timeseries');
  await writeSeriesFile(conn, join(out!, 'data'), Number(n!['n']));
}
await run(conn, 'CHECKPOINT');
mark('end');
clearInterval(timer);
console.error(`MODE=${mode} total ${((performance.now() - t0) / 1000).toFixed(1)} s, VmHWM ${mb('VmHWM')} MB, index ${existsSync(join(out!, 'data', 'observations-v1.index'))}`);
conn.closeSync();
instance.closeSync();
rmSync(out!, { recursive: true, force: true });
