/**
 * Scratch folders of a build or a validation (where DuckDB spills), in the system's temporary folder:
 * `snapcat-<kind>-<pid>-XXXXXX` (and, swept alike, the endpoint's shared answers, `snapcat-answers-<pid>` in
 * /dev/shm: lib/shared-answers-folder.ts). Each is removed when its work ends, whether it succeeded or failed (finally), when
 * the process exits (an `exit` hook: process.exit, and SIGINT/SIGTERM of a command-line run, see `removeOnSignals`),
 * and, for a process killed outright (kill -9, out of memory), by the next run of the same kind, which removes
 * every such folder whose process is gone (`sweepScratch`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

/** The scratch folders of this process not removed yet. */
const live = new Set<string>();
let hooked = false;

function removeAllNow(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/** Whether a process of this machine's pid namespace is running (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The scratch folders of `kind` (`snapcat-<kind>-<pid>`, with or without a suffix) whose process is gone: removed. Returns the paths removed. */
export function sweepScratch(kind: string, dir = tmpdir()): string[] {
  const prefix = `snapcat-${kind}-`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)(?:-|$)/.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(join(dir, name));
  }
  return removed;
}

/** A new scratch folder of `kind` (the remains of dead processes of that kind removed first). */
export function makeScratch(kind: string): string {
  sweepScratch(kind);
  const dir = mkdtempSync(join(tmpdir(), `snapcat-${kind}-${process.pid}-`));
  live.add(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', removeAllNow);
  }
  return dir;
}

/** Removes a scratch folder made by `makeScratch`. */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
}

/**
 * For a command-line run: SIGINT and SIGTERM end the process with 130 and 143 (as a shell reports them), after
 * the `exit` hook removed its scratch folders (Node's default for these signals skips exit hooks).
 */
export function removeOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}
