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
  /**
   * Rows per radar of the tables the endpoint queries by radar (its database's big and subset tables, not a
   * partitioned catalogue's), read when a build is opened (server/resident-tables.ts loadRadarRows): what an
   * answer of one radar can hold at most, so it is planned to be read whole or in pieces (radarPieces) instead
   * of guessed at.
   */
  radarRows?: Partial<Record<string, RadarRows>>;
}

/** One table's rows: in all (its rowids are 0 to rows - 1, in answer order), and per radar code. */
export interface RadarRows {
  rows: number;
  byRadar: ReadonlyMap<string, number>;
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
  /** Only the rows whose rowid (position in the stored order) is in [from, to] (no `to`: from on): one piece of an answer (radarPieces). */
  rowids?: RowidRange;
}

/** A range of rowids, `to` included (none: to the end). */
export interface RowidRange {
  from: number;
  to?: number;
}

function rowidRange(r: RowidRange): SqlFragment {
  const from = { sql: 'rowid >= CAST($rowid_from AS BIGINT)', params: { rowid_from: String(r.from) } };
  return r.to === undefined ? from : and([from, { sql: 'rowid <= CAST($rowid_to AS BIGINT)', params: { rowid_to: String(r.to) } }]);
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
    q.rowids === undefined ? undefined : rowidRange(q.rowids),
  ]);
  const params = { ...where.params, ...format.recordParams(s) };
  if (partitioned && (q.ordinal || q.rowids)) throw new Error('a partitioned catalogue has no stored order to number records by');
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

/** Rows a piece of a large radar answer is planned to hold (radarPieces): half of what may be read whole. */
export const PIECE_ROWS = WHOLE_MAX_ROWS / 2;

/**
 * How an answer of one radar (a radar_code, no id) on a table whose rows per radar are known is read: `whole` when
 * the radar has at most WHOLE_MAX_ROWS rows there (it fits, whatever the other filters); else in `pieces`, ranges
 * of rowids (the stored, answer order) each holding about PIECE_ROWS of the radar's rows at its mean density, each
 * read whole in turn (a piece that holds more than WHOLE_MAX_ROWS after all is streamed). Undefined: not known
 * (another selection, a partitioned catalogue), as before: `likelySmall`.
 *
 * Why: a radar's rows are spread over the whole table (a 43rd of each chunk), so a streamed answer comes in chunks
 * of about 46 rows, one trip through node's thread pool each, and one over WHOLE_MAX_ROWS was first read whole to
 * the limit, in vain, then streamed: the year's busiest radar on /transferred/files (11,908 rows) took 134-193 ms
 * streamed against 28-56 ms read whole (load 14), and its answer was the first seconds' tail of a fresh endpoint
 * (issue 18). Pieces keep the bound on what one answer holds at a time (a piece's rows), and what the client has
 * not read yet waits in the spool as any streamed answer's.
 */
export function radarPieces(table: string, s: Selection, id: bigint | undefined, facts: CatalogueFacts): 'whole' | RowidRange[] | undefined {
  const known = facts.radarRows?.[table];
  if (!known || id !== undefined || s.radarCode === undefined) return undefined;
  const rows = known.byRadar.get(s.radarCode) ?? 0;
  if (rows <= WHOLE_MAX_ROWS) return 'whole';
  const n = Math.ceil(rows / PIECE_ROWS);
  const span = Math.ceil(known.rows / n);
  // the last piece to the end: every row is in one piece, whatever the rowids past the count
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? { from: i * span } : { from: i * span, to: (i + 1) * span - 1 }));
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
