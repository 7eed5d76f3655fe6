/**
 * The partitioned layout of a catalogue too large for one machine (`build --partitioned`, docs/scale-out.md).
 * The big resources' tables (resources.ts `partitioned`) are hive-partitioned Parquet beside the database,
 * `data/<table>/year=YYYY/radar=CODE/data_0.parquet`: one folder per year of the interval's start and radar,
 * each file in answer order; the database holds views over them. A query adds the partition predicates its
 * selection allows, and DuckDB opens only the files of the folders that match.
 */
import { NO_SELECTION, selectionPartitions, type Selection } from './filters.ts';
import type { SqlFragment } from '../sql.ts';
import type { Resource } from './resources.ts';

/** The partition columns of a record, as SQL over its table's columns: `year` (of the interval's start) and `radar`. */
export function partitionKeysSql(r: Resource): string {
  if (!r.partitioned || r.time?.kind !== 'overlap' || !r.radar) throw new Error(`resource ${r.name} is not partitioned`);
  return `CAST(year(${r.time.start}) AS INTEGER) AS year, radar_code AS radar`;
}

/**
 * The view over a partitioned table's files. The path is relative: DuckDB resolves it against `file_search_path`,
 * set to the database's folder when the database is opened, so a build folder can move.
 */
export function partitionedViewSql(table: string): string {
  return `CREATE VIEW ${table} AS SELECT * FROM read_parquet('${table}/*/*/*.parquet', hive_partitioning = true, hive_types = {'year': INTEGER, 'radar': VARCHAR})`;
}

/** The order records are answered in: stored so, and said explicitly over partitions (read one by one, in any order). */
export function answerOrder(r: Resource): string {
  return r.order ?? 'id';
}

/**
 * The partitions a selection can touch: the conjunction of each filter's partition predicate (filters.ts FILTERS:
 * a timespan selects the years its records can start in, `radar_code` one radar's folders). None: every partition.
 */
export function partitionFilter(r: Resource, s: Partial<Selection>, maxDurationMs: number): SqlFragment | undefined {
  if (!r.partitioned) return undefined;
  return selectionPartitions({ ...NO_SELECTION, ...s }, { resource: r, maxDurationMs });
}
