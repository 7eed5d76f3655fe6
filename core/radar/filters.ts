/**
 * The radar catalogue's filters, one record each (FILTERS): the query parameter and its zod schema, its value
 * when absent, whether a value needs a live answer (the static tree holds only the unfiltered answers), its SQL
 * fragment (values bound, never pasted), its test of a resident row (resident.ts: DuckDB's semantics row by row,
 * a NULL column matches nothing), its partition predicate (partitions.ts), whether memory can answer it, and
 * its docs. `satisfies FilterTable` makes a missing piece, or a Selection field without a filter, a compile
 * error; queries.ts, resident.ts, partitions.ts, params.ts and the nginx rules read only this table.
 *
 * A new filter: a Selection field (queries.ts), its entry here, its cases in test/unit/radar-filters.test.ts.
 */
import { z } from 'zod';
import { and, type SqlFragment } from '../sql.ts';
import type { RecordFormat } from '../formats/radar.ts';
import { booleanParam } from '../http/param-schemas.ts';
import type { JsonSchema } from '../openapi/json-schema.ts';
import { PARTIAL_DATETIME_PATTERN, parsePartialDatetime } from './partial-datetime.ts';
import type { Resource } from './resources.ts';
import type { RadarRoute } from './routes.ts';
import type { Timespan } from '../timespan.ts';

export { and, type SqlFragment, type SqlValue } from '../sql.ts';
export type { Timespan };

export interface Bbox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** What selects the records of an answer (and the CSV delimiter the record SQL binds). */
export interface Selection {
  timespan: Timespan | undefined;
  bbox: Bbox | undefined;
  radarCode: string | undefined;
  distinct: boolean;
  delimiter: string;
}

/** The columns the filters read of a resident table, one entry per row in answer order. Times are µs since the epoch. */
export interface ResidentColumns {
  id: bigint[];
  latitude?: (number | null)[];
  longitude?: (number | null)[];
  radarCode?: (string | null)[];
  /** The instant column, or the interval's start. */
  timeStart?: (number | null)[];
  /** The interval's end. */
  timeEnd?: (number | null)[];
}

/** What a filter sees of the table besides its value. */
export interface ResourceContext {
  resource: Resource;
  /** The longest interval of the resource's table, ms. */
  maxDurationMs: number;
}

/** ... and of the route, for SQL (a route's latest flag). */
export interface FilterContext extends ResourceContext {
  route: RadarRoute;
}

export interface ParamDocWords {
  type: string;
  default: string;
  example: string;
  meaning: string;
  /** The wire format as JSON Schema (OpenAPI): the zod schemas read text and transform it. */
  wire: (d: ParamDocWords) => JsonSchema;
}

const NUMBER = '\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?\\s*';
/** One side of a timespan: the partial datetime pattern without its anchors. */
const DATETIME = PARTIAL_DATETIME_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');
/** A boolean parameter's wire format. */
export const BOOLEAN_WIRE = (d: { default: string }): JsonSchema => ({ type: 'boolean', default: d.default === 'true' });

export interface FilterEntry<T> {
  /** The query parameter. */
  param: string;
  schema: z.ZodType<T, string>;
  /** The value when the parameter is absent. */
  absent: T;
  /** Whether this value needs a live answer: no file of the static tree holds it. */
  live: (v: T) => boolean;
  /** The SQL condition (undefined: no condition on this route). */
  sql: (v: T, c: FilterContext) => SqlFragment | undefined;
  /** The same condition over a resident table's columns, as a test of row i (undefined: none). */
  rows: (v: T, c: ResourceContext, cols: ResidentColumns) => ((i: number) => boolean) | undefined;
  /** Whether memory (texts rendered once, with the defaults) can answer this value in this format. */
  resident: (v: T, format: RecordFormat) => boolean;
  /** The partition predicate of a partitioned table (partitions.ts; undefined: every partition). */
  partition: (v: T, c: ResourceContext) => SqlFragment | undefined;
  docs: ParamDocWords;
}

export type FilterTable = { readonly [K in keyof Selection]: FilterEntry<Selection[K]> };

/** `YYYY-MM-DD HH:MM:SS.sss`, the form DuckDB casts to TIMESTAMP. */
export function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

const US_PER_MS = 1000;

function utcYear(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

const timespanSchema = z.string().transform((v, ctx): Timespan => {
  const parts = v.split('/');
  if (parts.length !== 2) {
    ctx.addIssue({ code: 'custom', message: `must be two datetimes joined by '/', not '${v}'` });
    return z.NEVER;
  }
  const [a, b] = parts.map((p) => parsePartialDatetime(p));
  if (!a!.ok || !b!.ok) {
    ctx.addIssue({ code: 'custom', message: `has ${!a!.ok ? a!.problem : (b as { problem: string }).problem}` });
    return z.NEVER;
  }
  if (a!.ms > b!.ms) {
    ctx.addIssue({ code: 'custom', message: `starts after it ends ('${v}')` });
    return z.NEVER;
  }
  return { start: a!.ms, end: b!.ms };
});

const bboxSchema = z.string().transform((v, ctx): Bbox => {
  const parts = v.split(',').map((p) => p.trim());
  const nums = parts.map((p) => (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(p) ? Number(p) : NaN));
  if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
    ctx.addIssue({ code: 'custom', message: `must be four numbers minX,minY,maxX,maxY (lon/lat), not '${v}'` });
    return z.NEVER;
  }
  const [minX, minY, maxX, maxY] = nums as [number, number, number, number];
  if ([minX, maxX].some((x) => x < -180 || x > 180) || [minY, maxY].some((y) => y < -90 || y > 90)) {
    ctx.addIssue({ code: 'custom', message: `must have longitudes from -180 to 180 and latitudes from -90 to 90, not '${v}'` });
    return z.NEVER;
  }
  if (minY > maxY) {
    ctx.addIssue({ code: 'custom', message: `has minY ${minY} above maxY ${maxY}; give the lower-left corner first` });
    return z.NEVER;
  }
  return { minX, minY, maxX, maxY };
});

const radarCodeSchema = z.string().transform((v, ctx) => {
  const s = v.trim().toLowerCase();
  if (/^[a-z]{3}$/.test(s)) return s;
  ctx.addIssue({ code: 'custom', message: `must be a three-letter radar code, not '${v}'` });
  return z.NEVER;
});

const delimiterSchema = z.string().transform((v, ctx) => {
  if ([...v].length === 1 && !['"', '\r', '\n'].includes(v)) return v;
  ctx.addIssue({ code: 'custom', message: `must be one character other than a double quote or a line break, not '${v}'` });
  return z.NEVER;
});

const always = () => true;
const none = () => undefined;

export const FILTERS = {
  timespan: {
    param: 'timespan',
    schema: timespanSchema,
    absent: undefined,
    live: (v) => v !== undefined,
    /**
     * Overlap with [start, end], both inclusive. The longest interval of the table bounds the start column from
     * below, so DuckDB skips row groups (an overlap predicate alone cannot).
     */
    sql: (ts, { resource: r, maxDurationMs }): SqlFragment | undefined => {
      if (!ts || !r.time) return undefined;
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
    },
    rows: (ts, { resource: r, maxDurationMs }, c) => {
      if (!ts || !r.time) return undefined;
      const start = ts.start * US_PER_MS;
      const end = ts.end * US_PER_MS;
      const t0 = c.timeStart!;
      if (r.time.kind === 'instant') return (i) => t0[i] !== null && t0[i]! >= start && t0[i]! <= end;
      const t1 = c.timeEnd!;
      const bound = (ts.start - maxDurationMs) * US_PER_MS;
      return (i) => t0[i] !== null && t1[i] !== null && t0[i]! <= end && t1[i]! >= start && t0[i]! >= bound;
    },
    resident: always,
    /** The years its records can start in: from its start less the longest interval (the SQL's bound) to its end. */
    partition: (ts, { maxDurationMs }) => ts && { sql: 'year BETWEEN $year_from AND $year_to', params: { year_from: utcYear(ts.start - maxDurationMs), year_to: utcYear(ts.end) } },
    docs: {
      type: 'START/END, partial ISO 8601 datetimes',
      default: 'none',
      example: '2024-01-01/2024-01-02',
      meaning: 'Records whose own interval overlaps [START, END]; radars whose earliest_data lies in it. Missing parts take their lowest value; no zone means UTC.',
      wire: () => ({ type: 'string', pattern: `^\\s*${DATETIME}\\s*/\\s*${DATETIME}\\s*$` }),
    },
  },
  bbox: {
    param: 'bbox',
    schema: bboxSchema,
    absent: undefined,
    live: (v) => v !== undefined,
    /** The radar's position in the box; minX > maxX is a box across the antimeridian. */
    sql: (b, { resource: r }) => {
      if (!b || !r.radar) return undefined;
      const lon = b.minX <= b.maxX ? 'longitude BETWEEN $bbox_min_x AND $bbox_max_x' : '(longitude >= $bbox_min_x OR longitude <= $bbox_max_x)';
      return { sql: `latitude BETWEEN $bbox_min_y AND $bbox_max_y AND ${lon}`, params: { bbox_min_x: b.minX, bbox_min_y: b.minY, bbox_max_x: b.maxX, bbox_max_y: b.maxY } };
    },
    rows: (b, { resource: r }, c) => {
      if (!b || !r.radar) return undefined;
      const lat = c.latitude!;
      const lon = c.longitude!;
      const inLon = b.minX <= b.maxX ? (x: number) => x >= b.minX && x <= b.maxX : (x: number) => x >= b.minX || x <= b.maxX;
      return (i) => lat[i] !== null && lon[i] !== null && lat[i]! >= b.minY && lat[i]! <= b.maxY && inLon(lon[i]!);
    },
    resident: always,
    partition: none,
    docs: {
      type: 'minX,minY,maxX,maxY (lon/lat, EPSG:4326)',
      default: 'none',
      example: '-180,-90,180,0',
      meaning: 'Records of radars whose position lies in the box. minX > maxX means a box across the antimeridian.',
      wire: () => ({ type: 'string', pattern: `^${NUMBER},${NUMBER},${NUMBER},${NUMBER}$` }),
    },
  },
  radarCode: {
    param: 'radar_code',
    schema: radarCodeSchema,
    absent: undefined,
    live: (v) => v !== undefined,
    sql: (code, { resource: r }) => (code === undefined || !r.radar ? undefined : { sql: 'radar_code = $radar_code', params: { radar_code: code } }),
    rows: (code, { resource: r }, c) => (code === undefined || !r.radar ? undefined : (i) => c.radarCode![i] === code),
    resident: always,
    /** One radar's folders. */
    partition: (code) => (code === undefined ? undefined : { sql: 'radar = $radar_code', params: { radar_code: code } }),
    docs: { type: 'three letters, case-insensitive', default: 'none', example: 'sas', meaning: 'Records of one radar.', wire: () => ({ type: 'string', pattern: '^\\s*[A-Za-z]{3}\\s*$' }) },
  },
  distinct: {
    param: 'distinct',
    schema: booleanParam,
    absent: false,
    live: (v) => v,
    /** One instance per file id, the most recent: the route's latest flag (a `/:id` route of instances always has it on). */
    sql: (v, { route }) => (route.latestFlag && (route.latest || v) ? { sql: route.latestFlag, params: {} } : undefined),
    // A route with a latest flag is never resident (resident.ts residentCanAnswer): on the others distinct selects every row.
    rows: none,
    resident: always,
    partition: none,
    docs: { type: 'boolean', default: 'false', example: 'true', meaning: 'One instance per file id (the most recent transfer) instead of every transfer instance.', wire: BOOLEAN_WIRE },
  },
  delimiter: {
    param: 'delimiter',
    schema: delimiterSchema,
    absent: ',',
    live: (v) => v !== ',',
    // Not a condition: the CSV record SQL binds it (formats/radar.ts recordParams).
    sql: none,
    rows: none,
    /** Resident CSV texts are rendered with a comma. */
    resident: (v, format) => format !== 'csv' || v === ',',
    partition: none,
    docs: { type: 'one character', default: ',', example: ';', meaning: 'Field delimiter of CSV output.', wire: (d) => ({ type: 'string', minLength: 1, maxLength: 1, pattern: '^[^"\\r\\n]$', default: d.default }) },
  },
} as const satisfies FilterTable;

/** The selection of a request without parameters: every filter's absent value. */
export const NO_SELECTION: Selection = Object.fromEntries(Object.entries(FILTERS).map(([k, f]) => [k, f.absent])) as unknown as Selection;

/** The filters in the order their conditions are written (the table's order). */
export const FILTER_KEYS = Object.keys(FILTERS) as (keyof Selection)[];

/** FILTERS as its mapped type: entry K takes values of Selection[K]. */
const TABLE: FilterTable = FILTERS;

/** The filter of a Selection key, typed by its key. */
export function filterOf<K extends keyof Selection>(k: K): FilterEntry<Selection[K]> {
  return TABLE[k];
}

/** One filter's piece, with its value taken from the selection (the loop over a mapped table, typed once). */
function each<R>(s: Selection, f: <K extends keyof Selection>(entry: FilterEntry<Selection[K]>, v: Selection[K]) => R): R[] {
  return FILTER_KEYS.map(<K extends keyof Selection>(k: K) => f(filterOf(k), s[k]));
}

/** The conditions of a selection, in the table's order (queries.ts). */
export function selectionSql(s: Selection, c: FilterContext): (SqlFragment | undefined)[] {
  return each(s, (e, v) => e.sql(v, c));
}

/** The tests of a resident row a selection makes (resident.ts). */
export function selectionRowTests(s: Selection, c: ResourceContext, cols: ResidentColumns): ((i: number) => boolean)[] {
  return each(s, (e, v) => e.rows(v, c, cols)).filter((t): t is (i: number) => boolean => t !== undefined);
}

/** Whether memory can answer this selection in this format. */
export function selectionResident(s: Selection, format: RecordFormat): boolean {
  return each(s, (e, v) => e.resident(v, format)).every(Boolean);
}

/** The partitions a selection can touch, as one predicate (undefined: every partition). */
export function selectionPartitions(s: Selection, c: ResourceContext): SqlFragment | undefined {
  const parts = each(s, (e, v) => e.partition(v, c)).filter((p) => p !== undefined);
  return parts.length === 0 ? undefined : and(parts);
}

/** Whether a selection needs a live answer (a value other than the absent one, which the tree holds). */
export function selectionLive(s: Selection): boolean {
  return each(s, (e, v) => e.live(v)).some(Boolean);
}

export function idFilter(id: bigint): SqlFragment {
  return { sql: 'id = CAST($id AS BIGINT)', params: { id: id.toString() } };
}
