/**
 * Spools (lib/spool.ts): bytes come out in the order they went in, whatever the reader's pace; memory stays within
 * its bounds and the rest goes to a file with no name; a reader that catches up reads from memory again; a failed
 * producer's error reaches the reader after the bytes before it; closing hands memory back and closes the file.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Spooler, SpoolFull } from '../../lib/spool.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const dir = join(TEST_TMP, `spool-unit-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readAll(it: AsyncIterable<Buffer>, pauseMs = 0): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of it) {
    parts.push(b);
    if (pauseMs) await sleep(pauseMs);
  }
  return Buffer.concat(parts);
}

describe('Spool', () => {
  test('a slow reader gets every byte in order; memory stays bounded, the rest waits in a nameless file', async () => {
    const spooler = new Spooler({ dir, memoryBytes: 8 * 1024, budgetBytes: 12 * 1024 });
    const spool = spooler.open();
    const pieces = Array.from({ length: 200 }, (_, i) => randomBytes(1 + ((i * 997) % 5000)));
    const reading = readAll(spool.reader(), 1);
    let peakMemory = 0;
    for (const p of pieces) {
      expect(await spool.write(p)).toBe(true);
      peakMemory = Math.max(peakMemory, spooler.load.memoryBytes);
    }
    spool.end();
    expect((await reading).equals(Buffer.concat(pieces))).toBe(true);
    expect(peakMemory).toBeLessThanOrEqual(8 * 1024);
    expect(spool.spilledBytes).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
    await spool.close();
    expect(spooler.load).toEqual({ open: 0, files: 0, memoryBytes: 0, diskBytes: 0, spilledBytes: spool.spilledBytes });
  });

  test('a reader as fast as the writer never touches the file', async () => {
    const spooler = new Spooler({ dir, memoryBytes: 64 * 1024 });
    const spool = spooler.open();
    const reading = readAll(spool.reader());
    const pieces = Array.from({ length: 50 }, () => randomBytes(4096));
    for (const p of pieces) {
      await spool.write(p);
      await sleep(1); // the reader takes each before the next comes
    }
    spool.end();
    expect((await reading).equals(Buffer.concat(pieces))).toBe(true);
    expect(spool.spilledBytes).toBe(0);
    await spool.close();
  });

  test('after a spill, a reader that caught up reads from memory again', async () => {
    const spooler = new Spooler({ dir, memoryBytes: 4096 });
    const spool = spooler.open();
    const first = Array.from({ length: 10 }, () => randomBytes(2048));
    for (const p of first) await spool.write(p);
    const spilled = spool.spilledBytes;
    expect(spilled).toBeGreaterThan(0);
    const it = spool.reader();
    const got: Buffer[] = [];
    let total = 0;
    while (total < 20 * 1024) {
      const r = await it.next();
      got.push(r.value as Buffer);
      total += (r.value as Buffer).length;
    }
    const later = randomBytes(1000);
    await spool.write(later);
    expect(spool.spilledBytes).toBe(spilled);
    spool.end();
    for (let r = await it.next(); !r.done; r = await it.next()) got.push(r.value);
    expect(Buffer.concat(got).equals(Buffer.concat([...first, later]))).toBe(true);
    await spool.close();
  });

  test("a producer's failure reaches the reader after the bytes before it; close ends both sides", async () => {
    const spooler = new Spooler({ dir, memoryBytes: 1024 });
    const spool = spooler.open();
    await spool.write(Buffer.from('a'.repeat(3000)));
    spool.fail(new Error('DuckDB failed'));
    const parts: Buffer[] = [];
    await expect(
      (async () => {
        for await (const b of spool.reader()) parts.push(b);
      })(),
    ).rejects.toThrow('DuckDB failed');
    expect(Buffer.concat(parts).toString()).toBe('a'.repeat(3000));
    await spool.close();
    expect(await spool.write(Buffer.from('x'))).toBe(false);
    expect(spooler.load.open).toBe(0);
    expect(spooler.load.files).toBe(0);
  });

  test('files are bounded by the disk budget: full from half of it; a spill past all of it fails the spool; closing gives it back', async () => {
    const spooler = new Spooler({ dir, memoryBytes: 1024, budgetBytes: 1024, diskBytes: 64 * 1024 });
    const a = spooler.open();
    await a.write(Buffer.alloc(1024)); // memory
    await a.write(Buffer.alloc(20 * 1024));
    expect(spooler.load.diskBytes).toBe(20 * 1024);
    expect(spooler.full).toBe(false);
    const b = spooler.open();
    await b.write(Buffer.alloc(12 * 1024)); // memory budget spent by a: to disk
    expect(spooler.load.diskBytes).toBe(32 * 1024);
    expect(spooler.full).toBe(true);
    await a.write(Buffer.alloc(32 * 1024)); // exactly the budget
    await expect(b.write(Buffer.alloc(1))).rejects.toThrow(SpoolFull);
    // what b held before is still read whole
    b.fail(new SpoolFull(spooler.diskBytes));
    const got: Buffer[] = [];
    await expect(
      (async () => {
        for await (const x of b.reader()) got.push(x);
      })(),
    ).rejects.toThrow(SpoolFull);
    expect(Buffer.concat(got).length).toBe(12 * 1024);
    await b.close();
    expect(spooler.load.diskBytes).toBe(52 * 1024);
    await a.close();
    expect(spooler.load).toMatchObject({ open: 0, files: 0, memoryBytes: 0, diskBytes: 0 });
    expect(spooler.full).toBe(false);
  });
});
