/**
 * Incremental builds against full ones: a catalogue of N days is built, then the snapshot of the next day
 * (N + 1 days, the same network) is built over it and, side by side, into an empty folder. The two trees
 * must hold the same bytes (compared through their tree states and a sample of files). Then N + 2 days over
 * the recycled N-day folder (two days of changes: the build before the served one).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildResult } from '../build-scripts/build.ts';
import { TREE_STATE_FILE } from '../build-scripts/lib/tree-state.ts';
import { all, openDuckDB, sqlString } from '../lib/duckdb.ts';
import { radarSnapshot, WORK } from './radar.ts';

export interface IncrementalFigures {
  days: number;
  treeFiles: number;
  full: BuildResult;
  linked: BuildResult;
  recycled: BuildResult;
  /** Files whose MD5 differs between the incremental and the full tree (must be 0), and files compared byte by byte. */
  differing: number;
  sampled: number;
}

async function sameTrees(a: string, b: string, sample: number): Promise<{ differing: number; sampled: number }> {
  const db = await openDuckDB();
  const conn = await db.connect();
  try {
    const [row] = await all(
      conn,
      `SELECT count(*) AS n FROM read_parquet(${sqlString(join(a, TREE_STATE_FILE))}) x FULL JOIN read_parquet(${sqlString(join(b, TREE_STATE_FILE))}) y USING (path)
       WHERE x.md5 IS DISTINCT FROM y.md5`,
    );
    const paths = await all(conn, `SELECT path FROM read_parquet(${sqlString(join(a, TREE_STATE_FILE))}) USING SAMPLE ${Number(sample)} ROWS`);
    let differing = Number(row!['n']);
    for (const p of paths) {
      const rel = join('site', p['path'] as string);
      if (!readFileSync(join(a, rel)).equals(readFileSync(join(b, rel)))) differing++;
    }
    return { differing, sampled: paths.length };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** `workDir`: where the builds go (a RAM disk with --ram-disk); the snapshots stay in bench/.work. */
export async function benchIncremental(days: number, log: (line: string) => void, workDir = WORK): Promise<IncrementalFigures> {
  const [n0, n1, n2] = [await radarSnapshot('2024-01-01', days), await radarSnapshot('2024-01-01', days + 1), await radarSnapshot('2024-01-01', days + 2)];
  mkdirSync(workDir, { recursive: true });
  const out = join(workDir, 'incremental-dist');
  const fullOut = join(workDir, 'incremental-full');
  for (const o of [out, fullOut]) {
    rmSync(o, { force: true });
    rmSync(`${o}.builds`, { recursive: true, force: true });
    rmSync(`${o}.cache`, { recursive: true, force: true });
  }
  const timed = async (what: string, opts: Parameters<typeof build>[0]) => {
    execFileSync('sync');
    const r = await build({ ...opts, quiet: true });
    log(`  ${what}: ${r.seconds.toFixed(1)} s, ${r.stats['tree files written']} written, ${r.stats['tree files kept']} kept, ${r.stats['tree files removed']} removed (${JSON.stringify(r.phases, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v))})`);
    return r;
  };
  log(`incremental builds, ${days}-day radar catalogue and the next days (with the site, no charts) ...`);
  await timed(`full build of ${days} days`, { snapshot: n0, out });
  const linked = await timed(`${days + 1} days over it (linked)`, { snapshot: n1, out });
  const full = await timed(`${days + 1} days into an empty folder`, { snapshot: n1, out: fullOut, full: true });
  const check = await sameTrees(linked.folder, full.folder, 2000);
  const recycled = await timed(`${days + 2} days over the recycled ${days}-day folder`, { snapshot: n2, out, recycleAfterMs: 0 });
  if (workDir !== WORK) for (const o of [out, fullOut]) for (const f of [o, `${o}.builds`, `${o}.cache`]) rmSync(f, { recursive: true, force: true });
  return { days, treeFiles: full.stats['tree files'] ?? 0, full, linked, recycled, ...check };
}
