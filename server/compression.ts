/**
 * Compressed answers (DECISIONS.md "Real clients", Compression): installed on every response before any
 * handler writes to it, so every answer (static file, live query, error) goes through one place. The choice
 * is core/http/content-coding.ts's; this module carries it out on the response:
 *
 * - At `writeHead` the answer's status, Content-Type and Content-Length are known: codingFor() decides.
 *   `Vary` gets `Accept-Encoding` (added to whatever members the answer has), and a compressed answer's ETag
 *   gets the coding's name (etagInCoding).
 * - A compressed answer's head waits for its body: an answer that ends within HOLD_BYTES (256 KB) is a whole
 *   one, compressed in one piece (up to SYNC_MAX at once on the event loop, a larger one on libuv's thread
 *   pool: in one trip up to ONE_TRIP_MAX) and sent with its compressed Content-Length (or, when it turned out
 *   under 1 KB, as it is: the size rule holds for streamed answers too). So is a body of any size handed to
 *   `end` at once. Meanwhile `res.headersSent` is true, so a handler that fails after its writeHead destroys
 *   the answer as it would without compression.
 *   HEAD answers GET's headers when the handler hands `end` the body (node sends no body for HEAD); a handler
 *   that hands none, or a streamed answer, gets Content-Encoding without a Content-Length.
 * - An answer that passes HOLD_BYTES (a live query's stream, a tree file over 256 KB piped from disk) goes on
 *   through a zlib stream, chunked. Back-pressure is kept end to end: `res.write` returns the compressor's
 *   answer, and `res` emits 'drain' when the compressor can take more, never for the socket's own drain (that
 *   resumes the compressor's output instead). So writePieces' stall and slow-client timers and a pipe's
 *   pausing see the client's pace through the compressor, and a compressor's buffers stay bounded by one
 *   piece. The compressed bytes count towards the young-garbage cadence as they leave.
 * - Levels are fast ones (LEVELS): a live answer must outrun the client's link, not squeeze the last percent
 *   (BENCHMARKS.md "compression" measured them).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  createZstdCompress,
  gzip,
  gzipSync,
  zstdCompress,
  zstdCompressSync,
  type BrotliOptions,
  type ZlibOptions,
  type ZstdOptions,
} from 'node:zlib';
import { codingFor, etagInCoding, preferredCoding, type Coding } from '../core/http/content-coding.ts';
import { youngGarbage } from './young-garbage.ts';

/**
 * Compression levels: the fastest of each, chosen by `npm run bench -- --only compression` (BENCHMARKS.md).
 * On the radar catalogue's records (a SHA-1 in each) zstd 1 also compresses best (4.1:1, above zstd 3's
 * 3.6:1 and gzip's 3.5:1 at any level up to 6); br 1 gives 3.8:1 at a sixth of br 4's time.
 */
export const LEVELS: Record<Coding, number> = { zstd: 1, br: 1, gzip: 1 };

function brotliOptions(sizeHint?: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: LEVELS.br,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      // a 4 MB window (the default) for any answer; the hint lets small answers take less memory
      ...(sizeHint === undefined ? { [constants.BROTLI_PARAM_LGWIN]: 22 } : { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint }),
    },
  };
}
// (zlib's default chunk sizes: 64 KB pieces made zstd's and gzip's whole answers 2-4× slower, BENCHMARKS.md)
const zstdOptions = (): ZstdOptions => ({ params: { [constants.ZSTD_c_compressionLevel]: LEVELS.zstd } });
// A 1 KB window (windowBits 10) instead of zlib's 32 KB: on the catalogue's records gzip 1 then runs 220 against
// 166 MB/s and compresses 3.72:1 against 3.47:1 (a 30-day /files collection; a deflate stream with a small window
// is read by every gzip decoder)
const gzipOptions = (): ZlibOptions => ({ level: LEVELS.gzip, windowBits: 10 });

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const zstdAsync = promisify(zstdCompress);

/**
 * Compressed forms of bodies, by the body's own Buffer: a file of the tree held in memory (respond.ts keeps files
 * up to 256 KB) or an answer held by answer-cache.ts is one Buffer for as long as it is held, so it is compressed
 * once per coding, and its compressed forms go when it goes. A build's files never change (a new build is a new
 * folder), nor does a held Buffer.
 */
const compressedForms = new WeakMap<Uint8Array, Partial<Record<Coding, Buffer | Promise<Buffer>>>>();

/**
 * Whole bodies up to this size are compressed on the event loop, at once: at the fast levels that is 0.01-0.45 ms
 * of CPU for up to 256 KB (gzip the slowest), less than the hop to libuv's thread pool costs in CPU, and the hop
 * also waited behind DuckDB's queries, which run on the same four pool threads (issue 18: 0.5-1 ms fixed).
 */
export const SYNC_MAX = 256 * 1024;

/** compressWhole, once per Buffer and coding (compressedForms): the bytes at once up to SYNC_MAX, else a promise. */
export function compressWholeOnce(coding: Coding, body: Uint8Array): Buffer | Promise<Buffer> {
  let forms = compressedForms.get(body);
  if (!forms) compressedForms.set(body, (forms = {}));
  const known = forms[coding];
  if (known) return known;
  if (body.length <= SYNC_MAX) return (forms[coding] = compressWholeSync(coding, body));
  const made = compressWhole(coding, body);
  forms[coding] = made;
  made.then((out) => (forms[coding] = out), () => delete forms[coding]);
  return made;
}

/** A whole body in one coding, on the event loop (for bodies up to SYNC_MAX). */
export function compressWholeSync(coding: Coding, body: Uint8Array): Buffer {
  switch (coding) {
    case 'gzip':
      return gzipSync(body, gzipOptions());
    case 'br':
      return brotliCompressSync(body, brotliOptions(body.length));
    case 'zstd':
      return zstdCompressSync(body, zstdOptions());
  }
}

/**
 * Whole bodies up to this size go to libuv's thread pool in one trip (issue 18): zlib's async API works in pieces
 * of its output buffer (16 KB by default), one trip to the pool and back per piece, 16-23 for a 2.2 MB getData
 * answer, each a wake-up of a pool thread and of the event loop, and on a loaded machine a wait for each. So the
 * output buffer is made as large as the body (`chunkSize`): the compressor runs through in one trip (and a
 * second, empty one for the stream's end). A pool thread is then busy for the whole body: 4 MB is 6 ms of zstd 1,
 * 9 of br 1 and 15 of gzip 1 (BENCHMARKS.md "compress-whole"), about the longest a DuckDB query should wait
 * behind it for a thread of the same pool.
 */
export const ONE_TRIP_MAX = 4 * 1024 * 1024;

/**
 * A larger body goes in pieces of this much output: a trip then takes about 1-2 MB of JSON (4-8:1), a few ms, and
 * between trips the pool thread takes its queue's other work, a DuckDB query among it.
 */
export const PIECE_BYTES = 256 * 1024;

/** The output buffer for a whole body: large enough for any body up to ONE_TRIP_MAX to come out in one piece. */
export function chunkSizeFor(bodyBytes: number): number {
  // deflate's, brotli's and zstd's worst case is the body plus a few bytes per 16-128 KB block
  return bodyBytes <= ONE_TRIP_MAX ? Math.max(64 * 1024, bodyBytes + (bodyBytes >> 10) + 1024) : PIECE_BYTES;
}

/** The compressed bytes in a Buffer of their own (one output piece is a slice of the body-sized output buffer). */
function own(out: Buffer): Buffer {
  return out.buffer.byteLength > out.length + 64 * 1024 ? Buffer.from(out) : out;
}

/**
 * A whole body in one coding, compressed on libuv's thread pool: in one trip up to ONE_TRIP_MAX, else in pieces
 * (`chunkSize`: the output buffer; the bench passes zlib's default, 16 KB, for the way it was before).
 */
export async function compressWhole(coding: Coding, body: Uint8Array, chunkSize = chunkSizeFor(body.length)): Promise<Buffer> {
  switch (coding) {
    case 'gzip':
      return own(await gzipAsync(body, { ...gzipOptions(), chunkSize }));
    case 'br':
      return own(await brotliAsync(body, { ...brotliOptions(body.length), chunkSize }));
    case 'zstd':
      return own(await zstdAsync(body, { ...zstdOptions(), chunkSize }));
  }
}

/** A compressing stream in one coding. */
export function compressStream(coding: Coding) {
  switch (coding) {
    case 'gzip':
      return createGzip(gzipOptions());
    case 'br':
      return createBrotliCompress(brotliOptions());
    case 'zstd':
      return createZstdCompress(zstdOptions());
  }
}

/** Adds a member to the Vary header, keeping those there (case-insensitively, no duplicates). */
export function addVary(res: ServerResponse, member: string): void {
  const now = res.getHeader('Vary');
  const members = (Array.isArray(now) ? now.join(',') : now === undefined ? '' : String(now)).split(',').map((m) => m.trim()).filter(Boolean);
  if (members.some((m) => m === '*' || m.toLowerCase() === member.toLowerCase())) return;
  res.setHeader('Vary', [...members, member].join(', '));
}

type WriteHead = ServerResponse['writeHead'];
type Write = (chunk: unknown, encoding?: unknown, cb?: unknown) => boolean;
type End = (chunk?: unknown, encoding?: unknown, cb?: unknown) => ServerResponse;
type Emit = ServerResponse['emit'];

/** A streamed answer is held until this much has come: a shorter one is sent whole, with its length. */
export const HOLD_BYTES = 256 * 1024;

function callbackOf(encoding: unknown, cb: unknown): (() => void) | undefined {
  return (typeof cb === 'function' ? cb : typeof encoding === 'function' ? encoding : undefined) as (() => void) | undefined;
}

function bytesOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
}

/** Adds `Accept-Encoding` to `Vary` when the head is written (a handler's head may set `Vary` anew). */
function varyAtHead(res: ServerResponse): void {
  const writeHead = res.writeHead as (...a: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
    res.writeHead = writeHead as WriteHead;
    const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as OutgoingHttpHeaders | readonly unknown[] | undefined;
    if (Array.isArray(headers) || !headers || !Object.keys(headers).some((k) => k.toLowerCase() === 'vary')) {
      addVary(res, 'Accept-Encoding');
      return writeHead.call(res, status, ...rest);
    }
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v as string | number | readonly string[]);
    addVary(res, 'Accept-Encoding');
    return writeHead.call(res, status, ...(typeof rest[0] === 'string' ? [rest[0]] : []));
  } as WriteHead;
}

/** Answers that must go out as they are, whatever the client accepts (identityAnswer). */
const identityAnswers = new WeakSet<ServerResponse>();

/**
 * Sends this answer in identity, never compressed: a `Range` request's (a byte range is of the file's own bytes,
 * and its whole-file fallback is too: server/respond.ts). Call before writeHead.
 */
export function identityAnswer(res: ServerResponse): void {
  identityAnswers.add(res);
}

/** Answers whose body goes through a compressor (hold()), which may keep a written piece past its write's callback. */
const compressedBodies = new WeakSet<ServerResponse>();

/**
 * Whether what is written to `res` goes to a compressor, known once its head is written: if so, a piece written
 * may be kept past its write's callback (held to be compressed whole), so it must not be reused then
 * (frame-unpacker.ts).
 */
export function bodyCompressed(res: ServerResponse): boolean {
  return compressedBodies.has(res);
}

/**
 * Makes `res` compress its answer as `req`'s Accept-Encoding asks (see the module comment). Call once, before
 * anything is written to `res`.
 */
export function compressAnswers(req: IncomingMessage, res: ServerResponse): void {
  const pref = preferredCoding(req.headers['accept-encoding']);
  addVary(res, 'Accept-Encoding');
  if (!pref.coding) {
    // nothing will be compressed (no coding asked for): only `Vary` is kept, whatever the handler's head sets
    varyAtHead(res);
    return;
  }
  const writeHead = res.writeHead as (this: ServerResponse, status: number, reason?: string) => ServerResponse;
  const write = res.write as Write;
  const end = res.end as End;
  const emit = res.emit as Emit;

  const encodeHeaders = (coding: Coding, length: number | undefined) => {
    res.setHeader('Content-Encoding', coding);
    // a compressed answer has no byte ranges (nginx's gzip filter drops the header too)
    res.removeHeader('Accept-Ranges');
    if (length === undefined) res.removeHeader('Content-Length');
    else res.setHeader('Content-Length', length);
    const etag = res.getHeader('ETag');
    if (typeof etag === 'string') res.setHeader('ETag', etagInCoding(etag, coding));
  };

  // While the head waits for the body (see hold()), res reports it sent: a handler that fails after its writeHead
  // must destroy the answer, as it would without compression, not write a second head.
  let headHeld = false;
  Object.defineProperty(res, 'headersSent', { configurable: true, get: () => headHeld || (Reflect.get(Object.getPrototypeOf(res) as object, 'headersSent', res) as boolean) });
  const sendHead = (status: number, reason: string | undefined) => {
    headHeld = false;
    return writeHead.call(res, status, reason);
  };

  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse {
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as OutgoingHttpHeaders | readonly unknown[] | undefined;
    if (Array.isArray(headers)) return (writeHead as (...a: unknown[]) => ServerResponse).call(res, status, ...rest); // raw header lists: never used here
    for (const [k, v] of Object.entries((headers ?? {}) as OutgoingHttpHeaders)) if (v !== undefined) res.setHeader(k, v);
    addVary(res, 'Accept-Encoding');
    res.writeHead = writeHead as WriteHead;
    const declared = res.getHeader('Content-Length');
    const length = declared === undefined ? undefined : Number(declared);
    const coding = identityAnswers.has(res) ? undefined : codingFor(pref, shape(status, length));
    if (!coding) return sendHead(status, reason);
    if (req.method === 'HEAD' && length === undefined) {
      // a streamed answer's HEAD: its length is not known, so neither is whether it is 1 KB
      encodeHeaders(coding, undefined);
      return sendHead(status, reason);
    }
    hold(coding, status, reason);
    return res;
  } as WriteHead;

  function shape(status: number, length: number | undefined) {
    const ce = res.getHeader('Content-Encoding');
    return { status, contentType: res.getHeader('Content-Type') as string | undefined, length, contentEncoding: ce === undefined ? undefined : String(ce) };
  }

  /**
   * Holds the head and the body until the body ends (a whole answer: compressed in one piece, sent with its
   * length; or uncompressed, when it turned out under 1 KB) or passes HOLD_BYTES (a stream, from there on).
   */
  function hold(coding: Coding, status: number, reason: string | undefined): void {
    headHeld = true;
    compressedBodies.add(res);
    let held: Buffer[] = [];
    let heldBytes = 0;
    res.write = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
      const bytes = bytesOf(chunk, encoding);
      const done = callbackOf(encoding, cb);
      if (bytes && bytes.length > 0) {
        held.push(bytes);
        heldBytes += bytes.length;
      }
      if (heldBytes < HOLD_BYTES) {
        if (done) process.nextTick(done);
        return true;
      }
      const first = Buffer.concat(held);
      held = [];
      startStream(coding, status, reason);
      return (res.write as Write)(first, undefined, done);
    } as ServerResponse['write'];
    res.end = function (chunk?: unknown, encoding?: unknown, cb?: unknown): ServerResponse {
      res.write = write as ServerResponse['write'];
      res.end = end as ServerResponse['end'];
      const bytes = bytesOf(chunk, encoding);
      if (bytes && bytes.length > 0) held.push(bytes);
      // a body handed to end() whole stays the same Buffer (compressWholeOnce knows a held file by it)
      const body = held.length === 1 ? held[0]! : Buffer.concat(held);
      const done = callbackOf(encoding, cb);
      if (body.length === 0 && req.method === 'HEAD') {
        // a HEAD whose handler gave no body: the coding, but no length
        encodeHeaders(coding, undefined);
        sendHead(status, reason);
        return end.call(res, done);
      }
      if (!codingFor(pref, shape(status, body.length))) {
        res.setHeader('Content-Length', body.length);
        sendHead(status, reason);
        return end.call(res, body, done);
      }
      const send = (out: Buffer) => {
        if (res.destroyed) return;
        encodeHeaders(coding, out.length);
        sendHead(status, reason);
        end.call(res, out, done);
      };
      let made: Buffer | Promise<Buffer>;
      try {
        made = compressWholeOnce(coding, body);
      } catch {
        res.destroy();
        return res;
      }
      if (Buffer.isBuffer(made)) send(made);
      else made.then(send, () => res.destroy());
      return res;
    } as ServerResponse['end'];
  }

  /** Sends the head now and routes the body through a compressing stream. */
  function startStream(coding: Coding, status: number, reason: string | undefined): void {
    encodeHeaders(coding, undefined);
    sendHead(status, reason);
    const z = compressStream(coding);
    z.on('data', (out: Buffer) => {
      youngGarbage.streamed(out.length);
      if (!write.call(res, out)) z.pause();
    });
    z.on('end', () => end.call(res));
    z.on('error', () => res.destroy());
    // The compressor can take more: that is the 'drain' writers of res wait for.
    z.on('drain', () => emit.call(res, 'drain'));
    res.once('close', () => z.destroy());
    // The socket's drain resumes the compressor's output; it is not passed on (res' writers wait for the compressor).
    res.emit = function (this: ServerResponse, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'drain') {
        z.resume();
        return true;
      }
      return emit.call(res, event, ...args);
    } as Emit;
    res.write = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
      if (res.destroyed || z.destroyed) return false;
      const bytes = bytesOf(chunk, encoding);
      const done = typeof cb === 'function' ? cb : typeof encoding === 'function' ? encoding : undefined;
      return z.write(bytes ?? Buffer.alloc(0), done as ((e?: Error | null) => void) | undefined);
    } as ServerResponse['write'];
    res.end = function (chunk?: unknown, encoding?: unknown, cb?: unknown): ServerResponse {
      const bytes = bytesOf(chunk, encoding);
      const done = typeof cb === 'function' ? cb : typeof encoding === 'function' ? encoding : undefined;
      if (done) res.once('finish', done as () => void);
      if (z.destroyed) return res;
      if (bytes && bytes.length > 0) z.end(bytes);
      else z.end();
      return res;
    } as ServerResponse['end'];
  }
}
