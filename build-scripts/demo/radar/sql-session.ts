/**
 * The DuckDB working database of the radar demo: a file-backed database in a temporary folder
 * (so big intermediate tables spill to disk instead of filling memory), two threads, a memory
 * limit, insertion order preserved; small tables loaded from JS rows; Parquet output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-text.ts';

/** Column types used for the JS-loaded tables. */
export type SqlType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN';
export type Cell = string | number | boolean | null;

export interface SqlSession {
  conn: DuckDBConnection;
  run(sql: string): Promise<void>;
  /** Rows of a query as plain objects (BIGINT as bigint). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Creates table `name` with the given columns and appends the rows. */
  load(name: string, columns: [string, SqlType][], rows: Cell[][]): Promise<void>;
  /** COPY (sql) TO '<dir>/<table>.parquet'; returns the row count. */
  copyParquet(sql: string, dir: string, table: string): Promise<number>;
  close(): Promise<void>;
}

function append(a: DuckDBAppender, type: SqlType, v: Cell): void {
  if (v === null) return a.appendNull();
  switch (type) {
    case 'BIGINT':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`not an integer: ${String(v)}`);
      return a.appendBigInt(BigInt(v));
    case 'DOUBLE':
      return a.appendDouble(Number(v));
    case 'VARCHAR':
      return a.appendVarchar(String(v));
    case 'BOOLEAN':
      return a.appendBoolean(Boolean(v));
  }
}

export async function openSession(memoryLimit = '900MB'): Promise<SqlSession> {
  const dir = await mkdtemp(join(tmpdir(), 'snapcat-radar-demo-'));
  const instance = await DuckDBInstance.create(join(dir, 'work.duckdb'), {
    threads: '2',
    memory_limit: memoryLimit,
    temp_directory: join(dir, 'spill'),
    preserve_insertion_order: 'true',
  });
  const conn = await instance.connect();
  const s: SqlSession = {
    conn,
    async run(sql) {
      await conn.run(sql);
    },
    async query(sql) {
      const r = await conn.runAndReadAll(sql);
      return r.getRowObjects() as Record<string, unknown>[];
    },
    async load(name, columns, rows) {
      await conn.run(`CREATE OR REPLACE TABLE ${name} (${columns.map(([c, t]) => `${c} ${t}`).join(', ')})`);
      const a = await conn.createAppender(name);
      for (const row of rows) {
        if (row.length !== columns.length) throw new Error(`${name}: row has ${row.length} cells, expected ${columns.length}`);
        row.forEach((v, i) => append(a, columns[i]![1], v));
        a.endRow();
      }
      a.closeSync();
    },
    async copyParquet(sql, outDir, table) {
      const target = join(outDir, `${table}.parquet`);
      await conn.run(`COPY (${sql}) TO ${sqlString(target)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`);
      const r = await conn.runAndReadAll(`SELECT count(*) AS n FROM read_parquet(${sqlString(target)})`);
      return Number(r.getRowObjects()[0]!.n);
    },
    async close() {
      conn.closeSync();
      instance.closeSync();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return s;
}
