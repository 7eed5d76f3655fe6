/**
 * Writes files into the static tree: synchronous writes (the fastest way to write many small files on
 * Node, see PERFORMANCE-NOTES.md), directories made once, every byte counted for the progress line. The bulk
 * of a tree, the radar id files, can be handed to a worker thread (`startBackground`, background-writes.ts).
 *
 * Every file put through the writer is recorded with the MD5 of its bytes and its size (the `file` part of
 * the tree state, tree-state.ts). A build over a base tree (an incremental build: the folder already holds an
 * earlier build's files, tree-state.ts) passes the MD5s the base holds: a file whose bytes are already there
 * is not written again, and a changed one replaces the old name with a new file (never writing into the old
 * file: it may be a hard link shared with the build being served or with the chart cache).
 * Files whose bytes the build decides elsewhere (the radar id files, hashed in SQL) go through
 * `writeDecided`/`linkDecided`, which only write.
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, ftruncateSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BackgroundWrites } from './background-writes.ts';
import type { Progress } from './progress.ts';

export interface FileState {
  /** MD5 of the bytes, hex. */
  md5: string;
  bytes: number;
}

export interface TreeWriterOptions {
  /** When set, every path in the order written (links included), for the benchmark's plain-loop replay. */
  recordOrder?: boolean;
  /** The base tree already in the folder: MD5 of each file the writer put there (empty for a new folder). */
  base?: ReadonlyMap<string, string>;
  /** True when the folder holds a base tree, so a file may exist at a path before it is written. */
  overBase?: boolean;
}

function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** A file of the tree written piece by piece (TreeWriter.open, continueBase). */
export interface PiecewiseFile {
  append(text: string | Uint8Array): void;
  close(): void;
}

export class TreeWriter {
  private readonly root: string;
  private readonly progress: Progress;
  private readonly dirs = new Set<string>();
  private readonly base: ReadonlyMap<string, string>;
  private readonly overBase: boolean;
  readonly order: string[] | undefined;
  /** Every file put through write/link/linkFrom/open/moveIn in this build, with its bytes' MD5 and size. */
  readonly files = new Map<string, FileState>();
  /** Files written (or linked) in this build, and files of the base tree kept as they were. */
  readonly counts = { written: 0, kept: 0, removed: 0 };
  /** While set, writeDecided and linkDecided are done by a worker thread (background-writes.ts). */
  private background: BackgroundWrites | undefined;

  constructor(root: string, progress: Progress, opts: TreeWriterOptions = {}) {
    this.root = root;
    this.progress = progress;
    this.order = opts.recordOrder ? [] : undefined;
    this.base = opts.base ?? new Map();
    this.overBase = opts.overBase ?? false;
  }

  private ensureDir(rel: string): string {
    const abs = join(this.root, rel);
    const dir = dirname(abs);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return abs;
  }

  /** The absolute path a new file goes to: its directory made, and an older file of the base tree unlinked. */
  private target(rel: string): string {
    this.order?.push(rel);
    const abs = this.ensureDir(rel);
    if (this.overBase) unlinkIfThere(abs);
    this.counts.written++;
    return abs;
  }

  /** Records a file of this build; true when the base tree already holds these bytes at that path. */
  private unchanged(rel: string, state: FileState): boolean {
    this.files.set(rel, state);
    this.progress.wrote(state.bytes);
    if (this.base.get(rel) !== state.md5) return false;
    this.counts.kept++;
    return true;
  }

  has(rel: string): boolean {
    return this.files.has(rel);
  }

  /**
   * The bytes of the base tree's file at `rel`, if the folder holds it as the base's state records it (its MD5
   * checked); else undefined.
   */
  baseBytes(rel: string): Buffer | undefined {
    const want = this.base.get(rel);
    if (!this.overBase || want === undefined) return undefined;
    let buf: Buffer;
    try {
      buf = readFileSync(join(this.root, rel));
    } catch {
      return undefined;
    }
    return md5(buf) === want ? buf : undefined;
  }

  /** Keeps the base tree's file at `rel` as this build's, untouched (`bytes`: as baseBytes read and checked them). */
  keep(rel: string, bytes: Buffer): void {
    const md5 = this.base.get(rel);
    if (md5 === undefined) throw new Error(`tree writer: ${rel} is not a file of the base tree`);
    this.unchanged(rel, { md5, bytes: bytes.length });
  }

  write(rel: string, text: string): void {
    const buf = Buffer.from(text, 'utf8');
    if (this.unchanged(rel, { md5: md5(buf), bytes: buf.length })) return;
    writeFileSync(this.target(rel), buf);
  }

  /** A second name for a file already put through this writer (identical bytes, no copy). */
  link(existingRel: string, rel: string): void {
    const state = this.files.get(existingRel);
    if (!state) throw new Error(`tree writer: ${rel} links to ${existingRel}, which this build has not written`);
    if (this.unchanged(rel, state)) return;
    linkSync(join(this.root, existingRel), this.target(rel));
  }

  /** A file of the tree that is a file outside it (a hard link; a copy across file systems). */
  linkFrom(absPath: string, rel: string, bytes: number): void {
    if (this.unchanged(rel, { md5: md5(readFileSync(absPath)), bytes })) return;
    const target = this.target(rel);
    try {
      linkSync(absPath, target);
    } catch {
      copyFileSync(absPath, target);
    }
  }

  /** A file moved into the tree from a scratch folder (the docs site's pages); the scratch file is consumed. */
  moveIn(absPath: string, rel: string): void {
    const buf = readFileSync(absPath);
    if (this.unchanged(rel, { md5: md5(buf), bytes: buf.length })) return;
    const target = this.target(rel);
    try {
      renameSync(absPath, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      writeFileSync(target, buf);
    }
  }

  /**
   * The base tree's file at `rel` continued in place: its first bytes (`prefix`, as baseBytes read them) stay,
   * the rest is replaced by what is appended. Only for a file no other name shares: a file of a recycled folder
   * that a build after the served one's first rewrote. A file of the served build has a second name (the
   * folders share unchanged files as hard links), and is never written to: then undefined, and the caller
   * writes a new file with open().
   */
  continueBase(rel: string, prefix: Buffer): PiecewiseFile | undefined {
    if (!this.overBase || !this.base.has(rel)) return undefined;
    const fd = openSync(join(this.root, rel), 'r+');
    if (fstatSync(fd).nlink !== 1) {
      closeSync(fd);
      return undefined;
    }
    ftruncateSync(fd, prefix.length);
    return this.piecewise(rel, fd, prefix, () => {});
  }

  /**
   * A file written piece by piece, for bodies too large to hold. Over a base tree it goes to a scratch name
   * beside its own and replaces the old file only when its bytes differ.
   */
  open(rel: string): PiecewiseFile {
    const abs = this.ensureDir(rel);
    const scratch = this.overBase ? `${abs}.partial-${process.pid}` : abs;
    return this.piecewise(rel, openSync(scratch, 'w'), undefined, (unchanged) => {
      if (unchanged) unlinkSync(scratch);
      else if (scratch !== abs) renameSync(scratch, abs);
    });
  }

  /**
   * Appends to `fd` after `prefix` (bytes already in the file), hashing as it goes; on close, records the file
   * and tells `done` whether the base tree already held these bytes.
   */
  private piecewise(rel: string, fd: number, prefix: Buffer | undefined, done: (unchanged: boolean) => void): PiecewiseFile {
    const hash = createHash('md5');
    if (prefix) hash.update(prefix);
    let bytes = prefix?.length ?? 0;
    return {
      append: (text: string | Uint8Array) => {
        if (text.length === 0) return;
        const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
        writeSync(fd, buf, 0, buf.length, bytes);
        hash.update(buf);
        bytes += buf.length;
      },
      close: () => {
        closeSync(fd);
        const unchanged = this.unchanged(rel, { md5: hash.digest('hex'), bytes });
        if (!unchanged) {
          this.order?.push(rel);
          this.counts.written++;
        }
        done(unchanged);
      },
    };
  }

  /**
   * Hands writeDecided and linkDecided to a worker thread until `finishBackground` (call `settle` now and then
   * meanwhile, and `abortBackground` if the build fails). Other writes stay on this thread.
   */
  startBackground(): void {
    this.background ??= new BackgroundWrites();
  }

  /** Waits while the worker is behind; raises a write it failed. */
  async settle(): Promise<void> {
    await this.background?.settle();
  }

  /** Waits until the worker has written everything handed to it; raises a write it failed. */
  async finishBackground(): Promise<void> {
    const b = this.background;
    this.background = undefined;
    await b?.finish();
  }

  async abortBackground(): Promise<void> {
    const b = this.background;
    this.background = undefined;
    await b?.abort();
  }

  /** Writes a file whose bytes the caller knows to differ from the base tree's (or to be new). */
  writeDecided(rel: string, text: string | Buffer): void {
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const abs = this.target(rel);
    if (this.background) this.background.write(abs, buf);
    else writeFileSync(abs, buf);
    this.progress.wrote(buf.length);
  }

  /** Links a second name to a file of this build, where the caller knows the name is new or changed. */
  linkDecided(existingRel: string, rel: string): void {
    const from = join(this.root, existingRel);
    const abs = this.target(rel);
    if (this.background) this.background.link(from, abs);
    else linkSync(from, abs);
    this.progress.wrote(0);
  }

  /** Removes a file of the base tree that this build does not have, and its folders left empty. */
  remove(rel: string): void {
    const abs = join(this.root, rel);
    if (!unlinkIfThere(abs)) return;
    this.counts.removed++;
    for (let dir = dirname(abs); dir.length > this.root.length; dir = dirname(dir)) {
      try {
        rmdirSync(dir);
        this.dirs.delete(dir);
      } catch {
        break;
      }
    }
  }
}

function unlinkIfThere(abs: string): boolean {
  try {
    unlinkSync(abs);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
