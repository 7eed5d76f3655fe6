/**
 * The folder in which a supervisor's endpoint processes share the answers they hold (server/shared-answers.ts):
 * made when the supervisor starts more than one process, in memory (/dev/shm), readable by its user only; kept
 * within its budget, oldest entries first; removed when the supervisor stops, and, if one was killed outright,
 * by the next supervisor to start.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { sweepScratch } from './scratch.ts';

/** The environment variable that names the folder (set by the supervisor for its workers). */
export const SHARED_ANSWERS_ENV = 'SNAPCAT_SHARED_ANSWERS';
/** Bytes the folder holds at most (lib/supervisor.ts removes the oldest entries past it). */
export const SHARED_BUDGET = 64 * 2 ** 20;

/** Where the folders go: memory, so an entry is read at the speed of a copy. */
export const SHARED_ROOT = '/dev/shm';
/** The folders' kind, as the scratch folders' (lib/scratch.ts): `snapcat-answers-<pid>`. */
const KIND = 'answers';

/** Below this much room the answers are not shared (a container's /dev/shm is 64 MB by default). */
const SHARED_MIN = 4 * 2 ** 20;

/**
 * This supervisor's folder (named by its pid), made empty, and the bytes it may hold: `budget`, or a quarter of
 * the room left where that is less (/dev/shm is shared with others: Chromium's renderers use it); undefined
 * where there is no /dev/shm or too little room.
 */
export function openSharedFolder(budget: number, root = SHARED_ROOT, pid = process.pid): { dir: string; budget: number } | undefined {
  if (!existsSync(root)) return undefined;
  removeStaleFolders(root);
  const dir = join(root, `snapcat-${KIND}-${pid}`);
  try {
    const fs = statfsSync(root);
    const room = Math.min(budget, Math.floor((fs.bavail * fs.bsize) / 4));
    if (room < SHARED_MIN) return undefined;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    return { dir, budget: room };
  } catch {
    return undefined;
  }
}

/** Removes the folders of supervisors that are gone (killed outright: no chance to remove their own), as scratch folders are. */
export function removeStaleFolders(root = SHARED_ROOT): void {
  sweepScratch(KIND, root);
}

/**
 * Keeps `dir` within `budget` bytes: removes its oldest entries (by the time they were written) until the rest
 * fit. Entries being written (`.tmp`) are left to their writers. Returns the bytes kept.
 */
export function sweepSharedFolder(dir: string, budget: number): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const entries: { name: string; size: number; at: number }[] = [];
  let total = 0;
  for (const name of names) {
    if (name.endsWith('.tmp')) continue;
    try {
      const s = statSync(join(dir, name));
      entries.push({ name, size: s.size, at: s.mtimeMs });
      total += s.size;
    } catch {
      // removed meanwhile
    }
  }
  if (total <= budget) return total;
  entries.sort((a, b) => a.at - b.at);
  for (const e of entries) {
    if (total <= budget) break;
    try {
      unlinkSync(join(dir, e.name));
    } catch {
      // removed meanwhile
    }
    total -= e.size;
  }
  return total;
}

export function removeSharedFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
