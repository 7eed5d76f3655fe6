/**
 * Small SQL helpers for snapshot validation: identifier and literal quoting,
 * running a query against one Parquet file with its path bound as a parameter,
 * shortening DuckDB error messages and formatting values for problem messages.
 */
import path from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { ColumnKind, ColumnSpec } from '../../core/snapshot/table-schema.ts';

/** A double-quoted SQL identifier; embedded double quotes are doubled. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted SQL string literal; embedded single quotes are doubled (DuckDB strings know no backslash escapes). */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The 0-based row number column `read_parquet(..., file_row_number=true)` adds. */
export const ROW = 'file_row_number';

/**
 * `read_parquet` over the one file bound to parameter `$n`, optionally with
 * row numbers. File paths are always bound, never spliced into the SQL text;
 * hive partitioning is off so `key=value` folders in the path add no columns.
 */
export function scan(param = 1, rowNumbers = true): string {
  return `read_parquet($${param}, hive_partitioning=false${rowNumbers ? ', file_row_number=true' : ''})`;
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
  return JSON.stringify(truncate(text, 58));
}

/** `SQL expression` casting a column to VARCHAR for display. */
export function asText(column: ColumnSpec): string {
  return `CAST(${ident(column.name)} AS VARCHAR)`;
}

/** The file name of a table file, as used at the start of problem messages. */
export function fileLabel(file: string): string {
  return path.basename(file);
}

/** `rows 4 and 9`, `3 rows, first 4, last 17`: the rows sharing a duplicated value. */
export function describeDuplicateRows(count: number, first: number, last: number): string {
  return count === 2 ? `rows ${first} and ${last}` : `${count} rows, first ${first}, last ${last}`;
}

/** ` (and 4 more rows)` when a check failed on more than the row shown. */
export function moreRows(count: number): string {
  if (count <= 1) return '';
  return count === 2 ? ' (and 1 more row)' : ` (and ${count - 1} more rows)`;
}
