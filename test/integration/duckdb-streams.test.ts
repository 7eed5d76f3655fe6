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

test('recording id files while their query streams leaves the stream whole (the appender has a connection of its own)', async () => {
  const { TreeState } = await import('../../build-scripts/lib/tree-state.ts');
  const db = await openDuckDB({ threads: 2 });
  const conn = await db.connect();
  const recorderConn = await db.connect();
  try {
    const state = await TreeState.open(conn, recorderConn, undefined);
    // into an empty folder: the tree state's phases lead to the recorder of a tag's files
    const keys = await state.fingerprintKeys([]);
    const files = await keys.registerTags([{ tag: '/things/:id.json', res: 'things', signature: 's', prefix: 'things/', suffix: '.json' }]);
    if (files.kind !== 'fresh') throw new Error('a tree state without a base hashes no id files');
    const recorder = await files.idFileRecorder('/things/:id.json');
    // more rows than an appender holds before it flushes (a 240-day build stopped at 208,896)
    const rows = 400_000;
    let n = 0;
    for await (const b of streamKeyedText(conn, { sql: `SELECT i AS k, CAST(i AS VARCHAR) AS t FROM range(${rows}) r(i)`, params: {} })) {
      for (const k of b.keys) recorder.add(k, Buffer.alloc(16, 7), 10);
      n += b.keys.length;
    }
    recorder.close();
    expect(n).toBe(rows);
    const [r] = (await conn.runAndReadAll("SELECT count(*) AS n FROM memory.main.tree_new")).getRowObjectsJS();
    expect(Number(r!['n'])).toBe(rows);
  } finally {
    recorderConn.closeSync();
    conn.closeSync();
    db.closeSync();
  }
});
