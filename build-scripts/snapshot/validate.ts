/**
 * Snapshot validation, generic over the table descriptions (TableSpec).
 *
 * Stages, stopping after the first that finds problems (all problems of that
 * stage are reported):
 *   1. `snapshot.json` exists and has the manifest shape;
 *   2. every table of every declared API has a readable `<name>.parquet`, or a
 *      folder `<name>/` of hive-partitioned Parquet files (files.ts);
 *   3. every described column is present with a type of its kind;
 *   4. rows: nulls, patterns, JSON, rules (one scan per table), key and
 *      `unique` duplicates (one GROUP BY each), references (one anti-join each).
 *
 * Problems name the file (or folder), the column and the first bad row: its
 * 1-based number in the file (and the file below the folder) and its key values. Nothing is loaded into JS but
 * counts and the few bad rows.
 */
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiName, SnapshotManifest, TableSpec } from '../../core/snapshot/table-schema.ts';
import { TABLES_BY_API } from '../../core/snapshot/tables.ts';
import { checkColumns } from './columns.ts';
import { openTables, wantedTables, type OpenedTable } from './files.ts';
import type { TableSource } from './sql.ts';
import { checkReferences, checkUnique } from './keys.ts';
import { readManifest } from './manifest.ts';
import { checkRows } from './rows.ts';
import { watchQueries, type ProgressReport, type QueryWatch } from './query-progress.ts';

export interface ValidSnapshot {
  /** The snapshot folder, absolute. */
  dir: string;
  manifest: SnapshotManifest;
  /** Table name → its Parquet file or partitioned folder (absolute path) and row count. */
  tables: Record<string, { file: string; rows: number }>;
  /** Table name → where its rows are, with a partitioned folder's files as validation listed them (for tableReadSql). */
  sources: Record<string, TableSource>;
}

export interface ValidateOptions {
  /** The tables each API needs; default TABLES_BY_API. */
  tables?: Record<ApiName, TableSpec[]>;
  /**
   * Files of partitioned tables (absolute paths) whose rows a build of an earlier snapshot checked, unchanged
   * since (a daily append, build-scripts/timeseries/append.ts): their rows are not checked again. Uniqueness then
   * holds among the other files' rows; the append checks that they come after the known ones.
   */
  known?: Set<string>;
  /**
   * Told what validation is doing, every second while it checks rows: the table, the check (a uniqueness check's
   * pass of its passes) and DuckDB's percentage of the query (query-progress.ts). A big table takes minutes.
   */
  onProgress?: ProgressReport;
}

/**
 * A snapshot folder failed validation. `problems` lists every problem found;
 * `message` lists them one per line, so its first line is the first problem.
 */
export class SnapshotInvalid extends Error {
  readonly problems: string[];
  readonly dir: string;

  constructor(dir: string, problems: string[]) {
    const list = problems.length > 0 ? problems : [`snapshot ${dir}: invalid`];
    super(list.join('\n'));
    this.name = 'SnapshotInvalid';
    this.dir = dir;
    this.problems = list;
  }
}

/** Validates the snapshot folder `dir`; returns what it holds or throws SnapshotInvalid. */
export async function validateSnapshot(
  dir: string,
  conn: DuckDBConnection,
  opts: ValidateOptions = {},
): Promise<ValidSnapshot> {
  const root = path.resolve(dir);
  const fail = (problems: string[]): never => {
    throw new SnapshotInvalid(root, problems);
  };

  // 1. The manifest.
  const read = await readManifest(root);
  if (read.problems) return fail(read.problems);
  const manifest = read.manifest;

  // 2. The table files.
  const wanted = wantedTables(manifest, opts.tables ?? TABLES_BY_API);
  const opened = await openTables(root, conn, wanted);
  if (opened.problems.length > 0) fail(opened.problems);

  // 3. The columns.
  const columnProblems = opened.tables.flatMap(checkColumns);
  if (columnProblems.length > 0) fail(columnProblems);

  // 4. The rows.
  const known = opts.known;
  const toCheck = known === undefined ? opened.tables : opened.tables.flatMap((t) => {
    if (!t.partitioned || !t.files.some((f) => known.has(f))) return [t];
    const files = t.files.filter((f) => !known.has(f));
    return files.length === 0 ? [] : [{ ...t, files }];
  });
  const watch = await watchQueries(conn, opts.onProgress);
  let rowProblems: string[];
  try {
    rowProblems = await checkAllRows(conn, toCheck, watch);
  } finally {
    await watch.stop();
  }
  if (rowProblems.length > 0) fail(rowProblems);

  const tables: ValidSnapshot['tables'] = {};
  const sources: ValidSnapshot['sources'] = {};
  for (const table of opened.tables) {
    tables[table.spec.name] = { file: table.file, rows: table.rows };
    sources[table.spec.name] = { file: table.file, partitioned: table.partitioned, files: table.files };
  }
  return { dir: root, manifest, tables, sources };
}

/**
 * Stage 4 over every table: first the row-local checks of all tables, then
 * uniqueness and references of the tables that could be read (references
 * into an unreadable table are not checked: its problem is already reported).
 */
async function checkAllRows(conn: DuckDBConnection, tables: OpenedTable[], watch: QueryWatch): Promise<string[]> {
  const problems: string[] = [];
  const readable = new Map<string, OpenedTable>();
  for (const table of tables) {
    watch.stage(`${table.label}: row checks (${table.rows.toLocaleString('en')} rows)`);
    const result = await checkRows(conn, table);
    problems.push(...result.problems);
    if (!result.unreadable) readable.set(table.spec.name, table);
  }
  const byName = new Map(tables.map((t) => [t.spec.name, t]));
  const unreadable = new Set(tables.filter((t) => !readable.has(t.spec.name)).map((t) => t.spec.name));
  for (const table of readable.values()) {
    watch.stage(`${table.label}: unique keys`);
    problems.push(...(await checkUnique(conn, table, (columns, pass, passes) => watch.stage(`${table.label}: uniqueness of ${columns}${passes > 1 ? `, pass ${pass} of ${passes}` : ''}`))));
    watch.stage(`${table.label}: references`);
    problems.push(...(await checkReferences(conn, table, byName, unreadable)));
  }
  return problems;
}
