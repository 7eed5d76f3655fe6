/**
 * The baseline a static build is measured against: a plain loop writing the same bytes to the same paths
 * (writeFileSync, directories made once), on the same disk.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface TreeFile {
  rel: string;
  bytes: Buffer;
}

/** The files of a tree in a given order (the order a build wrote them). */
export function readFiles(root: string, order: string[]): TreeFile[] {
  return order.map((rel) => ({ rel, bytes: readFileSync(join(root, rel)) }));
}

/** Writes the files under `target` (removed first); returns seconds taken. */
export function plainWrite(files: TreeFile[], target: string): number {
  rmSync(target, { recursive: true, force: true });
  const t0 = performance.now();
  const dirs = new Set<string>();
  for (const f of files) {
    const abs = join(target, f.rel);
    const d = dirname(abs);
    if (!dirs.has(d)) {
      mkdirSync(d, { recursive: true });
      dirs.add(d);
    }
    writeFileSync(abs, f.bytes);
  }
  return (performance.now() - t0) / 1000;
}
