/**
 * Writes by the build's worker thread (build-scripts/lib/background-writes.ts): every file with its bytes, in
 * batches and past the batch size; links to files queued before them; a failed write raised by `finish`
 * (and by `settle` for the writes after it), naming the reason, without hanging.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BackgroundWrites } from '../../build-scripts/lib/background-writes.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const dir = join(TEST_TMP, `background-writes-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (i: number) => Buffer.from(`{"id":${i},"pad":"${'x'.repeat(i % 700)}"}`);

describe('background writes', () => {
  test('5,000 files and 5,000 links, several batches; a file larger than a batch', async () => {
    const out = join(dir, 'many');
    mkdirSync(out);
    const w = new BackgroundWrites();
    for (let i = 0; i < 5000; i++) {
      w.write(join(out, `${i}.json`), bytesOf(i));
      w.link(join(out, `${i}.json`), join(out, `${i}.expanded.json`));
      if (i % 500 === 0) await w.settle();
    }
    const big = Buffer.alloc(3 * 2 ** 20, 7);
    w.write(join(out, 'big'), big);
    w.write(join(out, 'after-big'), bytesOf(1));
    await w.finish();
    for (let i = 0; i < 5000; i += 37) {
      expect(readFileSync(join(out, `${i}.json`)).equals(bytesOf(i)), `${i}.json`).toBe(true);
      expect(statSync(join(out, `${i}.expanded.json`)).ino).toBe(statSync(join(out, `${i}.json`)).ino);
    }
    expect(readFileSync(join(out, '4999.json')).equals(bytesOf(4999))).toBe(true);
    expect(readFileSync(join(out, 'big')).equals(big)).toBe(true);
    expect(readFileSync(join(out, 'after-big')).equals(bytesOf(1))).toBe(true);
  });

  test('a failed write is raised with its reason, by finish and by the next settle', async () => {
    const out = join(dir, 'failing');
    mkdirSync(out);
    const w = new BackgroundWrites();
    w.write(join(out, 'fine.json'), bytesOf(1));
    w.write(join(out, 'no-such-folder', 'x.json'), bytesOf(2));
    await expect(w.finish()).rejects.toThrow(/writing the tree: ENOENT.*no-such-folder/);
    expect(readFileSync(join(out, 'fine.json')).equals(bytesOf(1))).toBe(true);

    const v = new BackgroundWrites();
    v.link(join(out, 'missing.json'), join(out, 'link.json'));
    let raised: unknown;
    for (let i = 0; i < 20_000 && !raised; i++) {
      v.write(join(out, `later-${i % 10}.json`), bytesOf(i));
      if (i % 100 === 0) raised = await v.settle().then(() => undefined, (e: unknown) => e);
    }
    raised ??= await v.finish().then(() => undefined, (e: unknown) => e);
    expect(String(raised)).toMatch(/writing the tree: ENOENT.*missing\.json/);
    await v.abort();
  });
});
