/**
 * Filters as query fragments: each turns a typed, validated parameter into SQL with named parameters.
 * Values are always bound, never pasted into the SQL.
 */
import type { Bbox, Timespan } from './params.ts';
import type { Resource } from './resources.ts';

export type SqlValue = string | number | boolean;

export interface SqlFragment {
  sql: string;
  params: Record<string, SqlValue>;
}

/** `YYYY-MM-DD HH:MM:SS.sss`, the form DuckDB casts to TIMESTAMP. */
export function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * Overlap with [start, end], both inclusive. `maxDurationMs` is the longest interval in the table: bounding
 * the start column from below lets DuckDB skip row groups (an overlap predicate alone cannot).
 */
export function timespanFilter(r: Resource, ts: Timespan, maxDurationMs: number): SqlFragment | undefined {
  if (!r.time) return undefined;
  if (r.time.kind === 'instant') {
    return {
      sql: `${r.time.column} BETWEEN CAST($ts_start AS TIMESTAMP) AND CAST($ts_end AS TIMESTAMP)`,
      params: { ts_start: sqlTimestamp(ts.start), ts_end: sqlTimestamp(ts.end) },
    };
  }
  return {
    sql: `${r.time.start} <= CAST($ts_end AS TIMESTAMP) AND ${r.time.end} >= CAST($ts_start AS TIMESTAMP) AND ${r.time.start} >= CAST($ts_start_bound AS TIMESTAMP)`,
    params: { ts_start: sqlTimestamp(ts.start), ts_end: sqlTimestamp(ts.end), ts_start_bound: sqlTimestamp(ts.start - maxDurationMs) },
  };
}

/** The radar's position in the box; minX > maxX is a box across the antimeridian. */
export function bboxFilter(r: Resource, b: Bbox): SqlFragment | undefined {
  if (!r.radar) return undefined;
  const lon = b.minX <= b.maxX ? 'longitude BETWEEN $bbox_min_x AND $bbox_max_x' : '(longitude >= $bbox_min_x OR longitude <= $bbox_max_x)';
  return {
    sql: `latitude BETWEEN $bbox_min_y AND $bbox_max_y AND ${lon}`,
    params: { bbox_min_x: b.minX, bbox_min_y: b.minY, bbox_max_x: b.maxX, bbox_max_y: b.maxY },
  };
}

export function radarCodeFilter(r: Resource, code: string): SqlFragment | undefined {
  if (!r.radar) return undefined;
  return { sql: 'radar_code = $radar_code', params: { radar_code: code } };
}

export function idFilter(id: bigint): SqlFragment {
  return { sql: 'id = CAST($id AS BIGINT)', params: { id: id.toString() } };
}

export function and(fragments: (SqlFragment | undefined)[]): SqlFragment {
  const present = fragments.filter((f): f is SqlFragment => f !== undefined);
  return {
    sql: present.length === 0 ? 'true' : present.map((f) => `(${f.sql})`).join(' AND '),
    params: Object.assign({}, ...present.map((f) => f.params)),
  };
}
