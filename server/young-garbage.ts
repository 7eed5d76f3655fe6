/**
 * Collects V8's young generation after every few MB of streamed answers.
 *
 * A streamed answer makes, for each DuckDB chunk, a copy of its texts and the joined bytes written to the socket
 * (lib/text-bytes.ts): a few MB of Buffers per chunk, garbage once written. V8 sees only their small wrappers and
 * collects for the memory behind them only after external memory has grown by about 64 MB, so that much dead
 * answer could sit in the endpoint at any time. A scavenge (young generation only) frees it: with one every 4 MB, the memory bench's one-client peak on the 30-year catalogue
 * fell by 60-75 MB (BENCHMARKS.md).
 *
 * Needs node's `--expose-gc` (ENDPOINT_NODE_FLAGS); without it, as in tests that serve in-process, this does nothing.
 */

/** Bytes streamed between two collections. */
export const YOUNG_GC_EVERY_BYTES = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

export class YoungGarbage {
  private since = 0;
  private readonly collect: Collect | undefined;
  private readonly every: number;

  constructor(collect: Collect | undefined = (globalThis as { gc?: Collect }).gc, every = YOUNG_GC_EVERY_BYTES) {
    this.collect = collect;
    this.every = every;
  }

  /** Counts `bytes` just written; collects once `every` bytes have gone out since the last collection. */
  streamed(bytes: number): void {
    if (!this.collect) return;
    this.since += bytes;
    if (this.since < this.every) return;
    this.since = 0;
    this.collect({ type: 'minor' });
  }
}

/** The process's one counter: every streamed answer adds to it, so answers at once share the cadence. */
export const youngGarbage = new YoungGarbage();
