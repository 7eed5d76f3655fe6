/**
 * The tree manifest as build-scripts/lib/tree-manifest.ts wrote it before it streamed (until 2026-11-26): every
 * file's row in one table, the hashed ones updated into it, then the whole sorted again for the manifest. Kept
 * only so that a test can show the streaming writer's manifest and saved state are the same bytes and rows
 * (tree-manifest.test.ts); it holds the whole tree in DuckDB at once (9.2 GB resident at 7.4 million files).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { checksumRecordSql } from '../../core/radar/record-sql.ts';
import { all, run, sqlString, streamJoinedBytes, streamKeyedText } from '../../lib/duckdb.ts';

const SHA = 'memory.main.tree_sha256_before';
const HASHED = 'memory.main.tree_sha256_hashed_before';

/** The manifest's bytes and this build's rows of tree-sha256.parquet (written to `parquetOut`), as before. */
export async function manifestBefore(conn: DuckDBConnection, recorderConn: DuckDBConnection, site: string, filesSql: string, baseParquet: string | undefined, parquetOut: string): Promise<{ manifest: Buffer; hashed: number }> {
  const baseSql = baseParquet !== undefined && existsSync(baseParquet) ? `read_parquet(${sqlString(baseParquet)})` : `(SELECT NULL::VARCHAR AS path, NULL::VARCHAR AS digest, NULL::VARCHAR AS sha256 WHERE false)`;
  const files = `SELECT regexp_replace(path, '^/+', '') AS path, digest FROM (${filesSql})`;
  await run(conn, `CREATE OR REPLACE TABLE ${SHA} AS SELECT f.path, f.digest, b.sha256 FROM (${files}) f LEFT JOIN ${baseSql} b ON b.path = f.path AND b.digest = f.digest WHERE f.path <> 'manifest.sha256'`);
  await run(conn, `CREATE OR REPLACE TABLE ${HASHED} (path VARCHAR, sha256 VARCHAR)`);
  const appender = await recorderConn.createAppender('tree_sha256_hashed_before', 'main', 'memory');
  let hashed = 0;
  try {
    for await (const batch of streamKeyedText(conn, { sql: `SELECT 0 AS k, path FROM ${SHA} WHERE sha256 IS NULL`, params: {} })) {
      for (const path of batch.texts) {
        appender.appendVarchar(path!);
        appender.appendVarchar(createHash('sha256').update(readFileSync(join(site, path!))).digest('hex'));
        appender.endRow();
        hashed++;
      }
    }
  } finally {
    appender.closeSync();
  }
  await run(conn, `UPDATE ${SHA} SET sha256 = h.sha256 FROM ${HASHED} h WHERE ${SHA}.path = h.path`);
  const [counts] = await all(conn, `SELECT count(*) AS files, count(sha256) AS known FROM ${SHA}`);
  if (Number(counts!['files']) !== Number(counts!['known'])) throw new Error('manifest (before): files without a SHA-256');
  await run(conn, `COPY (SELECT path, digest, sha256 FROM ${SHA}) TO ${sqlString(parquetOut)} (FORMAT parquet, COMPRESSION zstd)`);
  const parts: Uint8Array[] = [];
  for await (const batch of streamJoinedBytes(conn, { sql: `SELECT 0 AS k, ${checksumRecordSql('sha256', 'path')} AS t FROM ${SHA} ORDER BY path`, params: {} }, '', '\n')) parts.push(batch.bytes);
  await run(conn, `DROP TABLE ${SHA}`);
  await run(conn, `DROP TABLE ${HASHED}`);
  const manifest = Buffer.concat(parts);
  return { manifest, hashed };
}
