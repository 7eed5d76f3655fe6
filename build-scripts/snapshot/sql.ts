/**
 * Small SQL helpers for snapshot validation: identifier and literal quoting,
 * running a query against a table's Parquet file(s) with the path(s) bound as a parameter,
 * shortening DuckDB error messages and formatting values for problem messages.
 */
import path from 'node:path';
import { listValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { ColumnKind, ColumnSpec } from '../../core/snapshot/table-schema.ts';

/** A double-quoted SQL identifier; embedded double quotes are doubled. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted SQL string literal; embedded single quotes are doubled (DuckDB strings know no backslash escapes). */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The column locating a row: its 0-based row number in a single-file table; in a partitioned table, the
 * file's index times FILE_STRIDE plus the row number in that file (rowPlace in row-details.ts reads it back).
 */
export const ROW = 'file_row_number';

/** Rows per file a row locator allows for: 2^32 (a file holds fewer), leaving 2^21 files below 2^53. */
export const FILE_STRIDE = 4294967296;

/** Where a table's rows are: one Parquet file, or the Parquet files of a hive-partitioned folder. */
export interface TableSource {
  /** The `<name>.parquet` file or the `<name>/` folder, absolute. */
  file: string;
  /** The folder form: `files` lists its Parquet files in sorted order. */
  partitioned: boolean;
  files: string[];
}

/**
 * `read_parquet` over the table bound to parameter `$n` (see scanParam), optionally with row locators.
 * File paths are always bound, never spliced into the SQL text. A single file is read with hive partitioning
 * off, so `key=value` folders in its path add no columns; a folder's files with it on, so partition keys that
 * are described columns give those columns their values.
 */
export function scan(table: Pick<TableSource, 'partitioned'>, param = 1, rowNumbers = true): string {
  const rowOption = rowNumbers ? ', file_row_number=true' : '';
  if (!table.partitioned) return `read_parquet($${param}, hive_partitioning=false${rowOption})`;
  const read = `read_parquet($${param}, hive_partitioning=true${rowOption})`;
  return rowNumbers ? `(SELECT * REPLACE (file_index * ${FILE_STRIDE} + ${ROW} AS ${ROW}) FROM ${read})` : read;
}

/** The value bound to a scan's parameter: the file's path, or the list of the folder's files. */
export function scanParam(table: TableSource): DuckDBValue {
  return table.partitioned ? listValue(table.files) : table.file;
}

/** Runs a query and returns its rows as plain JS objects (BIGINT as bigint). */
export async function rows(
  conn: DuckDBConnection,
  sql: string,
  params: DuckDBValue[] = [],
): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

/** A number from a COUNT(*) or row-number result (bigint in JS), or null. */
export function num(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Number(value);
}

/**
 * A DuckDB error reduced to one short line: no `LINE 1:` excerpt, no hints,
 * the given file paths replaced by their base names.
 */
export function shortError(error: unknown, files: string[] = [], maxLength = 200): string {
  const raw = error instanceof Error ? error.message : String(error);
  let text = raw.split('\n').find((line) => line.trim() !== '') ?? raw;
  text = text.replace(/\s*LINE \d+:.*$/s, '');
  for (const file of files) text = text.replaceAll(file, path.basename(file));
  text = text.replace(/\s+/g, ' ').trim();
  return truncate(text, maxLength);
}

/** Text cut to at most `max` characters, ending in an ellipsis when cut. */
export function truncate(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Kinds whose values are shown quoted in messages. */
function isTextual(kind: ColumnKind): boolean {
  return kind === 'text' || kind === 'json';
}

/**
 * A value, already cast to VARCHAR by the query, shown in a problem message:
 * NULL, bare for numbers/timestamps/booleans, JSON-quoted for text, cut to about 60 characters.
 */
export function showValue(value: unknown, kind: ColumnKind): string {
  if (value === null || value === undefined) return 'NULL';
  const text = String(value);
  if (!isTextual(kind)) return truncate(text);
  // (JSON escapes every control character but DEL)
  return JSON.stringify(truncate(text, 58)).replaceAll('\x7f', '\\u007f');
}

/** `SQL expression` casting a column to VARCHAR for display. */
export function asText(column: ColumnSpec): string {
  return `CAST(${ident(column.name)} AS VARCHAR)`;
}

/** `rows 4 and 9`, `3 rows, first 4, last 17`: the rows sharing a duplicated value, given their places (rowPlace). */
export function describeDuplicateRows(count: number, first: string, last: string): string {
  return count === 2 ? `rows ${first} and ${last}` : `${count} rows, first ${first}, last ${last}`;
}

/** ` (and 4 more rows)` when a check failed on more than the row shown. */
export function moreRows(count: number): string {
  if (count <= 1) return '';
  return count === 2 ? ' (and 1 more row)' : ` (and ${count - 1} more rows)`;
}
