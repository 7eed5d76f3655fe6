/**
 * Stage 2 of snapshot validation: every table the declared APIs need has a
 * readable Parquet file. Opening a file reads only its footer (schema and row count).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiName, SnapshotManifest, TableSpec } from '../../core/snapshot/table-schema.ts';
import { num, rows, scan, shortError } from './sql.ts';

/** A table the snapshot must hold, with the APIs that need it. */
export interface WantedTable {
  spec: TableSpec;
  apis: ApiName[];
}

/** A table whose Parquet file opened: its absolute path, row count and DuckDB column types. */
export interface OpenedTable extends WantedTable {
  file: string;
  /** The file name, `files.parquet`, used to start problem messages. */
  label: string;
  rows: number;
  /** Column name → DuckDB type name, in file order, for example `BIGINT`, `TIMESTAMP WITH TIME ZONE`. */
  columns: Map<string, string>;
}

/**
 * The tables the manifest's APIs need, in API then table order, each once
 * (a table two APIs share is checked once against the first API's description).
 */
export function wantedTables(manifest: SnapshotManifest, tablesByApi: Record<ApiName, TableSpec[]>): WantedTable[] {
  const byName = new Map<string, WantedTable>();
  for (const api of manifest.apis) {
    for (const spec of tablesByApi[api] ?? []) {
      const seen = byName.get(spec.name);
      if (seen) seen.apis.push(api);
      else byName.set(spec.name, { spec, apis: [api] });
    }
  }
  return [...byName.values()];
}

export function tableFileName(spec: TableSpec): string {
  return `${spec.name}.parquet`;
}

/** Opens every wanted table's file; collects a problem for each missing or unreadable one. */
export async function openTables(
  dir: string,
  conn: DuckDBConnection,
  wanted: WantedTable[],
): Promise<{ tables: OpenedTable[]; problems: string[] }> {
  const tables: OpenedTable[] = [];
  const problems: string[] = [];
  for (const want of wanted) {
    const label = tableFileName(want.spec);
    const file = path.join(dir, label);
    const neededBy = `table \`${want.spec.name}\`, needed by ${want.apis.join(' and ')}`;
    let isFile = false;
    try {
      isFile = (await stat(file)).isFile();
    } catch {
      problems.push(`snapshot ${dir}: missing table file ${label} (${neededBy})`);
      continue;
    }
    if (!isFile) {
      problems.push(`snapshot ${dir}: ${label} is not a file (${neededBy})`);
      continue;
    }
    try {
      const result = await conn.run(`SELECT * FROM ${scan(1, false)} LIMIT 0`, [file]);
      const names = result.columnNames();
      const types = result.columnTypes().map((t) => t.toString());
      const columns = new Map(names.map((name, i) => [name, types[i] ?? '?']));
      const [count] = await rows(conn, `SELECT count(*) AS n FROM ${scan(1, false)}`, [file]);
      tables.push({ ...want, file, label, rows: num(count?.n) ?? 0, columns });
    } catch (error) {
      problems.push(`${label}: cannot be read as Parquet: ${shortError(error, [file])}`);
    }
  }
  return { tables, problems };
}
