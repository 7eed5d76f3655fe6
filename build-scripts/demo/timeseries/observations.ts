/**
 * Generating `observations.parquet` inside DuckDB, with bounded memory at any size.
 *
 * Each timeseries is one `SELECT` over `range()` (one row per instant of its cadence) that drops
 * outage instants, computes the model's value and nulls a few values. DuckDB runs a `range()`
 * pipeline on one thread, so two connections work through the series in parallel, each writing
 * one part file per series; a final `COPY` concatenates the parts, in timeseries id order, into
 * the one zstd-compressed file. Both steps stream, so memory does not grow with the row count.
 *
 * Gaps: instants inside an outage (see outages.ts) are missing. Nulls: 1 value in 2000 is
 * reported as null (present but unusable).
 */
import { resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { STREAM, num } from './noise.ts';
import { fastModelOf, modelOf } from './series.ts';
import { OUTAGE_SLOT_MS, outagesOf } from './outages.ts';
import type { SeriesDef } from './network.ts';

export interface ObservationContext {
  seed: number;
  fromMs: number;
  days: number;
  /** The cheap value model (series.ts fastModelOf), for scale tests. */
  fast?: boolean;
}

export const NULL_PROBABILITY = 0.0005;

/**
 * Index range [start, end) of the instants `from + k * step` a series has values at: its active life (fixed
 * times after `from`) cut at the end of the period, so one more day only adds instants.
 */
export function instantRange(s: SeriesDef, days: number): [number, number] {
  if (s.empty) return [0, 0];
  const perDay = (24 * 60) / s.stepMinutes;
  const end = Math.floor(days * perDay);
  return [Math.min(end, Math.ceil((s.activeFromDays ?? 0) * perDay)), Math.min(end, Math.floor((s.activeToDays ?? Infinity) * perDay))];
}

/** The SELECT producing one series' rows (timeseries_id, timestamp, value), ordered by timestamp; null for a series without values. */
export function seriesSelect(s: SeriesDef, ctx: ObservationContext): string | null {
  const [a, b] = instantRange(s, ctx.days);
  if (b <= a) return null;
  const model = ctx.fast ? fastModelOf(ctx.seed, s) : modelOf(ctx.seed, s);
  const stepMs = s.stepMinutes * 60_000;
  const endMs = ctx.fromMs + ctx.days * 86_400_000;
  const firstK = (ms: number) => Math.ceil((ms - ctx.fromMs) / stepMs);
  const gaps = outagesOf(s, ctx.seed, ctx.fromMs, endMs)
    .map((o) => [Math.max(a, firstK(o.start)), Math.min(b, firstK(o.end))] as const)
    .filter(([x, y]) => y > x);
  const where = gapFilter(gaps, Math.round(OUTAGE_SLOT_MS / stepMs));
  let sql = `SELECT t, t / 3600000.0 AS h, (t / 86400000.0 - 10957) * ${num((2 * Math.PI) / 365.2422)} AS yr, ((t % 86400000 + 86400000) % 86400000) / 3600000.0 AS hod
    FROM (SELECT (${ctx.fromMs} + k * ${stepMs})::BIGINT AS t FROM range(${a}, ${b}) r(k)${where ? ` WHERE ${where}` : ''})`;
  for (const layer of model.layers) {
    const cols = Object.entries(layer).map(([name, expr]) => `(${expr}) AS ${name}`);
    sql = `SELECT *, ${cols.join(', ')} FROM (${sql})`;
  }
  const isNull = `rnd(${ctx.seed}, ${s.key}, ${STREAM.nullValue}, t // 60000) < ${num(NULL_PROBABILITY)}`;
  return `SELECT '${s.id}' AS timeseries_id, t AS "timestamp", CASE WHEN ${isNull} THEN NULL ELSE (${model.value})::DOUBLE + 0.0 END AS "value" FROM (${sql})`;
}

/** Gaps up to this many are tested one by one; more are looked up by bucket (gapFilter). */
const INLINE_GAPS = 8;

/**
 * The condition keeping instant `k` out of every gap [x, y) (sorted, disjoint). A few gaps are tested one by one.
 * Many (a 30-year series has about 190) would cost a comparison each per row, more than the cheap value model, so
 * the instants are cut into buckets of `bucket` instants and each row tests only the gaps overlapping its bucket,
 * taken from constant lists by the bucket's number: at most a handful of comparisons whatever the period.
 */
export function gapFilter(gaps: readonly (readonly [number, number])[], bucket: number): string | null {
  if (gaps.length === 0) return null;
  if (gaps.length <= INLINE_GAPS) return `NOT (${gaps.map(([x, y]) => `(k >= ${x} AND k < ${y})`).join(' OR ')})`;
  const size = Math.max(1, bucket);
  const first = 0; // lists from bucket 0: a list index below 1 would count from the end
  const last = Math.floor((gaps.at(-1)![1] - 1) / size);
  const perBucket: [number, number][][] = Array.from({ length: last - first + 1 }, () => []);
  for (const [x, y] of gaps) {
    for (let q = Math.floor(x / size); q <= Math.floor((y - 1) / size); q++) perBucket[q - first]!.push([x, y]);
  }
  const width = Math.max(...perBucket.map((l) => l.length));
  const at = `(k // ${size} + 1)`; // 1-based list index; past the lists list_extract gives NULL
  const terms = Array.from({ length: width }, (_, j) => {
    const xs = perBucket.map((l) => l[j]?.[0] ?? 0).join(',');
    const ys = perBucket.map((l) => l[j]?.[1] ?? 0).join(',');
    return `(k >= coalesce([${xs}][${at}], 0) AND k < coalesce([${ys}][${at}], 0))`;
  });
  return `NOT (${terms.join(' OR ')})`;
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Writes `observations.parquet` (sorted by timeseries_id, timestamp) to `outFile`, using
 * `partsDir` for the per-series parts. Returns the number of rows.
 */
export async function writeObservations(
  instance: DuckDBInstance,
  series: SeriesDef[],
  ctx: ObservationContext,
  partsDir: string,
  outFile: string,
  log: (line: string) => void,
): Promise<number> {
  const sorted = [...series].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const jobs = sorted.map((s, i) => ({ s, sql: seriesSelect(s, ctx), file: resolve(partsDir, `${String(i).padStart(5, '0')}.parquet`) }));
  const todo = jobs.filter((j) => j.sql !== null);
  let next = 0;
  let done = 0;
  let rows = 0;
  let lastReport = 0;
  const t0 = performance.now();
  const worker = async (conn: DuckDBConnection) => {
    for (;;) {
      const job = todo[next++];
      if (!job) return;
      const r = await conn.runAndReadAll(`COPY (${job.sql}) TO ${sqlString(job.file)} (FORMAT parquet, COMPRESSION snappy)`);
      rows += Number(r.getRows()[0]?.[0] ?? 0);
      done++;
      const pct = Math.floor((100 * done) / todo.length);
      if (pct >= lastReport + 10 || done === todo.length) {
        lastReport = pct - (pct % 10);
        log(`  timeseries observations: ${done}/${todo.length} series, ${rows.toLocaleString('en')} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    }
  };
  const conns = await Promise.all([instance.connect(), instance.connect()]);
  try {
    await Promise.all(conns.map(worker));
  } finally {
    for (const c of conns) c.closeSync();
  }
  const conn = await instance.connect();
  try {
    const source = todo.length
      ? `SELECT timeseries_id, "timestamp", "value" FROM read_parquet([${todo.map((j) => sqlString(j.file)).join(', ')}])`
      : `SELECT ''::VARCHAR AS timeseries_id, 0::BIGINT AS "timestamp", 0::DOUBLE AS "value" WHERE false`;
    await conn.run(`COPY (${source}) TO ${sqlString(outFile)} (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    conn.closeSync();
  }
  log(`  timeseries observations: ${rows.toLocaleString('en')} rows merged into observations.parquet, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return rows;
}
