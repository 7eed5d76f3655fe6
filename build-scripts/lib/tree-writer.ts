/**
 * Writes files into the static tree: synchronous writes (the fastest way to write many small files on
 * Node, see PERFORMANCE-NOTES.md), directories made once, every byte counted for the progress line.
 */
import { closeSync, copyFileSync, linkSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Progress } from './progress.ts';

export class TreeWriter {
  private readonly root: string;
  private readonly progress: Progress;
  private readonly dirs = new Set<string>();
  /** When set, every path in the order written (links included), for the benchmark's plain-loop replay. */
  readonly order: string[] | undefined;

  constructor(root: string, progress: Progress, opts: { recordOrder?: boolean } = {}) {
    this.root = root;
    this.progress = progress;
    this.order = opts.recordOrder ? [] : undefined;
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

  write(rel: string, text: string): void {
    this.order?.push(rel);
    const buf = Buffer.from(text, 'utf8');
    writeFileSync(this.ensureDir(rel), buf);
    this.progress.wrote(buf.length);
  }

  /** A second name for a file already written (identical bytes, no copy). */
  link(existingRel: string, rel: string): void {
    this.order?.push(rel);
    linkSync(join(this.root, existingRel), this.ensureDir(rel));
    this.progress.wrote(0);
  }

  /** A file of the tree that is a file outside it (a hard link; a copy across file systems). */
  linkFrom(absPath: string, rel: string, bytes: number): void {
    this.order?.push(rel);
    const target = this.ensureDir(rel);
    try {
      linkSync(absPath, target);
    } catch {
      copyFileSync(absPath, target);
    }
    this.progress.wrote(bytes);
  }

  /** A file written piece by piece, for bodies too large to hold. */
  open(rel: string): { append(text: string): void; close(): void } {
    this.order?.push(rel);
    const fd = openSync(this.ensureDir(rel), 'w');
    let bytes = 0;
    return {
      append: (text: string) => {
        if (text.length === 0) return;
        const buf = Buffer.from(text, 'utf8');
        writeSync(fd, buf);
        bytes += buf.length;
      },
      close: () => {
        closeSync(fd);
        this.progress.wrote(bytes);
      },
    };
  }
}
