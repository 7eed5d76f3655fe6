/**
 * Stage 2 of snapshot validation: every table the declared APIs need has a readable Parquet file
 * `<name>.parquet`, or a folder `<name>/` of hive-partitioned Parquet files (`files/year=1995/radar=gbr/*.parquet`).
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiName, SnapshotManifest, TableSpec } from '../../core/snapshot/table-schema.ts';
import { sqlString } from '../../lib/duckdb.ts';
import { hiveKeysIn, parquetFilesBelow } from '../../lib/hive.ts';
import { num, rows, scan, scanParam, shortError, type TableSource } from './sql.ts';

/** A table the snapshot must hold, with the APIs that need it. */
export interface WantedTable {
  spec: TableSpec;
  apis: ApiName[];
}

/** A table whose Parquet file(s) opened: where its rows are, its row count and DuckDB column types. */
export interface OpenedTable extends WantedTable, TableSource {
  /** `files.parquet`, or `files/` for a partitioned folder: used to start problem messages. */
  label: string;
  rows: number;
  /**
   * Column name → DuckDB type name, in file order, for example `BIGINT`, `TIMESTAMP WITH TIME ZONE`; partition
   * keys that are not described columns are dropped.
   */
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

async function kindOf(file: string): Promise<'file' | 'folder' | 'other' | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return undefined;
  return info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
}

/**
 * Where a wanted table's rows are: `<name>.parquet`, or else a folder `<name>/` of hive-partitioned Parquet
 * files; a string is the problem that keeps it from being read.
 */
async function locateTable(dir: string, want: WantedTable): Promise<(TableSource & { label: string }) | string> {
  const neededBy = `table \`${want.spec.name}\`, needed by ${want.apis.join(' and ')}`;
  const fileName = tableFileName(want.spec);
  const file = path.join(dir, fileName);
  const folder = path.join(dir, want.spec.name);
  const [fileKind, folderKind] = await Promise.all([kindOf(file), kindOf(folder)]);
  if (fileKind !== undefined && folderKind === 'folder') {
    return `snapshot ${dir}: both ${fileName} and a folder ${want.spec.name}/ hold table \`${want.spec.name}\`; keep one`;
  }
  if (fileKind !== undefined) {
    return fileKind === 'file' ? { file, partitioned: false, files: [file], label: fileName } : `snapshot ${dir}: ${fileName} is not a file (${neededBy})`;
  }
  if (folderKind !== 'folder') return `snapshot ${dir}: missing table file ${fileName} (${neededBy})`;
  const label = `${want.spec.name}/`;
  const files = parquetFilesBelow(folder);
  if (files.length === 0) return `snapshot ${dir}: folder ${label} holds no Parquet files (${neededBy})`;
  // DuckDB reads `key=value` folder names above the table's folder as partition keys too: one naming a described
  // column would silently replace that column's values.
  const described = new Set(want.spec.columns.map((c) => c.name));
  const clash = hiveKeysIn(dir).find((key) => described.has(key));
  if (clash !== undefined) {
    return `${label}: a folder \`${clash}=...\` above the snapshot would be read as column \`${clash}\` of every row (hive partitioning); move the snapshot`;
  }
  return { file: folder, partitioned: true, files, label };
}

/**
 * Opens every wanted table, one file or a partitioned folder; collects a problem for each missing or
 * unreadable one. Opening reads only the files' footers (schema and row count).
 */
export async function openTables(
  dir: string,
  conn: DuckDBConnection,
  wanted: WantedTable[],
): Promise<{ tables: OpenedTable[]; problems: string[] }> {
  const tables: OpenedTable[] = [];
  const problems: string[] = [];
  for (const want of wanted) {
    const source = await locateTable(dir, want);
    if (typeof source === 'string') {
      problems.push(source);
      continue;
    }
    try {
      const result = await conn.run(`SELECT * FROM ${scan(source, 1, false)} LIMIT 0`, [scanParam(source)]);
      const names = result.columnNames();
      const types = result.columnTypes().map((t) => t.toString());
      // Partition keys that are not described columns (`year`, `radar`) only say where the rows are stored.
      const keys = new Set(source.files.flatMap(hiveKeysIn));
      const described = new Set(want.spec.columns.map((c) => c.name));
      const columns = new Map(names.map((name, i) => [name, types[i] ?? '?'] as const).filter(([name]) => !keys.has(name) || described.has(name)));
      const [count] = await rows(conn, `SELECT count(*) AS n FROM ${scan(source, 1, false)}`, [scanParam(source)]);
      tables.push({ ...want, ...source, rows: num(count?.n) ?? 0, columns });
    } catch (error) {
      problems.push(`${source.label}: cannot be read as Parquet: ${shortError(error, [source.file])}`);
    }
  }
  return { tables, problems };
}

/** Where a table's rows are, from its `<name>.parquet` file or `<name>/` folder (listed once). */
export function tableSource(file: string): TableSource {
  if (!statSync(file).isDirectory()) return { file, partitioned: false, files: [file] };
  return { file, partitioned: true, files: parquetFilesBelow(file) };
}

/**
 * `read_parquet(...)` over a table (a validated snapshot's ValidSnapshot.tables[name]), for the build's SQL:
 * its file, or its folder's files, as validation listed them, with hive partitioning.
 */
export function tableReadSql(table: TableSource): string {
  if (!table.partitioned) return `read_parquet(${sqlString(table.file)}, hive_partitioning = false)`;
  return `read_parquet([${table.files.map(sqlString).join(', ')}], hive_partitioning = true)`;
}
