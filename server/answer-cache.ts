/**
 * Recent answers held in memory (issue 18, tail latency): every GET or HEAD answer is a function of the build and
 * of the request's path, query, `Accept` (and, on the Timeseries API, `Accept-Language`): the contract the ETag
 * already states (http-cache.ts). So the ETag names an answer: a second request with the same ETag gets the same
 * bytes from memory, without routing, parsing, a query or a file read. A new build has a new tag, so an answer
 * of an earlier build is never sent for a later one (a hot swap empties nothing and serves nothing stale).
 *
 * - Held: 200 answers to GET in a text type (JSON, CSV, checksum reports, HTML, SVG: compressibleType), sent
 *   whole (with a Content-Length) or streamed, of at most ENTRY_MAX bytes in all, and small files of the tree sent
 *   whole whatever their type (up to 256 KB, respond.ts: the pre-rendered charts); their body as the handler wrote
 *   it (before compression: compression.ts compresses a held Buffer once per coding and keeps the forms while the
 *   Buffer is held) and the headers the handler set (those set before it, the same for the same ETag, are set
 *   again for each request by http-cache.ts).
 * - Not held: errors, redirects, answers cut short (client gone, stalled, a failed stream), POST, HEAD (a HEAD
 *   is answered from a held GET, its head without the body), charts rendered on demand (PNG, PDF: the
 *   renderer's own admission decides on those), and anything while the app runs `liveOnly`.
 * - Sent again as it went (replay, app.ts): a held answer's head and body as its first GET in an `Accept-Encoding`
 *   got them, every header prebuilt in one list: one writeHead and one end, no header set one by one, no wrapper
 *   (issue 18: the small-file path at 0.8x nginx and more).
 * - Sent as it was: an answer up to HOLD_BYTES whole (compressed whole, with its length), a longer one in pieces,
 *   which the compressor streams (chunked) as it streamed the first.
 * - Bounded: the bodies held stay within the budget (CACHE_BUDGET, per process); an answer of at most ENTRY_MAX.
 * - Packed: an answer over PACK_MIN is held as zstd frames too, its plain body kept beside them while there is
 *   room (ZFS's compressed ARC): about ten times as many long answers fit (see PACK_MIN).
 * - Which are held, once the budget is full: those asked for most (TinyLFU's admission, as Caffeine holds entries;
 *   Einziger, Friedman, Manes, "TinyLFU: A Highly Efficient Cache Admission Policy", 2017). Every request counts
 *   for its ETag (a bounded table of counts, halved every ten times as many requests as answers are held, so old
 *   popularity fades); an answer
 *   that does not fit in what is left of the budget goes in only if it was asked for more often before this
 *   request than each of the least recently used answers it would put out, else it is sent and not held. Pure
 *   LRU holds nothing of a crowd that goes round more answers than fit (issue 18: 16 clients going round 200
 *   one-day expanded answers of 670 KB, 134 MB against 48 MB: 4 hits in 1,127); this keeps a fixed part of them
 *   (about 48 of 134 MB), and one-off answers (a crawler, random timespans) do not put out the answers a crowd
 *   repeats.
 * - One request makes an answer, the others wait for it (nginx's `proxy_cache_lock`): a GET that misses while
 *   another request is making the answer of the same ETag (one that may be held) waits for that one to end, up to
 *   MAKING_WAIT_MS, and is then sent the answer that one made, held or not (declined past the budget, it is let
 *   go once they have it); only an answer not made whole (an error, over ENTRY_MAX, cut short, or past the wait)
 *   is made again, by each. A crowd asking for the same answer at once (16 clients starting on 12 radars'
 *   answers: issue 18) makes it once, not once per client, each a query and a place in the connection queue.
 *   Those waiting are counted as they arrive, so the crowd counts in the answer's admission (issue 18: counted
 *   only once answered, a crowd's answers were declined while the budget held another query's, and each waiter
 *   made them again: 91 not held, the p99 of the round).
 * Like nginx's `proxy_cache` in front of an application, but exact: no expiry is needed, as a build never changes.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { FrameUnpacker } from './frame-unpacker.ts';
import type { SharedAnswers } from './shared-answers.ts';
import { compressibleType, type Coding } from '../core/http/content-coding.ts';
import { bodyCompressed, compressWhole, compressWholeOnce, HOLD_BYTES } from './compression.ts';
import { writePieces } from './respond.ts';

/**
 * Largest answer held (bytes of body): a twelfth of the budget. At 1 MiB the answer to the busiest radar's
 * radar_code + distinct over a year (11,908 records, 1.4 MB) was never held, and was a DuckDB query every time
 * (issue 18: the postgres bench's p99 on that query, ×2.1-2.3 of PostgreSQL's, was those misses).
 */
export const ENTRY_MAX = 4 * 1024 * 1024;
/** Bodies held in all, per process. */
export const CACHE_BUDGET = 48 * 1024 * 1024;

/** The longest a request waits for another one making the same answer (nginx's proxy_cache_lock_timeout). */
export const MAKING_WAIT_MS = 5000;

/** ETags whose requests are counted; past it the least recently counted is forgotten (a few MB at most). */
export const COUNTED_MAX = 16_384;
/**
 * Requests between two halvings of every count: ten times the answers held (TinyLFU's sample size, as Caffeine
 * sets it), at least AGE_MIN. So a crowd that turns to other answers (another query, a new build) has them held
 * within a few thousand requests: the counts of what it asked before fade by half each sample.
 */
export const AGE_MIN = 1024;

/**
 * A count stops at this (TinyLFU's 4-bit counters, as Caffeine's sketch keeps them): an answer asked for a
 * thousand times by the last crowd weighs no more than one asked for 15 times, so after a halving or two a new
 * crowd's answers outweigh it (issue 18: in the postgres bench the one-day answers, asked for 590 times each,
 * kept the budget for the whole run of the expanded query that followed: 21 % of its requests were hits).
 */
export const COUNT_MAX = 15;

/**
 * Answers longer than this are held packed too (issue 18: ZFS's compressed ARC beside its cache of plain
 * buffers): zstd frames at the fast level (compression.ts LEVELS), each of PACK_FRAME bytes of body, made on libuv's thread pool
 * once the answer has been sent. Its plain body is kept beside them while there is room: to make room for an
 * answer, the plain copies of the least recently used packed answers go first (their frames stay: it costs their
 * next hits an unpacking, not a query), and only then whole answers (TinyLFU's admission). A plain copy itself
 * (of an answer just packed, or taken back by a hit on one held only packed: unpacked whole, 0.5 ms for 670 KB)
 * gets room only from the copies of answers asked for less often (or stale: #stale), never from an answer. Held
 * only packed, an answer is sent unpacked frame by frame as its client takes it, so a slow client holds one frame
 * unpacked, not the answer.
 * The catalogue's records pack 4:1 (a one-day /files answer) to 10:1 (expanded): the postgres bench's 200 one-day
 * expanded answers of 670 KB (134 MB plain, 71 held plain in 48 MB) are 13 MB packed, all held, and a hit that
 * unpacks one (0.5 ms) is a tenth of making it again (5.8 ms alone, and a place in the queue for a DuckDB
 * connection). Answers asked for again and again that fit plain (a radar's year, 733 KB; getData of a year,
 * 2.2 MB) keep their plain copy and are sent as before: held only packed, each hit unpacked them again, and
 * getData of a year went from 2.8 to 26 ms median at 16 connections.
 */
export const PACK_MIN = 64 * 1024;
/** Body bytes per packed frame: what a request answered from a packed answer holds unpacked at a time. */
export const PACK_FRAME = HOLD_BYTES;
/** A plain copy unasked for in this many times as many requests as answers are held is stale (#stale). */
export const STALE_COPY = 2;
/** ... counted as at least this many answers held. */
const STALE_COPY_MIN = 128;
/** Held plain after all when packing saves less than a tenth (an answer that does not compress). */
const PACK_WORTH = 0.9;
/** Before packing, an answer is let in (or not) as if it packed this well: 4:1, the plain one-day answer at zstd 1. */
const PACK_GUESS = 4;

/** Headers that describe the bytes on the wire, not the answer: set again for each sending. */
const WIRE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

interface Held {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body as the handler wrote it; of a packed answer, its plain copy while there is room for it (or none). */
  body?: Buffer;
  /** A long answer's body packed (PACK_MIN): zstd frames of PACK_FRAME bytes of body each, in order. */
  packed?: Buffer[];
  /** The frames' bytes (0: not packed). */
  packedBytes: number;
  /** The body's bytes. */
  length: number;
  /** The request count (`#seq`) when it was last asked for (a stale plain copy: STALE_COPY). */
  used: number;
  /** The answer as it went on the wire, by the request's `Accept-Encoding` (replay): made by its first GET in it. */
  wire?: Map<string, Wire>;
}

/** What a held answer counts against the budget: its plain body's bytes, if held, and its frames'. */
function costOf(held: Held): number {
  return (held.body ? held.length : 0) + held.packedBytes;
}

/** Room made for an answer: the plain copies that go, then the answers that go. */
interface Room {
  copies: [string, Held][];
  victims: [string, Held][];
}

/** An answer made whole, plain: what those waiting for it are sent. */
type Made = Held & { body: Buffer };

/**
 * A held answer exactly as it was sent for one `Accept-Encoding`: its status, every header it carried (names as
 * sent, one flat list for writeHead) and its body (the held Buffer, or its compressed form, which
 * compression.ts keeps while the Buffer is held). Node adds what describes the connection (`Date`, `Connection`,
 * `Keep-Alive`).
 */
export interface Wire {
  status: number;
  head: string[];
  body: Buffer;
}

/** Wire forms kept per answer: clients send a handful of `Accept-Encoding` values; an odd one goes the usual way. */
export const WIRE_PER_ANSWER = 8;
/** Wire forms kept in all, per process (a few hundred bytes of header list each; their bodies are held anyway). */
export const WIRE_FORMS_MAX = 16_384;

/** Answers that are a small file of the static tree sent whole (respond.ts): held whatever their type. */
const treeFiles = new WeakSet<ServerResponse>();

/**
 * Marks `res` as answered by a file of the static tree sent whole from memory (up to 256 KB: respond.ts), so it
 * is held whatever its type: a pre-rendered chart (PNG) is then answered as the tree's JSON files are (issue 18,
 * the small-file path). Call before its head is written.
 */
export function heldWhateverType(res: ServerResponse): void {
  treeFiles.add(res);
}

/** An answer being made: settles when its making ends; `made` is the answer if it was made whole. */
interface Making {
  done: Promise<void>;
  /** Requests waiting for it. */
  waiters: number;
  /** The answer made whole, plain; set before `done` settles. While it is being packed, those asking get it at once. */
  made?: Made;
}

type Write = (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, cb?: unknown) => ServerResponse;

/** Free unpacked frames kept for reuse (frame-unpacker.ts): 8 MB, as many as clients sent packed answers at once. */
const UNPACKED_KEEP = 32;

/**
 * A packed answer's body of `length` bytes, a frame at a time: each in a Buffer lent by `unpacker` (`lend`: to be
 * given back by writePieces' `written`), or in a new one (for a compressor, which may keep what it is given past
 * its write's callback). Frame by frame, never the frames at once: concatenated zstd frames are one valid zstd
 * stream, but node's zstdDecompressSync with an output chunk larger than the first frame's body returns that
 * frame only.
 */
function* unpacked(unpacker: FrameUnpacker, frames: Buffer[], length: number, lend: boolean): Generator<Buffer> {
  for (let i = 0; i < frames.length; i++) {
    const n = Math.min(PACK_FRAME, length - i * PACK_FRAME);
    yield lend ? unpacker.take(frames[i]!, n) : unpacker.whole([frames[i]!], n);
  }
}

function bytesOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
}

export class AnswerCache {
  readonly #held = new Map<string, Held>();
  #bytes = 0;
  /** Requests per ETag (most recently counted last), halved every ageEvery requests. */
  readonly #counts = new Map<string, number>();
  #counted = 0;
  /** Requests counted in all (Held.used). */
  #seq = 0;
  /** Answers held packed now (PACK_MIN). */
  #packedNow = 0;
  /** Answers sent but not held: the budget was full of answers asked for as often (for tests and the bench). */
  declined = 0;
  /** Requests that waited for another one making the same answer. */
  waited = 0;
  /**
   * Answers being made now by a request whose answer may be held: their ends, for those asking the same, and the
   * answer once made whole (`made`, held or not), which those waiting for it are sent.
   */
  readonly #making = new Map<string, Making>();
  hits = 0;
  misses = 0;
  /** Hits sent again as they went (replay), a part of `hits`. */
  replayed = 0;
  /** Wire forms kept now (WIRE_FORMS_MAX). */
  #wireForms = 0;
  /** Unpacks frames into Buffers it reuses once sent (sends of answers held only packed). */
  readonly unpacker = new FrameUnpacker(PACK_FRAME, UNPACKED_KEEP);

  readonly budget: number;
  readonly entryMax: number;
  /** Answers longer than this are held packed (PACK_MIN; Infinity: none). */
  readonly packMin: number;

  /** The answers the other processes of this supervisor hold (shared-answers.ts), if any. */
  readonly shared: SharedAnswers | undefined;

  constructor(budget = CACHE_BUDGET, entryMax = ENTRY_MAX, packMin = PACK_MIN, shared?: SharedAnswers) {
    this.budget = budget;
    this.entryMax = entryMax;
    this.packMin = packMin;
    this.shared = shared;
  }

  /** Requests answered from an answer another process shared (a part of `hits`). */
  get sharedHits(): number {
    return this.#sharedHits;
  }

  #sharedHits = 0;

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#held.size;
  }

  /** Frames unpacked by zstdDecompressSync instead of into reused Buffers (frame-unpacker.ts; metrics). */
  get unpackFallbacks(): number {
    return this.unpacker.fallbacks;
  }

  /** Answers held packed now (PACK_MIN). */
  get packed(): number {
    return this.#packedNow;
  }

  /** Packed answers held with their plain copy now. */
  get copies(): number {
    let n = 0;
    for (const v of this.#held.values()) if (v.packed && v.body) n++;
    return n;
  }

  /**
   * When another request is making the answer of `etag` now (and it may be held): a promise that settles when it
   * ends, or after MAKING_WAIT_MS at the most, with the answer it made (held or not; undefined if it made none
   * whole); then call `answer` with it. Undefined when there is none to wait for.
   *
   * A request that waits is counted now, as it arrives, not once it is answered: the answer's admission (past
   * the budget) is decided when its making ends, and a crowd waiting for it then has asked for it. Counted only
   * when it came back, a crowd's answer was declined while the budget held answers asked for more often before
   * (issue 18: 91 radar answers not held in the round after the expanded query), and each of its waiters made
   * the answer again.
   */
  making(etag: string): Promise<Made | undefined> | undefined {
    const m = this.#making.get(etag);
    if (!m) return undefined;
    this.waited++;
    m.waiters++;
    this.#count(etag);
    // made, and being packed to be held: sent at once
    if (m.made) return Promise.resolve(m.made);
    return new Promise<Made | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), MAKING_WAIT_MS);
      timer.unref();
      void m.done.then(() => {
        clearTimeout(timer);
        resolve(m.made);
      });
    });
  }

  /**
   * Answers `req` from memory when an answer with this ETag is held (true), else arranges for `res`'s answer to be
   * held once it has been sent whole (false). Call after the common headers (the ETag) are set and before the
   * handler writes; `res` may already be wrapped by the compressor (compression.ts), which then sees the held
   * body as any other.
   */
  answer(req: IncomingMessage, res: ServerResponse, etag: string, waited?: { made: Made | undefined }): boolean {
    // a request that waited for the making (making()) was counted then
    if (!waited) this.#count(etag);
    // not held here, nor being made: one another process made and shared, held here too if let in
    if (this.shared && !waited && !this.#held.has(etag) && !this.#making.has(etag)) this.#fromShared(etag);
    const held = this.#held.get(etag);
    if (held) this.#used(etag, held);
    // not held (declined, or put out since): the answer the request waited for, made for it as for the others
    const hit = held ?? waited?.made;
    if (hit) {
      this.hits++;
      res.writeHead(hit.status, { ...hit.headers, 'Content-Length': hit.length });
      if (!hit.body && !(held && this.#copyBack(etag, held))) {
        // packed only, no room for its plain copy: unpacked a frame at a time, as the client takes them (the
        // compressor streams them on, as it streamed the answer's first sending); a HEAD's body whole, for the
        // compressor's Content-Length
        if (req.method === 'HEAD') res.end(this.unpacker.whole(hit.packed!, hit.length));
        else if (bodyCompressed(res)) writePieces(res, unpacked(this.unpacker, hit.packed!, hit.length, false)).catch(() => res.destroy());
        // in identity, lent frames: they go back once the socket has them
        else writePieces(res, unpacked(this.unpacker, hit.packed!, hit.length, true), { written: (piece) => this.unpacker.give(piece) }).catch(() => res.destroy());
        return true;
      }
      // HEAD too: node sends no body for HEAD, and the compressor needs it for the Content-Length
      if (hit.body!.length <= HOLD_BYTES) {
        res.end(hit.body);
        // forms are kept with a held answer, or one being packed to be held (they go with it: #pack), never with
        // a declined one
        if (req.method === 'GET' && (held === hit || this.#making.get(etag)?.made === hit)) this.#keepWire(req, res, hit as Made);
      } else {
        // as long an answer as went out as a stream (a piped file, a streamed query): in pieces again, so the
        // compressor streams it as it did (chunked), and the socket takes it at the client's pace
        res.write(hit.body!.subarray(0, HOLD_BYTES));
        res.end(hit.body!.subarray(HOLD_BYTES));
      }
      return true;
    }
    this.misses++;
    if (req.method === 'GET') this.#capture(res, etag);
    return false;
  }

  /**
   * The fast path for a request the app has set nothing on yet (app.ts): when the answer of `etag` is held and
   * was sent before for this `Accept-Encoding` (undefined: none), sends it again as it went, head and body in
   * one writeHead and one end, and counts it as any hit (true). Else nothing is sent (false). The caller leaves
   * to the usual way what a held answer does not answer alike: `If-None-Match` (304) and `Range`.
   */
  replay(res: ServerResponse, etag: string, acceptEncoding: string | undefined): boolean {
    const held = this.#held.get(etag);
    // or one being packed to be held, sent meanwhile (its forms go with it: #pack)
    const hit = held ?? this.#making.get(etag)?.made;
    const wire = hit?.wire?.get(acceptEncoding ?? '');
    if (!wire) return false;
    this.#count(etag);
    if (held) this.#used(etag, held);
    this.hits++;
    this.replayed++;
    res.writeHead(wire.status, wire.head);
    // HEAD too: node sends no body for HEAD; the head is GET's, its Content-Length included
    res.end(wire.body);
    return true;
  }

  /**
   * Keeps how a held answer just went out whole to a GET (head and body, sent at once: up to HOLD_BYTES, which
   * compression.ts compresses on the event loop), for replay. Whatever the usual way set (the common headers,
   * `Vary`, the coding's ETag and length) is read back from the response as sent, so a replay is that answer.
   */
  #keepWire(req: IncomingMessage, res: ServerResponse, hit: Made): void {
    // sent, head and body: compression.ts reports headersSent while it holds a head, so the head itself is asked
    if (res.destroyed || !res.writableEnded || !(Reflect.get(Object.getPrototypeOf(res) as object, 'headersSent', res) as boolean)) return;
    const ae = req.headers['accept-encoding'] ?? '';
    if (hit.wire?.has(ae) || (hit.wire?.size ?? 0) >= WIRE_PER_ANSWER || this.#wireForms >= WIRE_FORMS_MAX) return;
    const coding = res.getHeader('Content-Encoding');
    let body: Buffer = hit.body;
    if (coding !== undefined) {
      // the same Buffer the compressor sent: compressWholeOnce keeps one per held body and coding
      const made = compressWholeOnce(String(coding) as Coding, hit.body);
      if (!Buffer.isBuffer(made)) return;
      body = made;
    }
    const head: string[] = [];
    // the names as they were set (node has getRawHeaderNames since 15.13; @types/node leaves it out)
    for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
      const v = res.getHeader(name);
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) head.push(name, x);
      else head.push(name, String(v));
    }
    (hit.wire ??= new Map()).set(ae, { status: res.statusCode, head, body });
    this.#wireForms++;
  }

  /** Wire forms kept now, over all held answers. */
  get wireForms(): number {
    return this.#wireForms;
  }

  /** How often `etag` was asked for (within the counts' memory). */
  countOf(etag: string): number {
    return this.#counts.get(etag) ?? 0;
  }

  /** Requests between two halvings of the counts now. */
  get ageEvery(): number {
    return Math.max(AGE_MIN, 10 * this.#held.size);
  }

  /** Holds the answer of `etag` another process shared, if there is one and it is let in (#room). */
  #fromShared(etag: string): void {
    const s = this.shared!.take(etag);
    if (!s) return;
    const held: Held = { status: s.status, headers: s.headers, length: s.length, used: this.#seq, packedBytes: 0 };
    if (s.packed) {
      held.packed = s.packed;
      held.packedBytes = s.packed.reduce((n, f) => n + f.length, 0);
    } else held.body = s.body!;
    // not let in: a miss here, made as any (and counted declined then, if it is not let in either)
    const room = this.#room(etag, costOf(held));
    if (!room) return;
    this.#remember(etag, held, room);
    this.#sharedHits++;
  }

  /** Shares an answer made here and held now with the other processes (their misses look there first). */
  #share(etag: string, held: Held): void {
    if (!this.shared || this.#held.get(etag) !== held) return;
    this.shared.share(etag, held.packed ? { status: held.status, headers: held.headers, length: held.length, packed: held.packed } : { status: held.status, headers: held.headers, length: held.length, body: held.body! });
  }

  /** `held` was asked for now: it goes last in the LRU order. */
  #used(etag: string, held: Held): void {
    this.#held.delete(etag);
    this.#held.set(etag, held);
    held.used = this.#seq;
  }

  #count(etag: string): void {
    this.#seq++;
    const n = this.#counts.get(etag) ?? 0;
    this.#counts.delete(etag); // most recently counted goes last
    this.#counts.set(etag, Math.min(COUNT_MAX, n + 1));
    if (this.#counts.size > COUNTED_MAX) this.#counts.delete(this.#counts.keys().next().value!);
    if (++this.#counted < this.ageEvery) return;
    this.#counted = 0;
    for (const [k, v] of this.#counts) {
      if (v < 2) this.#counts.delete(k);
      else this.#counts.set(k, v >> 1);
    }
  }

  /**
   * What would go to make room for `bytes` more under `etag` (its answer, or with `forCopy` its plain copy), or
   * undefined if they are not to be held: first plain copies of packed answers, then (not for a copy) answers,
   * each least recently used first; past the budget an answer goes only if this one was asked for more often
   * before this request (this request is counted already) than each of them.
   */
  #room(etag: string, bytes: number, forCopy = false): Room | undefined {
    const asked = this.countOf(etag) - 1;
    const own = this.#held.get(etag);
    let over = this.#bytes - (own ? costOf(own) : 0) + bytes - this.budget;
    const room: Room = { copies: [], victims: [] };
    // first the plain copies of packed answers, least recently used first: no answer goes. For an answer's own
    // bytes any copy goes (it costs their hits an unpacking, not a query); for a plain copy only those of answers
    // asked for less often (a crowd going round more copies than fit keeps a fixed part, as with answers), and
    // no answer
    for (const entry of this.#held) {
      if (over <= 0) return room;
      const [k, v] = entry;
      if (k === etag || !v.body || !v.packed || (forCopy && this.countOf(k) >= asked && !this.#stale(v))) continue;
      room.copies.push(entry);
      over -= v.length;
    }
    if (over <= 0) return room;
    // a plain copy never puts out an answer: that would cost a query to save an unpacking
    if (forCopy) return undefined;
    const copied = new Set(room.copies.map(([k]) => k));
    for (const entry of this.#held) {
      if (over <= 0) break;
      const [k, v] = entry;
      if (k === etag) continue;
      if (this.countOf(k) >= asked) return undefined;
      room.victims.push(entry);
      over -= copied.has(k) ? v.packedBytes : costOf(v);
    }
    // more than the budget holds (an answer up to entryMax over a smaller budget)
    return over <= 0 ? room : undefined;
  }

  /**
   * A plain copy unasked for in STALE_COPY times as many requests as answers are held: any other copy may take its
   * room. A crowd that turned to other answers left its copies with counts that fade only by halving, every ten
   * times as many requests as answers held (issue 18: in the postgres bench the 200 one-day answers' copies, 25 MB
   * asked for 15 times each, kept their room through the expanded query that followed, whose answers were then
   * unpacked at every hit); a crowd going round its answers asks for each once in as many requests as it has.
   */
  #stale(held: Held): boolean {
    return this.#seq - held.used > STALE_COPY * Math.max(this.#held.size, STALE_COPY_MIN);
  }

  /** Makes the room: the plain copies go, then the answers. */
  #make(room: Room): void {
    for (const [k, v] of room.copies) if (this.#held.get(k) === v) this.#dropCopy(v);
    for (const [k, v] of room.victims) if (this.#held.get(k) === v) this.#forget(k, v);
  }

  #remember(etag: string, held: Held, room = this.#room(etag, costOf(held))): void {
    if (!room) {
      this.declined++;
      return;
    }
    const old = this.#held.get(etag);
    if (old) this.#forget(etag, old);
    this.#make(room);
    held.used = this.#seq;
    this.#held.set(etag, held);
    this.#bytes += costOf(held);
    if (held.packed) this.#packedNow++;
  }

  #forget(etag: string, held: Held): void {
    this.#held.delete(etag);
    this.#bytes -= costOf(held);
    this.#wireForms -= held.wire?.size ?? 0;
    if (held.packed) this.#packedNow--;
  }

  /** A packed answer's plain copy goes (its frames stay), with the forms it went out in (replay). */
  #dropCopy(held: Held): void {
    if (!held.body) return;
    held.body = undefined;
    this.#bytes -= held.length;
    this.#wireForms -= held.wire?.size ?? 0;
    held.wire = undefined;
  }

  /**
   * A hit on an answer held only packed takes its plain copy back if there is room for it: free, or the plain
   * copies of answers asked for less often (TinyLFU's rule, as for answers; no answer goes for a copy). Unpacked
   * whole, as the answer made is. True when it has its plain copy now. In a crowd going round more answers than have room for
   * copies, copies do not change hands at every request: each would be unpacked whole, held a while, then let go,
   * old garbage for V8's full collections (2.5 s of GC in 5 s of the postgres bench's expanded query, half the
   * throughput of unpacking frame by frame, whose garbage dies young).
   */
  #copyBack(etag: string, held: Held): boolean {
    const room = this.#room(etag, held.packedBytes + held.length, true);
    if (!room) return false;
    this.#make(room);
    held.body = this.unpacker.whole(held.packed!, held.length);
    this.#bytes += held.length;
    return true;
  }

  /**
   * Holds a long answer packed (PACK_MIN), once its frames are made on the thread pool; plain if it does not pack.
   * Meanwhile its making stays open with the answer made (`making`): those asking for it are sent that at once.
   */
  #pack(etag: string, made: Made, done: () => void): void {
    // each frame in one trip to the pool, at the answers' zstd level (compression.ts)
    const frames: Promise<Buffer>[] = [];
    for (let at = 0; at < made.length; at += PACK_FRAME) frames.push(compressWhole('zstd', made.body.subarray(at, at + PACK_FRAME)));
    // the forms it went out in meanwhile (replay: those waiting for it are sent it, #keepWire) go with its plain
    // body, or are let go; all at once with the making's end, so none is kept on an answer not held after it
    const hold = (packed: Buffer[] | undefined) => {
      const packedBytes = packed?.reduce((n, f) => n + f.length, 0) ?? 0;
      let kept: Held = made;
      if (!packed) this.declined++;
      // it does not pack: held plain, as a short answer is
      else if (packedBytes >= PACK_WORTH * made.length) this.#remember(etag, made);
      else {
        kept = { ...made, packed, packedBytes };
        // with its plain copy when there is room for it (free, or a copy of an answer asked for less often
        // goes), else packed only (and its forms go)
        const room = this.#room(etag, costOf(kept), true);
        if (room) this.#remember(etag, kept, room);
        else this.#remember(etag, { ...kept, body: undefined, wire: undefined });
      }
      const now = this.#held.get(etag);
      if (now) this.#share(etag, now);
      if (this.#held.get(etag) !== kept) this.#wireForms -= made.wire?.size ?? 0;
      done();
    };
    Promise.all(frames).then(hold, () => hold(undefined));
  }

  /**
   * Keeps what the handler writes to `res` (references, no copies) and holds it once it has all been written.
   * The compressor (compression.ts) may put its own write and end on `res` when the head is written: this
   * wraps whatever is there after the head, so the handler's body passes here first, then to the compressor.
   */
  #capture(res: ServerResponse, etag: string): void {
    // those asking for the same answer meanwhile wait for this one (making), until it is held or will not be
    // settle: those waiting are sent what was made (or go their own way); finish: the making is over. While a
    // long answer is packed, its making stays open past its end, with the answer made for those asking
    let settle = () => undefined as void;
    let finish = () => undefined as void;
    let packing = false;
    const made = () => {
      if (!packing) finish();
    };
    let making: Making | undefined;
    if (!this.#making.has(etag)) {
      let resolve!: () => void;
      const m: Making = (making = { done: new Promise<void>((r) => (resolve = r)), waiters: 0 });
      settle = resolve;
      finish = () => {
        if (this.#making.get(etag) === m) this.#making.delete(etag);
        resolve();
      };
      this.#making.set(etag, m);
      res.once('close', made);
    }
    const writeHead = res.writeHead as (...a: unknown[]) => ServerResponse;
    let write = res.write as Write;
    let end = res.end as End;
    let status = 0;
    let headers: OutgoingHttpHeaders | undefined;
    // set for every request before any handler (http-cache.ts: the same for the same ETag): not held, set again
    const before = res.getHeaders();
    let chunks: Buffer[] | undefined = [];
    let length = 0;
    // stop keeping: the response's own functions (those under these wrappers) again
    const give = () => {
      if (res.writeHead === wrappedHead) res.writeHead = writeHead as ServerResponse['writeHead'];
      if (res.write === wrappedWrite) res.write = write as ServerResponse['write'];
      if (res.end === wrappedEnd) res.end = end as ServerResponse['end'];
      // not held after all (not a 200 of a text type, too long): the waiting go their own way
      if (chunks) queueMicrotask(made);
      chunks = undefined;
    };
    const keep = (chunk: unknown, encoding: unknown) => {
      if (!chunks) return;
      const b = bytesOf(chunk, encoding);
      if (!b || b.length === 0) return;
      length += b.length;
      if (length > this.entryMax) {
        chunks = undefined;
        made();
      } else chunks.push(b);
    };
    const wrappedHead = function (this: ServerResponse, s: number, ...rest: unknown[]): ServerResponse {
      const h = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as OutgoingHttpHeaders | readonly unknown[] | undefined;
      res.writeHead = writeHead as ServerResponse['writeHead'];
      status = s;
      if (s === 200 && !Array.isArray(h)) {
        // the headers the answer will carry: those set before, the handler's over them
        const all: OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(res.getHeaders())) if (v !== undefined && !WIRE_HEADERS.has(k)) all[k] = v;
        for (const [k, v] of Object.entries((h ?? {}) as OutgoingHttpHeaders)) if (v !== undefined && !WIRE_HEADERS.has(k.toLowerCase())) all[k.toLowerCase()] = v;
        if (compressibleType(all['content-type'] as string | undefined) || treeFiles.has(res)) {
          headers = {};
          for (const [k, v] of Object.entries(all)) if (String(before[k]) !== String(v)) headers[k] = v;
          // a header removed by the handler could not be removed again from the held form: not held
          if (Object.keys(before).some((k) => !(k in all) && !WIRE_HEADERS.has(k))) headers = undefined;
        }
      }
      const out = writeHead.call(res, s, ...rest);
      if (!headers) {
        give();
        return out;
      }
      // what is there now takes the body: the compressor's, when it holds this answer
      if (res.write !== wrappedWrite) write = res.write as Write;
      if (res.end !== wrappedEnd) end = res.end as End;
      res.write = wrappedWrite;
      res.end = wrappedEnd;
      return out;
    } as ServerResponse['writeHead'];
    const wrappedWrite = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
      keep(chunk, encoding);
      const more = write.call(res, chunk, encoding, cb);
      if (chunks && res.write !== wrappedWrite && res.write !== write) {
        // the compressor turned to a stream (past its hold) and put its stream's functions in place: wrap those
        write = res.write as Write;
        if (res.end !== wrappedEnd) end = res.end as End;
        res.write = wrappedWrite;
        res.end = wrappedEnd;
      }
      return more;
    } as ServerResponse['write'];
    const wrappedEnd = ((chunk?: unknown, encoding?: unknown, cb?: unknown): ServerResponse => {
      keep(chunk, encoding);
      const body = chunks;
      const h = headers;
      give();
      // an answer cut short never reaches end() whole: a destroyed response, or a head never written
      if (body && h && status === 200 && !res.destroyed) {
        // a long answer is let in (or not) as if packed; not copied into one Buffer when it is neither to be
        // held nor waited for
        const pack = length > this.packMin;
        const room = this.#room(etag, pack ? Math.ceil(length / PACK_GUESS) : length) !== undefined;
        const whole = room || (making?.waiters ?? 0) > 0 ? { status, headers: h, body: body.length === 1 ? body[0]! : Buffer.concat(body, length), length, packedBytes: 0, used: this.#seq } : undefined;
        // those waiting for it are sent it, held or not (then it is let go with them)
        if (making && whole) making.made = whole;
        if (room && pack) {
          packing = true;
          settle();
          this.#pack(etag, whole!, finish);
        } else if (room) {
          this.#remember(etag, whole!);
          this.#share(etag, whole!);
        } else this.declined++;
      }
      made();
      return end.call(res, chunk, encoding, cb);
    }) as ServerResponse['end'];
    res.writeHead = wrappedHead;
    res.write = wrappedWrite;
    res.end = wrappedEnd;
  }
}
