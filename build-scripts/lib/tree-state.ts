/**
 * The tree state of a build: every file of its static tree (`site/`) with the MD5 of its bytes and its size,
 * kept beside the tree (`tree-state.parquet`, `tree-state.json`). The next build over that folder (an
 * incremental build, atomic-output.ts) compares its own files with it and writes only the files whose
 * bytes differ, removing those it no longer has: the result is the tree a build into an empty folder gives.
 *
 * Two kinds of rows:
 * - `id`: the radar catalogue's id files (millions on a large catalogue). Over a base tree they are hashed in
 *   SQL without leaving DuckDB (build-scripts/radar/write-tree.ts), and only the changed ones are generated and
 *   written; into an empty folder all are written, each hashed as it is written;
 * - `file`: everything put through the TreeWriter (collections, docs, the timeseries tree, charts, the site),
 *   hashed as it is written.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import type { TreeWriter } from './tree-writer.ts';

export const TREE_STATE_FILE = 'tree-state.parquet';
const TREE_STATE_META = 'tree-state.json';
/** Raise when what a state row means changes: a base of another version is not reused. */
const TREE_STATE_VERSION = 1;

/** The tables of the build's in-memory database that hold the base state and the new one. */
const BASE = 'memory.main.tree_base';
const NEW = 'memory.main.tree_new';

/** True when `folder` holds a tree state this version of snapcat can build over. */
export function hasTreeState(folder: string): boolean {
  try {
    const meta = JSON.parse(readFileSync(join(folder, TREE_STATE_META), 'utf8')) as { version?: unknown };
    return meta.version === TREE_STATE_VERSION && existsSync(join(folder, TREE_STATE_FILE));
  } catch {
    return false;
  }
}

/** After a tree is changed outside a build (`npm run site`): its state no longer describes it, so no build starts from it. */
export function forgetTreeState(folder: string): void {
  rmSync(join(folder, TREE_STATE_META), { force: true });
}

export class TreeState {
  private readonly conn: DuckDBConnection;
  /** MD5 by path of the base tree's `file` rows, for the TreeWriter. */
  readonly baseFiles: Map<string, string>;
  /** True when the folder already holds the base tree. */
  readonly overBase: boolean;

  private constructor(conn: DuckDBConnection, baseFiles: Map<string, string>, overBase: boolean) {
    this.conn = conn;
    this.baseFiles = baseFiles;
    this.overBase = overBase;
  }

  /**
   * Reads the base tree's state from `stateFolder` (the folder the base tree was built in, or undefined for a
   * build into an empty folder) into the build's database.
   */
  static async open(conn: DuckDBConnection, stateFolder: string | undefined): Promise<TreeState> {
    const columns = 'path VARCHAR, md5 VARCHAR, bytes BIGINT, kind VARCHAR';
    await run(conn, `CREATE OR REPLACE TABLE ${NEW} (${columns}, tag INTEGER, k BIGINT)`);
    if (stateFolder === undefined) {
      await run(conn, `CREATE OR REPLACE TABLE ${BASE} (${columns})`);
      return new TreeState(conn, new Map(), false);
    }
    await run(conn, `CREATE OR REPLACE TABLE ${BASE} AS SELECT path, md5, bytes, kind FROM read_parquet(${sqlString(join(stateFolder, TREE_STATE_FILE))})`);
    const rows = await all(conn, `SELECT path, md5 FROM ${BASE} WHERE kind = 'file'`);
    return new TreeState(conn, new Map(rows.map((r) => [r['path'] as string, r['md5'] as string])), true);
  }

  /**
   * Adds the `id` files of one route and variant: `contentSql` yields `(k, c)`, a key and the file's whole
   * text, and the file's path is `prefix || k || suffix`. `tag` names the route and variant for changedKeys.
   */
  async addIdFiles(tag: number, contentSql: { sql: string; params: Record<string, unknown> }, prefix: string, suffix: string): Promise<void> {
    await this.conn.run(
      `INSERT INTO ${NEW} SELECT ${sqlString(prefix)} || k || ${sqlString(suffix)}, md5(c), strlen(c), 'id', ${tag}, k FROM (${contentSql.sql})`,
      contentSql.params as never,
    );
  }

  /**
   * Records `id` files written without a comparison (a build into an empty folder writes them all, hashing
   * each as it writes instead of in a pass of its own): an appender for rows of one tag.
   */
  async idFileRecorder(tag: number): Promise<{ add(path: string, md5: string, bytes: number, k: bigint): void; close(): void }> {
    const appender = await this.conn.createAppender('tree_new', 'main', 'memory');
    return {
      add(path, md5, bytes, k) {
        appender.appendVarchar(path);
        appender.appendVarchar(md5);
        appender.appendBigInt(BigInt(bytes));
        appender.appendVarchar('id');
        appender.appendInteger(tag);
        appender.appendBigInt(k);
        appender.endRow();
      },
      close: () => appender.closeSync(),
    };
  }

  /** Adds the `id` files of a tag whose files are those of tag `from` under other names (hard links). */
  async addLinkedIdFiles(tag: number, from: number, prefix: string, suffix: string): Promise<void> {
    await run(this.conn, `INSERT INTO ${NEW} SELECT ${sqlString(prefix)} || k || ${sqlString(suffix)}, md5, bytes, 'id', ${Number(tag)}, k FROM ${NEW} WHERE tag = ${Number(from)}`);
  }

  /** The SQL of every key of a tag. */
  idKeysSql(tag: number): string {
    return `SELECT k FROM ${NEW} WHERE tag = ${Number(tag)}`;
  }

  /**
   * After every addIdFiles: which `id` files the base lacks or holds with other bytes, per tag; the caller
   * writes those (all of a tag when its count equals the tag's total, as in a build into an empty folder).
   */
  async compareIdFiles(): Promise<Map<number, { changed: number; total: number }>> {
    await run(
      this.conn,
      `CREATE OR REPLACE TABLE memory.main.tree_changed AS
       SELECT n.tag, n.k FROM ${NEW} n LEFT JOIN ${BASE} b ON b.path = n.path
       WHERE n.kind = 'id' AND b.md5 IS DISTINCT FROM n.md5`,
    );
    const rows = await all(
      this.conn,
      `SELECT t.tag, t.total, coalesce(c.changed, 0) AS changed
       FROM (SELECT tag, count(*) AS total FROM ${NEW} WHERE kind = 'id' GROUP BY tag) t
       LEFT JOIN (SELECT tag, count(*) AS changed FROM memory.main.tree_changed GROUP BY tag) c USING (tag)`,
    );
    return new Map(rows.map((r) => [Number(r['tag']), { changed: Number(r['changed']), total: Number(r['total']) }]));
  }

  /** The SQL of the changed keys of a tag, for `WHERE k IN (…)`. */
  changedKeysSql(tag: number): string {
    return `SELECT k FROM memory.main.tree_changed WHERE tag = ${Number(tag)}`;
  }

  /** Files and bytes of the tree so far: the `id` rows and what the writer has put. */
  async totals(writer: TreeWriter): Promise<{ files: number; bytes: number }> {
    const [row] = await all(this.conn, `SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM ${NEW}`);
    let files = Number(row!['files']);
    let bytes = Number(row!['bytes']);
    for (const f of writer.files.values()) {
      files++;
      bytes += f.bytes;
    }
    return { files, bytes };
  }

  /**
   * Ends the build's tree: the writer's files join the state, files of the base tree this build does not have
   * are removed, and the state is saved in `folder` for the next build.
   */
  async finish(writer: TreeWriter, folder: string): Promise<{ files: number; bytes: number }> {
    const appender = await this.conn.createAppender('tree_new', 'main', 'memory');
    for (const [path, f] of writer.files) {
      appender.appendVarchar(path);
      appender.appendVarchar(f.md5);
      appender.appendBigInt(BigInt(f.bytes));
      appender.appendVarchar('file');
      appender.appendNull();
      appender.appendNull();
      appender.endRow();
    }
    appender.closeSync();
    if (this.overBase) {
      const stale = await all(this.conn, `SELECT b.path FROM ${BASE} b ANTI JOIN ${NEW} n ON n.path = b.path`);
      for (const r of stale) writer.remove(r['path'] as string);
    }
    rmSync(join(folder, TREE_STATE_META), { force: true });
    await run(this.conn, `COPY (SELECT path, md5, bytes, kind FROM ${NEW}) TO ${sqlString(join(folder, TREE_STATE_FILE))} (FORMAT parquet, COMPRESSION zstd)`);
    writeFileSync(join(folder, TREE_STATE_META), JSON.stringify({ version: TREE_STATE_VERSION }) + '\n');
    const [row] = await all(this.conn, `SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM ${NEW}`);
    await run(this.conn, `DROP TABLE ${NEW}; DROP TABLE ${BASE}; DROP TABLE IF EXISTS memory.main.tree_changed`);
    return { files: Number(row!['files']), bytes: Number(row!['bytes']) };
  }
}
