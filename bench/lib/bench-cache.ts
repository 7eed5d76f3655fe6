/**
 * Keys for what the benches generate once and reuse (bench/.work): a snapshot, its build, a loaded PostgreSQL
 * data directory. A key is a digest of the generator's inputs and of the code that made the thing (the contents
 * of the source files named, folders read whole), so a rerun with the same inputs and code reuses the work and a
 * change to either makes it again. A folder made under a key carries it in a stamp file written last: a folder
 * whose making was cut short has no stamp and is made again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The stamp file in a cached folder: its key. */
export const STAMP_FILE = 'bench-cache-key.txt';

/** Every file under `path` (a file or a folder, relative to the checkout), sorted, node_modules and dot-folders left out. */
function filesUnder(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) throw new Error(`bench cache: no ${path} to key on`);
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => filesUnder(relative(ROOT, join(abs, e.name))));
}

/** A digest of the contents (and checkout-relative names) of the files under `paths`. */
export function codeVersion(paths: string[]): string {
  const h = createHash('sha256');
  for (const file of [...new Set(paths.flatMap(filesUnder))].sort()) {
    h.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return h.digest('hex');
}

/** The key of a thing made from `inputs` (JSON-able, e.g. days and a seed, or the keys it was made from) by the code under `code`. */
export function cacheKey(inputs: unknown, code: string[]): string {
  return createHash('sha256').update(JSON.stringify(inputs)).update('\0').update(codeVersion(code)).digest('hex').slice(0, 16);
}

/** True when `folder` was made whole under `key`. */
export function stamped(folder: string, key: string): boolean {
  try {
    return readFileSync(join(folder, STAMP_FILE), 'utf8').trim() === key;
  } catch {
    return false;
  }
}

/** Marks `folder` as made whole under `key` (call once everything in it is written). */
export function stamp(folder: string, key: string): void {
  writeFileSync(join(folder, STAMP_FILE), `${key}\n`);
}

/**
 * The code of a build: the build's scripts and the core they share with the endpoint (what decides the database's
 * contents). The endpoint's own code (server/, lib/) is left out: a change there needs no new build, and the
 * benches check what the endpoint reads as they reuse a build (radarDbCurrent, seriesStoreCurrent).
 */
export const BUILD_CODE = ['build-scripts', 'core', 'lib/duckdb.ts', 'lib/series-file.ts', 'lib/timeseries-store.ts', 'package-lock.json'];

/** The key `folder` was stamped with, if any. */
export function stampOf(folder: string): string | undefined {
  try {
    return readFileSync(join(folder, STAMP_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
