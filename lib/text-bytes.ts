/**
 * A VARCHAR column of a DuckDB result chunk read as UTF-8 bytes, joined, without making a JS string per
 * record. The endpoint writes bytes to the socket, so decoding each text (one native call, one ArrayBuffer and
 * one TextDecoder call per record in node-api's `getItem`) only to encode the joined string again was work for
 * nothing: 40% of a one-day `/files` query's CPU.
 *
 * It reads `duckdb_string_t`s (duckdb.h, 16 bytes each): a uint32 length, then either the text itself (up to 12
 * bytes, inline) or a 4-byte prefix and a pointer into the chunk's string heap. Texts a query makes one after
 * another sit end to end in that heap (99% of them in a one-day answer), so one copy takes a whole run of them
 * (`get_data_from_pointer`, the bindings' documented reader of such pointers), never a byte beyond the run.
 */
import { createRequire } from 'node:module';
import type { DuckDBDataChunk } from '@duckdb/node-api';

/** The bindings node-api itself loaded (resolved from node-api's folder), so chunks and reader always match. */
const duckdb = createRequire(createRequire(import.meta.url).resolve('@duckdb/node-api'))('@duckdb/node-bindings') as typeof import('@duckdb/node-bindings');

export interface JoinedTexts {
  /** The valid texts, each followed by `terminator`, with `separator` between two. */
  bytes: Buffer;
  /** How many texts (rows with a null text are left out). */
  count: number;
}

const STRING_T = 16;
const INLINE_MAX = 12;
const TWO_32 = 2 ** 32;

/**
 * The texts of column `column` of `chunk`, as `texts.join(terminator + separator) + terminator` would make
 * them, in UTF-8. Null texts are skipped.
 */
export function joinChunkTexts(chunk: DuckDBDataChunk, column: number, separator: Buffer, terminator: Buffer): JoinedTexts {
  const n = chunk.rowCount;
  if (n === 0) return { bytes: Buffer.alloc(0), count: 0 };
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const raw = duckdb.vector_get_data(vector, n * STRING_T);
  const data = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const validity = duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8) as Uint8Array | null;
  const valid = (i: number) => !validity || ((validity[i >> 3]! >> (i & 7)) & 1) === 1;
  const len = (i: number) => data.readUInt32LE(i * STRING_T);
  const ptr = (i: number) => data.readUInt32LE(i * STRING_T + 8) + data.readUInt32LE(i * STRING_T + 12) * TWO_32;

  let count = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (!valid(i)) continue;
    count++;
    total += len(i);
  }
  if (count === 0) return { bytes: Buffer.alloc(0), count: 0 };
  const between = Buffer.concat([terminator, separator]);
  const out = Buffer.allocUnsafe(total + (count - 1) * between.length + terminator.length);
  let at = 0;
  let written = 0;
  const afterText = () => {
    written++;
    at += (written < count ? between : terminator).copy(out, at);
  };
  for (let i = 0; i < n; ) {
    if (!valid(i)) {
      i++;
      continue;
    }
    const l = len(i);
    if (l <= INLINE_MAX) {
      at += data.copy(out, at, i * STRING_T + 4, i * STRING_T + 4 + l);
      afterText();
      i++;
      continue;
    }
    // A run of heap texts that sit end to end: i .. j-1.
    const start = ptr(i);
    let end = start + l;
    let j = i + 1;
    while (j < n && valid(j) && len(j) > INLINE_MAX && ptr(j) === end) end += len(j++);
    const copied = duckdb.get_data_from_pointer(data.buffer as ArrayBuffer, data.byteOffset + i * STRING_T + 8, end - start);
    const run = Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength);
    for (let k = i, from = 0; k < j; k++) {
      const lk = len(k);
      at += run.copy(out, at, from, from + lk);
      from += lk;
      afterText();
    }
    i = j;
  }
  return { bytes: out, count };
}
