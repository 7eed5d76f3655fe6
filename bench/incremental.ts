/**
 * Incremental builds against full ones: a catalogue of N days is built, then the snapshot of the next day
 * (N + 1 days, the same network) is built over it and, side by side, into an empty folder. The two trees
 * must hold the same bytes (compared through their tree states and a sample of files). Then N + 2 days over
 * the recycled N-day folder (two days of changes: the build before the served one). `npm run bench -- --only
 * incremental --days N` sets N.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildResult } from '../build-scripts/build.ts';
import { treeStateFilesSql } from '../build-scripts/lib/tree-state.ts';
import { all, openDuckDB, sqlString } from '../lib/duckdb.ts';
import { radarSnapshot, WORK } from './radar.ts';

export interface IncrementalFigures {
  days: number;
  treeFiles: number;
  full: BuildResult;
  linked: BuildResult;
  recycled: BuildResult;
  /** Files whose digest differs between the incremental and the full tree (must be 0), and files compared byte by byte. */
  differing: number;
  sampled: number;
}

/** A build's files as its tree state records them: `(path, digest)`. */
function stateFiles(folder: string): string {
  const sql = treeStateFilesSql(folder);
  if (!sql) throw new Error(`${folder} holds no tree state`);
  return sql;
}

const KEPT_STATE = 'state.parquet';

/**
 * Keeps what the comparison needs of a full build's tree before it is removed (the disk holds one 365-day tree, not
 * two): its files' digests, and a sample of its files.
 */
async function keepForComparison(full: string, keep: string, sampled: string[]): Promise<void> {
  rmSync(keep, { recursive: true, force: true });
  mkdirSync(join(keep, 'files'), { recursive: true });
  await query(`COPY (${stateFiles(full)}) TO ${sqlString(join(keep, KEPT_STATE))} (FORMAT parquet)`);
  sampled.forEach((p, i) => copyFileSync(join(full, 'site', p), join(keep, 'files', String(i))));
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await openDuckDB();
  const conn = await db.connect();
  try {
    return await all(conn, sql);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

async function samplePaths(folder: string, sample: number): Promise<string[]> {
  return (await query(`SELECT path FROM (${stateFiles(folder)}) USING SAMPLE ${Number(sample)} ROWS`)).map((r) => r['path'] as string);
}

/** Files whose digest differs between `a`'s tree state and the kept one, plus sampled files whose bytes differ. */
async function sameTrees(a: string, kept: string, sampled: string[]): Promise<{ differing: number; sampled: number }> {
  const [row] = await query(
    `SELECT count(*) AS n FROM (${stateFiles(a)}) x FULL JOIN read_parquet(${sqlString(join(kept, KEPT_STATE))}) y USING (path)
     WHERE x.digest IS DISTINCT FROM y.digest`,
  );
  let differing = Number(row!['n']);
  sampled.forEach((p, i) => {
    if (!readFileSync(join(a, 'site', p)).equals(readFileSync(join(kept, 'files', String(i))))) differing++;
  });
  return { differing, sampled: sampled.length };
}

/** Removes a build output (its link, its builds, its cache): `rm -rf`, much faster than node on millions of files. */
function removeOutput(o: string): void {
  execFileSync('rm', ['-rf', o, `${o}.builds`, `${o}.cache`]);
}

/**
 * `workDir`: where the builds go (a RAM disk with --ram-disk); the snapshots stay in bench/.work. The full build of
 * N + 1 days comes first and is removed once its state and a sample are kept, so the disk holds one full tree at a
 * time (a 365-day tree is 7 million files).
 */
export async function benchIncremental(days: number, log: (line: string) => void, workDir = WORK): Promise<IncrementalFigures> {
  const [n0, n1, n2] = [await radarSnapshot('2024-01-01', days), await radarSnapshot('2024-01-01', days + 1), await radarSnapshot('2024-01-01', days + 2)];
  mkdirSync(workDir, { recursive: true });
  const out = join(workDir, 'incremental-dist');
  const fullOut = join(workDir, 'incremental-full');
  const kept = join(workDir, 'incremental-full-kept');
  for (const o of [out, fullOut]) removeOutput(o);
  const timed = async (what: string, opts: Parameters<typeof build>[0]) => {
    execFileSync('sync');
    // history: false, as in test/integration/incremental-build.test.ts: these builds compare trees of one snapshot
    // built with different pasts, and snapshots.json and the feeds record the past (the 42 files that differed);
    // the history's own cost is the changes section's (bench/changes.ts)
    const r = await build({ ...opts, quiet: true, history: false });
    log(`  ${what}: ${r.seconds.toFixed(1)} s, ${r.stats['tree files written']} written, ${r.stats['tree files kept']} kept, ${r.stats['tree files removed']} removed (${JSON.stringify(r.phases, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v))})`);
    return r;
  };
  log(`incremental builds, ${days}-day radar catalogue and the next days (with the site, no charts) ...`);
  const full = await timed(`${days + 1} days into an empty folder`, { snapshot: n1, out: fullOut, full: true });
  const sampled = await samplePaths(full.folder, 2000);
  await keepForComparison(full.folder, kept, sampled);
  removeOutput(fullOut);
  await timed(`full build of ${days} days`, { snapshot: n0, out });
  const linked = await timed(`${days + 1} days over it (linked)`, { snapshot: n1, out });
  const check = await sameTrees(linked.folder, kept, sampled);
  const recycled = await timed(`${days + 2} days over the recycled ${days}-day folder`, { snapshot: n2, out, recycleAfterMs: 0 });
  rmSync(kept, { recursive: true, force: true });
  if (workDir !== WORK) removeOutput(out);
  return { days, treeFiles: full.stats['tree files'] ?? 0, full, linked, recycled, ...check };
}
