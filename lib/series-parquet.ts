/**
 * The observations of a partitioned build (`build --partitioned`, docs/scale-out.md) as the endpoint reads them:
 * hive-partitioned Parquet beside the database, `data/observations/group=G/year=Y/data_0.parquet`, G the series
 * key's group (sid / GROUP_SERIES), Y the UTC year of the timestamp, each file sorted by (sid, timestamp), and
 * `observation_counts (sid, year, n)` in the database. For stateless endpoints over shared storage: nothing of an
 * endpoint's own disk, no series file; a span of one series reads the files of its group and the span's years
 * alone (each file's row groups pruned by their sid and timestamp statistics), through DuckDB, under the pool's
 * limits. The counts (one row per series and year, loaded at start) give the charts' admission its bound
 * without reading anything, and skip the years a series has no rows in.
 */
import { join } from 'node:path';
import { listValue } from '@duckdb/node-api';
import type { SeriesRec } from '../core/timeseries/catalogue.ts';
import type { SeriesSource } from '../core/timeseries/data.ts';
import type { Points } from '../core/timeseries/data-body.ts';
import type { Timespan } from '../core/timeseries/timespan.ts';
import { ConnectionPool, type PoolLimits } from './duckdb-pool.ts';
import { all } from './duckdb.ts';
import { parquetFilesBelow } from './hive.ts';
import { readPoints } from './timeseries-store.ts';

/** The folder of the partitioned observations, in the build's `data/`. */
export const OBSERVATIONS_DIR = 'observations';
/** Series keys per group: a group's year is one file (about 10^6 rows at 10-minute values). */
export const GROUP_SERIES = 256;

/** What the endpoint reads observations through: the series file (series-segments.ts) or these Parquet files. */
export interface ObservationStore {
  source: SeriesSource;
  countAtMost(s: SeriesRec, span: Timespan): number;
  close(): void;
}

const yearOf = (ms: number) => new Date(ms).getUTCFullYear();
const EMPTY: Points = { t: new Float64Array(0), v: new Float64Array(0) };

/** Opens the partitioned observations of the build whose timeseries database is `dbPath`. */
export async function openParquetSeries(dbPath: string, dataDir: string, limits: PoolLimits = {}): Promise<ObservationStore> {
  // files by group, then year
  const files = new Map<number, Map<number, string[]>>();
  for (const f of parquetFilesBelow(join(dataDir, OBSERVATIONS_DIR))) {
    const m = /group=(\d+)[\\/]year=(-?\d+)[\\/]/.exec(f);
    if (!m) throw new Error(`${f}: not below group=G/year=Y (rebuild with --partitioned)`);
    const byYear = files.get(Number(m[1])) ?? new Map<number, string[]>();
    files.set(Number(m[1]), byYear);
    byYear.set(Number(m[2]), [...(byYear.get(Number(m[2])) ?? []), f]);
  }
  const pool = await ConnectionPool.open(dbPath, 2, limits);
  const counts = new Map<number, Map<number, number>>();
  try {
    for (const r of await pool.withoutLimit((c) => all(c, 'SELECT sid, year, n FROM observation_counts ORDER BY sid, year'))) {
      const sid = Number(r['sid']);
      const m = counts.get(sid) ?? new Map<number, number>();
      counts.set(sid, m);
      m.set(Number(r['year']), Number(r['n']));
    }
  } catch (e) {
    pool.close();
    throw e;
  }
  /** The years of `s` with rows, ascending, within [from, to]. */
  const years = (s: SeriesRec, from: number, to: number) => [...(counts.get(s.sid)?.keys() ?? [])].filter((y) => y >= from && y <= to).sort((a, b) => a - b);
  const filesOf = (s: SeriesRec, ys: number[]) => ys.flatMap((y) => files.get(Math.floor(s.sid / GROUP_SERIES))?.get(y) ?? []);
  const query = (list: string[], where: string, params: Record<string, string>, tail = '') =>
    list.length === 0
      ? Promise.resolve(EMPTY)
      : pool.with((c) =>
          readPoints(c, {
            sql: `SELECT "timestamp"::DOUBLE AS t, coalesce("value", 'NaN'::DOUBLE) AS v FROM read_parquet($files, hive_partitioning = false)
                  WHERE sid = CAST($sid AS INTEGER) AND ${where}${tail}`,
            params: { ...params, files: listValue(list) } as never,
          }),
        );
  const source: SeriesSource = {
    read: (s, span) =>
      span.end < span.start
        ? Promise.resolve(EMPTY)
        : query(filesOf(s, years(s, yearOf(span.start), yearOf(span.end))), `"timestamp" BETWEEN CAST($start AS BIGINT) AND CAST($end AS BIGINT)`, {
            sid: String(s.sid),
            start: String(span.start),
            end: String(span.end),
          }),
    // year by year from the one holding `before` back, until a value is found
    lastBefore: async (s, before) => {
      for (const y of years(s, -Infinity, yearOf(before)).reverse()) {
        const p = await query(filesOf(s, [y]), `"timestamp" < CAST($before AS BIGINT) AND "value" IS NOT NULL`, { sid: String(s.sid), before: String(before) }, ' ORDER BY "timestamp" DESC LIMIT 1');
        if (p.t.length > 0) return p;
      }
      return EMPTY;
    },
    firstAfter: async (s, after) => {
      for (const y of years(s, yearOf(after), Infinity)) {
        const p = await query(filesOf(s, [y]), `"timestamp" > CAST($after AS BIGINT) AND "value" IS NOT NULL`, { sid: String(s.sid), after: String(after) }, ' ORDER BY "timestamp" LIMIT 1');
        if (p.t.length > 0) return p;
      }
      return EMPTY;
    },
  };
  return {
    source,
    countAtMost: (s, span) => (span.end < span.start ? 0 : years(s, yearOf(span.start), yearOf(span.end)).reduce((a, y) => a + counts.get(s.sid)!.get(y)!, 0)),
    close: () => pool.close(),
  };
}
