/**
 * Atomic builds (build-scripts/lib/atomic-output.ts): builds made in the same second by the same process (a daily
 * append takes well under one) each get a folder of their own, named in the order they were made, and the output
 * link points at the last; a failed build leaves the last good one served.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { buildAtomically } from '../../build-scripts/lib/atomic-output.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const root = join(TEST_TMP, `atomic-output-${process.pid}`);
mkdirSync(root, { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('five builds in a row, within a second or two: five folders named in order, the link at the last, a failure changes nothing', async () => {
  const out = join(root, 'dist');
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    const folder = await buildAtomically(out, async (f) => {
      mkdirSync(join(f, 'site'), { recursive: true });
      writeFileSync(join(f, 'n.txt'), String(i));
    }, { reuse: false });
    made.push(basename(folder));
    expect(readFileSync(join(out, 'n.txt'), 'utf8')).toBe(String(i));
  }
  expect(new Set(made).size).toBe(5);
  expect([...made].sort()).toEqual(made);
  await expect(buildAtomically(out, async () => Promise.reject(new Error('the snapshot is bad')), { reuse: false })).rejects.toThrow('the snapshot is bad');
  expect(basename(realpathSync(out))).toBe(made.at(-1));
  expect(readFileSync(join(out, 'n.txt'), 'utf8')).toBe('4');
  // the last two kept (an endpoint may still serve the one before), nothing partial left
  expect(readdirSync(`${out}.builds`).sort()).toEqual(made.slice(-2));
});
