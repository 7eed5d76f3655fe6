/**
 * Atomic builds: the output path is a symbolic link to a finished build folder beside it
 * (`dist -> dist.builds/<stamp>`). A build writes a new folder, and only when it is complete swaps the link
 * with one rename(2). A failed or killed build leaves the last good tree, and the link, untouched.
 */
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';

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

/** Runs `fill(folder)` on a new build folder and, when it succeeds, makes `out` point at it. Returns the folder. */
export async function buildAtomically(outArg: string, fill: (folder: string) => Promise<void>): Promise<string> {
  const out = resolve(outArg);
  const previous = await currentTarget(out);
  const builds = `${out}.builds`;
  await mkdir(builds, { recursive: true });
  const name = `${stamp()}-${process.pid}`;
  const partial = join(builds, `${name}.partial`);
  const final = join(builds, name);
  try {
    await fill(partial);
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
