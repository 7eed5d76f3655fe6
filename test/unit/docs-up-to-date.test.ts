import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SNAPSHOT_FORMAT_DOC } from '../../build-scripts/docs.ts';
import { snapshotFormatDoc } from '../../core/snapshot/format-doc.ts';
import { TABLES_BY_API } from '../../core/snapshot/tables.ts';

test('docs/snapshot-format.md is generated from the table specs (run `npm run docs` after changing them)', () => {
  expect(readFileSync(SNAPSHOT_FORMAT_DOC, 'utf8')).toBe(snapshotFormatDoc());
});

test('every table and column of every API is documented with its meaning', () => {
  const doc = snapshotFormatDoc();
  for (const tables of Object.values(TABLES_BY_API)) {
    for (const t of tables) {
      expect(doc).toContain(`### \`${t.name}.parquet\``);
      for (const c of t.columns) {
        expect(c.meaning.length).toBeGreaterThan(3);
        expect(doc).toContain(`| \`${c.name}\` |`);
      }
    }
  }
});
