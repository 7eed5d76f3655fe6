/**
 * Snapshot validation holds when DuckDB has far less memory than a table needs (issue 23): a GROUP BY over the key
 * of 3 million observations runs out of memory at a 16 MB limit, and validation, which checks such a key in passes
 * (build-scripts/snapshot/key-passes.ts), still finds a duplicate placed anywhere, and passes a table without one.
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { SnapshotInvalid, validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { parseMemoryLimit, rangePasses } from '../../build-scripts/snapshot/key-passes.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const ROWS = 3_000_000;
const LIMIT = '16MB';
const root = path.join(TEST_TMP, `validate-memory-${process.pid}`);

let writer: DuckDBInstance;
let small: DuckDBInstance;
let conn: DuckDBConnection;

/** A copy of the timeseries demo snapshot whose observations are ROWS rows over its real series, sorted by key. */
async function bigSnapshot(name: string, duplicatesAt: number[] = []): Promise<string> {
  const dir = path.join(root, name);
  await cp(inject('tsSnapshot'), dir, { recursive: true });
  const w = await writer.connect();
  const obs = path.join(dir, 'observations.parquet');
  const series = path.join(inject('tsSnapshot'), 'timeseries.parquet');
  // Each series gets ROWS / n consecutive minutes; a duplicate at `d` repeats row d's key as row d + 1.
  await w.run(`COPY (
    WITH s AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS n FROM read_parquet(${sqlString(series)})),
    r AS (SELECT i FROM range(${ROWS}) t(i))
    SELECT s.id AS timeseries_id,
           1704067200000 + 60000 * (CASE WHEN i - 1 IN (${[-2, ...duplicatesAt].join(', ')}) THEN i - 1 ELSE i END - s.k * (${ROWS} // s.n)) AS timestamp,
           CAST(i % 97 AS DOUBLE) AS value
    FROM r JOIN s ON s.k = least(r.i // (${ROWS} // s.n), s.n - 1)
    ORDER BY i
  ) TO ${sqlString(obs)} (FORMAT parquet)`);
  w.closeSync();
  return dir;
}

beforeAll(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  writer = await openDuckDB({ threads: 2 });
  small = await openDuckDB({ threads: 2, memoryLimit: LIMIT, tempDirectory: path.join(root, 'spill') });
  conn = await small.connect();
});

afterAll(async () => {
  conn?.closeSync();
  small?.closeSync();
  writer?.closeSync();
  await rm(root, { recursive: true, force: true });
});

describe(`validation with a ${LIMIT} DuckDB memory limit`, () => {
  test('one GROUP BY over the key does not fit (so the table needs more than the limit)', async () => {
    const dir = await bigSnapshot('plain');
    const obs = sqlString(path.join(dir, 'observations.parquet'));
    await expect(
      conn.run(`SELECT 1 FROM read_parquet(${obs}) GROUP BY timeseries_id, timestamp HAVING count(*) > 1 LIMIT 1`),
    ).rejects.toThrow(/Out of Memory/);
    const valid = await validateSnapshot(dir, conn);
    expect(valid.tables['observations']?.rows).toBe(ROWS);
  });

  test('duplicate keys anywhere are found: the first is named, the others counted', async () => {
    const at = [10, ROWS / 2 + 12_345, ROWS - 2];
    const dir = await bigSnapshot('three-duplicates', at);
    // Rows are 1-based in messages: the row at 0-based `d` is row d + 1, its repeat the next.
    expect(await problemsOf(dir)).toEqual([expect.stringMatching(duplicateMessage(at[0] ?? 0, ' (and 2 more duplicated values)'))]);
  });

  test('a duplicate in the last rows (the last pass) is found', async () => {
    const at = ROWS - 2;
    expect(await problemsOf(await bigSnapshot('last-duplicate', [at]))).toEqual([expect.stringMatching(duplicateMessage(at, ''))]);
  });
});

function duplicateMessage(at: number, more: string): RegExp {
  const tail = more.replaceAll('(', '\\(').replaceAll(')', '\\)');
  return new RegExp(`^observations\\.parquet: duplicate key \\(timeseries_id=".+", timestamp=\\d+\\) \\(rows ${at + 1} and ${at + 2}\\)${tail}$`);
}

async function problemsOf(dir: string): Promise<string[]> {
  const error = await validateSnapshot(dir, conn).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SnapshotInvalid);
  return (error as SnapshotInvalid).problems;
}

describe('passes', () => {
  test.each([
    ['976.5 MiB', 976.5 * 2 ** 20],
    ['16.0 MB', 16e6],
    ['1GB', 1e9],
    ['2.0 GiB', 2 * 2 ** 30],
    ['lots', undefined],
  ])('memory limit %s', (text, bytes) => {
    expect(parseMemoryLimit(text)).toBe(bytes);
  });

  test('values are packed into ranges of at most the rows of a pass; a value bigger than a pass is split by hash', () => {
    const passes = rangePasses(
      [
        { value: 'a', rows: 40 },
        { value: 'b', rows: 50 },
        { value: 'c', rows: 30 },
        { value: 'd', rows: 250 },
        { value: 'e', rows: 10 },
      ],
      '"id"',
      ['"t"'],
      100,
    );
    expect(passes).toEqual([
      { where: '"id" BETWEEN $2 AND $3', params: ['a', 'b'] },
      { where: '"id" BETWEEN $2 AND $3', params: ['c', 'c'] },
      { where: '("id" = $2) AND hash("t") % 3 = 0', params: ['d'] },
      { where: '("id" = $2) AND hash("t") % 3 = 1', params: ['d'] },
      { where: '("id" = $2) AND hash("t") % 3 = 2', params: ['d'] },
      { where: '"id" BETWEEN $2 AND $3', params: ['e', 'e'] },
    ]);
  });
});
