/**
 * How a uniqueness check splits a big table into passes whose groups fit DuckDB's memory.
 *
 * DuckDB's hash aggregate does not spill reliably: a GROUP BY over a 10^8-row key ran out of memory at a 256 MB
 * limit (and the 3.3 × 10^8 observations of a 30-year demo at 1 GB), whatever the threads or insertion order. So a
 * column set whose rows would need more than a share of the limit is checked in passes, each grouping a part of
 * the keys: equal values always fall in the same pass, so a duplicate is found whichever pass holds it.
 *
 * - A set of several columns whose first column has few values (observations: `timeseries_id`, then
 *   `timestamp`) is cut into ranges of that column holding at most `rowsPerPass` rows each; a value with more
 *   rows than that alone is split by a hash of the other columns. A file sorted by the key (as the snapshot
 *   format asks of observations) has its row groups pruned by their statistics, so all passes together read it
 *   about once.
 * - Anything else is split by a hash of the whole set (each pass reads the columns again).
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { ColumnSpec } from '../../core/snapshot/table-schema.ts';
import type { OpenedTable } from './files.ts';
import { ident, num, rows, scan, scanParam } from './sql.ts';
import { parseMemoryLimit } from '../../lib/duckdb.ts';

/** DuckDB's `memory_limit` setting in bytes (lib/duckdb.ts, beside releaseBuffers, which reads it too). */
export { parseMemoryLimit };

/**
 * Memory one grouped row may take, counted generously, beyond a fixed reserve for the scan's own buffers: a pass
 * groups at most (limit - reserve) / this many rows. Measured with two threads: one GROUP BY of 2 × 10^7 rows fits
 * 128 MB (about 7 bytes a row once it spills) but 10^8 rows do not fit 256 MB; at a 16 MB limit, passes of 260,000
 * rows ran out of memory and passes of 65,000 did not.
 */
export const BYTES_PER_GROUPED_ROW = 64;
export const RESERVED_BYTES = 12 * 2 ** 20;

/** A first column with more values than this is not listed (its own GROUP BY would be too big): hash passes. */
const MAX_RANGE_VALUES = 100_000;

/** One pass: a condition on the table's columns, with its parameters bound from `$2` on (`$1` is the file). */
export interface KeyPass {
  where: string;
  params: DuckDBValue[];
}

/** The whole set in one pass. */
const ALL: KeyPass = { where: 'TRUE', params: [] };

/** The rows one pass may group under a memory limit of `bytes`. */
export function rowsPerPassOf(bytes: number): number {
  return Math.max(4096, Math.floor((bytes - RESERVED_BYTES) / BYTES_PER_GROUPED_ROW));
}

/** The rows one pass may group under the connection's memory limit. */
export async function rowsPerPass(conn: DuckDBConnection): Promise<number> {
  const [row] = await rows(conn, `SELECT current_setting('memory_limit') AS limit`);
  return rowsPerPassOf(parseMemoryLimit(String(row?.limit ?? '')) ?? 2 ** 30);
}

/** Hash passes over `columns` (their count: parts), each with the condition `extra` too. */
function hashPasses(columns: string[], parts: number, extra: KeyPass = ALL): KeyPass[] {
  if (parts <= 1) return [extra];
  const hash = `hash(${columns.join(', ')}) % ${parts}`;
  return Array.from({ length: parts }, (_, k) => ({ where: `(${extra.where}) AND ${hash} = ${k}`, params: extra.params }));
}

/**
 * The first column's values with their row counts, in order, packed greedily into ranges of at most `perPass`
 * rows; a value over `perPass` gets hash passes of its own over the other columns.
 */
export function rangePasses(counts: { value: DuckDBValue; rows: number }[], first: string, rest: string[], perPass: number, paramBase = 2): KeyPass[] {
  const passes: KeyPass[] = [];
  let open: { lo: DuckDBValue; hi: DuckDBValue; rows: number } | undefined;
  const param = (i: number) => `$${paramBase + i}`;
  const close = () => {
    if (open) passes.push({ where: `${first} BETWEEN ${param(0)} AND ${param(1)}`, params: [open.lo, open.hi] });
    open = undefined;
  };
  for (const { value, rows: n } of counts) {
    if (n > perPass) {
      close();
      passes.push(...hashPasses(rest, Math.ceil(n / perPass), { where: `${first} = ${param(0)}`, params: [value] }));
      continue;
    }
    if (open && open.rows + n > perPass) close();
    if (open) {
      open.hi = value;
      open.rows += n;
    } else open = { lo: value, hi: value, rows: n };
  }
  close();
  return passes;
}

/** The passes that check one column set of a table (`notNull`: the set's not-null condition). */
export async function keyPasses(conn: DuckDBConnection, table: OpenedTable, columns: ColumnSpec[], notNull: string): Promise<KeyPass[]> {
  const perPass = await rowsPerPass(conn);
  if (table.rows <= perPass) return [ALL];
  const cols = columns.map((c) => ident(c.name));
  const parts = Math.ceil(table.rows / perPass);
  const [first, ...rest] = cols;
  if (first === undefined || rest.length === 0) return hashPasses(cols, parts);
  const [approx] = await rows(conn, `SELECT approx_count_distinct(${first}) AS n FROM ${scan(table, 1, false)}`, [scanParam(table)]);
  if ((num(approx?.n) ?? Infinity) > MAX_RANGE_VALUES) return hashPasses(cols, parts);
  // Values as DuckDB gives them (not as JS), so that they bind back with their own type.
  const reader = await conn.runAndReadAll(
    `SELECT ${first} AS value, count(*) AS n FROM ${scan(table, 1, false)} WHERE ${notNull} GROUP BY ${first} ORDER BY ${first}`,
    [scanParam(table)],
  );
  const counts = reader.getRows().map(([value, n]) => ({ value: value ?? null, rows: num(n) ?? 0 }));
  return rangePasses(counts, first, rest, perPass);
}
