/**
 * The observation queries, as `{sql, params}` with bound parameters (never a value pasted into the SQL),
 * over the timeseries database's `observations (sid, timestamp, value)` table, which is sorted by
 * (sid, timestamp): a series' range is one tight scan of one or two row groups. Rows come in table order,
 * that is by time (no ORDER BY: DuckDB keeps insertion order; the reader checks it).
 * Timestamps come as DOUBLE (exact below 2^53) and nulls as NaN, so the reader copies plain Float64Arrays.
 */
import type { SqlFragment } from '../sql.ts';
import type { Timespan } from './timespan.ts';

export function seriesRangeQuery(sid: number, span: Timespan): SqlFragment {
  return {
    sql: `SELECT "timestamp"::DOUBLE AS t, coalesce("value", 'NaN'::DOUBLE) AS v FROM observations
          WHERE sid = CAST($sid AS INTEGER) AND "timestamp" BETWEEN CAST($start AS BIGINT) AND CAST($end AS BIGINT)`,
    params: { sid: String(sid), start: String(span.start), end: String(span.end) },
  };
}

export function lastValueBeforeQuery(sid: number, before: number): SqlFragment {
  return {
    sql: `SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM observations
          WHERE sid = CAST($sid AS INTEGER) AND "timestamp" < CAST($before AS BIGINT) AND "value" IS NOT NULL
          ORDER BY "timestamp" DESC LIMIT 1`,
    params: { sid: String(sid), before: String(before) },
  };
}

export function firstValueAfterQuery(sid: number, after: number): SqlFragment {
  return {
    sql: `SELECT "timestamp"::DOUBLE AS t, "value" AS v FROM observations
          WHERE sid = CAST($sid AS INTEGER) AND "timestamp" > CAST($after AS BIGINT) AND "value" IS NOT NULL
          ORDER BY "timestamp" LIMIT 1`,
    params: { sid: String(sid), after: String(after) },
  };
}
