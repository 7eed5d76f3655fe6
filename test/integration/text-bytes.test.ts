/**
 * Texts read as bytes straight from DuckDB's string vectors are exactly what node-api's own per-record reader
 * gives, joined: for short (inline) and long (heap) texts, empty and null ones, multi-byte UTF-8, texts made by
 * an expression (end to end in the heap) and texts read from a table (scattered), several chunks, and any
 * separator and terminator.
 */
import fc from 'fast-check';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { materializedJoinedBytes, openDuckDB, streamJoinedBytes } from '../../lib/duckdb.ts';
import { joinChunkTexts } from '../../lib/text-bytes.ts';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  instance = await openDuckDB({ threads: 1 });
  conn = await instance.connect();
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

/** Every chunk of `sql` (column 0 the texts), joined both ways. */
async function bothWays(sql: string, separator: string, terminator: string): Promise<{ bytes: string; items: string; counts: number[] }> {
  const result = await conn.stream(sql);
  let bytes = '';
  let items = '';
  const counts: number[] = [];
  let first = true;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const vector = chunk.getColumnVector(0);
    const texts = Array.from({ length: chunk.rowCount }, (_, i) => vector.getItem(i) as string | null).filter((t): t is string => t !== null);
    const joined = joinChunkTexts(chunk, 0, Buffer.from(separator), Buffer.from(terminator));
    counts.push(joined.count);
    expect(joined.count).toBe(texts.length);
    if (texts.length === 0) continue;
    bytes += (first ? '' : separator) + joined.bytes.toString('utf8');
    items += (first ? '' : separator) + texts.join(terminator + separator) + terminator;
    first = false;
  }
  return { bytes, items, counts };
}

const literal = (s: string | null) => (s === null ? 'NULL' : `'${s.replaceAll("'", "''")}'`);

describe('joinChunkTexts', () => {
  test('texts from a table: inline, heap, empty, null, multi-byte', async () => {
    const rows = ['', 'a', 'exactly12by', 'thirteen byte', 'ünïcødé ẞ 😀 and more text', null, 'x'.repeat(5000), "it's", null, '12345678901234567890'];
    await conn.run('CREATE OR REPLACE TABLE t AS SELECT * FROM (VALUES ' + rows.map((r, i) => `(${i}, ${literal(r)})`).join(', ') + ') v(i, s)');
    const r = await bothWays('SELECT s FROM t ORDER BY i', ',', '');
    expect(r.bytes).toBe(r.items);
    expect(r.counts).toEqual([8]);
  });

  test('texts made by an expression over several chunks, each a run end to end in the heap', async () => {
    const r = await bothWays(`SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE '{"id":' || i || ',"name":"radar ' || repeat('é', i % 7) || '"}' END FROM range(5000) t(i)`, ',', '\r\n');
    expect(r.bytes).toBe(r.items);
    expect(r.counts.length).toBeGreaterThan(1);
  });

  test('any texts, separator and terminator', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: null, freq: 5 }), { maxLength: 300 }), fc.constantFrom('', ','), fc.constantFrom('', '\n', '\r\n'), async (rows, sep, term) => {
        await conn.run('CREATE OR REPLACE TABLE p (i INTEGER, s VARCHAR)');
        if (rows.length) await conn.run('INSERT INTO p VALUES ' + rows.map((s, i) => `(${i}, ${literal(s)})`).join(', '));
        const fromTable = await bothWays('SELECT s FROM p ORDER BY i', sep, term);
        expect(fromTable.bytes).toBe(fromTable.items);
        const made = await bothWays("SELECT s || '' || s FROM p ORDER BY i", sep, term);
        expect(made.bytes).toBe(made.items);
      }),
      { numRuns: 60 },
    );
  });
});

describe('materializedJoinedBytes', () => {
  const q = (n: number) => ({ sql: `SELECT i AS k, CASE WHEN i % 45 = 0 THEN 'record ' || i || repeat('x', i % 20) END AS t FROM range(${n}) t(i) WHERE i % 45 = 0 OR i % 7 = 0`, params: {} });
  const joined = (bs: { bytes: Buffer }[]) => Buffer.concat(bs.flatMap((b, i) => (b.bytes.length ? [Buffer.from(i ? ',' : ''), b.bytes] : []))).toString();

  test('an answer up to the cap comes whole, in full chunks, with the bytes a stream gives', async () => {
    const whole = await materializedJoinedBytes(conn, q(40_000), 10_000, ',', '');
    const streamed: { rows: number; bytes: Buffer }[] = [];
    for await (const b of streamJoinedBytes(conn, q(40_000), ',', '')) streamed.push(b);
    expect(whole).toBeDefined();
    expect(whole!.reduce((n, b) => n + b.rows, 0)).toBe(streamed.reduce((n, b) => n + b.rows, 0));
    expect(whole!.length).toBeLessThan(streamed.length);
    expect(joined(whole!.filter((b) => b.bytes.length))).toBe(joined(streamed.filter((b) => b.bytes.length)));
  });

  test('past the cap: undefined, so the caller streams', async () => {
    expect(await materializedJoinedBytes(conn, q(100_000), 10_000, ',', '')).toBeUndefined();
    expect(await materializedJoinedBytes(conn, q(100_000), 20_000, ',', '')).toBeDefined();
  });
});
