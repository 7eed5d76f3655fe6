/**
 * Writing the small tables of the contract (everything but observations) from JavaScript rows:
 * exactly the contract's columns, in its order, with DuckDB types chosen from the column kinds,
 * sorted by the key, one zstd-compressed Parquet file per table.
 */
import { resolve } from 'node:path';
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { ColumnKind, TableSpec } from '../../../core/snapshot/table-schema.ts';
import { keyColumns } from '../../../core/snapshot/table-schema.ts';

export type Row = Record<string, string | number | boolean | null>;

const SQL_TYPE: Record<ColumnKind, string> = {
  integer: 'BIGINT',
  double: 'DOUBLE',
  text: 'VARCHAR',
  json: 'VARCHAR',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
};

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

function append(a: DuckDBAppender, kind: ColumnKind, v: Row[string], where: string): void {
  if (v === null) return a.appendNull();
  switch (kind) {
    case 'integer':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`${where}: expected an integer, got ${JSON.stringify(v)}`);
      return a.appendBigInt(BigInt(v));
    case 'double':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}: expected a finite number, got ${JSON.stringify(v)}`);
      return a.appendDouble(v);
    case 'boolean':
      if (typeof v !== 'boolean') throw new Error(`${where}: expected a boolean, got ${JSON.stringify(v)}`);
      return a.appendBoolean(v);
    default:
      if (typeof v !== 'string') throw new Error(`${where}: expected a string, got ${JSON.stringify(v)}`);
      return a.appendVarchar(v);
  }
}

/** Writes `<spec.name>.parquet` into `outDir`; every row must have exactly the contract's columns. */
export async function writeTable(conn: DuckDBConnection, spec: TableSpec, rows: Row[], outDir: string): Promise<void> {
  const names = spec.columns.map((c) => c.name);
  const tmp = ident(`tmp_${spec.name}`);
  await conn.run(`CREATE OR REPLACE TABLE ${tmp} (${spec.columns.map((c) => `${ident(c.name)} ${SQL_TYPE[c.kind]}`).join(', ')})`);
  const appender = await conn.createAppender(`tmp_${spec.name}`);
  rows.forEach((row, i) => {
    const extra = Object.keys(row).filter((k) => !names.includes(k));
    if (extra.length) throw new Error(`${spec.name} row ${i}: columns not in the contract: ${extra.join(', ')}`);
    for (const c of spec.columns) {
      const v = row[c.name];
      if (v === undefined) throw new Error(`${spec.name} row ${i}: column ${c.name} missing`);
      if (v === null && !c.nullable) throw new Error(`${spec.name} row ${i}: column ${c.name} is null but not nullable`);
      append(appender, c.kind, v, `${spec.name} row ${i} column ${c.name}`);
    }
    appender.endRow();
  });
  appender.closeSync();
  const order = keyColumns(spec).map((c) => ident(c.name));
  const file = resolve(outDir, `${spec.name}.parquet`).replaceAll("'", "''");
  await conn.run(
    `COPY (SELECT ${names.map(ident).join(', ')} FROM ${tmp}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  await conn.run(`DROP TABLE ${tmp}`);
}
