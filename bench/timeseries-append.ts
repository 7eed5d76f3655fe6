/**
 * Daily append at scale (issue 23; `npm run bench -- --only timeseries-append [--scale full] [--days N]`): a demo
 * network `factor` times the demo's (`--series-factor`, `--fast-values`) over `days` days, its observations cut
 * into two files, the archive (all days but the last) and the last day, as a snapshot publishes them for daily
 * appends (build-scripts/timeseries/append.ts). Then, database-only, in one run:
 *   1. the archive alone, built in full (the last build);
 *   2. archive + last day over it: the daily append;
 *   3. archive + last day built in full into another folder (what the append is compared with).
 * CPU seconds are the process's (user + system: DuckDB's threads included), measured around each build.
 * Generated once into bench/.work/ts-append-<factor>x<days>/ and kept (the snapshots are reused when present).
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildResult } from '../build-scripts/build.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { all, openDuckDB, run, sqlString } from '../lib/duckdb.ts';

export interface AppendBench {
  factor: number;
  days: number;
  observations: number;
  lastDay: number;
  full: Measured;
  append: Measured;
  base: Measured;
}

export interface Measured {
  seconds: number;
  cpuSeconds: number;
  result: BuildResult;
}

async function measured(f: () => Promise<BuildResult>): Promise<Measured> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await f();
  const c = process.cpuUsage(c0);
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (c.user + c.system) / 1e6, result };
}

/** The snapshots of a daily append: the archive (all days but the last) and the daily one (archive + last day). */
export interface AppendSnapshots {
  work: string;
  archive: string;
  daily: string;
  observations: number;
  lastDay: number;
}

/**
 * Generates (once, kept in bench/.work/ts-append-<factor>x<days>/) the demo network ×`factor` over `days` days
 * from 2024-01-01, its observations cut into the archive and the last day.
 */
export async function appendSnapshots(opts: { factor: number; days: number; log: (l: string) => void }): Promise<AppendSnapshots> {
  const work = resolve(import.meta.dirname, '.work', `ts-append-${opts.factor}x${opts.days}`);
  const source = join(work, 'source');
  const archive = join(work, 'snapshot-archive');
  const daily = join(work, 'snapshot-daily');
  const from = '2024-01-01';
  const lastDayStart = Date.parse(`${from}T00:00:00Z`) + (opts.days - 1) * 86_400_000;
  let observations = 0;
  let lastDay = 0;
  if (!existsSync(join(daily, 'snapshot.json'))) {
    rmSync(work, { recursive: true, force: true });
    opts.log(`timeseries-append: generating ${opts.days} days of the demo network ×${opts.factor} (fast values) ...`);
    await writeDemoSnapshot({ from, days: opts.days, seed: 1, out: source, apis: ['timeseries-v1'], seriesFactor: opts.factor, fastValues: true, log: opts.log });
    for (const dir of [archive, daily]) mkdirSync(join(dir, 'observations'), { recursive: true });
    const instance = await openDuckDB({ threads: 2, memoryLimit: '1GB', tempDirectory: join(work, 'tmp') });
    const conn = await instance.connect();
    try {
      const obs = `read_parquet(${sqlString(join(source, 'observations.parquet'))})`;
      // the file is sorted by (timeseries_id, timestamp): a filter keeps that order
      mkdirSync(join(archive, 'observations', 'day=archive'), { recursive: true });
      mkdirSync(join(daily, 'observations', `day=last`), { recursive: true });
      opts.log('timeseries-append: cutting the observations into the archive and the last day ...');
      await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" < ${lastDayStart}) TO ${sqlString(join(archive, 'observations', 'day=archive', 'part-0.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
      await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" >= ${lastDayStart}) TO ${sqlString(join(daily, 'observations', 'day=last', 'part-0.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    // the daily snapshot holds the archive's very file (a hard link) and the new day's
    mkdirSync(join(daily, 'observations', 'day=archive'));
    linkSync(join(archive, 'observations', 'day=archive', 'part-0.parquet'), join(daily, 'observations', 'day=archive', 'part-0.parquet'));
    const manifest = JSON.parse(readFileSync(join(source, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
    // every other file of the snapshot (tables, configuration) as it is
    for (const f of readdirSync(source)) {
      if (f === 'observations.parquet' || f === 'snapshot.json' || !statSync(join(source, f)).isFile()) continue;
      for (const dir of [archive, daily]) linkSync(join(source, f), join(dir, f));
    }
    writeFileSync(join(archive, 'snapshot.json'), JSON.stringify({ ...manifest, name: `${String(manifest['name'])}-archive`, taken_at: new Date(lastDayStart).toISOString() }, null, 2) + '\n');
    writeFileSync(join(daily, 'snapshot.json'), JSON.stringify(manifest, null, 2) + '\n');
    rmSync(join(source, 'observations.parquet'));
  }
  {
    const instance = await openDuckDB({ threads: 2 });
    const conn = await instance.connect();
    try {
      const count = async (dir: string) => Number((await all(conn, `SELECT count(*) AS n FROM read_parquet(${sqlString(join(dir, 'observations', '*', '*.parquet'))})`))[0]!['n']);
      observations = await count(daily);
      lastDay = observations - (await count(archive));
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return { work, archive, daily, observations, lastDay };
}

export async function benchTimeseriesAppend(opts: { factor: number; days: number; log: (l: string) => void }): Promise<AppendBench> {
  const { work, archive, daily, observations, lastDay } = await appendSnapshots(opts);
  const out = join(work, 'dist');
  const fullOut = join(work, 'dist-full');
  for (const o of [out, fullOut]) rmSync(o, { force: true }), rmSync(`${o}.builds`, { recursive: true, force: true }), rmSync(`${o}.cache`, { recursive: true, force: true });
  opts.log(`timeseries-append: ${observations.toLocaleString('en')} observations; building the archive (${(observations - lastDay).toLocaleString('en')}) in full ...`);
  const base = await measured(() => build({ snapshot: archive, out, quiet: true, dbOnly: true, history: false }));
  opts.log(`  ${base.seconds.toFixed(1)} s; the last day (${lastDay.toLocaleString('en')}) appended over it ...`);
  const append = await measured(() => build({ snapshot: daily, out, quiet: true, dbOnly: true, history: false }));
  if (append.result.stats['timeseries observations appended'] !== lastDay) throw new Error(`the daily build did not append (${JSON.stringify(append.result.stats)})`);
  opts.log(`  ${append.seconds.toFixed(1)} s; the same snapshot in full ...`);
  const full = await measured(() => build({ snapshot: daily, out: fullOut, quiet: true, dbOnly: true, history: false }));
  opts.log(`  ${full.seconds.toFixed(1)} s`);
  // the appended build's series file is the full build's observations, in two segments
  const bytes = (dir: string, names: string[]) => names.reduce((a, n) => a + statSync(join(dir, 'data', `${n}.pairs`)).size, 0);
  if (bytes(append.result.folder, ['observations-v1', 'observations-v1.1']) !== bytes(full.result.folder, ['observations-v1'])) throw new Error('the appended series file does not hold the full build\'s observations');
  return { factor: opts.factor, days: opts.days, observations, lastDay, full, append, base };
}
