/**
 * `manifest.sha256` at the root of the static tree: every other file of the tree with the SHA-256 of its bytes,
 * in `sha256sum -c` format (`<hex>  <path>`, paths relative to the tree's root, sorted by their UTF-8 bytes; a
 * name holding a backslash, LF or CR escaped as GNU sha256sum writes it: core/radar/record-sql.ts). A mirror
 * that copied the tree checks its copy with `sha256sum -c manifest.sha256` in the copy's root.
 *
 * Cost: a year's tree is millions of files, and an incremental build writes few of them. Each build keeps beside
 * its tree state `tree-sha256.parquet`: every file's path, the tree state's digest of its bytes (tree-state.ts:
 * an id file's 64-bit MD5 prefix, another file's MD5) and its SHA-256. The next build takes a file's SHA-256
 * from there when the file has the same path and the same state digest as in its base (the incremental build
 * kept those bytes: that digest is what it decided by), and reads and hashes only the others: the files it wrote,
 * or every file when there is no base. The manifest is exactly the tree's, incremental or not, because the tree
 * state is.
 *
 * The files a build writes need no reading back either: the tree writer hands the SHA-256 of each file's bytes,
 * as it writes them, to a WrittenSha256 (rows in a table DuckDB may spill), and the manifest takes them from
 * there. It reads back only what neither gives: a collection continued after base bytes the writer kept unread,
 * a link whose source the writer did not hash (docs/tree-manifest.md).
 */
import { createHash, hash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { run, sqlString, streamKeyedText } from '../../lib/duckdb.ts';
import { checksumRecordSql } from '../../core/radar/record-sql.ts';
import type { Sha256Sink, TreeWriter } from './tree-writer.ts';

export const MANIFEST_FILE = 'manifest.sha256';
/** Beside the tree state: path, state digest and SHA-256 of every file of the tree (the manifest's own excepted). */
export const TREE_SHA256_FILE = 'tree-sha256.parquet';

const HASHED = 'memory.main.tree_sha256_hashed';
/** The SHA-256s the writer handed over (WrittenSha256), one row per write, and the last one of each path. */
const WRITTEN_ROWS = 'tree_sha256_written';
const WRITTEN = `memory.main.${WRITTEN_ROWS}`;
const WRITTEN_LAST = 'memory.main.tree_sha256_written_last';
/** Each written path's SHA-256 (32 bytes), a link's resolved. */
const WRITTEN_SHA256 = 'memory.main.tree_sha256_written_resolved';

export interface ManifestResult {
  /** SHA-256 of manifest.sha256's bytes, hex. */
  sha256: string;
  /** Files read back and hashed in the manifest phase. */
  hashed: number;
  /** Files whose SHA-256 the writer computed as it wrote them (WrittenSha256). */
  written: number;
  /** Files whose SHA-256 came from the base's tree-sha256.parquet. */
  reused: number;
}

/**
 * The tree writer's Sha256Sink for a build: a row per file written, `(seq, path, sha256, link)`, appended to a
 * table of the build's database (which DuckDB spills past its memory limit: a year's tree is 7.2 million files),
 * on `recorderConn`, the connection of the build's appenders (tree-state.ts says why not the build's own). A path
 * written twice has two rows, the later one (`seq`) stands; a link's row names the file it shares (`link`), whose
 * SHA-256 it takes in SQL. Nothing is held in JS. writeTreeManifest stops the writer's use of it and closes it.
 */
export class WrittenSha256 implements Sha256Sink {
  private readonly appender: DuckDBAppender;
  private seq = 0n;
  private closed = false;

  private constructor(appender: DuckDBAppender) {
    this.appender = appender;
  }

  static async open(conn: DuckDBConnection, recorderConn: DuckDBConnection): Promise<WrittenSha256> {
    await run(conn, `CREATE OR REPLACE TABLE ${WRITTEN} (seq BIGINT, path VARCHAR, sha256 BLOB, link VARCHAR)`);
    return new WrittenSha256(await recorderConn.createAppender(WRITTEN_ROWS, 'main', 'memory'));
  }

  private row(path: string, sha256: Uint8Array | undefined, link: string | undefined): void {
    if (this.closed) throw new Error(`tree manifest: ${path} written after the SHA-256s were closed`);
    this.appender.appendBigInt(this.seq++);
    this.appender.appendVarchar(path);
    if (sha256 === undefined) this.appender.appendNull();
    else this.appender.appendBlob(sha256);
    if (link === undefined) this.appender.appendNull();
    else this.appender.appendVarchar(link);
    this.appender.endRow();
  }

  wrote(rel: string, sha256: Uint8Array | undefined): void {
    this.row(rel, sha256, undefined);
  }

  linked(rel: string, fromRel: string): void {
    this.row(rel, undefined, fromRel);
  }

  /** Flushes the rows (a second call does nothing): after it, the table is complete. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.appender.closeSync();
  }

  /** Closes and drops the rows (a build that stops before its manifest). */
  async drop(conn: DuckDBConnection): Promise<void> {
    this.close();
    await run(conn, `DROP TABLE IF EXISTS ${WRITTEN}`);
  }
}

/** Where the manifest reads a file it must hash (tests count the reads through their own). */
export type FileReader = (absPath: string) => Uint8Array;

/**
 * Writes manifest.sha256 through `writer` for the files `filesSql` lists (`path`, `digest`: the tree state's),
 * reading and hashing only those whose digest the base's `tree-sha256.parquet` (in `baseFolder`) lacks; saves
 * this build's `tree-sha256.parquet` in `folder` (which may be `baseFolder`: the base's is read first).
 * `recorderConn`: a second connection to the same database, for the appender (tree-state.ts says why).
 *
 * Memory stays bounded whatever the tree's size (a year's tree is 7.4 million files; docs/tree-manifest.md): the
 * files come from DuckDB sorted by path (its sort spills past the build's memory limit), each chunk's lines are
 * written as soon as its unknown files are read and hashed, and only the hashed files' SHA-256s are kept (appended to a
 * table DuckDB may spill); this build's `tree-sha256.parquet` is then the base's rows joined again with them, in
 * one COPY. Nothing of the tree is held in JS beyond one chunk.
 */
export async function writeTreeManifest(
  conn: DuckDBConnection,
  recorderConn: DuckDBConnection,
  writer: TreeWriter,
  site: string,
  filesSql: string,
  folder: string,
  baseFolder: string | undefined,
  opts: { read?: FileReader } = {},
): Promise<ManifestResult> {
  const read = opts.read ?? readFileSync;
  const base = baseFolder === undefined ? undefined : join(baseFolder, TREE_SHA256_FILE);
  const baseSql = base !== undefined && existsSync(base) ? `read_parquet(${sqlString(base)})` : `(SELECT NULL::VARCHAR AS path, NULL::VARCHAR AS digest, NULL::VARCHAR AS sha256 WHERE false)`;
  // (a writer's path may start with `/`, as /openapi.json does: the manifest's are relative)
  const files = `SELECT regexp_replace(path, '^/+', '') AS path, digest FROM (${filesSql}) WHERE regexp_replace(path, '^/+', '') <> ${sqlString(MANIFEST_FILE)}`;
  // the SHA-256s the writer handed over: the last row of each path (its latest `seq`: a join on a max, which DuckDB
  // spills; an arg_max of a struct ran out of its 1 GB at 7.4 million rows), a link's taken from its file's last row
  // (a link to a link, or to a file the writer did not hash, has none: read back)
  const sink = writer.stopSha256();
  if (sink !== undefined && !(sink instanceof WrittenSha256)) throw new Error('tree manifest: the writer hands its SHA-256s to another sink than WrittenSha256');
  sink?.close();
  if (sink !== undefined) {
    await run(
      conn,
      `CREATE OR REPLACE TABLE ${WRITTEN_LAST} AS
       SELECT w.path, w.sha256, w.link FROM ${WRITTEN} w SEMI JOIN (SELECT path, max(seq) AS seq FROM ${WRITTEN} GROUP BY path) m ON m.path = w.path AND m.seq = w.seq`,
    );
    await run(conn, `DROP TABLE ${WRITTEN}`);
    await run(
      conn,
      `CREATE OR REPLACE TABLE ${WRITTEN_SHA256} AS
       SELECT regexp_replace(r.path, '^/+', '') AS path, CASE WHEN r.link IS NULL THEN r.sha256 ELSE s.sha256 END AS sha256
       FROM ${WRITTEN_LAST} r LEFT JOIN ${WRITTEN_LAST} s ON s.path = r.link AND s.link IS NULL
       WHERE CASE WHEN r.link IS NULL THEN r.sha256 ELSE s.sha256 END IS NOT NULL`,
    );
    await run(conn, `DROP TABLE ${WRITTEN_LAST}`);
  }
  const writtenSql = sink !== undefined ? WRITTEN_SHA256 : `(SELECT NULL::VARCHAR AS path, NULL::BLOB AS sha256 WHERE false)`;
  // a file's SHA-256: the writer's, else the base's (same path and state digest), else none (read back)
  const known = `SELECT f.path, f.digest, coalesce(lower(hex(w.sha256)), b.sha256) AS sha256, w.sha256 IS NOT NULL AS written FROM (${files}) f LEFT JOIN ${writtenSql} w ON w.path = f.path LEFT JOIN ${baseSql} b ON b.path = f.path AND b.digest = f.digest`;
  // the base's tree-sha256.parquet may be the file this build replaces (folder = baseFolder): a scratch name first
  const saved = join(folder, TREE_SHA256_FILE);
  const scratch = `${saved}.partial-${process.pid}`;
  await run(conn, `CREATE OR REPLACE TABLE ${HASHED} (path VARCHAR, sha256 VARCHAR)`);
  const appender = await recorderConn.createAppender('tree_sha256_hashed', 'main', 'memory');
  const file = writer.open(MANIFEST_FILE);
  const digest = createHash('sha256');
  let hashed = 0;
  let written = 0;
  let listed = 0;
  try {
    // k = 0: the line itself (its SHA-256 is the base's), 2: the same (the writer's); 1: the path of a file to read and hash
    const q = `SELECT CASE WHEN sha256 IS NULL THEN 1 WHEN written THEN 2 ELSE 0 END AS k, CASE WHEN sha256 IS NULL THEN path ELSE ${checksumRecordSql('sha256', 'path')} END AS t FROM (${known}) ORDER BY path`;
    for await (const batch of streamKeyedText(conn, { sql: q, params: {} })) {
      const texts = batch.texts as string[];
      const todo: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (batch.keys[i] === 1n) todo.push(i);
        else if (batch.keys[i] === 2n) written++;
      }
      const sums = todo.map((i) => hash('sha256', read(join(site, texts[i]!)), 'hex'));
      let text = '';
      let next = 0;
      for (let i = 0; i < texts.length; i++) {
        if (batch.keys[i] === 1n) {
          const sha = sums[next++]!;
          appender.appendVarchar(texts[i]!);
          appender.appendVarchar(sha);
          appender.endRow();
          text += manifestLine(sha, texts[i]!);
        } else {
          text += `${texts[i]}\n`;
        }
      }
      const bytes = Buffer.from(text, 'utf8');
      file.append(bytes);
      digest.update(bytes);
      hashed += todo.length;
      listed += texts.length;
    }
  } finally {
    appender.closeSync();
    file.close();
  }
  await run(conn, `COPY (SELECT k.path, k.digest, coalesce(k.sha256, h.sha256) AS sha256 FROM (${known}) k LEFT JOIN ${HASHED} h ON h.path = k.path) TO ${sqlString(scratch)} (FORMAT parquet, COMPRESSION zstd)`);
  renameSync(scratch, saved);
  await run(conn, `DROP TABLE ${HASHED}`);
  await run(conn, `DROP TABLE IF EXISTS ${WRITTEN_SHA256}`);
  return { sha256: digest.digest('hex'), hashed, written, reused: listed - hashed - written };
}

/** A manifest line as GNU sha256sum writes it (the same escapes as checksumRecordSql). */
export function manifestLine(sha256: string, path: string): string {
  if (!/[\\\n\r]/.test(path)) return `${sha256}  ${path}\n`;
  return `\\${sha256}  ${path.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}\n`;
}

/**
 * The manifest of a finished tree made again from its files, every one read and hashed (no tree state to reuse):
 * for a tree changed outside a build (`npm run site`, which forgets the tree state). Written beside and renamed
 * over the old one (whose name a later build may share as a hard link); `build.json` in `folder` gets the new
 * digest, and `tree-sha256.parquet` goes with the tree state. Returns the digest.
 */
export function remakeTreeManifest(folder: string): string {
  const site = join(folder, 'site');
  const paths: string[] = [];
  for (const e of readdirSync(site, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = relative(site, join(e.parentPath, e.name));
    if (rel !== MANIFEST_FILE) paths.push(rel);
  }
  paths.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const scratch = join(site, `${MANIFEST_FILE}.partial-${process.pid}`);
  const fd = openSync(scratch, 'w');
  const digest = createHash('sha256');
  try {
    for (const p of paths) {
      const line = Buffer.from(manifestLine(createHash('sha256').update(readFileSync(join(site, p))).digest('hex'), p));
      writeSync(fd, line);
      digest.update(line);
    }
  } finally {
    closeSync(fd);
  }
  renameSync(scratch, join(site, MANIFEST_FILE));
  rmSync(join(folder, TREE_SHA256_FILE), { force: true });
  const sha256 = digest.digest('hex');
  const buildJson = join(folder, 'build.json');
  const info = JSON.parse(readFileSync(buildJson, 'utf8')) as Record<string, unknown>;
  const next = `${buildJson}.partial-${process.pid}`;
  writeFileSync(next, JSON.stringify({ ...info, manifestSha256: sha256 }, null, 2) + '\n');
  renameSync(next, buildJson);
  return sha256;
}
