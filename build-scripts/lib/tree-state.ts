/**
 * The tree state of a build: every file of its static tree (`site/`) with a digest of its bytes and its size,
 * kept beside the tree (`tree-state.parquet`, `tree-files.parquet`, `tree-keys.parquet`, `tree-state.json`). The
 * next build over that folder (an incremental build, atomic-output.ts) compares its own files with it and writes
 * only the files whose bytes differ, removing those it no longer has: the result is the tree a build into an
 * empty folder gives.
 *
 * Two kinds of rows:
 * - `id` (tree-state.parquet): the radar catalogue's id files (millions on a large catalogue), by route and
 *   variant (`tag`, the number of the tag named by the route's path and the variant, core/tree/tags.ts: its paths
 *   are `prefix || k || suffix`) and key (`k`), with the first 64 bits of the file's
 *   MD5 (`h`) and its size: four numbers a row, so that millions of rows load, join and save in a fraction of a
 *   second (paths and hex MD5s cost 2 s to load, 3.4 s to join and 3.8 s to save at 7.4 million rows). Over a
 *   base tree they are hashed in SQL without leaving DuckDB (build-scripts/radar/write-tree.ts), and only the
 *   changed ones are generated and written; into an empty folder all are written, each hashed as it is written;
 * - `file` (tree-files.parquet): everything put through the TreeWriter (collections, docs, the timeseries tree,
 *   charts, the site) by path, with its digest (tree-writer.ts: an MD5; a collection's is made of its pieces').
 *
 * `tree-keys.parquet` holds a fingerprint of each key's records (`res`, `k`, `fp`: a hash of every column of every
 * row of the resource's table with that id), and `tree-state.json` each tag's paths and signature (what makes its
 * files from those records: the SQL, the paths, DuckDB's version) and each collection's cuts. An id file is made
 * from its key's records by its tag alone, so where both are as in the base, the file is too: the next build
 * hashes only the files of keys whose records changed (one more day: new keys, and the few old ones a day
 * touches), and the base's rows of the others stand for its own, never copied. A tag whose signature changed
 * (another snapcat) is hashed whole.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { KEYS_PER_CUT, type Cut, type Piece } from '../../core/tree/plan.ts';
import { tagId } from '../../core/tree/tags.ts';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import type { CollectionsPhase, FreshIdFiles, HashingIdFiles, IdFileChanges, IdFileRecorder, IdFileTagState, KeysCompared } from './tree-phases.ts';
import type { FileStamp, TreeWriter } from './tree-writer.ts';

export { KEYS_PER_CUT };

export const TREE_STATE_FILE = 'tree-state.parquet';
const TREE_KEYS_FILE = 'tree-keys.parquet';
const TREE_FILES_FILE = 'tree-files.parquet';
const TREE_STATE_META = 'tree-state.json';
/**
 * Raise when what a state row means changes: a base of another version is not reused (hasTreeState says no, so
 * the build starts from an empty folder). 4: tags named by route path and variant (core/tree/tags.ts); 3 numbered
 * them by position in RADAR_ROUTES.
 */
const TREE_STATE_VERSION = 4;

/** The tables of the build's in-memory database that hold the base state and the new one, and their keys' fingerprints. */
const BASE = 'memory.main.tree_base';
/** This build's `id` rows that are not the base's rows kept (keepUnchangedIdFiles): those are ALL_ID_ROWS' other part. */
const NEW = 'memory.main.tree_new';
const BASE_KEYS = 'memory.main.tree_base_keys';
/** The base's `file` rows (path, md5, bytes), and this build's. */
const BASE_FILES = 'memory.main.tree_base_files';
const NEW_FILES = 'memory.main.tree_new_files';
const NEW_KEYS = 'memory.main.tree_new_keys';
/** Keys whose records differ from the base's (or that only one of the two has), by resource. */
const CHANGED_KEYS = 'memory.main.tree_changed_keys';
/** The `id` files whose bytes differ from the base's (compareIdFiles), by tag and key. */
const CHANGED_FILES = 'memory.main.tree_changed';
/** The tags whose base rows stand for this build's where their key is unchanged (keepUnchangedIdFiles), with their resource. */
const KEPT_TAGS = 'memory.main.tree_kept_tags';
/** The tags whose files have the same paths in the base and in this build, so that their rows compare by key. */
const SAME_PATHS = 'memory.main.tree_same_paths';

/** The base's rows of kept tags whose key did not change: this build's rows too, never copied. */
const KEPT_ROWS = `SELECT b.tag, b.k, b.h, b.bytes FROM ${BASE} b JOIN ${KEPT_TAGS} t ON t.tag = b.tag ANTI JOIN ${CHANGED_KEYS} c ON c.res = t.res AND c.k = b.k`;
/** Every `id` row of this build. */
const ALL_ID_ROWS = `(${KEPT_ROWS} UNION ALL SELECT tag, k, h, bytes FROM ${NEW})`;

/** The first 64 bits of a text's MD5, in SQL: an id file's digest (`h`). */
const digestSql = (text: string) => `CAST('0x' || md5(${text})[1:16] AS UBIGINT)`;

/** The same digest of a file's MD5 (bytes, as node's crypto gives it). */
export function idFileDigest(md5: Buffer): bigint {
  return md5.readBigUInt64BE(0);
}

/** The files of one tag: `prefix || k || suffix`, and what makes them (write-tree.ts idFileSignature). */
interface TagState {
  signature: string;
  prefix: string;
  suffix: string;
}

interface TreeStateMeta {
  version: number;
  /** By tag name (core/tree/tags.ts): its rows' `tag` is tagId(name). */
  tags: Record<string, TagState>;
  /** Each collection file by path (write-tree.ts writeCollection): its signature, cuts and pieces. */
  collections: Record<string, CollectionState>;
}

/**
 * A collection file's signature (its records' SQL and frame) and cuts: `[k, offset]`, where `offset` is the byte
 * at which the file's first record of key `k` begins (its separator included), at the first record of each block
 * of KEYS_PER_CUT keys (`k / KEYS_PER_CUT`), in key order: the bytes between two cuts are the records of one
 * block, and where they are is a matter of the keys alone, as a build into an empty folder would place them. A
 * piece of the file (tree-writer.ts PiecewiseFile) ends at each cut, and `pieces` holds their MD5s: a build
 * that keeps a block's bytes, or continues the file after a cut, neither hashes nor holds the bytes it keeps.
 * `stamp`: the file as written, so that a later build trusts it unread.
 */
export interface CollectionState {
  signature: string;
  cuts: Cut[];
  pieces: Piece[];
  stamp: FileStamp;
}

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
  return readMeta(folder) !== undefined && [TREE_STATE_FILE, TREE_KEYS_FILE, TREE_FILES_FILE].every((f) => existsSync(join(folder, f)));
}

/** After a tree is changed outside a build (`npm run site`): its state no longer describes it, so no build starts from it. */
export function forgetTreeState(folder: string): void {
  rmSync(join(folder, TREE_STATE_META), { force: true });
}

/** `(tag, prefix, suffix)` rows of tags, as SQL. */
function tagPathsSql(tags: Record<string, TagState>): string {
  const rows = Object.entries(tags).map(([tag, t]) => `(${tagId(tag)}, ${sqlString(t.prefix)}, ${sqlString(t.suffix)})`);
  return rows.length ? `(VALUES ${rows.join(', ')}) AS p(tag, prefix, suffix)` : '(SELECT NULL::INTEGER AS tag, NULL::VARCHAR AS prefix, NULL::VARCHAR AS suffix WHERE false) p';
}

/**
 * The tree a build left in `folder` as its state records it: `(path, digest)` of every file (an id file's digest
 * is a number, a `file`'s its MD5), for comparing two builds' trees (the benchmark). Undefined without a state.
 */
export function treeStateFilesSql(folder: string): string | undefined {
  const meta = readMeta(folder);
  if (!meta) return undefined;
  return `SELECT p.prefix || s.k || p.suffix AS path, CAST(s.h AS VARCHAR) AS digest FROM read_parquet(${sqlString(join(folder, TREE_STATE_FILE))}) s JOIN ${tagPathsSql(meta.tags)} USING (tag)
    UNION ALL SELECT path, md5 FROM read_parquet(${sqlString(join(folder, TREE_FILES_FILE))})`;
}

export class TreeState {
  private readonly conn: DuckDBConnection;
  /**
   * A second connection, for the appenders of idFileRecorder. An appender flushes into its connection every so
   * many rows, and a statement on a connection ends the query it is streaming: with the build's own connection,
   * every id-file route of a 240-day catalogue stopped at row 208,896, silently (lib/duckdb.ts now notices).
   */
  private readonly recorderConn: DuckDBConnection;
  /** Digest by path of the base tree's `file` rows, for the TreeWriter. */
  readonly baseFiles: Map<string, string>;
  /** True when the folder already holds the base tree. */
  readonly overBase: boolean;
  /** The folder the base's state was read from (undefined: no base). */
  readonly baseFolder: string | undefined;
  /** The base's signatures (tags, collections); this build's, as reusable and collectionReusable learn them. */
  private readonly baseMeta: Pick<TreeStateMeta, 'tags' | 'collections'>;
  private readonly meta: Pick<TreeStateMeta, 'tags' | 'collections'> = { tags: {}, collections: {} };

  private constructor(conn: DuckDBConnection, recorderConn: DuckDBConnection, baseFiles: Map<string, string>, overBase: boolean, baseMeta: Pick<TreeStateMeta, 'tags' | 'collections'>, baseFolder?: string) {
    this.conn = conn;
    this.baseFolder = baseFolder;
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
    const columns = 'tag INTEGER, k BIGINT, h UBIGINT, bytes BIGINT';
    const keyColumns = 'res VARCHAR, k BIGINT, fp HUGEINT';
    await run(conn, `CREATE OR REPLACE TABLE ${NEW} (${columns})`);
    await run(conn, `CREATE OR REPLACE TABLE ${NEW_KEYS} (${keyColumns})`);
    await run(conn, `CREATE OR REPLACE TABLE ${NEW_FILES} (path VARCHAR, md5 VARCHAR, bytes BIGINT)`);
    await run(conn, `CREATE OR REPLACE TABLE ${CHANGED_KEYS} (res VARCHAR, k BIGINT)`);
    await run(conn, `CREATE OR REPLACE TABLE ${KEPT_TAGS} (tag INTEGER, res VARCHAR)`);
    const meta = stateFolder === undefined ? undefined : readMeta(stateFolder);
    if (stateFolder === undefined || meta === undefined) {
      await run(conn, `CREATE OR REPLACE TABLE ${BASE} (${columns})`);
      await run(conn, `CREATE OR REPLACE TABLE ${BASE_KEYS} (${keyColumns})`);
      await run(conn, `CREATE OR REPLACE TABLE ${BASE_FILES} (path VARCHAR, md5 VARCHAR, bytes BIGINT)`);
      return new TreeState(conn, recorderConn, new Map(), false, { tags: {}, collections: {} });
    }
    await run(conn, `CREATE OR REPLACE TABLE ${BASE} AS SELECT tag, k, h, bytes FROM read_parquet(${sqlString(join(stateFolder, TREE_STATE_FILE))})`);
    await run(conn, `CREATE OR REPLACE TABLE ${BASE_KEYS} AS SELECT res, k, fp FROM read_parquet(${sqlString(join(stateFolder, TREE_KEYS_FILE))})`);
    await run(conn, `CREATE OR REPLACE TABLE ${BASE_FILES} AS SELECT path, md5, bytes FROM read_parquet(${sqlString(join(stateFolder, TREE_FILES_FILE))})`);
    const rows = await all(conn, `SELECT path, md5 FROM ${BASE_FILES}`);
    return new TreeState(conn, recorderConn, new Map(rows.map((r) => [r['path'] as string, r['md5'] as string])), true, meta, stateFolder);
  }

  /**
   * Records the fingerprint of every key of resource `res`: `table`'s rows grouped by `id`, each row hashed whole
   * (every column) and the hashes summed (in 128 bits: no overflow, and the rows' order, given by their columns,
   * does not matter). For every resource, then compareKeys (fingerprintKeys, the first phase: tree-phases.ts).
   */
  private async addKeys(res: string, table: string): Promise<void> {
    await run(this.conn, `INSERT INTO ${NEW_KEYS} SELECT ${sqlString(res)}, id, sum(CAST(hash(r) AS HUGEINT)) FROM ${table} r GROUP BY id`);
  }

  /** After every addKeys: the keys whose records differ from the base's, or that one of the two lacks. */
  private async compareKeys(): Promise<void> {
    await run(
      this.conn,
      `CREATE OR REPLACE TABLE ${CHANGED_KEYS} AS
       SELECT coalesce(n.res, b.res) AS res, coalesce(n.k, b.k) AS k
       FROM ${NEW_KEYS} n FULL JOIN ${BASE_KEYS} b ON b.res = n.res AND b.k = n.k
       WHERE n.fp IS DISTINCT FROM b.fp`,
    );
  }

  /**
   * The first phase of the radar id files: fingerprints every key of each resource (`table`: its rows) and compares
   * them with the base's.
   */
  async fingerprintKeys(resources: readonly { res: string; table: string }[]): Promise<KeysCompared> {
    for (const r of resources) await this.addKeys(r.res, r.table);
    await this.compareKeys();
    return { registerTags: (tags) => this.registerTags(tags) };
  }

  private async registerTags(tags: readonly IdFileTagState[]): Promise<HashingIdFiles | FreshIdFiles> {
    const names = new Map<number, string>();
    for (const t of tags) {
      const other = names.get(tagId(t.tag));
      if (other !== undefined) throw new Error(`tree state: tags ${other} and ${t.tag} have the same number`);
      names.set(tagId(t.tag), t.tag);
    }
    const reusable = new Set(tags.filter((t) => this.reusable(t.tag, t.signature, t.prefix, t.suffix)).map((t) => t.tag));
    const collections: CollectionsPhase = { addCollection: (path, state) => this.addCollection(path, state) };
    if (!this.overBase) {
      return {
        kind: 'fresh',
        ...collections,
        idFileRecorder: (tag) => this.idFileRecorder(tag),
        addLinkedIdFiles: (tag, from) => this.addLinkedIdFiles(tag, from, false),
        idKeysSql: (tag) => this.idKeysSql(tag),
      };
    }
    await this.keepUnchangedIdFiles(tags.filter((t) => reusable.has(t.tag)));
    return {
      kind: 'hashing',
      reusable,
      changedKeysOfSql: (res) => this.changedKeysOfSql(res),
      addIdFiles: (tag, contentSql) => this.addIdFiles(tag, contentSql),
      addLinkedIdFiles: (tag, from) => this.addLinkedIdFiles(tag, from, reusable.has(tag)),
      compareIdFiles: async () => ({
        kind: 'compared',
        ...collections,
        changes: await this.compareIdFiles(),
        changedKeysSql: (tag) => this.changedKeysSql(tag),
        idKeysSql: (tag) => this.idKeysSql(tag),
        changedBlocks: (res) => this.changedBlocks(res),
        collectionBase: (path, signature) => this.collectionBase(path, signature),
      }),
    };
  }

  /** The SQL of this build's key fingerprints (`res`, `k`, `fp`), until finish() ends. */
  keysSql(): string {
    return `SELECT res, k, fp FROM ${NEW_KEYS}`;
  }

  /** The SQL of the changed keys of resource `res` (compareKeys), for `WHERE k IN (…)`. */
  private changedKeysOfSql(res: string): string {
    return `SELECT k FROM ${CHANGED_KEYS} WHERE res = ${sqlString(res)}`;
  }

  /**
   * Records tag `tag`: its files are `prefix || k || suffix`, made with `signature`. True when the base's files of
   * the tag may stand for this build's wherever their key's records are unchanged (the same signature).
   */
  private reusable(tag: string, signature: string, prefix: string, suffix: string): boolean {
    this.meta.tags[String(tag)] = { signature, prefix, suffix };
    return this.overBase && this.baseMeta.tags[String(tag)]?.signature === signature;
  }

  /**
   * The base's state of the collection file at `path`, if it was made with `signature` (its records' SQL and
   * frame): where no key of its resource changed, the base's file is this build's; else this build's file keeps
   * the base's bytes of every block without a changed key (changedBlocks).
   */
  private collectionBase(path: string, signature: string): CollectionState | undefined {
    const base = this.baseMeta.collections[path];
    return this.overBase && base?.signature === signature && base.stamp !== undefined ? base : undefined;
  }

  /** Records a collection file of this build, for the next one. */
  private addCollection(path: string, state: CollectionState): void {
    this.meta.collections[path] = state;
  }

  /**
   * The blocks (`k / KEYS_PER_CUT`) of the keys of `res` whose records changed from the base (after compareKeys):
   * new, removed or other records; ascending.
   */
  private async changedBlocks(res: string): Promise<bigint[]> {
    const rows = await all(this.conn, {
      sql: `SELECT DISTINCT CAST(k // ${KEYS_PER_CUT} AS VARCHAR) AS b, k // ${KEYS_PER_CUT} AS o FROM ${CHANGED_KEYS} WHERE res = $res ORDER BY o`,
      params: { res },
    });
    return rows.map((r) => BigInt(r['b'] as string));
  }

  /**
   * The base's rows of the tags `reusable` said yes to (`tags`: each with its resource) stand for this build's,
   * for the keys whose records did not change: they stay in the base's table (KEPT_ROWS), never copied.
   */
  private async keepUnchangedIdFiles(tags: { tag: string; res: string }[]): Promise<void> {
    if (tags.length === 0) return;
    await run(this.conn, `INSERT INTO ${KEPT_TAGS} VALUES ${tags.map((t) => `(${tagId(t.tag)}, ${sqlString(t.res)})`).join(', ')}`);
  }

  /**
   * Adds the `id` files of one route and variant: `contentSql` yields `(k, c)`, a key and the file's whole
   * text. `tag` names the route and variant (reusable recorded its paths).
   */
  private async addIdFiles(tag: string, contentSql: { sql: string; params: Record<string, unknown> }): Promise<void> {
    await this.conn.run(`INSERT INTO ${NEW} SELECT ${tagId(tag)}, k, ${digestSql('c')}, strlen(c) FROM (${contentSql.sql})`, contentSql.params as never);
  }

  /**
   * Records `id` files written without a comparison (a build into an empty folder writes them all, hashing
   * each as it writes instead of in a pass of its own): an appender for rows of one tag. `md5`: the file's.
   */
  private async idFileRecorder(tag: string): Promise<IdFileRecorder> {
    const id = tagId(tag);
    const appender = await this.recorderConn.createAppender('tree_new', 'main', 'memory');
    return {
      add(k, md5, bytes) {
        appender.appendInteger(id);
        appender.appendBigInt(k);
        appender.appendUBigInt(idFileDigest(md5));
        appender.appendBigInt(BigInt(bytes));
        appender.endRow();
      },
      close: () => appender.closeSync(),
    };
  }

  /**
   * Adds the `id` files of tag `from` under tag `tag`: the same files under other names (hard links). Of a kept
   * tag (keepUnchangedIdFiles), only those of changed keys; else all of them.
   */
  private async addLinkedIdFiles(tag: string, from: string, kept: boolean): Promise<void> {
    await run(this.conn, `INSERT INTO ${NEW} SELECT ${tagId(tag)}, k, h, bytes FROM ${kept ? NEW : ALL_ID_ROWS} WHERE tag = ${tagId(from)}`);
  }

  /** The SQL of every key of a tag whose rows are all this build's own (none kept). */
  private idKeysSql(tag: string): string {
    return `SELECT k FROM ${NEW} WHERE tag = ${tagId(tag)}`;
  }

  /**
   * After every addIdFiles: which `id` files the base lacks or holds with other bytes, per tag; the caller
   * writes those (all of a tag when its count equals the tag's total, as in a build into an empty folder).
   * Rows compare by key within a tag whose paths are the base's too.
   */
  private async compareIdFiles(): Promise<Map<string, IdFileChanges>> {
    const same = Object.keys(this.meta.tags)
      .filter((tag) => this.samePaths(tag))
      .map((tag) => `(${tagId(tag)})`);
    await run(this.conn, `CREATE OR REPLACE TABLE ${SAME_PATHS} (tag INTEGER)`);
    if (same.length) await run(this.conn, `INSERT INTO ${SAME_PATHS} VALUES ${same.join(', ')}`);
    await run(
      this.conn,
      `CREATE OR REPLACE TABLE ${CHANGED_FILES} AS
       SELECT n.tag, n.k FROM ${NEW} n
       LEFT JOIN (SELECT b.* FROM ${BASE} b SEMI JOIN ${SAME_PATHS} s ON s.tag = b.tag) b ON b.tag = n.tag AND b.k = n.k
       WHERE b.h IS DISTINCT FROM n.h OR b.bytes IS DISTINCT FROM n.bytes`,
    );
    const rows = await all(
      this.conn,
      `SELECT t.tag, t.total, coalesce(c.changed, 0) AS changed
       FROM (SELECT tag, count(*) AS total FROM ${ALL_ID_ROWS} GROUP BY tag) t
       LEFT JOIN (SELECT tag, count(*) AS changed FROM ${CHANGED_FILES} GROUP BY tag) c USING (tag)`,
    );
    const names = new Map(Object.keys(this.meta.tags).map((tag) => [tagId(tag), tag]));
    return new Map(rows.map((r) => [names.get(Number(r['tag']))!, { changed: Number(r['changed']), total: Number(r['total']) }]));
  }

  /** True when the base gave tag `tag` the paths this build gives it. */
  private samePaths(tag: string): boolean {
    const [b, t] = [this.baseMeta.tags[tag], this.meta.tags[tag]];
    return b !== undefined && t !== undefined && b.prefix === t.prefix && b.suffix === t.suffix;
  }

  /** The SQL of the changed keys of a tag, for `WHERE k IN (…)`. */
  private changedKeysSql(tag: string): string {
    return `SELECT k FROM ${CHANGED_FILES} WHERE tag = ${tagId(tag)}`;
  }

  /** Files and bytes of the tree so far: the `id` rows and what the writer has put. */
  async totals(writer: TreeWriter): Promise<{ files: number; bytes: number }> {
    const [row] = await all(this.conn, `SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM ${ALL_ID_ROWS}`);
    let files = Number(row!['files']);
    let bytes = Number(row!['bytes']);
    for (const f of writer.files.values()) {
      files++;
      bytes += f.bytes;
    }
    return { files, bytes };
  }

  /**
   * The paths of the base tree's files this build does not have. Where both builds give each tag the same
   * paths, only keys that changed or tags not kept can have lost an `id` file; else (another snapcat) by path.
   * (After the writer's files joined NEW_FILES.)
   */
  private async staleFiles(): Promise<string[]> {
    const samePaths = Object.keys(this.baseMeta.tags).length === Object.keys(this.meta.tags).length && Object.keys(this.meta.tags).every((tag) => this.samePaths(tag));
    const basePaths = tagPathsSql(this.baseMeta.tags);
    const rows = samePaths
      ? await all(
          this.conn,
          `SELECT p.prefix || b.k || p.suffix AS path FROM ${BASE} b JOIN ${basePaths} USING (tag)
           LEFT JOIN ${KEPT_TAGS} t ON t.tag = b.tag
           WHERE (t.tag IS NULL OR EXISTS (SELECT 1 FROM ${CHANGED_KEYS} c WHERE c.res = t.res AND c.k = b.k))
             AND NOT EXISTS (SELECT 1 FROM ${NEW} n WHERE n.tag = b.tag AND n.k = b.k)
           UNION ALL SELECT path FROM ${BASE_FILES} b ANTI JOIN ${NEW_FILES} n USING (path)`,
        )
      : await all(
          this.conn,
          `(SELECT p.prefix || b.k || p.suffix AS path FROM ${BASE} b JOIN ${basePaths} USING (tag) UNION ALL SELECT path FROM ${BASE_FILES})
           EXCEPT (SELECT p.prefix || n.k || p.suffix FROM ${ALL_ID_ROWS} n JOIN ${tagPathsSql(this.meta.tags)} USING (tag) UNION ALL SELECT path FROM ${NEW_FILES})`,
        );
    return rows.map((r) => r['path'] as string);
  }

  /** Appends files the writer wrote (path, MD5, size) to NEW_FILES. */
  private async recordFiles(files: Iterable<[string, { md5: string; bytes: number }]>): Promise<void> {
    const appender = await this.conn.createAppender('tree_new_files', 'main', 'memory');
    for (const [path, f] of files) {
      appender.appendVarchar(path);
      appender.appendVarchar(f.md5);
      appender.appendBigInt(BigInt(f.bytes));
      appender.endRow();
    }
    appender.closeSync();
  }

  /**
   * Ends the build's tree: files of the base tree this build does not have are removed, and the state is saved
   * in `folder` for the next build. `lastFile` (the manifest, tree-manifest.ts) is then handed the SQL of every
   * file of the tree, `(path, digest)`, and writes the file `path` through the writer, which is recorded too
   * (the base's file of that name is left to it, not removed).
   */
  async finish(writer: TreeWriter, folder: string, lastFile?: { path: string; also?: string[]; write: (filesSql: string) => Promise<void> }): Promise<{ files: number; bytes: number }> {
    await this.recordFiles(writer.files);
    const last = new Set(lastFile ? [lastFile.path, ...(lastFile.also ?? [])] : []);
    if (this.overBase) for (const path of await this.staleFiles()) if (!last.has(path)) writer.remove(path);
    if (lastFile) {
      await lastFile.write(`SELECT p.prefix || n.k || p.suffix AS path, CAST(n.h AS VARCHAR) AS digest FROM ${ALL_ID_ROWS} n JOIN ${tagPathsSql(this.meta.tags)} USING (tag) UNION ALL SELECT path, md5 FROM ${NEW_FILES}`);
      const written: [string, { md5: string; bytes: number }][] = [];
      for (const path of last) {
        const f = writer.files.get(path);
        if (f) written.push([path, f]);
        else if (path === lastFile.path) throw new Error(`tree state: ${lastFile.path} was not written`);
      }
      await this.recordFiles(written);
    }
    const tree = await this.totals(writer);
    rmSync(join(folder, TREE_STATE_META), { force: true });
    const copy = (sql: string, file: string) => run(this.conn, `COPY (${sql}) TO ${sqlString(join(folder, file))} (FORMAT parquet, COMPRESSION zstd)`);
    await copy(`SELECT * FROM ${ALL_ID_ROWS}`, TREE_STATE_FILE);
    await copy(`SELECT res, k, fp FROM ${NEW_KEYS}`, TREE_KEYS_FILE);
    await copy(`SELECT path, md5, bytes FROM ${NEW_FILES}`, TREE_FILES_FILE);
    const meta: TreeStateMeta = { version: TREE_STATE_VERSION, ...this.meta };
    writeFileSync(join(folder, TREE_STATE_META), JSON.stringify(meta) + '\n');
    for (const t of [NEW, BASE, NEW_KEYS, BASE_KEYS, NEW_FILES, BASE_FILES, CHANGED_KEYS, CHANGED_FILES, KEPT_TAGS, SAME_PATHS]) await run(this.conn, `DROP TABLE IF EXISTS ${t}`);
    return tree;
  }
}
