/**
 * Stage 3 of snapshot validation: every described column is present with a
 * type of its kind. Extra columns in a file are allowed and ignored.
 */
import type { ColumnKind } from '../../core/snapshot/table-schema.ts';
import type { OpenedTable } from './files.ts';

const INTEGER_TYPES = [
  'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT',
  'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT',
];
const TIMESTAMP_TYPES = ['TIMESTAMP', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP WITH TIME ZONE'];

/** The DuckDB types (base names, without DECIMAL's precision) each column kind accepts. */
export const TYPES_BY_KIND: Record<ColumnKind, readonly string[]> = {
  integer: INTEGER_TYPES,
  double: ['DOUBLE', 'FLOAT', 'DECIMAL', ...INTEGER_TYPES],
  text: ['VARCHAR'],
  json: ['VARCHAR', 'JSON'],
  boolean: ['BOOLEAN'],
  timestamp: TIMESTAMP_TYPES,
};

/** How a kind's accepted types read in a message: `integer (any integer type)`. */
const KIND_WORDS: Record<ColumnKind, string> = {
  integer: 'integer (any integer type)',
  double: 'double (DOUBLE, FLOAT, DECIMAL or an integer type)',
  text: 'text (VARCHAR)',
  json: 'json (VARCHAR holding JSON)',
  boolean: 'boolean (BOOLEAN)',
  timestamp: 'timestamp (TIMESTAMP of any precision or TIMESTAMP WITH TIME ZONE)',
};

/** Whether a DuckDB type name, for example `DECIMAL(18,3)`, holds a kind. */
export function typeFitsKind(typeName: string, kind: ColumnKind): boolean {
  const base = typeName.replace(/\(.*\)$/, '').trim().toUpperCase();
  return TYPES_BY_KIND[kind].includes(base);
}

/** Problems with the columns of one opened table; empty when every described column fits. */
export function checkColumns(table: OpenedTable): string[] {
  const problems: string[] = [];
  for (const column of table.spec.columns) {
    const type = table.columns.get(column.name);
    if (type === undefined) {
      const sameButCase = [...table.columns.keys()].find((name) => name.toLowerCase() === column.name.toLowerCase());
      const hint = sameButCase === undefined ? '' : ` (there is a column \`${sameButCase}\`; names are case-sensitive)`;
      problems.push(`${table.label}: missing column \`${column.name}\` (${column.kind})${hint}`);
    } else if (!typeFitsKind(type, column.kind)) {
      problems.push(`${table.label}: column \`${column.name}\` has type ${type}, expected ${KIND_WORDS[column.kind]}`);
    }
  }
  return problems;
}
