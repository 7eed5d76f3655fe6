/**
 * Copies every file and folder of a snapshot but its single `observations.parquet` (the tables, the manifest,
 * configuration), for tests that lay out the observations themselves (a base file and appended parts).
 */
import { copyFileSync, cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function copySnapshotBesideObservations(source: string, dir: string): void {
  for (const f of readdirSync(source)) {
    if (f === 'observations.parquet') continue;
    if (statSync(join(source, f)).isFile()) copyFileSync(join(source, f), join(dir, f));
    else cpSync(join(source, f), join(dir, f), { recursive: true });
  }
}
