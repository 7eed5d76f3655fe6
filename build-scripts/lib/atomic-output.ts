/**
 * Atomic builds: the output path is a symbolic link to a finished build folder beside it
 * (`dist -> dist.builds/<stamp>`). A build writes a new folder, and only when it is complete swaps the link
 * with one rename(2). A failed or killed build leaves the last good tree, and the link, untouched.
 *
 * Incremental builds start the new folder from an earlier build's tree (its base) and rewrite only what
 * changed (tree-state.ts). The base is, in this order:
 * - `recycled`: the build before the one being served, moved to the new folder's name (no file is touched:
 *   the cheapest start). Only once the served build has been served `recycleAfterMs`, so no endpoint that
 *   follows the link is still on the older one;
 * - `linked`: the served build's tree, hard-linked file by file into the new folder (the served files are
 *   never written: the build replaces names, it does not write into files);
 * - none: an empty folder (no earlier build with a tree state, or `reuse: false`).
 */
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { BROWSE_SUMMARY_FILE } from '../../core/radar/browse-summary-file.ts';
import { hasTreeState } from './tree-state.ts';

export interface BaseTree {
  how: 'recycled' | 'linked';
  /** The build folder the base tree came from. */
  from: string;
  /** The folder holding the base's tree state. */
  stateFolder: string;
}

export interface AtomicOptions {
  /** Start from an earlier build's tree when one has a tree state (default true). */
  reuse?: boolean;
  /** Recycle the build before the served one only when the link has pointed past it this long (default 60 s). */
  recycleAfterMs?: number;
}

/** What a recycled folder holds besides its tree: all of it is made again by the build. */
const REMADE = ['data', 'history', 'build.json', BROWSE_SUMMARY_FILE, 'nginx.conf', 'site-files.json'];

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

async function currentTarget(out: string): Promise<string | undefined> {
  const st = await lstat(out).catch(() => undefined);
  if (!st) return undefined;
  if (!st.isSymbolicLink()) {
    throw new Error(`${out} exists and is not a link to a snapcat build; move it away or choose another --out`);
  }
  return resolve(dirname(out), await readlink(out));
}

/** Hard-links every file below `from` into `to` (`cp -al`, or file by file where cp is not GNU's). */
function linkTree(from: string, to: string): void {
  const cp = spawnSync('cp', ['-al', from, to], { encoding: 'utf8' });
  if (cp.status === 0) return;
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { recursive: true, withFileTypes: true })) {
    const rel = relative(from, join(e.parentPath, e.name));
    if (e.isDirectory()) mkdirSync(join(to, rel), { recursive: true });
    else linkSync(join(from, rel), join(to, rel));
  }
}

async function prepareBase(out: string, builds: string, previous: string | undefined, partial: string, opts: AtomicOptions): Promise<BaseTree | undefined> {
  if (!(opts.reuse ?? true) || previous === undefined) return undefined;
  const servedMs = Date.now() - (await lstat(out)).mtimeMs;
  if (servedMs >= (opts.recycleAfterMs ?? 60_000)) {
    const older = (await readdir(builds))
      .filter((e) => !e.includes('.') && join(builds, e) !== previous && hasTreeState(join(builds, e)))
      .sort()
      .at(-1);
    if (older !== undefined) {
      await rename(join(builds, older), partial);
      for (const f of REMADE) await rm(join(partial, f), { recursive: true, force: true });
      return { how: 'recycled', from: older, stateFolder: partial };
    }
  }
  if (!hasTreeState(previous)) return undefined;
  await mkdir(partial);
  linkTree(join(previous, 'site'), join(partial, 'site'));
  return { how: 'linked', from: basename(previous), stateFolder: previous };
}

/**
 * Runs `fill(folder, base)` on a new build folder and, when it succeeds, makes `out` point at it. `base` says
 * which earlier tree the folder already holds (none: the folder is empty). Returns the folder.
 */
export async function buildAtomically(outArg: string, fill: (folder: string, base: BaseTree | undefined) => Promise<void>, opts: AtomicOptions = {}): Promise<string> {
  const out = resolve(outArg);
  const previous = await currentTarget(out);
  const builds = `${out}.builds`;
  await mkdir(builds, { recursive: true });
  const name = await freshName(builds);
  const partial = join(builds, `${name}.partial`);
  const final = join(builds, name);
  try {
    const base = await prepareBase(out, builds, previous, partial, opts);
    await fill(partial, base);
    await rename(partial, final);
    const tmpLink = `${out}.link-${process.pid}`;
    await rm(tmpLink, { force: true });
    await symlink(relative(dirname(out), final), tmpLink);
    await rename(tmpLink, out);
  } catch (e) {
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
  // Keep the new build and the one before it (an endpoint may still be serving it); remove older ones and
  // the remains of killed builds.
  for (const entry of await readdir(builds)) {
    const path = join(builds, entry);
    if (path === final || path === previous) continue;
    if (entry.endsWith('.partial') && isAlive(entry)) continue;
    await rm(path, { recursive: true, force: true });
  }
  return final;
}

/**
 * A build folder's name: the time to the second and the process, `20261126T153613Z-15715`; a second build of the
 * same process in the same second (a daily append takes well under one) gets a counter after the `Z`
 * (`20261126T153613Z2-15715`), which sorts after the first, as the builds' order by name must.
 */
async function freshName(builds: string): Promise<string> {
  const s = stamp();
  // past the highest counter of this second's builds still there (older ones may be removed: never reuse a name)
  let last = 0;
  for (const e of await readdir(builds)) {
    const m = e.startsWith(s) ? /^Z?(\d*)-(\d+)(\.partial)?$/.exec(e.slice(s.length)) : null;
    if (m) last = Math.max(last, m[1] ? Number(m[1]) : 1);
  }
  return `${s}${last === 0 ? '' : last + 1}-${process.pid}`;
}

/** A `.partial` folder of a build still running (its pid alive) is not ours to remove. */
function isAlive(entry: string): boolean {
  const pid = Number(/-(\d+)\.partial$/.exec(basename(entry))?.[1]);
  if (!pid || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
