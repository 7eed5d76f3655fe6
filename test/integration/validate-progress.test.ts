/**
 * Validation tells how far it is within a table (build-scripts/snapshot/query-progress.ts): the table, the check,
 * the pass of a uniqueness check done in passes, and DuckDB's percentage of the running query. A 10^9-row
 * snapshot is one big Parquet file whose checks take minutes; the build's progress line shows these.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { watchQueries } from '../../build-scripts/snapshot/query-progress.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp } from '../helpers/paths.ts';

describe('validation progress', () => {
  let dir = '';
  let instance: Awaited<ReturnType<typeof openDuckDB>>;

  beforeAll(async () => {
    dir = runTmp(inject('tsSnapshot'), 'validate-progress');
    mkdirSync(dir, { recursive: true });
    // 16 MB: the observations' key is checked in several passes (key-passes.ts)
    instance = await openDuckDB({ threads: 2, memoryLimit: '16MB', tempDirectory: join(dir, 'spill') });
  });

  afterAll(() => instance?.closeSync());

  test('stages: every table, its row checks, its uniqueness pass by pass, its references', async () => {
    const conn = await instance.connect();
    const reports: string[] = [];
    await validateSnapshot(inject('tsSnapshot'), conn, { onProgress: (t) => reports.push(t) });
    expect(reports).toContain('observations.parquet: unique keys');
    expect(reports.find((r) => /^observations\.parquet: row checks \([\d,]+ rows\)$/.test(r))).toBeDefined();
    const passes = reports.filter((r) => r.startsWith('observations.parquet: uniqueness of timeseries_id, timestamp, pass '));
    expect(passes.length).toBeGreaterThan(1);
    expect(passes[0]).toBe(`observations.parquet: uniqueness of timeseries_id, timestamp, pass 1 of ${passes.length}`);
    expect(reports).toContain('timeseries.parquet: references');
    // the connection's progress settings are back to their defaults
    const [s] = await all(conn, "SELECT current_setting('enable_progress_bar') AS on, current_setting('enable_progress_bar_print') AS print");
    expect([s!['on'], s!['print']]).toEqual([false, true]);
    conn.closeSync();
  }, 120_000);

  test("a long query's percentage is reported while it runs", async () => {
    const conn = await instance.connect();
    const file = join(dir, 'big.parquet');
    await run(conn, `COPY (SELECT i AS k, hash(i) AS v FROM range(20000000) t(i)) TO ${sqlString(file)} (ROW_GROUP_SIZE 100000)`);
    const reports: string[] = [];
    const watch = await watchQueries(conn, (t) => reports.push(t), 20);
    watch.stage('big.parquet: row checks');
    await all(conn, `SELECT bit_xor(hash(k, v)) AS x, count_if(v % 7 = 0) AS n FROM read_parquet(${sqlString(file)})`);
    await watch.stop();
    expect(reports[0]).toBe('big.parquet: row checks');
    const percents = reports.flatMap((r) => /^big\.parquet: row checks (\d+)%$/.exec(r)?.[1] ?? []).map(Number);
    expect(percents.length, reports.join('\n')).toBeGreaterThan(0);
    expect(percents.every((p) => p >= 0 && p <= 100)).toBe(true);
    conn.closeSync();
  }, 120_000);
});
