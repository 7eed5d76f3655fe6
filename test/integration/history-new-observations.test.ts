/**
 * The snapshot history's "new observations" of a timeseries (docs/changes.md) are the rows after the previous
 * snapshot's last observation, a row with a null value included: a series whose last rows are null values is
 * not counted those rows again the next day (seen at 10^9: 2 extra "new" observations in a daily append).
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp } from '../helpers/paths.ts';

describe('snapshot history: new observations after a series ending in null values', () => {
  let work = '';
  let s1 = '';
  let s2 = '';
  let out = '';
  let day2 = '';
  /** The series whose last two rows of the first day are made null values (in both snapshots: a mirror's rows do not change). */
  let series = '';
  const duck = openDuckDB({ threads: 1 });

  /** Rewrites a snapshot's observations with the value of `series` at `times` null, sorted as the format asks. */
  async function nullValues(snapshot: string, times: bigint[]): Promise<void> {
    const conn = await (await duck).connect();
    const file = join(snapshot, 'observations.parquet');
    const tmp = join(snapshot, 'observations.rewritten.parquet');
    await run(
      conn,
      `COPY (SELECT timeseries_id, "timestamp", CASE WHEN timeseries_id = ${sqlString(series)} AND "timestamp" IN (${times.join(', ')}) THEN NULL ELSE "value" END AS "value"
       FROM read_parquet(${sqlString(file)}) ORDER BY timeseries_id, "timestamp") TO ${sqlString(tmp)} (FORMAT parquet)`,
    );
    conn.closeSync();
    const { renameSync } = await import('node:fs');
    renameSync(tmp, file);
  }

  beforeAll(async () => {
    work = runTmp(inject('demoSnapshot'), 'history-new-observations');
    s1 = join(work, 's1');
    s2 = join(work, 's2');
    out = join(work, 'dist');
    await writeDemoSnapshot({ from: '2024-05-01', days: 2, seed: 11, out: s1, apis: ['timeseries-v1'], log: () => {} });
    day2 = (await writeDemoSnapshot({ from: '2024-05-01', days: 3, seed: 11, out: s2, apis: ['timeseries-v1'], log: () => {} })).name;
    const conn = await (await duck).connect();
    // a series with values at its last two rows of the first day
    const [picked] = await all(
      conn,
      `SELECT timeseries_id AS id, list("timestamp" ORDER BY "timestamp" DESC)[1:2] AS last2, bool_and("value" IS NOT NULL) AS valued
       FROM (SELECT *, row_number() OVER (PARTITION BY timeseries_id ORDER BY "timestamp" DESC) AS k FROM read_parquet(${sqlString(join(s1, 'observations.parquet'))}))
       WHERE k <= 2 GROUP BY ALL HAVING valued AND count(*) = 2 ORDER BY 1 LIMIT 1`,
    );
    conn.closeSync();
    series = String(picked!['id']);
    const last2 = (picked!['last2'] as (bigint | number)[]).map((t) => BigInt(t));
    await nullValues(s1, last2);
    await nullValues(s2, last2);
    await build({ snapshot: s1, out, quiet: true, dbOnly: true });
    await build({ snapshot: s2, out, quiet: true, dbOnly: true });
  }, 600_000);

  afterAll(async () => {
    (await duck).closeSync();
  });

  /** Per series, the second snapshot's rows after the first's last row (`valuesOnly`: after its last non-null value). */
  async function after(valuesOnly: boolean): Promise<Map<string, number>> {
    const conn = await (await duck).connect();
    const rows = await all(
      conn,
      `SELECT n.timeseries_id AS id, count(*) AS n FROM read_parquet(${sqlString(join(s2, 'observations.parquet'))}) n
       LEFT JOIN (SELECT timeseries_id, max("timestamp") AS last FROM read_parquet(${sqlString(join(s1, 'observations.parquet'))})${valuesOnly ? ' WHERE "value" IS NOT NULL' : ''} GROUP BY ALL) o USING (timeseries_id)
       WHERE o.last IS NULL OR n."timestamp" > o.last GROUP BY ALL ORDER BY 1`,
    );
    conn.closeSync();
    return new Map(rows.map((r) => [String(r['id']), Number(r['n'])]));
  }

  test('the series ends in two null values on the first day: two more rows come after its last value than after its last row', async () => {
    const byRow = await after(false);
    const byValue = await after(true);
    expect(byRow.get(series)).toBeGreaterThan(0);
    expect(byValue.get(series)! - byRow.get(series)!).toBe(2);
  });

  test('series-changes.parquet counts, for every series, the rows after the previous snapshot\'s last row', async () => {
    const expected = await after(false);
    const conn = await (await duck).connect();
    const recorded = await all(
      conn,
      `SELECT timeseries_id AS id, new_observations AS n FROM read_parquet(${sqlString(join(realpathSync(out), 'history', 'series-changes.parquet'))}) WHERE snapshot = ${sqlString(day2)} ORDER BY 1`,
    );
    conn.closeSync();
    expect(recorded.length).toBeGreaterThan(100);
    expect(new Map(recorded.map((r) => [String(r['id']), Number(r['n'])]))).toEqual(expected);
    expect(Number(recorded.find((r) => r['id'] === series)?.['n'])).toBe(expected.get(series));
  });
});
