/**
 * A DuckDB error in the middle of a streamed query reaches node-api as an empty chunk, the same as the end of the
 * stream: lib/duckdb.ts must notice, not hand on the rows it had as if they were all.
 */
import { expect, test } from 'vitest';
import { openDuckDB, streamJoinedBytes, streamKeyedText } from '../../lib/duckdb.ts';

// rows past 300,000 fail: a stream has handed out some chunks by then
const failsMidway = { sql: `SELECT i AS k, CASE WHEN i < 300000 THEN CAST(i AS VARCHAR) ELSE error('boom at ' || i) END AS t FROM range(1000000) r(i)`, params: {} };
const whole = { sql: 'SELECT i AS k, CAST(i AS VARCHAR) AS t FROM range(100000) r(i)', params: {} };

test('a streamed query that fails midway fails the stream; a whole one does not', async () => {
  const db = await openDuckDB({ threads: 1 });
  const conn = await db.connect();
  try {
    let rows = 0;
    await expect(
      (async () => {
        for await (const b of streamKeyedText(conn, failsMidway)) rows += b.keys.length;
      })(),
    ).rejects.toThrow(/ended a streamed query after \d+ of its 1000000 rows/);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(300_000);
    await expect(
      (async () => {
        for await (const _ of streamJoinedBytes(conn, failsMidway, ',', '')) void _;
      })(),
    ).rejects.toThrow(/ended a streamed query/);
    let n = 0;
    for await (const b of streamKeyedText(conn, whole)) n += b.keys.length;
    expect(n).toBe(100_000);
    let bytes = 0;
    for await (const b of streamJoinedBytes(conn, whole, ',', '')) bytes += b.bytes.length;
    expect(bytes).toBeGreaterThan(100_000);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
});
