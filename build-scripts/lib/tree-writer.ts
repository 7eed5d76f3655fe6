/**
 * Writes files into the static tree: synchronous writes (the fastest way to write many small files on
 * Node, see PERFORMANCE-NOTES.md), directories made once, every byte counted for the progress line. The bulk
 * of a tree, the radar id files, can be handed to a worker thread (`startBackground`, background-writes.ts).
 *
 * Every file put through the writer is recorded with the MD5 of its bytes and its size (the `file` part of
 * the tree state, tree-state.ts; a file written piece by piece, a collection, with the MD5 of its pieces'
 * MD5s: PiecewiseFile). A build over a base tree (an incremental build: the folder already holds an earlier
 * build's files, tree-state.ts) passes the digests the base holds: a file whose bytes are already there is
 * not written again, and a changed one replaces the old name with a new file (never writing into the old
 * file: it may be a hard link shared with the build being served or with the chart cache), except a
 * collection continued in place where no other name shares it (continueBase).
 * Files whose bytes the build decides elsewhere (the radar id files, hashed in SQL) go through
 * `writeDecided`/`linkDecided`, which only write.
 *
 * With a Sha256Sink, every file the writer writes has the SHA-256 of its bytes handed to the sink as it is written
 * (a link, the name of the file it shares), for the tree's manifest (tree-manifest.ts), which then reads back only
 * the files the sink could not be told of: a collection continued after base bytes it never read (continueBase).
 */
import { createHash, hash } from 'node:crypto';
import { closeSync, copyFileSync, ftruncateSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Piece } from '../../core/tree/plan.ts';
import { BackgroundWrites } from './background-writes.ts';
import type { Progress } from './progress.ts';

export interface FileState {
  /** MD5 of the bytes, hex. */
  md5: string;
  bytes: number;
}

/**
 * Where the writer tells the SHA-256 of each file it writes (tree-manifest.ts WrittenSha256). Rows, never held
 * by the writer: a build writes millions of files.
 */
export interface Sha256Sink {
  /** `rel` now holds bytes whose SHA-256 is `sha256` (32 bytes); undefined: bytes the writer did not all see. */
  wrote(rel: string, sha256: Uint8Array | undefined): void;
  /** `rel` is now a hard link to `fromRel`, a file of this build: the same bytes. */
  linked(rel: string, fromRel: string): void;
}

export interface TreeWriterOptions {
  /** When set, every path in the order written (links included), for the benchmark's plain-loop replay. */
  recordOrder?: boolean;
  /** The base tree already in the folder: MD5 of each file the writer put there (empty for a new folder). */
  base?: ReadonlyMap<string, string>;
  /** True when the folder holds a base tree, so a file may exist at a path before it is written. */
  overBase?: boolean;
  /** Told the SHA-256 of every file written, until stopSha256. */
  sha256?: Sha256Sink;
}

function sha256Of(bytes: Uint8Array): Buffer {
  return hash('sha256', bytes, 'buffer');
}

function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/**
 * What identifies a file as written, as a build recorded it: size, modification time (ns) and inode. A later
 * build trusts a file whose stamp is unchanged to hold the bytes recorded for it, without reading it (as git
 * trusts its index); a file changed since, by anything, has another stamp.
 */
export interface FileStamp {
  size: number;
  mtimeNs: string;
  ino: string;
}

function stampOf(st: { size: bigint; mtimeNs: bigint; ino: bigint }): FileStamp {
  return { size: Number(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) };
}

/** A piece of a file written piece by piece (core/tree/plan.ts, whose collection plans cut files into pieces). */
export type { Piece };

/**
 * A file of the tree written piece by piece (TreeWriter.open, continueBase). `mark` ends a piece at the
 * current end (a no-op where the last piece ended). Its digest in the tree state is the MD5 of its bytes when
 * it has no pieces, else the MD5 of its pieces' MD5s and the last bytes' MD5, joined: so a build that
 * continues a file after a piece needs only the earlier pieces' MD5s, never their bytes.
 */
export interface PiecewiseFile {
  append(text: string | Uint8Array): void;
  mark(): void;
  /**
   * Appends bytes `start` to `end` of the base tree's file at the same path, a piece whose MD5 (`md5`) the base
   * recorded, neither hashed nor held in memory: only after a mark, in a file continued with `copy`.
   */
  appendBasePiece(start: number, end: number, md5: string): void;
  /** Closes the file: its pieces (as marked) and stamp. */
  close(): { pieces: Piece[]; stamp: FileStamp };
}

/** The digest of a piecewise file (PiecewiseFile): `last`, the MD5 of its bytes after its last piece. */
export function piecewiseDigest(pieces: readonly Piece[], last: string): string {
  return pieces.length === 0 ? last : md5(Buffer.from(pieces.map(([, m]) => m).join('') + last));
}

export class TreeWriter {
  private readonly root: string;
  private readonly progress: Progress;
  private readonly dirs = new Set<string>();
  private readonly base: Map<string, string>;
  private readonly overBase: boolean;
  readonly order: string[] | undefined;
  /** Every file put through write/link/linkFrom/open/moveIn in this build, with its bytes' MD5 and size. */
  readonly files = new Map<string, FileState>();
  /** Files written (or linked) in this build, and files of the base tree kept as they were. */
  readonly counts = { written: 0, kept: 0, removed: 0 };
  /** While set, writeDecided and linkDecided are done by a worker thread (background-writes.ts). */
  private background: BackgroundWrites | undefined;
  /** Told each written file's SHA-256 (TreeWriterOptions.sha256), until stopSha256. */
  private sha256: Sha256Sink | undefined;

  constructor(root: string, progress: Progress, opts: TreeWriterOptions = {}) {
    this.root = root;
    this.progress = progress;
    this.order = opts.recordOrder ? [] : undefined;
    this.base = new Map(opts.base);
    this.overBase = opts.overBase ?? false;
    this.sha256 = opts.sha256;
  }

  /** Stops telling the sink (the manifest is being made: files written from now on are not in it); returns it. */
  stopSha256(): Sha256Sink | undefined {
    const sink = this.sha256;
    this.sha256 = undefined;
    return sink;
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
   * True when the folder holds the base tree's file at `rel` as the base build left it: the stamp it recorded
   * (`stamp`) is the file's. Nothing is read. Else the file is no longer taken for the base's: written again.
   */
  baseIntact(rel: string, stamp: FileStamp): boolean {
    if (!this.overBase || !this.base.has(rel)) return false;
    let st: FileStamp | undefined;
    try {
      st = stampOf(lstatSync(join(this.root, rel), { bigint: true }));
    } catch {
      st = undefined;
    }
    const intact = st?.size === stamp.size && st.mtimeNs === stamp.mtimeNs && st.ino === stamp.ino;
    if (!intact) this.base.delete(rel);
    return intact;
  }

  /** The digest of the base tree's file at `rel` (keep can keep it); undefined when the folder holds no base tree or the base no such file. */
  baseDigest(rel: string): string | undefined {
    return this.overBase ? this.base.get(rel) : undefined;
  }

  /** Keeps the base tree's file at `rel` as this build's, untouched (its size `bytes`, as baseIntact checked it). */
  keep(rel: string, bytes: number): void {
    const md5 = this.base.get(rel);
    if (md5 === undefined) throw new Error(`tree writer: ${rel} is not a file of the base tree`);
    this.unchanged(rel, { md5, bytes });
  }

  write(rel: string, text: string): void {
    const buf = Buffer.from(text, 'utf8');
    if (this.unchanged(rel, { md5: md5(buf), bytes: buf.length })) return;
    writeFileSync(this.target(rel), buf);
    this.sha256?.wrote(rel, sha256Of(buf));
  }

  /** A second name for a file already put through this writer (identical bytes, no copy). */
  link(existingRel: string, rel: string): void {
    const state = this.files.get(existingRel);
    if (!state) throw new Error(`tree writer: ${rel} links to ${existingRel}, which this build has not written`);
    if (this.unchanged(rel, state)) return;
    linkSync(join(this.root, existingRel), this.target(rel));
    this.sha256?.linked(rel, existingRel);
  }

  /** A file of the tree that is a file outside it (a hard link; a copy across file systems). */
  linkFrom(absPath: string, rel: string, bytes: number): void {
    const buf = readFileSync(absPath);
    if (this.unchanged(rel, { md5: md5(buf), bytes })) return;
    const target = this.target(rel);
    try {
      linkSync(absPath, target);
    } catch {
      copyFileSync(absPath, target);
    }
    this.sha256?.wrote(rel, sha256Of(buf));
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
    this.sha256?.wrote(rel, sha256Of(buf));
  }

  /**
   * The base tree's file at `rel` (as baseIntact checked it) continued after its first `pieces`: their bytes
   * stay, unread, and the rest is replaced by what is appended. In place where no other name shares the file
   * (a file of a recycled folder that a build after the served one's first rewrote); a file of the served
   * build has a second name (the folders share unchanged files as hard links) and is never written to: it is
   * copied to a scratch name, which replaces the old name at the end. So is any file with `copy`, whose later
   * bytes appendBasePiece reads while the new ones are written.
   */
  continueBase(rel: string, pieces: readonly Piece[], opts: { copy?: boolean } = {}): PiecewiseFile {
    if (!this.overBase || !this.base.has(rel)) throw new Error(`tree writer: ${rel} is not a file of the base tree`);
    const abs = join(this.root, rel);
    const length = pieces.at(-1)?.[0] ?? 0;
    let fd = openSync(abs, 'r+');
    if (fstatSync(fd).nlink === 1 && !opts.copy) {
      ftruncateSync(fd, length);
      return this.piecewise(rel, abs, fd, pieces, () => {});
    }
    closeSync(fd);
    const scratch = `${abs}.partial-${process.pid}`;
    copyFileSync(abs, scratch);
    fd = openSync(scratch, 'r+');
    ftruncateSync(fd, length);
    return this.piecewise(rel, abs, fd, pieces, (unchanged) => (unchanged ? unlinkSync(scratch) : renameSync(scratch, abs)));
  }

  /**
   * A file written piece by piece, for bodies too large to hold. Over a base tree it goes to a scratch name
   * beside its own and replaces the old file only when its bytes differ.
   */
  open(rel: string): PiecewiseFile {
    const abs = this.ensureDir(rel);
    const scratch = this.overBase ? `${abs}.partial-${process.pid}` : abs;
    return this.piecewise(rel, abs, openSync(scratch, 'w'), [], (unchanged) => {
      if (unchanged) unlinkSync(scratch);
      else if (scratch !== abs) renameSync(scratch, abs);
    });
  }

  /**
   * Appends to `fd` after the bytes of `pieces` (already in the file), hashing as it goes; on close, records
   * the file (its digest: piecewiseDigest) and tells `done` whether the base tree already held these bytes.
   * The SHA-256 of a file written from its first byte (base pieces included: appendBasePiece reads them) goes to
   * the sink; a file continued after bytes it kept unread (continueBase) has none the sink is told of.
   * `abs`: the file's name, which holds the base's file until `done` (appendBasePiece reads it).
   */
  private piecewise(rel: string, abs: string, fd: number, start: readonly Piece[], done: (unchanged: boolean) => void): PiecewiseFile {
    const pieces: Piece[] = [...start];
    let hash = createHash('md5');
    let baseFd: number | undefined;
    let bytes = start.at(-1)?.[0] ?? 0;
    const whole = this.sha256 !== undefined && bytes === 0 ? createHash('sha256') : undefined;
    return {
      append: (text: string | Uint8Array) => {
        if (text.length === 0) return;
        const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
        writeSync(fd, buf, 0, buf.length, bytes);
        hash.update(buf);
        whole?.update(buf);
        bytes += buf.length;
      },
      mark: () => {
        if (bytes === (pieces.at(-1)?.[0] ?? 0)) return;
        pieces.push([bytes, hash.digest('hex')]);
        hash = createHash('md5');
      },
      appendBasePiece: (start: number, end: number, pieceMd5: string) => {
        if (bytes !== (pieces.at(-1)?.[0] ?? 0)) throw new Error(`tree writer: ${rel}: a base piece must follow a mark`);
        if (end === start) return;
        baseFd ??= openSync(abs, 'r');
        for (let at = start; at < end; ) {
          const n = readSync(baseFd, copyBuffer, 0, Math.min(copyBuffer.length, end - at), at);
          if (n === 0) throw new Error(`tree writer: ${rel} ends before byte ${end} of its base`);
          writeSync(fd, copyBuffer, 0, n, bytes);
          whole?.update(copyBuffer.subarray(0, n));
          bytes += n;
          at += n;
        }
        pieces.push([bytes, pieceMd5]);
      },
      close: () => {
        if (baseFd !== undefined) closeSync(baseFd);
        closeSync(fd);
        const unchanged = this.unchanged(rel, { md5: piecewiseDigest(pieces, hash.digest('hex')), bytes });
        if (!unchanged) {
          this.order?.push(rel);
          this.counts.written++;
        }
        done(unchanged);
        if (!unchanged) this.sha256?.wrote(rel, whole?.digest());
        return { pieces, stamp: stampOf(lstatSync(abs, { bigint: true })) };
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
    this.sha256?.wrote(rel, sha256Of(buf));
    this.progress.wrote(buf.length);
  }

  /** Links a second name to a file of this build, where the caller knows the name is new or changed. */
  linkDecided(existingRel: string, rel: string): void {
    const from = join(this.root, existingRel);
    const abs = this.target(rel);
    if (this.background) this.background.link(from, abs);
    else linkSync(from, abs);
    this.sha256?.linked(rel, existingRel);
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

/** The buffer appendBasePiece copies through. */
const copyBuffer = Buffer.allocUnsafe(1 << 20);

function unlinkIfThere(abs: string): boolean {
  try {
    unlinkSync(abs);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
