/** npm run docs: regenerates the documentation that is made from code (docs/snapshot-format.md). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFormatDoc } from '../core/snapshot/format-doc.ts';

export const SNAPSHOT_FORMAT_DOC = join(import.meta.dirname, '..', 'docs', 'snapshot-format.md');

if (import.meta.main) {
  writeFileSync(SNAPSHOT_FORMAT_DOC, snapshotFormatDoc());
  console.error(`wrote ${SNAPSHOT_FORMAT_DOC}`);
}
