/**
 * Answers shared between the endpoint processes of one supervisor (server/shared-answers.ts, lib/shared-answers-folder.ts):
 * an answer one process made and holds is answered by another from the shared folder, the same bytes and
 * headers, without being made again; an entry that is not whole is a miss, never a wrong answer; the folder keeps
 * within its budget, oldest first, and a gone supervisor's folder is removed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync, readdirSync, rmSync, statfsSync, statSync, truncateSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { AnswerCache } from '../../server/answer-cache.ts';
import { SharedAnswers } from '../../server/shared-answers.ts';
import { openSharedFolder, removeStaleFolders, sweepSharedFolder } from '../../lib/shared-answers-folder.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const root = join(TEST_TMP, `shared-answers-${process.pid}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in response: records its head and body. */
function response(): ServerResponse & { sent: Buffer[]; head: Record<string, unknown>; status: number } {
  const head: Record<string, unknown> = {};
  const sent: Buffer[] = [];
  const r = {
    sent,
    head,
    status: 0,
    destroyed: false,
    getHeaders: () => ({}),
    writeHead(status: number, h?: Record<string, unknown>) {
      r.status = status;
      Object.assign(head, h ?? {});
      return r;
    },
    write: (b: Buffer) => (sent.push(b), true),
    end(b?: Buffer) {
      if (b) sent.push(b);
      return r;
    },
    once() {
      return r;
    },
    on() {
      return r;
    },
    off() {
      return r;
    },
  };
  return r as unknown as ServerResponse & { sent: Buffer[]; head: Record<string, unknown>; status: number };
}

const GET = { method: 'GET', headers: {} } as IncomingMessage;

/** A catalogue-like text of `bytes` bytes (it packs). */
function text(seed: number, bytes: number): Buffer {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += `{"id":${seed * 1_000_000 + i},"filename":"20240301.${String(i % 24).padStart(2, '0')}00.00.sas.rawacf.bz2","checksum":"${(i * 2654435761 + seed).toString(16)}"},`;
  return Buffer.from(s.slice(0, bytes));
}

/** Asks `cache` for `key`; on a miss, writes `body` as the handler would. Whether it was a hit, and what was sent. */
async function ask(cache: AnswerCache, key: string, body: Buffer): Promise<{ hit: boolean; sent: Buffer; head: Record<string, unknown>; status: number }> {
  const res = response();
  const hit = cache.answer(GET, res, key);
  if (!hit) {
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Answer': key });
    res.end(body);
  }
  await new Promise((r) => setImmediate(r));
  return { hit, sent: Buffer.concat(res.sent), head: res.head, status: res.status };
}

describe('answers shared between processes', () => {
  test('an answer made and held by one process (short, and long: packed) is answered by another from the folder, the same bytes and headers, not made again', async () => {
    const dir = join(root, 'a');
    mkdirSync(dir, { recursive: true });
    const [one, two] = [new SharedAnswers(dir), new SharedAnswers(dir)];
    const a = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, undefined, one);
    const b = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, undefined, two);
    const short = text(1, 5_000);
    const long = text(2, 700_000);
    expect((await ask(a, '"short"', short)).hit).toBe(false);
    expect((await ask(a, '"long"', long)).hit).toBe(false);
    // shared once held: the long one once packed on the thread pool
    await vi.waitFor(() => expect(one.written).toBe(2));
    expect(readdirSync(dir)).toHaveLength(2);
    // the long one's entry is its frames, a fraction of its body
    const sizes = readdirSync(dir).map((f) => statSync(join(dir, f)).size).sort((x, y) => x - y);
    expect(sizes[1]).toBeLessThan(long.length / 3);
    for (const [key, body] of [['"short"', short], ['"long"', long]] as const) {
      const got = await ask(b, key, Buffer.from('made again'));
      expect(got.hit, key).toBe(true);
      expect(got.sent.equals(body), key).toBe(true);
      expect(got.status).toBe(200);
      expect(got.head['x-answer'] ?? got.head['X-Answer']).toBe(key);
      expect(Number(got.head['Content-Length'])).toBe(body.length);
    }
    expect(b.sharedHits).toBe(2);
    expect(b.misses).toBe(0);
    // held there now: the next asks are plain hits, not reads of the folder
    expect((await ask(b, '"short"', Buffer.alloc(0))).hit).toBe(true);
    expect(two.hits).toBe(2);
    // a process shares only what it made: b wrote nothing
    expect(two.written).toBe(0);
  });

  test('an entry that is not whole (cut short, or garbage) is a miss and the answer is made; an answer not there is a miss', async () => {
    const dir = join(root, 'b');
    mkdirSync(dir, { recursive: true });
    const one = new SharedAnswers(dir);
    const a = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, undefined, one);
    await ask(a, '"x"', text(3, 200_000));
    await vi.waitFor(() => expect(one.written).toBe(1));
    const [entry] = readdirSync(dir);
    truncateSync(join(dir, entry!), statSync(join(dir, entry!)).size - 10);
    const two = new SharedAnswers(dir);
    const b = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, undefined, two);
    const got = await ask(b, '"x"', Buffer.from('made again'));
    expect(got.hit).toBe(false);
    expect(got.sent.toString()).toBe('made again');
    expect(two.failed).toBe(1);
    writeFileSync(join(dir, entry!), 'not an entry at all');
    const c = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, undefined, new SharedAnswers(dir));
    expect((await ask(c, '"x"', Buffer.from('made again'))).hit).toBe(false);
    expect((await ask(c, '"y"', Buffer.from('y'))).hit).toBe(false);
    expect(c.sharedHits).toBe(0);
  });

  test('the folder: made empty and private; kept within its budget, oldest entries first; a gone supervisor\'s folder is removed, a live one\'s kept', () => {
    const shm = join(root, 'shm');
    mkdirSync(shm, { recursive: true });
    const { dir, budget } = openSharedFolder(64 * 2 ** 20, shm, process.pid)!;
    expect(dir).toBe(join(shm, `snapcat-answers-${process.pid}`));
    // at most a quarter of the room left there
    const fs = statfsSync(shm);
    expect(budget).toBe(Math.min(64 * 2 ** 20, Math.floor((fs.bavail * fs.bsize) / 4)));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const now = Date.now() / 1000;
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(dir, `e${i}`), Buffer.alloc(1000));
      utimesSync(join(dir, `e${i}`), now - 100 + i, now - 100 + i);
    }
    writeFileSync(join(dir, 'e10.123.1.tmp'), Buffer.alloc(5000));
    expect(sweepSharedFolder(dir, 4500)).toBe(4000);
    expect(readdirSync(dir).sort()).toEqual(['e10.123.1.tmp', 'e6', 'e7', 'e8', 'e9']);
    // a folder of a pid that is gone (pid 2^22 + 1 is past Linux's pid_max), and one of a live process (this one)
    mkdirSync(join(shm, `snapcat-answers-${2 ** 22 + 1}`));
    removeStaleFolders(shm);
    expect(existsSync(join(shm, `snapcat-answers-${2 ** 22 + 1}`))).toBe(false);
    expect(existsSync(dir)).toBe(true);
    // opened again: empty
    expect(readdirSync(openSharedFolder(64 * 2 ** 20, shm, process.pid)!.dir)).toEqual([]);
    // no such folder (no /dev/shm): not shared
    expect(openSharedFolder(64 * 2 ** 20, '/nonexistent-root')).toBeUndefined();
  });
});
