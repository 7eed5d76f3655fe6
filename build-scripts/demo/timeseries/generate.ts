/**
 * The demo timeseries snapshot (API `timeseries-v1`): a river-gauge network (`srv_rivers`, 52
 * gauges on Rhein, Elbe, Donau, Weser and Mosel) and a weather and air-quality network
 * (`srv_weather`, 51 sites in Germany, the Netherlands and Belgium), 103 stations with 1 to 4
 * timeseries each, values from `o.from` for `o.days` days. Writes `<table>.parquet` for every
 * table of the contract and the configuration files under `config/`.
 *
 * Deterministic: the network is fixed, and every value is a hash of (seed, keys, instant), so the
 * same options give the same bytes. Prefix-stable: nothing depends on the length of the period but
 * where it ends (sensor lives, outages and warning-level revisions are fixed times after `from`),
 * so the snapshot of one more day holds every row of this one, unchanged, plus the new day's. Size: about 30,000 values per day (see `valuesPerDay`), so
 * 10^8 observations need about 3,400 days (`daysForObservations`); memory stays bounded because
 * DuckDB streams the values to disk (see observations.ts). `seriesFactor` k makes the network k times as
 * large (k × 103 stations, k × 276 series, gauges of every other copy at 15 minutes: network.ts), so
 * 10^9 observations are, for example, k = 10 over 10 years (3,650 days) or k = 3 over 30 years.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DemoOptions } from '../options.ts';
import { TIMESERIES_CONFIG_DIR, TIMESERIES_TABLES } from '../../../core/snapshot/timeseries-tables.ts';
import { buildNetwork, valuesPerDay } from './network.ts';
import { NOISE_MACROS } from './noise.ts';
import { NULL_PROBABILITY, writeObservations } from './observations.ts';
import { configFiles } from './config.ts';
import { tableRows } from './rows.ts';
import { writeTable } from './write.ts';

/** Share of instants lost to outages (series and station outages together), measured over 365 days: 1.4 %. */
export const GAP_SHARE = 0.014;

/** Days of data that give about `n` observations (rows, nulls included) with the demo network `factor` times over. */
export function daysForObservations(n: number, factor = 1): number {
  return Math.ceil(n / (valuesPerDay(buildNetwork(factor)) * (1 - GAP_SHARE)));
}

/** The seed as a signed 32-bit integer (seeds are taken modulo 2^32), safe as a SQL literal. */
function seed32(seed: number): number {
  if (!Number.isInteger(seed)) throw new Error(`the seed must be a whole number, not ${seed}`);
  return Number(BigInt.asIntN(32, BigInt(seed)));
}

export async function generateTimeseriesDemo(o: DemoOptions): Promise<void> {
  const t0 = performance.now();
  const factor = o.seriesFactor ?? 1;
  const network = buildNetwork(factor);
  const fromMs = o.from.getTime();
  const perDay = valuesPerDay(network, o.days);
  o.log(
    `timeseries: ${network.stations.length} stations, ${network.series.length} timeseries, ${o.days} days from ${o.from.toISOString().slice(0, 10)}: ` +
      `about ${Math.round(perDay * o.days * (1 - GAP_SHARE)).toLocaleString('en')} observations (10^8 take about ${daysForObservations(1e8, factor)} days, 10^9 ${daysForObservations(1e9, factor)})`,
  );

  const work = resolve(o.outDir, '.timeseries-work');
  const parts = resolve(work, 'parts');
  await rm(work, { recursive: true, force: true });
  await mkdir(parts, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '2',
    memory_limit: '1GB',
    temp_directory: resolve(work, 'duckdb'),
    preserve_insertion_order: 'true',
  });
  try {
    const conn = await instance.connect();
    try {
      for (const m of NOISE_MACROS) await conn.run(m);
      const rows = tableRows(network, fromMs, o.days);
      for (const spec of TIMESERIES_TABLES) {
        if (spec.name === 'observations') continue;
        await writeTable(conn, spec, rows[spec.name] ?? [], o.outDir);
      }
      o.log(`  timeseries tables written (${TIMESERIES_TABLES.length - 1} of ${TIMESERIES_TABLES.length})`);
    } finally {
      conn.closeSync();
    }
    const n = await writeObservations(instance, network.series, { seed: seed32(o.seed), fromMs, days: o.days, fast: o.fastValues ?? false }, parts, resolve(o.outDir, 'observations.parquet'), o.log);
    o.log(`  ${n.toLocaleString('en')} observations (about ${Math.round(n * NULL_PROBABILITY).toLocaleString('en')} null)`);
  } finally {
    instance.closeSync();
    await rm(work, { recursive: true, force: true });
  }

  const dir = resolve(o.outDir, TIMESERIES_CONFIG_DIR);
  await mkdir(dir, { recursive: true });
  for (const [file, json] of Object.entries(configFiles(network, fromMs, o.days))) {
    await writeFile(resolve(dir, file), JSON.stringify(json, null, 2) + '\n');
  }
  o.log(`timeseries: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
