/**
 * Stage 4a of snapshot validation: the checks that look at one row at a time
 * (nulls, patterns, JSON, table rules), all evaluated in a single scan of the
 * table. The scan only counts bad rows and keeps the first one of each check;
 * the few bad rows are then read back to name them.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnSpec } from '../../core/snapshot/table-schema.ts';
import type { OpenedTable } from './files.ts';
import { detailOf, fetchRowDetails, type RowDetail } from './row-details.ts';
import { ROW, ident, literal, moreRows, num, rows, scan, scanParam, shortError, showValue } from './sql.ts';

/** One row-local check: a SQL predicate true exactly for the bad rows. */
interface RowCheck {
  bad: string;
  /** The column whose value the message shows. */
  column?: ColumnSpec;
  /** The message for the first bad row, without the trailing row count. */
  message(row: RowDetail): string;
  /** Where a check that cannot be evaluated is reported. */
  what: string;
}

/** The characters a single-line text column refuses, as an RE2 class (DuckDB strings take the backslashes as they are). */
const CONTROL_CHARACTERS = '[\\x00-\\x1f\\x7f]';

export function rowChecks(table: OpenedTable): RowCheck[] {
  const checks: RowCheck[] = [];
  const at = (column: ColumnSpec, row: RowDetail) => `${table.label}: column \`${column.name}\` ${row.label}`;
  const value = (column: ColumnSpec, row: RowDetail) => showValue(row.values.get(column.name) ?? null, column.kind);
  for (const column of table.spec.columns) {
    const col = ident(column.name);
    if (column.key || !column.nullable) {
      checks.push({
        bad: `${col} IS NULL`,
        column,
        what: `nulls in \`${column.name}\``,
        message: (row) => `${at(column, row)}: null in a ${column.key ? 'key' : 'non-nullable'} column`,
      });
    }
    if (column.pattern !== undefined) {
      checks.push({
        bad: `${col} IS NOT NULL AND NOT regexp_full_match(${col}, ${literal(column.pattern)})`,
        column,
        what: `pattern of \`${column.name}\``,
        message: (row) => `${at(column, row)}: ${value(column, row)} does not match ${column.pattern}`,
      });
    }
    // NUL in any text; control characters in names, paths, codes and labels (one line each: checksum reports, CSV).
    // A reference holds only values of the column it names, checked there: no scan of a big table's foreign keys.
    if (column.singleLine) {
      checks.push({
        bad: `regexp_matches(${col}, ${literal(CONTROL_CHARACTERS)})`,
        column,
        what: `control characters in \`${column.name}\``,
        message: (row) => `${at(column, row)}: ${value(column, row)} holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label`,
      });
    } else if ((column.kind === 'text' || column.kind === 'json') && column.references === undefined) {
      checks.push({
        bad: `contains(${col}, chr(0))`,
        column,
        what: `NUL in \`${column.name}\``,
        message: (row) => `${at(column, row)}: ${value(column, row)} holds a NUL character`,
      });
    }
    if (column.kind === 'json') {
      checks.push({
        bad: `${col} IS NOT NULL AND NOT coalesce(try(json_valid(${col})), false)`,
        column,
        what: `JSON in \`${column.name}\``,
        message: (row) => `${at(column, row)}: ${value(column, row)} is not valid JSON`,
      });
    }
  }
  for (const rule of table.spec.rules ?? []) {
    checks.push({
      // A rule that evaluates to NULL does not hold: rules spell out the nulls they allow.
      bad: `NOT coalesce((${rule.holds}), false)`,
      what: `rule "${rule.meaning}" (${rule.holds})`,
      message: (row) => `${table.label} ${row.label}: rule failed: ${rule.meaning} (${rule.holds})`,
    });
  }
  return checks;
}

interface Failure {
  check: RowCheck;
  count: number;
  firstRow: number;
}

/**
 * The checks that fail, with their bad-row counts and first bad rows. The
 * first scan only counts (cheap: no row numbers); a second scan, over the
 * failing checks only, finds their first bad rows.
 */
async function runChecks(conn: DuckDBConnection, table: OpenedTable, checks: RowCheck[]): Promise<Failure[]> {
  const counts = checks.map((c, i) => `count_if(${c.bad}) AS ${ident(`n${i}`)}`).join(',\n  ');
  const [counted] = await rows(conn, `SELECT\n  ${counts}\nFROM ${scan(table, 1, false)}`, [scanParam(table)]);
  const failing = checks.flatMap((check, i) => {
    const count = num(counted?.[`n${i}`]) ?? 0;
    return count > 0 ? [{ check, count }] : [];
  });
  if (failing.length === 0) return [];
  const firsts = failing.map((f, i) => `min(${ROW}) FILTER (WHERE ${f.check.bad}) AS ${ident(`r${i}`)}`).join(',\n  ');
  const [located] = await rows(conn, `SELECT\n  ${firsts}\nFROM ${scan(table)}`, [scanParam(table)]);
  return failing.map((f, i) => ({ ...f, firstRow: num(located?.[`r${i}`]) ?? 0 }));
}

/**
 * Reads every described column in full; throws when a page cannot be read or
 * decoded. Hashes, not counts: DuckDB answers counts from the footer statistics.
 */
async function probeReadable(conn: DuckDBConnection, table: OpenedTable): Promise<void> {
  const hashes = table.spec.columns.map((c) => `bit_xor(hash(${ident(c.name)}))`).join(', ');
  await rows(conn, `SELECT ${hashes} FROM ${scan(table, 1, false)}`, [scanParam(table)]);
}

export interface RowCheckResult {
  problems: string[];
  /** The file's data pages cannot be read; other checks on it would fail the same way. */
  unreadable: boolean;
}

/**
 * Problems found by the row-local checks of one table, in check order. When
 * the combined scan fails, either the file cannot be read (one problem) or
 * some check cannot be evaluated, for example a rule naming a missing column:
 * each check is then run on its own so the problem names the culprit.
 */
export async function checkRows(conn: DuckDBConnection, table: OpenedTable): Promise<RowCheckResult> {
  const checks = rowChecks(table);
  const errors = new Map<RowCheck, string>(); // check → why it could not be evaluated
  let failures: Failure[] = [];
  try {
    failures = checks.length === 0 ? [] : await runChecks(conn, table, checks);
  } catch {
    try {
      await probeReadable(conn, table);
    } catch (readError) {
      return { problems: [`${table.label}: cannot be read: ${shortError(readError, [table.file])}`], unreadable: true };
    }
    for (const check of checks) {
      try {
        failures.push(...(await runChecks(conn, table, [check])));
      } catch (error) {
        errors.set(check, shortError(error, [table.file]));
      }
    }
  }
  let details = new Map<number, RowDetail>();
  if (failures.length > 0) {
    const columns = failures.flatMap((f) => (f.check.column ? [f.check.column] : []));
    // Without details the rows are named by their numbers alone.
    details = await fetchRowDetails(conn, table, failures.map((f) => f.firstRow), columns).catch(() => details);
  }
  const problems: string[] = [];
  for (const check of checks) {
    const error = errors.get(check);
    if (error !== undefined) problems.push(`${table.label}: cannot check ${check.what}: ${error}`);
    const failure = failures.find((f) => f.check === check);
    if (failure) problems.push(check.message(detailOf(table, details, failure.firstRow)) + moreRows(failure.count));
  }
  return { problems, unreadable: false };
}
