/**
 * Which answers the held-answer cache keeps once its budget is full (server/answer-cache.ts, TinyLFU's admission):
 * a crowd going round more answers than fit keeps a fixed part of them held (pure LRU held none: issue 18's
 * one-day expanded answers, 4 hits in 1,127), and a run of one-off answers does not put out those a crowd
 * repeats. No sockets: a request and a response are stand-ins that record what is written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { constants, zstdCompressSync } from 'node:zlib';
import { LEVELS } from '../../server/compression.ts';
import { AGE_MIN, AnswerCache, COUNT_MAX, PACK_FRAME, PACK_MIN, STALE_COPY, WIRE_PER_ANSWER } from '../../server/answer-cache.ts';

/** A stand-in response for `key`: records the body it is sent (`sent`). */
function response(key: string): ServerResponse & { sent: Buffer[] } {
  const headers: Record<string, unknown> = { etag: key };
  const sent: Buffer[] = [];
  return {
    sent,
    destroyed: false,
    getHeaders: () => ({ ...headers }),
    writeHead(_status: number, h?: Record<string, unknown>) {
      Object.assign(headers, h ?? {});
      return this;
    },
    write: (b: Buffer) => (sent.push(b), true),
    end(b?: Buffer) {
      if (b) sent.push(b);
      return this;
    },
    once() {
      return this;
    },
  } as unknown as ServerResponse & { sent: Buffer[] };
}

const GET = { method: 'GET' } as IncomingMessage;

/** A GET answered from `cache` or, on a miss, by writing `size` bytes of text; true on a hit. */
function ask(cache: AnswerCache, key: string, size: number): boolean {
  const res = response(key);
  if (cache.answer(GET, res, key)) return true;
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(Buffer.alloc(size, 'x'));
  return false;
}

/**
 * A crowd: one GET misses and makes the answer (`size` bytes of `fill`) while `waiting` more ask for it (the
 * endpoint's order, server/app.ts: making(), then answer() with what was made). Whether each waiter was sent
 * the made answer from memory, and the bytes each got.
 */
async function crowd(cache: AnswerCache, key: string, size: number, waiting: number, fill = 'y'): Promise<{ answered: boolean[]; bodies: Buffer[] }> {
  const maker = response(key);
  expect(cache.answer(GET, maker, key)).toBe(false);
  const waits = Array.from({ length: waiting }, () => cache.making(key)!);
  expect(waits.every((w) => w !== undefined)).toBe(true);
  maker.writeHead(200, { 'Content-Type': 'application/json' });
  maker.end(Buffer.alloc(size, fill));
  const answered: boolean[] = [];
  const bodies: Buffer[] = [Buffer.concat(maker.sent)];
  for (const w of waits) {
    const res = response(key);
    answered.push(cache.answer(GET, res, key, { made: await w }));
    bodies.push(Buffer.concat(res.sent));
  }
  return { answered, bodies };
}

describe('the held-answer cache past its budget', () => {
  test('a crowd going round 200 answers of which 71 fit: about a third are hits (pure LRU: none), the bytes within the budget', () => {
    // held plain (no packing: answers that do not pack behave so; packing has its own tests below)
    const cache = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20, Infinity);
    const size = 670 * 1024;
    let hits = 0;
    const rounds = 20;
    for (let r = 0; r < rounds; r++) for (let i = 0; i < 200; i++) if (ask(cache, `day${i}`, size) && r > 0) hits++;
    const fit = Math.floor((48 * 2 ** 20) / size);
    expect(hits).toBe(fit * (rounds - 1));
    expect(cache.bytes).toBeLessThanOrEqual(48 * 2 ** 20);
    expect(cache.size).toBe(fit);
  });

  test('one-off answers do not put out what a crowd repeats; an answer asked for more often than the least recently used does', () => {
    const cache = new AnswerCache(10_000, 4_000);
    for (let r = 0; r < 3; r++) for (let i = 0; i < 10; i++) ask(cache, `popular${i}`, 1000);
    expect(cache.size).toBe(10);
    for (let i = 0; i < 500; i++) expect(ask(cache, `once${i}`, 1000)).toBe(false);
    for (let i = 0; i < 10; i++) expect(ask(cache, `popular${i}`, 1000)).toBe(true);
    expect(cache.declined).toBe(500);
    // a new answer that a crowd asks for more often than the least recently used held one gets its place
    // (the held ones were asked for 4 times each: asked up to 4 times before, not yet; 5 times before, it goes in)
    for (let r = 0; r < 5; r++) expect(ask(cache, 'rising', 1000)).toBe(false);
    expect(cache.declined).toBe(505);
    expect(ask(cache, 'rising', 1000)).toBe(false);
    expect(cache.declined).toBe(505);
    expect(ask(cache, 'rising', 1000)).toBe(true);
    expect(cache.size).toBe(10);
    expect(cache.bytes).toBe(10_000);
  });

  test('counts fade: after a new build the old answers, asked for no more, give way to the new ones', () => {
    const cache = new AnswerCache(10_000, 4_000);
    for (let r = 0; r < 50; r++) for (let i = 0; i < 10; i++) ask(cache, `old${i}`, 1000);
    expect(cache.countOf('old0')).toBe(COUNT_MAX);
    // the new build's answers, asked for in a crowd: the old counts halve every AGE_MIN requests (10 answers held:
    // ten times that is less), so within a few of those the new answers are held
    expect(cache.ageEvery).toBe(AGE_MIN);
    const hitsIn = (n: number) => {
      let hits = 0;
      for (let i = 0; i < n; i++) if (ask(cache, `new${i % 10}`, 1000)) hits++;
      return hits;
    };
    hitsIn(3 * AGE_MIN);
    expect(hitsIn(AGE_MIN)).toBe(AGE_MIN);
    // after three halvings or more: 15 → 1 at most, and never asked again
    expect(cache.countOf('old0')).toBeLessThanOrEqual(1);
    expect(cache.size).toBe(10);
  });

  test('a crowd that hammered its answers a thousand times does not keep them past one halving: counts stop at COUNT_MAX', () => {
    const cache = new AnswerCache(10_000, 4_000);
    // the last query's crowd: 10 answers asked for 100 times each (1,000 requests, under one sample)
    for (let r = 0; r < 100; r++) for (let i = 0; i < 10; i++) ask(cache, `old${i}`, 1000);
    expect(cache.countOf('old0')).toBe(COUNT_MAX);
    // the next query's crowd goes round 20 answers of its own, none held at first; past the first halving (at
    // AGE_MIN requests in all) the old counts are 7, and an answer asked for 8 times before takes a place: with
    // unbounded counts (100 → 50) none would within this run
    let hits = 0;
    for (let r = 0; r < 12; r++) for (let i = 0; i < 20; i++) if (ask(cache, `new${i}`, 1000)) hits++;
    expect(cache.countOf('old0')).toBeLessThanOrEqual(Math.floor(COUNT_MAX / 2));
    expect(hits).toBeGreaterThan(0);
    expect([...Array(20).keys()].filter((i) => ask(cache, `new${i}`, 1000)).length).toBeGreaterThanOrEqual(5);
  });

  test('a crowd waiting for an answer counts in its admission as it arrives: with the budget full of answers asked for less often than by the crowd, the answer is held at once', async () => {
    const cache = new AnswerCache(10_000, 4_000);
    for (let r = 0; r < 3; r++) for (let i = 0; i < 10; i++) ask(cache, `old${i}`, 1000);
    // one request makes it, seven wait: asked for 8 times, more than the 3 times of the least recently used
    const { answered, bodies } = await crowd(cache, 'radar', 1000, 7);
    expect(answered).toEqual(Array(7).fill(true));
    for (const b of bodies) expect(b.equals(Buffer.alloc(1000, 'y'))).toBe(true);
    expect(cache.declined).toBe(0);
    expect(cache.countOf('radar')).toBe(8);
    expect(ask(cache, 'radar', 1000)).toBe(true);
    expect(cache.bytes).toBe(10_000);
  });

  test('an answer declined past the budget is still sent to those waiting for it, made once, and then let go', async () => {
    const cache = new AnswerCache(10_000, 4_000);
    for (let r = 0; r < 50; r++) for (let i = 0; i < 10; i++) ask(cache, `busy${i}`, 1000);
    const hits = cache.hits;
    const { answered, bodies } = await crowd(cache, 'rare', 1000, 3, 'z');
    // the three waiters got the one answer made, from memory: no query each
    expect(answered).toEqual([true, true, true]);
    for (const b of bodies) expect(b.equals(Buffer.alloc(1000, 'z'))).toBe(true);
    expect(cache.hits - hits).toBe(3);
    expect(cache.declined).toBe(1);
    // not held: the next request alone makes it again, and the held answers are as they were
    expect(ask(cache, 'rare', 1000)).toBe(false);
    expect(cache.size).toBe(10);
    expect(cache.bytes).toBe(10_000);
  });

  test('an answer over the entry limit is not sent to those waiting: each makes its own', async () => {
    const cache = new AnswerCache(10_000, 4_000);
    const { answered } = await crowd(cache, 'huge', 5000, 2);
    expect(answered).toEqual([false, false]);
    expect(cache.size).toBe(0);
  });
});

/** A response stand-in as node leaves it once sent: its head written (headersSent), ended, its headers readable. */
function sentResponse(headers: Record<string, string | number>) {
  const proto = Object.create(null, { headersSent: { get: () => true } }) as object;
  const written: { status?: number; head?: unknown; body?: unknown } = {};
  const res = Object.assign(Object.create(proto) as object, {
    destroyed: false,
    writableEnded: true,
    statusCode: 200,
    getHeader: (k: string) => headers[k],
    getHeaders: () => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    getRawHeaderNames: () => Object.keys(headers),
    writeHead(status: number, head: unknown) {
      written.status = status;
      written.head = head;
      return this;
    },
    write: () => true,
    end(body?: unknown) {
      written.body = body;
      return this;
    },
    once() {
      return this;
    },
  }) as unknown as ServerResponse;
  return { res, written };
}

describe('answers sent again as they went (replay)', () => {
  test('an answer sent while it is being packed keeps its forms: replayed at once, then held with them; let go with them when it is held packed only', async () => {
    for (const roomForCopy of [true, false]) {
      const body = catalogueText(9, 200); // about 130 KB: packed, sent whole
      expect(body.length).toBeGreaterThan(PACK_MIN);
      expect(body.length).toBeLessThan(PACK_FRAME);
      const cache = new AnswerCache(roomForCopy ? 48 * 2 ** 20 : Math.floor(body.length / 2), 4 * 2 ** 20);
      const head = { 'Content-Type': 'application/json', ETag: 'p', 'Content-Length': body.length };
      const maker = response('p');
      expect(cache.answer(GET, maker, 'p')).toBe(false);
      maker.writeHead(200, { 'Content-Type': 'application/json' });
      maker.end(body);
      // packing now: the next GET is sent the answer made, and keeps the form it went out in
      const made = await cache.making('p')!;
      expect(cache.size).toBe(0);
      expect(cache.answer({ method: 'GET', headers: {} } as unknown as IncomingMessage, sentResponse(head).res, 'p', { made })).toBe(true);
      expect(cache.wireForms).toBe(1);
      // the third is sent again as it went, packing or not
      const third = sentResponse({});
      expect(cache.replay(third.res, 'p', undefined)).toBe(true);
      expect((third.written.body as Buffer).equals(body)).toBe(true);
      await vi.waitFor(() => expect(cache.packed).toBe(1));
      expect(cache.copies).toBe(roomForCopy ? 1 : 0);
      // with its plain copy the form stays with it; held packed only, it went (and is not counted)
      expect(cache.wireForms).toBe(roomForCopy ? 1 : 0);
      expect(cache.replay(sentResponse({}).res, 'p', undefined)).toBe(roomForCopy);
    }
  });

  test('a held answer sent whole to a GET is kept as sent per Accept-Encoding, at most WIRE_PER_ANSWER forms; replayed as a hit; gone with its answer', () => {
    const cache = new AnswerCache(3_000, 2_000);
    ask(cache, 'a', 1000);
    const head = { 'Content-Type': 'application/json', ETag: 'a', 'Content-Length': 1000, Vary: 'Accept, Accept-Encoding' };
    // nothing to replay before a GET went out from the held answer
    expect(cache.replay(sentResponse(head).res, 'a', undefined)).toBe(false);
    const codings = Array.from({ length: WIRE_PER_ANSWER + 2 }, (_, i) => (i === 0 ? undefined : `coding-${i}`));
    for (const ae of codings) {
      const req = { method: 'GET', headers: ae ? { 'accept-encoding': ae } : {} } as unknown as IncomingMessage;
      expect(cache.answer(req, sentResponse(head).res, 'a')).toBe(true);
    }
    expect(cache.wireForms).toBe(WIRE_PER_ANSWER);
    // a HEAD keeps nothing (its body never went out)
    expect(cache.answer({ method: 'HEAD', headers: { 'accept-encoding': 'other' } } as unknown as IncomingMessage, sentResponse(head).res, 'a')).toBe(true);
    expect(cache.wireForms).toBe(WIRE_PER_ANSWER);
    const hits = cache.hits;
    const again = sentResponse({});
    expect(cache.replay(again.res, 'a', undefined)).toBe(true);
    expect(cache.hits).toBe(hits + 1);
    expect(cache.replayed).toBe(1);
    expect(again.written.status).toBe(200);
    expect(again.written.head).toEqual(['Content-Type', 'application/json', 'ETag', 'a', 'Content-Length', '1000', 'Vary', 'Accept, Accept-Encoding']);
    expect(Buffer.isBuffer(again.written.body) && (again.written.body as Buffer).length).toBe(1000);
    // an Accept-Encoding past the forms kept is not replayed (the usual way answers it)
    expect(cache.replay(sentResponse({}).res, 'a', `coding-${WIRE_PER_ANSWER + 1}`)).toBe(false);
    // the answer put out by others asked for more often: its forms go with it
    for (let r = 0; r < 20; r++) for (const k of ['b', 'c', 'd']) ask(cache, k, 1000);
    expect(cache.replay(sentResponse({}).res, 'a', undefined)).toBe(false);
    expect(cache.wireForms).toBe(0);
  });
});

/** A long answer like the catalogue's: `records` expanded /files records of about 600 bytes (one day: 1,115). */
function catalogueText(seed: number, records: number): Buffer {
  const rows: string[] = [];
  for (let i = 0; i < records; i++) {
    const id = seed * 10_000 + i;
    const checksum = createHash('sha1').update(String(id)).digest('hex');
    rows.push(
      JSON.stringify({
        id,
        file_path: `/sddata/fitacf/2023/02/20230228.${String(i % 24).padStart(2, '0')}00.00.rkn.a.fitacf.bz2`,
        file_start_datetime: '2023-02-28T22:00:00.000Z',
        file_end_datetime: '2023-03-01T00:00:00.000Z',
        data_start_datetime: '2023-02-28T22:00:00.000Z',
        data_end_datetime: '2023-02-28T23:59:31.000Z',
        last_mod: '2023-03-01T00:00:13.000Z',
        file_size: String(2_000_000 + ((id * 7919) % 1_000_000)),
        status_flag: 0,
        checksum,
        include_in_file_coverage: true,
        include_in_data_coverage: true,
        last_updated: '2023-03-01T00:12:00.000Z',
        radar_code: 'rkn',
        radar_short_code: null,
        radar_name: 'Rankin Inlet',
        file_type: 'fitacf',
      }),
    );
  }
  return Buffer.from(`[${rows.join(',')}]`);
}

/** The bytes of `b`'s frames as the cache packs them (PACK_FRAME of body each, zstd at the answers' level). */
function packedBytes(b: Buffer): number {
  let n = 0;
  for (let at = 0; at < b.length; at += PACK_FRAME) n += zstdCompressSync(b.subarray(at, at + PACK_FRAME), { params: { [constants.ZSTD_c_compressionLevel]: LEVELS.zstd } }).length;
  return n;
}

/** A GET answered from `cache` (the body it was sent, once sent whole) or, on a miss, by writing `body`. */
async function askFor(cache: AnswerCache, key: string, body: Buffer): Promise<{ hit: boolean; sent: Buffer }> {
  const res = response(key);
  const hit = cache.answer(GET, res, key);
  if (!hit) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  }
  // a packed answer is written frame by frame (writePieces): let it finish
  await new Promise((r) => setImmediate(r));
  return { hit, sent: Buffer.concat(res.sent) };
}

describe('long answers held packed (PACK_MIN)', () => {
  test('200 one-day expanded answers (134 MB plain, 71 would fit) are all held packed within 48 MB; every hit is sent the exact bytes', async () => {
    const cache = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20);
    const bodies = Array.from({ length: 200 }, (_, i) => catalogueText(i, 1_115));
    const plain = bodies.reduce((n, b) => n + b.length, 0);
    expect(plain).toBeGreaterThan(2.5 * 48 * 2 ** 20);
    for (let i = 0; i < 200; i++) expect((await askFor(cache, `exp${i}`, bodies[i]!)).hit).toBe(false);
    await vi.waitFor(() => expect(cache.packed).toBe(200));
    expect(cache.size).toBe(200);
    expect(cache.bytes).toBeLessThanOrEqual(48 * 2 ** 20);
    for (let r = 0; r < 2; r++) {
      for (let i = 0; i < 200; i++) {
        const { hit, sent } = await askFor(cache, `exp${i}`, bodies[i]!);
        expect(hit).toBe(true);
        expect(sent.equals(bodies[i]!)).toBe(true);
      }
    }
    // the plain copies of those asked for last fill what the frames leave; every answer is still held
    expect(cache.size).toBe(200);
    expect(cache.packed).toBe(200);
    expect(cache.bytes).toBeLessThanOrEqual(48 * 2 ** 20);
    expect(cache.bytes).toBeGreaterThan(40 * 2 ** 20);
  });

  test('a long answer asked for again and again keeps its plain copy: each hit is sent the held Buffer itself, not unpacked again', async () => {
    const cache = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20);
    const body = catalogueText(5, 3_500);
    await askFor(cache, 'year', body);
    await vi.waitFor(() => expect(cache.packed).toBe(1));
    expect(cache.bytes).toBeGreaterThan(body.length);
    for (let i = 0; i < 3; i++) {
      const res = response('year');
      expect(cache.answer(GET, res, 'year')).toBe(true);
      // the plain copy, in two pieces (HOLD_BYTES, then the rest), views of one Buffer
      expect(res.sent).toHaveLength(2);
      expect(res.sent[0]!.buffer).toBe(res.sent[1]!.buffer);
      expect(Buffer.concat(res.sent).equals(body)).toBe(true);
    }
  });

  test('room for an answer: the plain copies of the least recently used go first, not answers; a copy gets room only from answers asked for less often', async () => {
    const body = (i: number) => catalogueText(i, 1_200);
    const [b0, b1, b2, b3] = [0, 1, 2, 3].map(body) as [Buffer, Buffer, Buffer, Buffer];
    // room for three answers with their plain copies, and half of a fourth's frames
    const cache = new AnswerCache(b0.length + b1.length + b2.length + packedBytes(b0) + packedBytes(b1) + packedBytes(b2) + Math.floor(packedBytes(b3) / 2), 4 * 2 ** 20);
    for (let i = 0; i < 3; i++) {
      await askFor(cache, `a${i}`, body(i));
      await vi.waitFor(() => expect(cache.packed).toBe(i + 1));
    }
    expect(cache.copies).toBe(3);
    // a fourth: a0's copy goes for its frames (no answer goes); its own copy would put out a copy of an answer
    // asked for as often: packed only
    await askFor(cache, 'a3', body(3));
    await vi.waitFor(() => expect(cache.packed).toBe(4));
    expect(cache.size).toBe(4);
    expect(cache.declined).toBe(0);
    expect(cache.copies).toBe(2);
    // asked for again: sent unpacked (frame by frame), its copy not taken back while a1's and a2's are asked for as often
    const second = await askFor(cache, 'a3', body(3));
    expect(second.hit && second.sent.equals(body(3))).toBe(true);
    expect(cache.copies).toBe(2);
    // once more: now asked for more often than a1, whose copy goes for a3's
    const third = response('a3');
    expect(cache.answer(GET, third, 'a3')).toBe(true);
    // the plain copy, in two pieces of one Buffer
    expect(third.sent).toHaveLength(2);
    expect(third.sent[0]!.buffer).toBe(third.sent[1]!.buffer);
    expect(Buffer.concat(third.sent).equals(body(3))).toBe(true);
    expect(cache.copies).toBe(2);
    expect(cache.size).toBe(4);
  });

  test('copies unasked for in twice as many requests as answers are held give way to a new crowd\'s copies, whatever their counts (no halving meanwhile)', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => catalogueText(i, 1_200));
    // room for the six answers' frames and three plain copies
    const cache = new AnswerCache(bodies.reduce((n, b) => n + packedBytes(b), 0) + bodies[0]!.length + bodies[1]!.length + bodies[2]!.length + 1024, 4 * 2 ** 20);
    const ask = async (i: number) => {
      const r = await askFor(cache, `a${i}`, bodies[i]!);
      expect(r.sent.equals(bodies[i]!)).toBe(true);
    };
    // the old crowd: a0-a2, asked for 20 times each (their counts stop at COUNT_MAX), hold the copies
    for (let i = 0; i < 3; i++) {
      await ask(i);
      await vi.waitFor(() => expect(cache.packed).toBe(i + 1));
    }
    for (let r = 0; r < 19; r++) for (let i = 0; i < 3; i++) await ask(i);
    expect(cache.copies).toBe(3);
    expect(cache.countOf('a0')).toBe(COUNT_MAX);
    // a new crowd: a3-a5, packed only while the old copies are fresh
    for (let i = 3; i < 6; i++) {
      await ask(i);
      await vi.waitFor(() => expect(cache.packed).toBe(i + 1));
    }
    for (let r = 0; r < 5; r++) for (let i = 3; i < 6; i++) await ask(i);
    const held = (i: number) => {
      const res = response(`a${i}`);
      expect(cache.answer(GET, res, `a${i}`)).toBe(true);
      return res.sent.length === 2 && res.sent[0]!.buffer === res.sent[1]!.buffer;
    };
    expect(held(3)).toBe(false);
    // past STALE_COPY x max(answers held, 128) requests without them, the old copies give way
    for (let r = 0; r < (STALE_COPY * 128) / 3 + 2; r++) for (let i = 3; i < 6; i++) await ask(i);
    expect(cache.copies).toBe(3);
    for (let i = 3; i < 6; i++) expect(held(i)).toBe(true);
    expect(cache.size).toBe(6);
  });

  test('a plain copy never puts out an answer: an answer asked for again and again stays packed only while the budget holds only answers', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => catalogueText(i, 1_200));
    // the twenty answers' frames and half a plain copy: a copy would need ten answers to go
    const cache = new AnswerCache(bodies.reduce((n, b) => n + packedBytes(b), 0) + Math.floor(bodies[0]!.length / 2), 4 * 2 ** 20);
    for (let i = 0; i < 20; i++) {
      await askFor(cache, `a${i}`, bodies[i]!);
      await vi.waitFor(() => expect(cache.packed).toBe(i + 1));
    }
    expect(cache.copies).toBe(0);
    for (let r = 0; r < 10; r++) {
      const { hit, sent } = await askFor(cache, 'a19', bodies[19]!);
      expect(hit && sent.equals(bodies[19]!)).toBe(true);
    }
    expect(cache.size).toBe(20);
    expect(cache.copies).toBe(0);
  });

  test('an answer up to PACK_MIN is held plain; a long one that does not pack (random bytes) is held plain after all', async () => {
    const cache = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20);
    await askFor(cache, 'short', catalogueText(1, 1_000).subarray(0, PACK_MIN));
    expect(cache.size).toBe(1);
    const noise = randomBytes(PACK_MIN * 3);
    await askFor(cache, 'noise', noise);
    await vi.waitFor(() => expect(cache.size).toBe(2));
    expect(cache.packed).toBe(0);
    expect(cache.bytes).toBe(PACK_MIN + noise.length);
    const { hit, sent } = await askFor(cache, 'noise', noise);
    expect(hit && sent.equals(noise)).toBe(true);
  });

  test('a hit on an answer held only packed unpacks one frame at a time, as the client takes them: a client that takes nothing holds one frame', async () => {
    // no room for its plain copy (3.8 MB): held packed only
    const cache = new AnswerCache(2 * 2 ** 20, 4 * 2 ** 20);
    const body = catalogueText(7, 6_000);
    expect(body.length).toBeGreaterThan(8 * PACK_FRAME);
    await askFor(cache, 'long', body);
    await vi.waitFor(() => expect(cache.packed).toBe(1));
    // a response whose socket takes nothing more after the first write until it drains
    const written: Buffer[] = [];
    let ended = false;
    const res = Object.assign(new EventEmitter(), {
      destroyed: false,
      getHeaders: () => ({}),
      writeHead() {
        return this;
      },
      write: (b: Buffer) => (written.push(b), false),
      end() {
        ended = true;
        return this;
      },
      destroy() {},
    }) as unknown as ServerResponse;
    expect(cache.answer(GET, res, 'long')).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(written).toHaveLength(1);
    expect(written[0]!.length).toBe(PACK_FRAME);
    for (let i = 0; i < 40 && !ended; i++) {
      res.emit('drain');
      await new Promise((r) => setImmediate(r));
    }
    expect(ended).toBe(true);
    expect(Buffer.concat(written).equals(body)).toBe(true);
  });

  test('those asking while a long answer is being packed are sent the answer made, at once, and it is made once', async () => {
    const cache = new AnswerCache(48 * 2 ** 20, 4 * 2 ** 20);
    const body = catalogueText(3, 2_000);
    const maker = response('p');
    expect(cache.answer(GET, maker, 'p')).toBe(false);
    maker.writeHead(200, { 'Content-Type': 'application/json' });
    maker.end(body);
    // packing on the thread pool now: the making is open, with the answer made
    const wait = cache.making('p');
    expect(wait).toBeDefined();
    const made = await wait;
    expect(made?.body.equals(body)).toBe(true);
    await vi.waitFor(() => expect(cache.packed).toBe(1));
    expect(cache.making('p')).toBeUndefined();
  });
});
