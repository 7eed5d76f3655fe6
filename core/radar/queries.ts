/**
 * The one query of the radar catalogue: the records of a route, each rendered as text in the requested
 * format, as rows `(k, t)`: the record's id and its text, in the order the body lists them.
 */
import { and, type SqlFragment } from '../sql.ts';
import { idFilter, NO_SELECTION, selectionSql, type Selection } from './filters.ts';
import { answerOrder, partitionFilter } from './partitions.ts';
import { RADAR_FORMATS, type RecordFormat } from '../formats/radar.ts';
import { RESOURCES, viewFields, type ResourceName } from './resources.ts';
import { routeTable, type RadarRoute } from './routes.ts';

/** Facts about the catalogue database the queries need. */
export interface CatalogueFacts {
  /** The longest interval per resource, in ms. */
  maxDurationMs: Partial<Record<ResourceName, number>>;
  /** The big tables are views over hive-partitioned Parquet (`build --partitioned`, partitions.ts). */
  partitioned?: boolean;
}

export { NO_SELECTION, type Selection };

export interface RecordQuery {
  route: RadarRoute;
  format: RecordFormat;
  expanded: boolean;
  selection: Selection;
  /** Only the records with this id. */
  id?: bigint;
  /** Also a column `rn`, the record's position in the stored (answer) order: for aggregating texts in order. */
  ordinal?: boolean;
}

export function recordQuery(q: RecordQuery, facts: CatalogueFacts): SqlFragment {
  const r = RESOURCES[q.route.resource!];
  const fields = viewFields(r, q.expanded);
  const format = RADAR_FORMATS[q.format];
  const text = format.record(r, fields);
  const s = q.selection;
  const maxDurationMs = facts.maxDurationMs[r.name] ?? 0;
  const table = routeTable(q.route);
  // a subset table is in the database even in a partitioned build (it is small), stored in answer order
  const partitioned = facts.partitioned === true && r.partitioned === true && table === r.table;
  // the route's condition, the id, each filter's condition in FILTERS' order (distinct: the route's latest flag), the partitions
  const where = and([
    q.route.where === undefined ? undefined : { sql: q.route.where, params: {} },
    q.id === undefined ? undefined : idFilter(q.id),
    ...selectionSql(s, { resource: r, route: q.route, maxDurationMs }),
    partitioned ? partitionFilter(r, s, maxDurationMs) : undefined,
  ]);
  const params = { ...where.params, ...format.recordParams(s) };
  if (partitioned && q.ordinal) throw new Error('a partitioned catalogue has no stored order to number records by');
  // No ORDER BY in a database table: it is stored in answer order (see catalogue-db.ts) and DuckDB keeps
  // insertion order, so the answer streams instead of being sorted in memory first. Partitions are read one
  // by one, in any order: there the order is explicit.
  const order = partitioned ? ` ORDER BY ${answerOrder(r)}` : '';
  return { sql: `SELECT id AS k, ${q.ordinal ? 'rowid AS rn, ' : ''}${text} AS t FROM ${table} WHERE ${where.sql}${order}`, params };
}

/** Records a likely-small answer may have to be read whole before it is sent (lib/duckdb.ts materializedJoinedBytes). */
export const WHOLE_MAX_ROWS = 10_000;

/**
 * Whether an answer is likely small and scattered through its table: one id, or one radar (a 43rd of the rows,
 * spread over every row group). Those are read whole first, up to WHOLE_MAX_ROWS records (past that, streamed
 * after all). A timespan's records lie together in the table (it is in arrival order), so its chunks are full
 * already: reading a one-day answer whole was 5-10% slower than streaming it.
 */
export function likelySmall(s: Selection, id: bigint | undefined): boolean {
  return id !== undefined || s.radarCode !== undefined;
}

/** Timespans longer than this make a bulk answer. */
export const BULK_MIN_SPAN_MS = 7 * 86_400_000;

/**
 * Whether an answer reads much of its table: streamed (not `likelySmall`), over more than a week or over the whole
 * table. An endpoint process runs one of those at a time (lib/duckdb-pool.ts BULK_AT_ONCE); answers of a week or less
 * never wait behind them.
 */
export function isBulk(s: Selection, id: bigint | undefined): boolean {
  if (likelySmall(s, id)) return false;
  return s.timespan === undefined || s.timespan.end - s.timespan.start > BULK_MIN_SPAN_MS;
}
