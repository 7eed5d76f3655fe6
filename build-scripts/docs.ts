/** npm run docs: regenerates the documentation that is made from code (docs/snapshot-format.md). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFormatDoc } from '../core/snapshot/format-doc.ts';
import { commandLine, type CliOption, type CliSpec } from '../lib/cli.ts';

export const SNAPSHOT_FORMAT_DOC = join(import.meta.dirname, '..', 'docs', 'snapshot-format.md');

/** `npm run docs`'s command line (lib/cli.ts): no options but --help. */
export const DOCS_CLI = {
  command: 'npm run docs --',
  usage: '',
  summary: 'Regenerates the documentation made from code: docs/snapshot-format.md (from the table descriptions validation uses).',
  options: {},
  examples: ['npm run docs'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  commandLine(DOCS_CLI);
  writeFileSync(SNAPSHOT_FORMAT_DOC, snapshotFormatDoc());
  console.error(`wrote ${SNAPSHOT_FORMAT_DOC}`);
}
