/**
 * Spools: an answer's bytes taken at the producer's pace (DuckDB's) and given out at the consumer's (the client's),
 * so a slow client never holds what made them (a DuckDB connection). Each spool keeps its bytes in memory up to
 * a share of a process-wide budget, and past it appends them to a temporary file of its own. The file's name is
 * removed as soon as it is open (Linux keeps an open file's bytes until its last descriptor closes): nothing is
 * left on disk once the spool is closed (the answer sent, or its client gone), nor after a crash or `kill -9`.
 *
 * - Order is kept: while the file holds bytes not yet read, new bytes go to the file too; once the reader has
 *   caught up with it, they go to memory again (a client as fast as DuckDB never touches the disk).
 * - Memory: at most `memoryBytes` per spool and `budgetBytes` over all spools of a Spooler; beyond, the file.
 * - Disk: at most `diskBytes` over all open spools' files. Once half of it is held the Spooler is `full`: the
 *   endpoint refuses new streamed answers (503 with Retry-After) until slow readers finish or leave, and the other
 *   half lets the answers already sending finish. A spool whose next spill would pass the whole bound fails (its
 *   client gets a cut answer: chunked, so it knows it is incomplete) rather than fill the disk. A crowd of slow
 *   clients can hold the budget, never the machine's disk.
 * - A spool is read once, in order, by one reader; `close()` (idempotent) ends both sides and removes the file.
 */
import { mkdirSync } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface SpoolerOptions {
  /** Folder the spill files are made in (default: the OS's temporary folder, `snapcat-spool` below it). */
  dir?: string;
  /** Bytes one spool keeps in memory before it spills (default 1 MiB). */
  memoryBytes?: number;
  /** Bytes all spools keep in memory together (default 32 MiB); a spool finding it spent spills at once. */
  budgetBytes?: number;
  /** Bytes all open spools' files may hold together (default 2 GiB, `SNAPCAT_SPOOL_DISK_MB`). */
  diskBytes?: number;
}

/** A spill would pass the Spooler's disk budget: the answer cannot be held for its client. */
export class SpoolFull extends Error {
  constructor(diskBytes: number) {
    super(`the spool's disk budget (${Math.round(diskBytes / 2 ** 20)} MiB) is held by answers waiting for slow clients`);
    this.name = 'SpoolFull';
  }
}

/** The disk budget named by the environment (`SNAPCAT_SPOOL_DISK_MB`), else 2 GiB. */
export function spoolDiskBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env['SNAPCAT_SPOOL_DISK_MB']);
  return Number.isFinite(mb) && mb > 0 ? mb * 2 ** 20 : 2 * 2 ** 30;
}

/** How much a file read hands out at a time. */
const READ_BYTES = 64 * 1024;

export class Spooler {
  readonly dir: string;
  readonly memoryBytes: number;
  readonly budgetBytes: number;
  readonly diskBytes: number;
  #memoryUsed = 0;
  #diskUsed = 0;
  #open = 0;
  #files = 0;
  #spilled = 0;
  #n = 0;

  constructor(opts: SpoolerOptions = {}) {
    this.dir = opts.dir ?? join(tmpdir(), 'snapcat-spool');
    this.memoryBytes = opts.memoryBytes ?? 1024 * 1024;
    this.budgetBytes = opts.budgetBytes ?? 32 * 1024 * 1024;
    this.diskBytes = opts.diskBytes ?? spoolDiskBytesFromEnv();
  }

  /** Spools open now, those with a file, bytes held in memory and in open files, bytes written to files so far. */
  get load(): { open: number; files: number; memoryBytes: number; diskBytes: number; spilledBytes: number } {
    return { open: this.#open, files: this.#files, memoryBytes: this.#memoryUsed, diskBytes: this.#diskUsed, spilledBytes: this.#spilled };
  }

  /** Open spools' files hold half the disk budget or more: a new streamed answer should be refused, not begun. */
  get full(): boolean {
    return this.#diskUsed >= this.diskBytes / 2;
  }

  open(): Spool {
    this.#open++;
    return new Spool(this, {
      take: (n) => {
        if (this.#memoryUsed + n > this.budgetBytes) return false;
        this.#memoryUsed += n;
        return true;
      },
      give: (n) => void (this.#memoryUsed -= n),
      file: () => {
        mkdirSync(this.dir, { recursive: true });
        this.#files++;
        return join(this.dir, `${process.pid}-${++this.#n}-${randomBytes(6).toString('hex')}.spool`);
      },
      fileGone: () => void this.#files--,
      diskGive: (n) => void (this.#diskUsed -= n),
      diskTake: (n) => {
        if (this.#diskUsed + n > this.diskBytes) return false;
        this.#diskUsed += n;
        return true;
      },
      diskBytes: this.diskBytes,
      spilled: (n) => void (this.#spilled += n),
      closed: () => void this.#open--,
    });
  }

}

interface Accounts {
  take(n: number): boolean;
  give(n: number): void;
  file(): string;
  fileGone(): void;
  /** Counts `n` more bytes on disk, or false when they would pass the disk budget. */
  diskTake(n: number): boolean;
  /** A closed spool's bytes on disk are gone. */
  diskGive(n: number): void;
  diskBytes: number;
  spilled(n: number): void;
  closed(): void;
}

export class Spool {
  readonly #limit: number;
  readonly #accounts: Accounts;
  #memory: Buffer[] = [];
  #memoryBytes = 0;
  #fh: Promise<FileHandle> | undefined;
  #written = 0;
  /** Bytes counted against the Spooler's disk budget (those written, and one write in flight). */
  #diskTaken = 0;
  #read = 0;
  #ended = false;
  #closed = false;
  #error: unknown;
  #wake: (() => void) | undefined;

  constructor(spooler: Spooler, accounts: Accounts) {
    this.#limit = spooler.memoryBytes;
    this.#accounts = accounts;
  }

  /** Whether the spool was closed (its reader gone): the producer should stop. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes written to this spool's file so far (0: it never spilled). */
  get spilledBytes(): number {
    return this.#written;
  }

  /** Appends bytes; resolves once they are held (in memory, or written to the file). False once the spool is closed. */
  async write(bytes: Buffer): Promise<boolean> {
    if (this.#closed) return false;
    if (bytes.length === 0) return true;
    const fileCaughtUp = this.#read === this.#written;
    if (fileCaughtUp && this.#memoryBytes + bytes.length <= this.#limit && this.#accounts.take(bytes.length)) {
      this.#memory.push(bytes);
      this.#memoryBytes += bytes.length;
    } else {
      if (!this.#accounts.diskTake(bytes.length)) throw new SpoolFull(this.#accounts.diskBytes);
      this.#diskTaken += bytes.length;
      if (!this.#fh) {
        const path = this.#accounts.file();
        this.#fh = open(path, 'wx+', 0o600).then(async (fh) => {
          await unlink(path);
          return fh;
        });
      }
      try {
        const fh = await this.#fh;
        if (this.#closed) return false;
        await fh.write(bytes, 0, bytes.length, this.#written);
      } catch (e) {

        if (this.#closed) return false;
        throw e;
      }
      this.#written += bytes.length;
      this.#accounts.spilled(bytes.length);
    }
    this.#notify();
    return !this.#closed;
  }

  /** No more bytes will come. */
  end(): void {
    this.#ended = true;
    this.#notify();
  }

  /** The producer failed: the reader throws `e` once it has read what came before. */
  fail(e: unknown): void {
    this.#error = e ?? new Error('the spool failed');
    this.#ended = true;
    this.#notify();
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = undefined;
    w?.();
  }

  /** The bytes in the order written, as they come; ends when the producer has ended and all was read. */
  async *reader(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.#closed) return;
      // memory first: while the file holds unread bytes nothing goes to memory, so memory's bytes come before them
      const m = this.#memory.shift();
      if (m) {
        this.#memoryBytes -= m.length;
        this.#accounts.give(m.length);
        yield m;
        continue;
      }
      if (this.#read < this.#written) {
        const n = Math.min(READ_BYTES, this.#written - this.#read);
        const buf = Buffer.allocUnsafe(n);
        let bytesRead: number;
        try {
          ({ bytesRead } = await (await this.#fh!).read(buf, 0, n, this.#read));
        } catch (e) {
          if (this.#closed) return;
          throw e;
        }
        if (this.#closed) return;
        this.#read += bytesRead;
        yield bytesRead === n ? buf : buf.subarray(0, bytesRead);
        continue;
      }
      if (this.#ended) {
        if (this.#error !== undefined) throw this.#error;
        return;
      }
      await new Promise<void>((r) => (this.#wake = r));
    }
  }

  /** Ends the spool: memory handed back, the file closed (its bytes go with it). Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#accounts.give(this.#memoryBytes);
    this.#memory = [];
    this.#memoryBytes = 0;
    this.#notify();
    if (this.#fh) {
      const fh = await this.#fh.catch(() => undefined);
      await fh?.close().catch(() => undefined);
      this.#accounts.fileGone();
    }
    this.#accounts.diskGive(this.#diskTaken);
    this.#diskTaken = 0;
    this.#accounts.closed();
  }
}
