/**
 * Stage 4b of snapshot validation: uniqueness of keys and `unique` columns
 * (one GROUP BY ... HAVING count(*) > 1 each, in passes for a table too big for one: key-passes.ts) and references between tables
 * (one anti-join each). Only the first offending value or row is read back.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { keyColumns, type ColumnSpec } from '../../core/snapshot/table-schema.ts';
import type { OpenedTable } from './files.ts';
import { keyPasses, type KeyPass } from './key-passes.ts';
import { detailOf, fetchRowDetails, rowPlace } from './row-details.ts';
import { ROW, asText, describeDuplicateRows, ident, moreRows, num, rows, scan, scanParam, shortError, showValue } from './sql.ts';

/** The column sets that must be unique: the key (all key columns together) and each `unique` column. */
function uniqueSets(table: OpenedTable): ColumnSpec[][] {
  const keys = keyColumns(table.spec);
  const sets = keys.length > 0 ? [keys] : [];
  for (const column of table.spec.columns) {
    const sameAsKey = keys.length === 1 && keys[0]?.name === column.name;
    if (column.unique && !sameAsKey) sets.push([column]);
  }
  return sets;
}

/** The first duplicated value (in file order) of one column set, or null. Big tables are checked in passes (key-passes.ts). */
async function firstDuplicate(conn: DuckDBConnection, table: OpenedTable, columns: ColumnSpec[], onPass: PassReport): Promise<string | null> {
  const cols = columns.map((c) => ident(c.name));
  const notNull = cols.map((c) => `${c} IS NOT NULL`).join(' AND ');
  // Cheap existence test first, pass by pass; rows are located only in the passes that hold a duplicate.
  const found: KeyPass[] = [];
  const names = columns.map((c) => c.name).join(', ');
  const passes = await keyPasses(conn, table, columns, notNull);
  for (const [i, pass] of passes.entries()) {
    onPass(names, i + 1, passes.length);
    const any = await rows(
      conn,
      `SELECT 1 FROM ${scan(table, 1, false)} WHERE ${notNull} AND (${pass.where}) GROUP BY ${cols.join(', ')} HAVING count(*) > 1 LIMIT 1`,
      [scanParam(table), ...pass.params],
    );
    if (any.length > 0) found.push(pass);
  }
  if (found.length === 0) return null;
  const shown = columns.map((c, i) => `${asText(c)} AS ${ident(`v${i}`)}`).join(', ');
  let dup: Record<string, unknown> | undefined;
  let groups = 0;
  for (const pass of found) {
    const sql = `SELECT ${shown}, count(*) AS n, min(${ROW}) AS first, max(${ROW}) AS last, count(*) OVER () AS groups
FROM ${scan(table)}
WHERE ${notNull} AND (${pass.where})
GROUP BY ${cols.join(', ')}
HAVING count(*) > 1
ORDER BY first
LIMIT 1`;
    const [row] = await rows(conn, sql, [scanParam(table), ...pass.params]);
    if (row === undefined) continue;
    groups += num(row.groups) ?? 1;
    if (dup === undefined || (num(row.first) ?? 0) < (num(dup.first) ?? 0)) dup = row;
  }
  if (dup === undefined) return null;
  const values = columns.map((c, i) => showValue(dup[`v${i}`] ?? null, c.kind));
  const first = rowPlace(table, num(dup.first) ?? 0);
  const last = rowPlace(table, num(dup.last) ?? 0);
  const what =
    columns.length === 1
      ? `${columns[0]?.name} ${values[0]}`
      : `key (${columns.map((c, i) => `${c.name}=${values[i]}`).join(', ')})`;
  const others = Math.max(1, groups) - 1;
  const more = others === 0 ? '' : ` (and ${others} more duplicated ${others === 1 ? 'value' : 'values'})`;
  return `${table.label}: duplicate ${what} (${describeDuplicateRows(num(dup.n) ?? 2, first, last)})${more}`;
}

/** Told which pass of a column set's uniqueness check runs (`timeseries_id, timestamp`, 3, 12). */
export type PassReport = (columns: string, pass: number, passes: number) => void;

/** Problems with uniqueness in one table. */
export async function checkUnique(conn: DuckDBConnection, table: OpenedTable, onPass: PassReport = () => {}): Promise<string[]> {
  const problems: string[] = [];
  for (const columns of uniqueSets(table)) {
    try {
      const problem = await firstDuplicate(conn, table, columns, onPass);
      if (problem !== null) problems.push(problem);
    } catch (error) {
      const names = columns.map((c) => `\`${c.name}\``).join(', ');
      problems.push(`${table.label}: cannot check uniqueness of ${names}: ${shortError(error, [table.file])}`);
    }
  }
  return problems;
}

function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/**
 * Problems with the references of one table to others. `tables` holds every
 * opened table by name; references into the `skip` tables are not checked.
 */
export async function checkReferences(
  conn: DuckDBConnection,
  table: OpenedTable,
  tables: Map<string, OpenedTable>,
  skip: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const problems: string[] = [];
  const failures: { column: ColumnSpec; target: OpenedTable; targetColumn: string; count: number; firstRow: number }[] = [];
  for (const column of table.spec.columns) {
    if (column.references === undefined) continue;
    const [targetName = '', targetColumn = ''] = column.references.split('.');
    if (skip.has(targetName)) continue;
    const target = tables.get(targetName);
    if (target === undefined || !target.spec.columns.some((c) => c.name === targetColumn)) {
      problems.push(
        `${table.label}: column \`${column.name}\` references ${column.references}, which is not a column of a table of this snapshot (table description error)`,
      );
      continue;
    }
    const col = ident(column.name);
    const sql = `SELECT count(*) AS n, min(c.${ROW}) AS r
FROM ${scan(table, 1)} AS c
ANTI JOIN (SELECT ${ident(targetColumn)} AS v FROM ${scan(target, 2, false)}) AS p ON c.${col} = p.v
WHERE c.${col} IS NOT NULL`;
    try {
      const [result] = await rows(conn, sql, [scanParam(table), scanParam(target)]);
      const count = num(result?.n) ?? 0;
      const firstRow = num(result?.r);
      if (count > 0 && firstRow !== null) failures.push({ column, target, targetColumn, count, firstRow });
    } catch (error) {
      problems.push(`${table.label}: cannot check column \`${column.name}\` against ${target.label}: ${shortError(error, [table.file, target.file])}`);
    }
  }
  if (failures.length === 0) return problems;
  const details = await fetchRowDetails(
    conn,
    table,
    failures.map((f) => f.firstRow),
    failures.map((f) => f.column),
  ).catch(() => new Map());
  for (const f of failures) {
    const row = detailOf(table, details, f.firstRow);
    const value = showValue(row.values.get(f.column.name) ?? null, f.column.kind);
    problems.push(
      `${table.label}: column \`${f.column.name}\` ${row.label}: ${value} is not ${withArticle(f.targetColumn)} in ${f.target.label}${moreRows(f.count)}`,
    );
  }
  return problems;
}
