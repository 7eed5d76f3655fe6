import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Scratch space of the tests (git-ignored). */
export const TEST_TMP = join(dirname(fileURLToPath(import.meta.url)), '..', '.tmp');
