/**
 * Placing the docs site's files into a build's static tree: never over a file of the API tree (a name that
 * collides fails the whole placement before anything moves), and replacing the pages of an earlier site
 * build, which `<build>/site-files.json` lists.
 */
import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { TreeWriter } from './tree-writer.ts';

export const SITE_FILES_MANIFEST = 'site-files.json';

/** Every file below a folder, as `/`-separated paths relative to it, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

async function previousFiles(manifest: string): Promise<Set<string>> {
  if (!existsSync(manifest)) return new Set();
  const m = JSON.parse(await readFile(manifest, 'utf8')) as { files?: unknown };
  return new Set(Array.isArray(m.files) ? m.files.filter((f): f is string => typeof f === 'string') : []);
}

/** True when the tree has something at `rel` (a file, or a folder where the site wants a file) or a file where the site wants a folder. */
async function blocked(siteDir: string, rel: string): Promise<boolean> {
  if (await lstat(join(siteDir, rel)).then(() => true, () => false)) return true;
  for (let dir = dirname(rel); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    const st = await lstat(join(siteDir, dir)).catch(() => undefined);
    if (st) return !st.isDirectory();
  }
  return false;
}

/** Removes a file of the earlier site, then its folders as long as they are empty (never the tree's root). */
async function removeOld(siteDir: string, rel: string): Promise<void> {
  await rm(join(siteDir, rel), { force: true });
  for (let dir = dirname(rel); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    const ok = await rmdir(join(siteDir, dir)).then(
      () => true,
      () => false,
    );
    if (!ok) break;
  }
}

/** Renames a file, copying it where the target is on another file system. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await copyFile(from, to);
    await unlink(from);
  }
}

/**
 * Moves every file of `from` into `siteDir`. Throws, moving nothing, when a file
 * would land on a path of the tree that the earlier site build did not place. Returns the placed paths.
 */
export async function placeSiteFiles(from: string, siteDir: string, manifestPath: string): Promise<string[]> {
  const files = await listFiles(from);
  const previous = await previousFiles(manifestPath);
  const collisions: string[] = [];
  for (const rel of files) {
    if (previous.has(rel)) continue;
    if (await blocked(siteDir, rel)) collisions.push(rel);
  }
  if (collisions.length > 0) {
    const shown = collisions.slice(0, 5).join(', ');
    throw new Error(`the docs site would overwrite ${collisions.length} path(s) of the API tree in ${siteDir}: ${shown}${collisions.length > 5 ? ', …' : ''}. Rename the page(s) in site/pages/.`);
  }
  for (const rel of previous) await removeOld(siteDir, rel);
  for (const rel of files) {
    await mkdir(dirname(join(siteDir, rel)), { recursive: true });
    await move(join(from, rel), join(siteDir, rel));
  }
  await writeFile(manifestPath, JSON.stringify({ files }, null, 2) + '\n');
  return files;
}

/**
 * Within a build: moves every file of `from` into the tree through the build's writer, which keeps a page
 * whose bytes the base tree already holds. Throws, moving nothing, when a page would land on a file the API
 * trees wrote. Returns the placed paths.
 */
export async function placeSiteFilesWith(writer: TreeWriter, from: string, manifestPath: string): Promise<string[]> {
  const files = await listFiles(from);
  const collisions = files.filter((rel) => writer.has(rel));
  if (collisions.length > 0) {
    const shown = collisions.slice(0, 5).join(', ');
    throw new Error(`the docs site would overwrite ${collisions.length} path(s) of the API tree: ${shown}${collisions.length > 5 ? ', …' : ''}. Rename the page(s) in site/pages/.`);
  }
  for (const rel of files) writer.moveIn(join(from, rel), rel);
  await writeFile(manifestPath, JSON.stringify({ files }, null, 2) + '\n');
  return files;
}
