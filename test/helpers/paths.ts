import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Scratch space of the tests (git-ignored). */
export const TEST_TMP = join(dirname(fileURLToPath(import.meta.url)), '..', '.tmp');

/** A scratch folder of this test run's own (beside its demo snapshot), removed when the run ends. */
export function runTmp(demoSnapshot: string, name: string): string {
  return join(dirname(demoSnapshot), name);
}

/** Every file below a folder. */
export function walkFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walkFiles(join(dir, e.name)) : [join(dir, e.name)]));
}
