/**
 * Unpacks the held answers' zstd frames (answer-cache.ts) into Buffers it reuses (issue 18, tail latency).
 *
 * A crowd going round more long answers than have room plain is sent them unpacked frame by frame: about 1 GB/s
 * of 256 KB Buffers at the postgres bench's expanded one-day query, each new and garbage once written. V8 counts
 * that memory against the old generation and ran a full collection about 30 times a second for it (`--trace-gc`:
 * "GC in old space requested", the heap itself steady at 19 MB), a quarter of the process's time. Written into
 * Buffers that go back to a free list once the socket is done with them (the write's callback), the same load
 * allocates nothing: one full collection a second, not thirty, and twice the answers a second.
 *
 * node has no public call that unpacks into a given Buffer: zlib's zstdDecompressSync makes its own. This uses
 * the handle under node's ZstdDecompress stream, as zlib's own synchronous calls do (`handle.writeSync(flush, in,
 * inOffset, inLength, out, outOffset, outLength)`, then `[outLeft, inLeft]` in the stream's write state). That is
 * node's internal surface, so every use is checked: a self-test at start (a frame unpacked both ways, compared),
 * and for each frame, no error, all its input taken, and exactly its body's bytes out. Anything else drops the
 * handle (a zstd stream left mid-frame would go on from there) and unpacks that frame with zstdDecompressSync;
 * a node whose handle differs fails the self-test and always uses zstdDecompressSync. A pinned node (node@24)
 * does not change under us; the tests run both ways (`direct` and not).
 */
import { ZstdDecompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';

/** What this uses of the handle under ZstdDecompress (node's lib/zlib.js, processChunkSync). */
interface ZstdHandle {
  writeSync(flush: number, input: Buffer, inOffset: number, inLength: number, out: Buffer, outOffset: number, outLength: number): void;
  onerror: (message: string) => void;
}

interface Engine {
  stream: ZstdDecompress;
  handle: ZstdHandle;
  /** `[outLeft, inLeft]` after each write. */
  state: Uint32Array;
  /** zstd's error message from the last write, if it failed. */
  error: string | undefined;
}

/** The flush flag that ends a frame (the stream's `_finishFlushFlag`: ZSTD_e_end). */
const END = 2;

function newEngine(): Engine | undefined {
  const stream = new ZstdDecompress();
  const inner = stream as unknown as { _handle?: ZstdHandle; _writeState?: Uint32Array };
  const handle = inner._handle;
  const state = inner._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || !(state instanceof Uint32Array) || state.length !== 2) {
    stream.destroy();
    return undefined;
  }
  const engine: Engine = { stream, handle, state, error: undefined };
  // zstd's errors come here, not as exceptions (node's stream would destroy itself; this engine is dropped instead)
  handle.onerror = (message: string) => {
    engine.error = message;
  };
  return engine;
}

export class FrameUnpacker {
  /** The largest frame body, and so each pooled Buffer's size (a frame's body may be shorter: the last). */
  readonly frameBytes: number;
  /** Whether frames are unpacked into given Buffers (node's handle passed the self-test). */
  readonly direct: boolean;
  readonly #keep: number;
  #engine: Engine | undefined;
  /** Pooled memory not in use. */
  readonly #free: ArrayBuffer[] = [];
  /** Pooled memory lent out (take) and not yet given back: a Buffer given back twice is not pooled twice. */
  readonly #lent = new Set<ArrayBuffer>();
  /** Frames unpacked by zstdDecompressSync: the handle failed them, or is not used (tests). */
  fallbacks = 0;
  /** Buffers lent in all (tests). */
  lends = 0;

  /** `keep`: how many free Buffers of `frameBytes` are kept for reuse (the rest are left to V8). */
  constructor(frameBytes: number, keep: number, useHandle = true) {
    this.frameBytes = frameBytes;
    this.#keep = keep;
    this.direct = useHandle && (handleWorks ??= selfTest());
  }

  /** Pooled Buffers free now (tests). */
  get free(): number {
    return this.#free.length;
  }

  /**
   * `frame`'s body of `length` bytes in a Buffer lent from the pool: give it back (`give`) once nothing reads it
   * any more (for a socket: the write's callback). A Buffer never given back is simply left to V8.
   */
  take(frame: Buffer, length: number): Buffer {
    if (!this.direct || length > this.frameBytes) return this.#fallback(frame, length);
    // a byte more than the largest body: a frame holding more than it should is caught, not cut short (#into)
    const memory = this.#free.pop() ?? new ArrayBuffer(this.frameBytes + 1);
    if (!this.#into(frame, Buffer.from(memory), 0, length)) {
      this.#free.push(memory);
      return this.#fallback(frame, length);
    }
    this.#lent.add(memory);
    this.lends++;
    return Buffer.from(memory, 0, length);
  }

  /** Gives back a Buffer lent by `take`; anything else is ignored. */
  give(piece: string | Uint8Array): void {
    if (typeof piece === 'string') return;
    const memory = piece.buffer as ArrayBuffer;
    if (!this.#lent.delete(memory)) return;
    if (this.#free.length < this.#keep) this.#free.push(memory);
  }

  /** A body of `length` bytes in frames of `frameBytes`, unpacked whole into one new Buffer (to be held). */
  whole(frames: readonly Buffer[], length: number): Buffer {
    // a byte more, as in take
    const out = Buffer.allocUnsafe(length + 1);
    for (let i = 0; i < frames.length; i++) {
      const at = i * this.frameBytes;
      const n = Math.min(this.frameBytes, length - at);
      if (!this.direct || !this.#into(frames[i]!, out, at, n)) this.#fallback(frames[i]!, n).copy(out, at);
    }
    return out.subarray(0, length);
  }

  /** Unpacks `frame` into `out` at `offset`; false (and the handle dropped) unless exactly `length` bytes came. */
  #into(frame: Buffer, out: Buffer, offset: number, length: number): boolean {
    const engine = (this.#engine ??= newEngine());
    if (!engine) return false;
    // room for one byte more than the body (the callers leave it): a frame that holds more is caught, not cut short
    const room = length + 1;
    if (out.length - offset < room) return false;
    let ok: boolean;
    try {
      engine.handle.writeSync(END, frame, 0, frame.length, out, offset, room);
      ok = engine.error === undefined && engine.state[1] === 0 && room - engine.state[0]! === length;
    } catch {
      ok = false;
    }
    if (!ok) {
      this.#engine = undefined;
      engine.stream.destroy();
    }
    return ok;
  }

  #fallback(frame: Buffer, length: number): Buffer {
    this.fallbacks++;
    const out = zstdDecompressSync(frame, { chunkSize: length + 64 });
    if (out.length !== length) throw new Error(`a held answer's frame unpacked to ${out.length} bytes, not ${length}`);
    return out;
  }
}

/** The self-test's verdict, once per process. */
let handleWorks: boolean | undefined;

/** True when node's handle unpacks two frames in turn, into given places, as zstdDecompressSync does. */
function selfTest(): boolean {
  try {
    const bodies = [Buffer.from('{"self-test":1}'.repeat(500)), Buffer.from('[2,"unpacked into a given Buffer"]'.repeat(300))];
    const engine = newEngine();
    if (!engine) return false;
    const out = Buffer.alloc(bodies[0]!.length + bodies[1]!.length + 1);
    let at = 0;
    for (const body of bodies) {
      const frame = zstdCompressSync(body);
      engine.handle.writeSync(END, frame, 0, frame.length, out, at, body.length + 1);
      if (engine.error !== undefined || engine.state[1] !== 0 || body.length + 1 - engine.state[0]! !== body.length) return false;
      if (!out.subarray(at, at + body.length).equals(zstdDecompressSync(frame))) return false;
      at += body.length;
    }
    engine.stream.destroy();
    return true;
  } catch {
    return false;
  }
}
