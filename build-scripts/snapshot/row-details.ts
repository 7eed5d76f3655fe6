/**
 * Fetching the few bad rows a check found, to name them in problem messages
 * by their row number (1-based, in file order; in a partitioned table, with
 * the file below the table's folder) and key values.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { keyColumns, type ColumnSpec } from '../../core/snapshot/table-schema.ts';
import type { OpenedTable } from './files.ts';
import { pathInTable } from '../../lib/hive.ts';
import { FILE_STRIDE, ROW, asText, ident, rows, scan, scanParam, showValue } from './sql.ts';

export interface RowDetail {
  /** `row 17 (file_id=99999, transfer_id=3)`; `row 17` for a table without key columns. */
  label: string;
  /** Column name → value cast to VARCHAR (null for NULL). */
  values: Map<string, string | null>;
}

/**
 * `17`, or `17 of year=2024/radar=sas/data_0.parquet` in a partitioned table: the 1-based place of a row
 * from its locator (the ROW column of sql.ts).
 */
export function rowPlace(table: OpenedTable, locator: number): string {
  if (!table.partitioned) return String(locator + 1);
  const index = Math.floor(locator / FILE_STRIDE);
  const file = table.files[index];
  const row = locator - index * FILE_STRIDE + 1;
  return file === undefined ? String(row) : `${row} of ${pathInTable(table.file, file)}`;
}

/** `row 17 (file_id=99999, transfer_id=3)` from a row locator and the key values as text. */
export function rowLabel(table: OpenedTable, rowNumber: number, keyValues: (string | null)[]): string {
  const keys = keyColumns(table.spec);
  const label = `row ${rowPlace(table, rowNumber)}`;
  if (keys.length === 0) return label;
  const shown = keys.map((column, i) => `${column.name}=${showValue(keyValues[i] ?? null, column.kind)}`);
  return `${label} (${shown.join(', ')})`;
}

/**
 * Reads the given rows (0-based file row numbers) of a table: their key
 * values and the values of `columns`, all as text. One scan of the file,
 * run only after a check has failed.
 */
export async function fetchRowDetails(
  conn: DuckDBConnection,
  table: OpenedTable,
  rowNumbers: number[],
  columns: ColumnSpec[] = [],
): Promise<Map<number, RowDetail>> {
  const details = new Map<number, RowDetail>();
  const wanted = [...new Set(rowNumbers.filter((n) => Number.isSafeInteger(n)))];
  if (wanted.length === 0) return details;
  const keys = keyColumns(table.spec);
  const shown = [...new Map([...keys, ...columns].map((c) => [c.name, c])).values()];
  const select = [`${ROW} AS r`, ...shown.map((c, i) => `${asText(c)} AS ${ident(`v${i}`)}`)].join(', ');
  const found = await rows(
    conn,
    `SELECT ${select} FROM ${scan(table)} WHERE ${ROW} IN (${wanted.join(', ')})`,
    [scanParam(table)],
  );
  for (const row of found) {
    const rowNumber = Number(row.r);
    const values = new Map<string, string | null>();
    shown.forEach((c, i) => values.set(c.name, (row[`v${i}`] as string | null | undefined) ?? null));
    const keyValues = keys.map((k) => values.get(k.name) ?? null);
    details.set(rowNumber, { label: rowLabel(table, rowNumber, keyValues), values });
  }
  return details;
}

/** The detail of one row, or a bare `row N` label when it could not be fetched. */
export function detailOf(table: OpenedTable, details: Map<number, RowDetail>, rowNumber: number): RowDetail {
  return details.get(rowNumber) ?? { label: `row ${rowPlace(table, rowNumber)}`, values: new Map() };
}
