/**
 * Answers held by one endpoint process, shared with the others of its supervisor (issue 18, the cold process).
 *
 * Each process holds its own answers (answer-cache.ts), so with `--workers N` every answer was made N times, once
 * in each process that was asked for it: a process started after another (a replaced worker, a hot swap, the
 * postgres bench's second process) ran the same DuckDB queries again for its first seconds, beside the others.
 * In the bench's round 1 that process made 190 one-day answers while the other sent the same ones from memory;
 * its queries took the CPU of both, and that second was the round's p99 (17-80 ms against 3-5 ms once warm).
 *
 * So a process that holds an answer it made also writes it to a folder the supervisor gives all its processes
 * (lib/supervisor.ts: in /dev/shm, memory, not disk), and a process that misses looks there before making it, as
 * nginx's workers share one proxy_cache. An entry is the answer as held: its status, headers and body, long ones as
 * their zstd frames (a one-day answer of 127 KB is about 30 KB). Written to a temporary name and renamed, so a
 * reader sees an entry whole or not at all, whatever happens to its writer; named by the SHA-1 of the answer's
 * ETag, which names the build and the request, so a new build's answers never meet an old one's. The supervisor
 * keeps the folder within SHARED_BUDGET, removing the oldest entries first, and removes it when it stops.
 * An entry read is held as any answer (the reader's admission decides); a read or write that fails is a miss.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { SHARED_ANSWERS_ENV } from '../lib/shared-answers-folder.ts';

/** An answer as shared: its body plain, or packed (zstd frames of answer-cache.ts PACK_FRAME bytes of body). */
export interface SharedAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body's bytes. */
  length: number;
  body?: Buffer;
  packed?: Buffer[];
}

interface EntryHead {
  status: number;
  headers: OutgoingHttpHeaders;
  length: number;
  /** The frames' sizes, in order; none: the body follows plain. */
  frames?: number[];
}

export class SharedAnswers {
  readonly dir: string;
  /** Entries read (hits), looked for and not there (misses), written, and reads or writes that failed. */
  hits = 0;
  misses = 0;
  written = 0;
  failed = 0;
  #seq = 0;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The folder the supervisor named, if any. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): SharedAnswers | undefined {
    const dir = env[SHARED_ANSWERS_ENV];
    return dir ? new SharedAnswers(dir) : undefined;
  }

  #file(etag: string): string {
    return join(this.dir, createHash('sha1').update(etag).digest('hex'));
  }

  /**
   * The answer of `etag` if a process shared it. Read at once (the folder is in memory: tens of µs for a packed
   * one-day answer, against milliseconds and a place in the connection queue to make it again).
   */
  take(etag: string): SharedAnswer | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.#file(etag));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') this.misses++;
      else this.failed++;
      return undefined;
    }
    try {
      const headLength = bytes.readUInt32LE(0);
      const head = JSON.parse(bytes.toString('utf8', 4, 4 + headLength)) as EntryHead;
      let at = 4 + headLength;
      // copies: the entry's Buffer is let go, the answer's parts are held
      if (!head.frames) {
        const body = Buffer.from(bytes.subarray(at));
        if (body.length !== head.length) throw new Error('short');
        this.hits++;
        return { status: head.status, headers: head.headers, length: head.length, body };
      }
      const packed = head.frames.map((n) => {
        const frame = Buffer.from(bytes.subarray(at, at + n));
        if (frame.length !== n) throw new Error('short');
        at += n;
        return frame;
      });
      if (at !== bytes.length) throw new Error('long');
      this.hits++;
      return { status: head.status, headers: head.headers, length: head.length, packed };
    } catch {
      this.failed++;
      return undefined;
    }
  }

  /** Shares an answer this process made and holds (in the background: an answer is never waited for this). */
  share(etag: string, answer: SharedAnswer): void {
    const head: EntryHead = { status: answer.status, headers: answer.headers, length: answer.length, ...(answer.packed ? { frames: answer.packed.map((f) => f.length) } : {}) };
    const headBytes = Buffer.from(JSON.stringify(head));
    const size = Buffer.alloc(4);
    size.writeUInt32LE(headBytes.length);
    const parts = [size, headBytes, ...(answer.packed ?? [answer.body!])];
    const file = this.#file(etag);
    const temporary = `${file}.${process.pid}.${++this.#seq}.tmp`;
    writeFile(temporary, parts)
      .then(() => rename(temporary, file))
      .then(
        () => void this.written++,
        () => {
          // a full folder (ENOSPC), or one removed with its supervisor: the answer is simply not shared
          this.failed++;
          void unlink(temporary).catch(() => undefined);
        },
      );
  }
}
