/**
 * File writes done by a worker thread, so that the build's main thread makes the next files while the last ones
 * are written. The radar id files are most of a tree (136,000 of 140,000 for 7 days), and their open, write
 * and close were 1.9 s of system time in a 4.2 s build on a RAM disk, on the main thread, with a core idle.
 *
 * Files are queued as (absolute path, bytes) or (absolute path, hard link to a path queued before) and sent in
 * batches of about BATCH_BYTES, which the worker handles in order: a link always finds its source written. At
 * most MAX_IN_FLIGHT batches are out at once (`settle` waits), so the queue holds a few MB at most. The first
 * failure (a full disk) is raised by the next `settle` or by `finish`; a failed build never reports success.
 */
import { Worker } from 'node:worker_threads';

export interface Batch {
  paths: string[];
  /** Per path: the file to link it to, or null to write its bytes. */
  links: (string | null)[];
  /** Per path: where its bytes end in `bytes` (a link's is the previous one's). */
  ends: number[];
  bytes: ArrayBuffer;
}

export type BatchAnswer = { done: number } | { error: string };

const BATCH_BYTES = 1 << 20;
const BATCH_FILES = 2048;
const MAX_IN_FLIGHT = 4;

export class BackgroundWrites {
  private readonly worker: Worker;
  private paths: string[] = [];
  private links: (string | null)[] = [];
  private ends: number[] = [];
  private bytes = new Uint8Array(BATCH_BYTES);
  private used = 0;
  private inFlight = 0;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  constructor() {
    this.worker = new Worker(new URL('./file-writes-worker.ts', import.meta.url));
    this.worker.unref();
    this.worker.on('message', (a: BatchAnswer) => {
      this.inFlight--;
      if ('error' in a) this.error ??= new Error(`writing the tree: ${a.error}`);
      if (this.inFlight === 0) this.worker.unref();
      this.wake?.();
    });
    this.worker.on('error', (e) => {
      this.error ??= e;
      this.inFlight = 0;
      this.wake?.();
    });
  }

  write(abs: string, data: Uint8Array): void {
    if (this.used + data.length > this.bytes.length) {
      if (this.used > 0) this.send();
      if (data.length > this.bytes.length) this.bytes = new Uint8Array(data.length);
    }
    this.bytes.set(data, this.used);
    this.used += data.length;
    this.push(abs, null);
  }

  link(fromAbs: string, abs: string): void {
    this.push(abs, fromAbs);
  }

  private push(abs: string, from: string | null): void {
    this.paths.push(abs);
    this.links.push(from);
    this.ends.push(this.used);
    if (this.paths.length >= BATCH_FILES) this.send();
  }

  private send(): void {
    if (this.paths.length === 0) return;
    const batch: Batch = { paths: this.paths, links: this.links, ends: this.ends, bytes: this.bytes.buffer as ArrayBuffer };
    this.worker.ref();
    this.inFlight++;
    this.worker.postMessage(batch, [batch.bytes]);
    this.paths = [];
    this.links = [];
    this.ends = [];
    this.bytes = new Uint8Array(BATCH_BYTES);
    this.used = 0;
  }

  /** Waits while too many batches are out; raises a failed write. */
  async settle(): Promise<void> {
    if (this.used >= BATCH_BYTES / 2) this.send();
    while (this.inFlight >= MAX_IN_FLIGHT && !this.error) await new Promise<void>((r) => (this.wake = r));
    if (this.error) throw this.error;
  }

  /** Sends what is queued, waits until every file is written, and stops the worker; raises a failed write. */
  async finish(): Promise<void> {
    try {
      this.send();
      while (this.inFlight > 0 && !this.error) await new Promise<void>((r) => (this.wake = r));
      if (this.error) throw this.error;
    } finally {
      await this.worker.terminate();
    }
  }

  /** Stops the worker at once (the build failed elsewhere; its folder is thrown away). */
  async abort(): Promise<void> {
    await this.worker.terminate();
  }
}
