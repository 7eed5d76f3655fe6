/**
 * The tree state of a build: every file of its static tree (`site/`) with the MD5 of its bytes and its size,
 * kept beside the tree (`tree-state.parquet`, `tree-state.json`). The next build over that folder (an
 * incremental build, atomic-output.ts) compares its own files with it and writes only the files whose
 * bytes differ, removing those it no longer has: the result is the tree a build into an empty folder gives.
 *
 * Two kinds of rows:
 * - `id`: the radar catalogue's id files (millions on a large catalogue), with the route and variant (`tag`) and
 *   the key (`k`) each is the file of. Over a base tree they are hashed in SQL without leaving DuckDB
 *   (build-scripts/radar/write-tree.ts), and only the changed ones are generated and written; into an empty
 *   folder all are written, each hashed as it is written;
 * - `file`: everything put through the TreeWriter (collections, docs, the timeseries tree, charts, the site),
 *   hashed as it is written.
 *
 * Beside it, `tree-keys.parquet` holds a fingerprint of each key's records (`res`, `k`, `fp`: a hash of every
 * column of every row of the resource's table with that id), and `tree-state.json` a signature of each tag (what
 * makes its files from those records: the SQL, the paths, DuckDB's version). An id file is made from its key's
 * records by its tag alone, so where both are as in the base, the file is too: the next build hashes only the
 * files of keys whose records changed (one more day: new keys, and the few old ones a day touches), and takes the
 * others' rows from the base state. A tag whose signature changed (another snapcat) is hashed whole.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import type { TreeWriter } from './tree-writer.ts';

export const TREE_STATE_FILE = 'tree-state.parquet';
const TREE_KEYS_FILE = 'tree-keys.parquet';
const TREE_STATE_META = 'tree-state.json';
/** Raise when what a state row means changes: a base of another version is not reused. */
const TREE_STATE_VERSION = 2;

/** The tables of the build's in-memory database that hold the base state and the new one, and their keys' fingerprints. */
const BASE = 'memory.main.tree_base';
const NEW = 'memory.main.tree_new';
const BASE_KEYS = 'memory.main.tree_base_keys';
const NEW_KEYS = 'memory.main.tree_new_keys';
/** Keys whose records differ from the base's (or that only one of the two has), by resource. */
const CHANGED_KEYS = 'memory.main.tree_changed_keys';
/** The `id` files whose bytes differ from the base's (compareIdFiles), by tag and key. */
const CHANGED_FILES = 'memory.main.tree_changed';

interface TreeStateMeta {
  version: number;
  /** Signature of each tag's files (write-tree.ts idFileSignature). */
  tags: Record<string, string>;
  /** Each collection file by path (write-tree.ts writeCollection): its signature and cuts. */
  collections: Record<string, CollectionState>;
}

/**
 * A collection file's signature (its records' SQL and frame) and cuts: `[k, offset]`, where `offset` is the byte
 * at which the file's first record of key `k` begins (its separator included), one every RECORDS_PER_CUT records
 * or so, in key order. The bytes before a cut hold only records of keys below its `k`.
 */
export interface CollectionState {
  signature: string;
  cuts: [string, number][];
}

/** Records between two cuts of a collection file. */
export const RECORDS_PER_CUT = 1024;

function readMeta(folder: string): TreeStateMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(join(folder, TREE_STATE_META), 'utf8')) as Partial<TreeStateMeta>;
    const isRecord = (x: unknown) => typeof x === 'object' && x !== null;
    if (meta.version !== TREE_STATE_VERSION || !isRecord(meta.tags) || !isRecord(meta.collections)) return undefined;
    return { version: meta.version, tags: meta.tags!, collections: meta.collections! };
  } catch {
    return undefined;
  }
}

/** True when `folder` holds a tree state this version of snapcat can build over. */
export function hasTreeState(folder: string): boolean {
  return readMeta(folder) !== undefined && existsSync(join(folder, TREE_STATE_FILE)) && existsSync(join(folder, TREE_KEYS_FILE));
}

/** After a tree is changed outside a build (`npm run site`): its state no longer describes it, so no build starts from it. */
export function forgetTreeState(folder: string): void {
  rmSync(join(folder, TREE_STATE_META), { force: true });
}

export class TreeState {
  private readonly conn: DuckDBConnection;
  /**
   * A second connection, for the appenders of idFileRecorder. An appender flushes into its connection every so
   * many rows, and a statement on a connection ends the query it is streaming: with the build's own connection,
   * every id-file route of a 240-day catalogue stopped at row 208,896, silently (lib/duckdb.ts now notices).
   */
  private readonly recorderConn: DuckDBConnection;
  /** MD5 by path of the base tree's `file` rows, for the TreeWriter. */
  readonly baseFiles: Map<string, string>;
  /** True when the folder already holds the base tree. */
  readonly overBase: boolean;
  /** The base's signatures (tags, collections); this build's, as reusable and collectionReusable learn them. */
  private readonly baseMeta: Pick<TreeStateMeta, 'tags' | 'collections'>;
  private readonly meta: Pick<TreeStateMeta, 'tags' | 'collections'> = { tags: {}, collections: {} };

  private constructor(conn: DuckDBConnection, recorderConn: DuckDBConnection, baseFiles: Map<string, string>, overBase: boolean, baseMeta: Pick<TreeStateMeta, 'tags' | 'collections'>) {
    this.conn = conn;
    this.recorderConn = recorderConn;
    this.baseFiles = baseFiles;
    this.overBase = overBase;
    this.baseMeta = baseMeta;
  }

  /**
   * Reads the base tree's state from `stateFolder` (the folder the base tree was built in, or undefined for a
   * build into an empty folder) into the build's database. `recorderConn`: another connection to the same database.
   */
  static async open(conn: DuckDBConnection, recorderConn: DuckDBConnection, stateFolder: string | undefined): Promise<TreeState> {
    const columns = 'path VARCHAR, md5 VARCHAR, bytes BIGINT, kind VARCHAR, tag INTEGER, k BIGINT';
    const keyColumns = 'res VARCHAR, k BIGINT, fp HUGEINT';
    // `kept`: a row taken from the base state (keepUnchangedIdFiles), which needs no comparison
    await run(conn, `CREATE OR REPLACE TABLE ${NEW} (${columns}, kept BOOLEAN)`);
    await run(conn, `CREATE OR REPLACE TABLE ${NEW_KEYS} (${keyColumns})`);
    const meta = stateFolder === undefined ? undefined : readMeta(stateFolder);
    if (stateFolder === undefined || meta === undefined) {
      await run(conn, `CREATE OR REPLACE TABLE ${BASE} (${columns})`);
      await run(conn, `CREATE OR REPLACE TABLE ${BASE_KEYS} (${keyColumns})`);
      return new TreeState(conn, recorderConn, new Map(), false, { tags: {}, collections: {} });
    }
    await run(conn, `CREATE OR REPLACE TABLE ${BASE} AS SELECT path, md5, bytes, kind, tag, k FROM read_parquet(${sqlString(join(stateFolder, TREE_STATE_FILE))})`);
    await run(conn, `CREATE OR REPLACE TABLE ${BASE_KEYS} AS SELECT res, k, fp FROM read_parquet(${sqlString(join(stateFolder, TREE_KEYS_FILE))})`);
    const rows = await all(conn, `SELECT path, md5 FROM ${BASE} WHERE kind = 'file'`);
    return new TreeState(conn, recorderConn, new Map(rows.map((r) => [r['path'] as string, r['md5'] as string])), true, meta);
  }

  /**
   * Records the fingerprint of every key of resource `res`: `table`'s rows grouped by `id`, each row hashed whole
   * (every column) and the hashes summed (in 128 bits: no overflow, and the rows' order, given by their columns,
   * does not matter). Call for every resource before addIdFiles; then changedKeys compares them with the base.
   */
  async addKeys(res: string, table: string): Promise<void> {
    await run(this.conn, `INSERT INTO ${NEW_KEYS} SELECT ${sqlString(res)}, id, sum(CAST(hash(r) AS HUGEINT)) FROM ${table} r GROUP BY id`);
  }

  /** After every addKeys: the keys whose records differ from the base's, or that one of the two lacks. */
  async compareKeys(): Promise<void> {
    await run(
      this.conn,
      `CREATE OR REPLACE TABLE ${CHANGED_KEYS} AS
       SELECT coalesce(n.res, b.res) AS res, coalesce(n.k, b.k) AS k
       FROM ${NEW_KEYS} n FULL JOIN ${BASE_KEYS} b ON b.res = n.res AND b.k = n.k
       WHERE n.fp IS DISTINCT FROM b.fp`,
    );
  }

  /** The SQL of the changed keys of resource `res` (compareKeys), for `WHERE k IN (…)`. */
  changedKeysOfSql(res: string): string {
    return `SELECT k FROM ${CHANGED_KEYS} WHERE res = ${sqlString(res)}`;
  }

  /**
   * Whether the base's files of `tag` (made with `signature`) may stand for this build's wherever their key's
   * records are unchanged. Records the signature for the next build either way.
   */
  reusable(tag: number, signature: string): boolean {
    this.meta.tags[String(tag)] = signature;
    return this.overBase && this.baseMeta.tags[String(tag)] === signature;
  }

  /**
   * The base's state of the collection file at `path`, if it was made with `signature` (its records' SQL and
   * frame): where no key of its resource changed, the base's file is this build's; else this build's file is
   * the base's up to a cut at or before the lowest changed key (lowestChangedKey), and new records after it.
   */
  collectionBase(path: string, signature: string): CollectionState | undefined {
    const base = this.baseMeta.collections[path];
    return this.overBase && base?.signature === signature ? base : undefined;
  }

  /** Records a collection file of this build, for the next one. */
  addCollection(path: string, state: CollectionState): void {
    this.meta.collections[path] = state;
  }

  /**
   * The lowest key of `res` whose records changed from the base (after compareKeys): new, removed or other
   * records. Undefined when none did.
   */
  async lowestChangedKey(res: string): Promise<bigint | undefined> {
    const [row] = await all(this.conn, { sql: `SELECT CAST(min(k) AS VARCHAR) AS k FROM ${CHANGED_KEYS} WHERE res = $res`, params: { res } });
    const k = row?.['k'];
    return k === null || k === undefined ? undefined : BigInt(k as string);
  }

  /**
   * Takes the base's rows of the tags `reusable` said yes to (`tags`: each with its resource), for the keys whose
   * records did not change: one pass over the base state.
   */
  async keepUnchangedIdFiles(tags: { tag: number; res: string }[]): Promise<void> {
    if (tags.length === 0) return;
    const tagRes = tags.map((t) => `(${Number(t.tag)}, ${sqlString(t.res)})`).join(', ');
    await run(
      this.conn,
      `INSERT INTO ${NEW} SELECT b.path, b.md5, b.bytes, b.kind, b.tag, b.k, true
       FROM ${BASE} b JOIN (VALUES ${tagRes}) t(tag, res) ON t.tag = b.tag
       ANTI JOIN ${CHANGED_KEYS} c ON c.res = t.res AND c.k = b.k
       WHERE b.kind = 'id'`,
    );
  }

  /**
   * Adds the `id` files of one route and variant: `contentSql` yields `(k, c)`, a key and the file's whole
   * text, and the file's path is `prefix || k || suffix`. `tag` names the route and variant for changedKeys.
   */
  async addIdFiles(tag: number, contentSql: { sql: string; params: Record<string, unknown> }, prefix: string, suffix: string): Promise<void> {
    await this.conn.run(
      `INSERT INTO ${NEW} SELECT ${sqlString(prefix)} || k || ${sqlString(suffix)}, md5(c), strlen(c), 'id', ${tag}, k, false FROM (${contentSql.sql})`,
      contentSql.params as never,
    );
  }

  /**
   * Records `id` files written without a comparison (a build into an empty folder writes them all, hashing
   * each as it writes instead of in a pass of its own): an appender for rows of one tag.
   */
  async idFileRecorder(tag: number): Promise<{ add(path: string, md5: string, bytes: number, k: bigint): void; close(): void }> {
    const appender = await this.recorderConn.createAppender('tree_new', 'main', 'memory');
    return {
      add(path, md5, bytes, k) {
        appender.appendVarchar(path);
        appender.appendVarchar(md5);
        appender.appendBigInt(BigInt(bytes));
        appender.appendVarchar('id');
        appender.appendInteger(tag);
        appender.appendBigInt(k);
        appender.appendBoolean(false);
        appender.endRow();
      },
      close: () => appender.closeSync(),
    };
  }

  /** Adds the `id` files of a tag whose files are those of tag `from` under other names (hard links). */
  async addLinkedIdFiles(tag: number, from: number, prefix: string, suffix: string): Promise<void> {
    await run(this.conn, `INSERT INTO ${NEW} SELECT ${sqlString(prefix)} || k || ${sqlString(suffix)}, md5, bytes, 'id', ${Number(tag)}, k, kept FROM ${NEW} WHERE tag = ${Number(from)}`);
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
      `CREATE OR REPLACE TABLE ${CHANGED_FILES} AS
       SELECT n.tag, n.k FROM (SELECT * FROM ${NEW} WHERE kind = 'id' AND NOT kept) n LEFT JOIN ${BASE} b ON b.path = n.path
       WHERE b.md5 IS DISTINCT FROM n.md5`,
    );
    const rows = await all(
      this.conn,
      `SELECT t.tag, t.total, coalesce(c.changed, 0) AS changed
       FROM (SELECT tag, count(*) AS total FROM ${NEW} WHERE kind = 'id' GROUP BY tag) t
       LEFT JOIN (SELECT tag, count(*) AS changed FROM ${CHANGED_FILES} GROUP BY tag) c USING (tag)`,
    );
    return new Map(rows.map((r) => [Number(r['tag']), { changed: Number(r['changed']), total: Number(r['total']) }]));
  }

  /** The SQL of the changed keys of a tag, for `WHERE k IN (…)`. */
  changedKeysSql(tag: number): string {
    return `SELECT k FROM ${CHANGED_FILES} WHERE tag = ${Number(tag)}`;
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
      appender.appendBoolean(false);
      appender.endRow();
    }
    appender.closeSync();
    if (this.overBase) {
      const stale = await all(this.conn, `SELECT b.path FROM ${BASE} b ANTI JOIN ${NEW} n ON n.path = b.path`);
      for (const r of stale) writer.remove(r['path'] as string);
    }
    rmSync(join(folder, TREE_STATE_META), { force: true });
    await run(this.conn, `COPY (SELECT path, md5, bytes, kind, tag, k FROM ${NEW}) TO ${sqlString(join(folder, TREE_STATE_FILE))} (FORMAT parquet, COMPRESSION zstd)`);
    await run(this.conn, `COPY (SELECT res, k, fp FROM ${NEW_KEYS}) TO ${sqlString(join(folder, TREE_KEYS_FILE))} (FORMAT parquet, COMPRESSION zstd)`);
    const meta: TreeStateMeta = { version: TREE_STATE_VERSION, ...this.meta };
    writeFileSync(join(folder, TREE_STATE_META), JSON.stringify(meta) + '\n');
    const [row] = await all(this.conn, `SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM ${NEW}`);
    for (const t of [NEW, BASE, NEW_KEYS, BASE_KEYS, CHANGED_KEYS, CHANGED_FILES]) await run(this.conn, `DROP TABLE IF EXISTS ${t}`);
    return { files: Number(row!['files']), bytes: Number(row!['bytes']) };
  }
}
