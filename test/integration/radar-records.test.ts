/**
 * Reading a JSON collection of the tree in chunks (build-scripts/lib/tree-records.ts): every record, in order, whatever
 * the chunk size, with `},{` inside strings, nested objects and characters cut by a chunk boundary.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { treeRecordReader } from '../../build-scripts/lib/tree-records.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const folder = join(TEST_TMP, `radar-records-${process.pid}`);
const saved = process.env.SNAPCAT_BUILD;
const forEachTreeRecord = treeRecordReader(join(folder, 'site'));

const records = Array.from({ length: 200 }, (_, i) => ({
  id: i,
  name: i % 7 === 0 ? `odd },{ name "${i}" \\ ü€𝄞` : `file-${i}.rawacf.bz2`,
  nested: i % 5 === 0 ? { a: [{ b: i }, { c: '},{' }], d: null } : null,
  flag: i % 2 === 0,
}));

describe('forEachTreeRecord', () => {
  beforeAll(async () => {
    await mkdir(join(folder, 'site'), { recursive: true });
    await writeFile(join(folder, 'site', 'many.json'), JSON.stringify(records));
    await writeFile(join(folder, 'site', 'empty.json'), '[]');
    await writeFile(join(folder, 'site', 'cut.json'), JSON.stringify(records).slice(0, -1));
    process.env.SNAPCAT_BUILD = folder;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.SNAPCAT_BUILD;
    else process.env.SNAPCAT_BUILD = saved;
    await rm(folder, { recursive: true, force: true });
  });

  test.each([1, 2, 3, 7, 64, 1000, 1 << 20])('gives every record in order with %i-byte chunks', (chunk) => {
    const got: unknown[] = [];
    expect(forEachTreeRecord('many.json', (r) => got.push(r), chunk)).toBe(records.length);
    expect(got).toEqual(records);
  });

  test('an empty array has no record, a missing file none either, a cut one fails', () => {
    expect(forEachTreeRecord('empty.json', () => {}, 1)).toBe(0);
    expect(forEachTreeRecord('missing.json', () => {})).toBe(0);
    expect(() => forEachTreeRecord('cut.json', () => {}, 16)).toThrow(/cut short/);
  });
});
