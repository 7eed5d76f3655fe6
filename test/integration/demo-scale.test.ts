/**
 * The demo snapshot at national scale (issue 23): `--series-factor 2` validates, its copies' gauges report every
 * 15 minutes, and `--fast-values` gives the same rows (series, instants, gaps, nulls) as the full models with
 * cheap values of the right order.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { gapFilter } from '../../build-scripts/demo/timeseries/observations.ts';
import { validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const root = path.join(TEST_TMP, `demo-scale-${process.pid}`);
let instance: DuckDBInstance;
let conn: DuckDBConnection;
let full: string;
let fast: string;

const obs = (dir: string) => `read_parquet(${sqlString(path.join(dir, 'observations.parquet'))})`;
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

beforeAll(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  full = path.join(root, 'full');
  fast = path.join(root, 'fast');
  const common = { from: '2024-01-01', days: 2, seed: 3, apis: ['timeseries-v1' as const], seriesFactor: 2, log: () => {} };
  await writeDemoSnapshot({ ...common, out: full });
  await writeDemoSnapshot({ ...common, out: fast, fastValues: true });
  instance = await openDuckDB({ threads: 2 });
  conn = await instance.connect();
}, 120_000);

afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  await rm(root, { recursive: true, force: true });
});

test('both validate, with twice the series of the plain network', async () => {
  for (const dir of [full, fast]) {
    const valid = await validateSnapshot(dir, conn);
    expect(valid.tables['timeseries']?.rows).toBe(2 * 276);
  }
});

test('gauges of copy 2 report every 15 minutes, those of copy 1 every 10', async () => {
  const steps = await rows(`SELECT CASE WHEN regexp_matches(timeseries_id, '_2_(water_level|discharge|water_temperature)$') THEN 'copy 2' ELSE 'other' END AS g,
      bool_and("timestamp" % 900000 = 0) AS on15, bool_or("timestamp" % 900000 <> 0) AS off15
    FROM ${obs(full)} WHERE timeseries_id IN (SELECT id FROM read_parquet(${sqlString(path.join(full, 'timeseries.parquet'))}) WHERE service_id = 'srv_rivers')
    GROUP BY g ORDER BY g`);
  expect(steps).toEqual([
    { g: 'copy 2', on15: true, off15: false },
    { g: 'other', on15: false, off15: true },
  ]);
});

test('fast values: the same keys and nulls as the full models, values of the same order per phenomenon', async () => {
  const [diff] = await rows(`SELECT count(*)::DOUBLE AS n FROM (
      (SELECT timeseries_id, "timestamp", "value" IS NULL AS isnull FROM ${obs(full)} EXCEPT SELECT timeseries_id, "timestamp", "value" IS NULL FROM ${obs(fast)})
      UNION ALL
      (SELECT timeseries_id, "timestamp", "value" IS NULL FROM ${obs(fast)} EXCEPT SELECT timeseries_id, "timestamp", "value" IS NULL FROM ${obs(full)}))`);
  expect(diff).toEqual({ n: 0 });
  const byPhenomenon = await rows(`SELECT t.phenomenon_id AS p, avg(a."value") AS full_mean, avg(b."value") AS fast_mean, count(*) FILTER (WHERE a."value" <> b."value")::DOUBLE AS differ, count(*)::DOUBLE AS n
    FROM ${obs(full)} a JOIN ${obs(fast)} b USING (timeseries_id, "timestamp")
    JOIN read_parquet(${sqlString(path.join(full, 'timeseries.parquet'))}) t ON t.id = a.timeseries_id
    GROUP BY p ORDER BY p`);
  expect(byPhenomenon.map((r) => r['p'])).toEqual(['phe_air_temperature', 'phe_discharge', 'phe_pm10', 'phe_precipitation', 'phe_relative_humidity', 'phe_water_level', 'phe_water_temperature']);
  for (const r of byPhenomenon) {
    const [a, b] = [Number(r['full_mean']), Number(r['fast_mean'])];
    // means within half the full model's (or 5 units, for means near zero: winter air temperature, rain), values differ
    expect(Math.abs(b - a), String(r['p'])).toBeLessThan(Math.max(0.5 * Math.abs(a), 5));
    expect(Number(r['differ'])).toBeGreaterThan(Number(r['n']) / 3);
  }
});

test('gaps looked up by bucket keep exactly the instants outside every gap', async () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const n = 300_000;
  const gaps: [number, number][] = [];
  // gaps across bucket edges, longer than a bucket, back to back, at the very start and end
  for (let x = 0; ; ) {
    const y = x + 1 + Math.floor(random() * 3000);
    if (y > n) break;
    gaps.push([x, y]);
    x = y + Math.floor(random() * 4000);
  }
  gaps.push([n - 5, n]);
  const where = gapFilter(gaps, 1440);
  expect(gaps.length).toBeGreaterThan(50);
  expect(where).not.toContain(`k >= ${gaps[40]![0]} AND`); // by bucket, not one by one
  const kept = await rows(`SELECT list(k ORDER BY k) AS k FROM range(0, ${n}) r(k) WHERE ${where}`);
  const expected: number[] = [];
  for (let k = 0, g = 0; k < n; k++) {
    while (g < gaps.length && gaps[g]![1] <= k) g++;
    if (!(g < gaps.length && gaps[g]![0] <= k)) expected.push(k);
  }
  expect((kept[0]?.['k'] as number[]).map(Number)).toEqual(expected);
});
