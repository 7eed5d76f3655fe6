/**
 * Snapshot validation holds when DuckDB has far less memory than a table needs (issue 23): a GROUP BY over the key
 * of 3 million observations runs out of memory at a 16 MB limit, and validation, which checks such a key in passes
 * (build-scripts/snapshot/key-passes.ts), still finds a duplicate placed anywhere, and passes a table without one;
 * and the database-only build, which writes the observations in passes of series (timeseries/timeseries-db.ts),
 * builds the same database as without a limit, and, pass by pass, the same series file as one stream of the whole
 * table.
 */
import { readFileSync, statSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB, parseMemoryLimit as parseLimit, RELEASED_BUFFERS, releaseBuffers, sqlString, TIMESERIES_ROW_GROUP_SIZE } from '../../lib/duckdb.ts';
import { SnapshotInvalid, validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { parseMemoryLimit, rangePasses, rowsPerPassOf } from '../../build-scripts/snapshot/key-passes.ts';
import { build } from '../../build-scripts/build.ts';
import { seriesPasses } from '../../build-scripts/timeseries/timeseries-db.ts';
import { TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { INDEX_FILE, PAIR_BYTES, PAIRS_FILE, writeSeriesFile } from '../../lib/series-file.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const ROWS = 3_000_000;
const LIMIT = '16MB';
/**
 * The build's limit: writing a table takes a block (256 KB) per column and thread whatever its size, and the
 * build writes tables of up to 15 columns, so it needs a few tens of MB at any observation count; 8 × 10^6
 * observations are 160 MB as the database's sorted (sid, timestamp, value) rows, 2.5 times this limit.
 */
const BUILD_LIMIT = '64MB';
const BUILD_ROWS = 8_000_000;
const root = path.join(TEST_TMP, `validate-memory-${process.pid}`);

let writer: DuckDBInstance;
let small: DuckDBInstance;
let conn: DuckDBConnection;

/** A copy of the timeseries demo snapshot whose observations are `rows` rows over its real series, sorted by key. */
async function bigSnapshot(name: string, duplicatesAt: number[] = [], rows = ROWS): Promise<string> {
  const dir = path.join(root, name);
  await cp(inject('tsSnapshot'), dir, { recursive: true });
  const w = await writer.connect();
  const obs = path.join(dir, 'observations.parquet');
  const series = path.join(inject('tsSnapshot'), 'timeseries.parquet');
  // Each series gets rows / n consecutive minutes; a duplicate at `d` repeats row d's key as row d + 1.
  await w.run(`COPY (
    WITH s AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS n FROM read_parquet(${sqlString(series)})),
    r AS (SELECT i FROM range(${rows}) t(i))
    SELECT s.id AS timeseries_id,
           1704067200000 + 60000 * (CASE WHEN i - 1 IN (${[-2, ...duplicatesAt].join(', ')}) THEN i - 1 ELSE i END - s.k * (${rows} // s.n)) AS timestamp,
           CAST(i % 97 AS DOUBLE) AS value
    FROM r JOIN s ON s.k = least(r.i // (${rows} // s.n), s.n - 1)
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

describe(`the database-only build with a ${BUILD_LIMIT} DuckDB memory limit`, () => {
  test('writes every observation in (sid, timestamp) order and the series\' first and last values', async () => {
    const dir = await bigSnapshot('build', [], BUILD_ROWS);
    const out = path.join(root, 'build-out');
    const built = await build({ snapshot: dir, out, quiet: true, dbOnly: true, memoryLimit: BUILD_LIMIT });
    // each phase's peak resident memory, for the budget per phase (docs/scale-out.md "Memory budget of a build")
    for (const phase of ['validating snapshot', 'timeseries database']) expect(built.rssPhases[phase], phase).toBeGreaterThan(50);
    const w = await writer.connect();
    try {
      await w.run(`ATTACH ${sqlString(path.join(out, 'data', TIMESERIES_DB_FILE))} AS built (READ_ONLY)`);
      const obs = sqlString(path.join(dir, 'observations.parquet'));
      const keys = `(SELECT (row_number() OVER (ORDER BY id) - 1)::INTEGER AS sid, id FROM built.timeseries)`;
      // the rows in stored order (rowid) are the snapshot's rows sorted by key, one for one
      const [stored, expected] = await Promise.all([
        `SELECT count(*)::DOUBLE AS n, bit_xor(hash(rowid, sid, "timestamp", "value")) AS h FROM built.observations`,
        `SELECT count(*)::DOUBLE AS n, bit_xor(hash(r, sid, "timestamp", "value")) AS h FROM (
           SELECT row_number() OVER (ORDER BY k.sid, o."timestamp") - 1 AS r, k.sid, o."timestamp", o."value"
           FROM read_parquet(${obs}) o JOIN ${keys} k ON k.id = o.timeseries_id)`,
      ].map(async (sql) => (await w.runAndReadAll(sql)).getRowObjectsJS()[0]));
      expect(stored).toEqual(expected);
      expect(stored?.['n']).toBe(BUILD_ROWS);
      // DuckDB holds every row group of the table it wrote or scanned in memory, outside its limit (6.5-12 KB
      // each: bench/rowgroup-memory.ts); with 8,192-row groups that grew the build by 0.8 GB per 10^9 rows (issue
      // 23). Full groups of TIMESERIES_ROW_GROUP_SIZE rows, at most one partial group a pass (passes: at most twice
      // the fewest, greedy packing): 66-86 here; 977 with 8,192-row groups.
      const [groups] = (await w.runAndReadAll(`SELECT count(DISTINCT row_group_id)::DOUBLE AS n FROM pragma_storage_info('built.observations')`)).getRowObjectsJS();
      const passes = 2 * Math.ceil(BUILD_ROWS / rowsPerPassOf(parseMemoryLimit(BUILD_LIMIT)!));
      expect(Number(groups?.['n'])).toBeGreaterThanOrEqual(Math.ceil(BUILD_ROWS / TIMESERIES_ROW_GROUP_SIZE));
      expect(Number(groups?.['n'])).toBeLessThanOrEqual(Math.ceil(BUILD_ROWS / TIMESERIES_ROW_GROUP_SIZE) + passes);
      // whatever the constant says: more than 65,536 rows a group on average, so about 0.1-0.2 GB of them at 10^9 rows
      expect(BUILD_ROWS / Number(groups?.['n'])).toBeGreaterThan(65_536);
      const firstLast = (await w.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM built.timeseries t FULL JOIN (
          SELECT timeseries_id, min("timestamp") AS ft, arg_min("value", "timestamp") AS fv, max("timestamp") AS lt, arg_max("value", "timestamp") AS lv
          FROM read_parquet(${obs}) WHERE "value" IS NOT NULL GROUP BY timeseries_id) b ON b.timeseries_id = t.id
        WHERE t.first_timestamp IS DISTINCT FROM b.ft OR t.first_value IS DISTINCT FROM b.fv
           OR t.last_timestamp IS DISTINCT FROM b.lt OR t.last_value IS DISTINCT FROM b.lv`)).getRowObjectsJS();
      expect(firstLast).toEqual([{ n: 0 }]);
      // the series file, written pass by pass with the table, is byte for byte the one the whole table's stream
      // in stored order writes (writeSeriesFile, as the build wrote it before issue 23's passes)
      const whole = path.join(root, 'whole-table-series-file');
      await mkdir(whole, { recursive: true });
      await w.run('USE built');
      const [series] = (await w.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM timeseries')).getRowObjectsJS();
      expect(await writeSeriesFile(w, whole, Number(series?.['n']))).toBe(BUILD_ROWS);
      for (const file of [PAIRS_FILE, INDEX_FILE]) {
        const [passes, table] = [path.join(out, 'data', file), path.join(whole, file)].map((f) => readFileSync(f));
        expect(passes!.byteLength, file).toBe(table!.byteLength);
        expect(passes!.equals(table!), file).toBe(true);
      }
      expect(statSync(path.join(out, 'data', PAIRS_FILE)).size).toBe(BUILD_ROWS * PAIR_BYTES);
    } finally {
      w.closeSync();
    }
  }, 300_000);

  test('series are packed into passes of at most the rows of a pass, in key order; a bigger series is a pass alone', () => {
    const passes = seriesPasses(
      [
        { sid: 0, id: 'a', rows: 40 },
        { sid: 1, id: 'b', rows: 50 },
        { sid: 2, id: 'c', rows: 30 },
        { sid: 3, id: 'd', rows: 250 },
        { sid: 4, id: 'e', rows: 10 },
      ],
      100,
    );
    expect(passes).toEqual([
      { loId: 'a', hiId: 'b', loSid: 0, hiSid: 1, rows: 90 },
      { loId: 'c', hiId: 'c', loSid: 2, hiSid: 2, rows: 30 },
      { loId: 'd', hiId: 'd', loSid: 3, hiSid: 3, rows: 250 },
      { loId: 'e', hiId: 'e', loSid: 4, hiSid: 4, rows: 10 },
    ]);
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

describe('between phases', () => {
  test("releaseBuffers hands DuckDB's cached buffers back and leaves its limit as it was", async () => {
    const instance = await openDuckDB({ threads: 2, memoryLimit: '1GB', tempDirectory: path.join(root, 'release-spill') });
    const c = await instance.connect();
    const cached = async () => Number((await c.runAndReadAll('SELECT sum(memory_usage_bytes)::DOUBLE AS b FROM duckdb_memory()')).getRowObjectsJS()[0]?.['b']);
    const limit = async () => String((await c.runAndReadAll("SELECT current_setting('memory_limit') AS m")).getRowObjectsJS()[0]?.['m']);
    try {
      await c.run(`ATTACH ${sqlString(path.join(root, 'release.duckdb'))} AS r`);
      // 2.4 × 10^7 rows of three columns, scanned: their blocks stay cached up to the 1 GB limit
      await c.run('CREATE TABLE r.o AS SELECT (i // 100000)::INTEGER AS sid, i AS "timestamp", random() AS "value" FROM range(24000000) t(i)');
      await c.run('CHECKPOINT r');
      await c.run('SELECT sum(sid), sum("timestamp"), sum("value") FROM r.o');
      const before = await limit();
      expect(await cached()).toBeGreaterThan(parseLimit(RELEASED_BUFFERS)!);
      await releaseBuffers(c, '1GB');
      expect(await cached()).toBeLessThanOrEqual(parseLimit(RELEASED_BUFFERS)!);
      expect(await limit()).toBe(before);
      // and the table is still there, read back from disk
      const [n] = (await c.runAndReadAll('SELECT count(*)::DOUBLE AS n FROM r.o')).getRowObjectsJS();
      expect(n?.['n']).toBe(24_000_000);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  }, 120_000);
});

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
