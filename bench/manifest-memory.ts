/**
 * The tree manifest's DuckDB work at N files, with synthetic rows and no file read (every file hashed: a build into
 * an empty folder, the worst case), the way tree-manifest.ts does it now (`new`: a sorted stream, then the saved
 * rows joined in one COPY) or did before 2026-11-26 (`old`: one table of every file, UPDATE, sort again), under the
 * build's DuckDB settings (2 threads, 1 GB, a scratch folder to spill to). Prints the time and peak RSS.
 * `written`: as tree-manifest.ts does since the writer hands over each file's SHA-256 (every file's row appended
 * as the writer would, reduced to the last row per path, joined to the files; nothing read back).
 * `node bench/manifest-memory.ts new 7400000` (docs/tree-manifest.md "Memory"). The file reads are not modelled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { openDuckDB, run, sqlString, streamKeyedText, streamJoinedBytes } from '../lib/duckdb.ts';
import { checksumRecordSql } from '../core/radar/record-sql.ts';
const [mode, nArg] = process.argv.slice(2);
const n = Number(nArg);
const scratch = mkdtempSync(join(tmpdir(), 'snapcat-manifest-memory-'));
const db = await openDuckDB({ threads: 2, memoryLimit: '1GB', tempDirectory: scratch });
const conn = await db.connect();
let peak = 0; const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
const t0 = performance.now();
const pathSql = `'radarnet/mirror/v3/' || (['files/','transfers/','transferred/files/','coverage/'])[1 + i % 4] || (i // 4) || (['.json','.expanded.json','.csv','.sha1'])[1 + (i // 7) % 4]`;
const files = `SELECT ${pathSql} AS path, CAST(hash(i) AS VARCHAR) AS digest FROM range(${n}) r(i)`;
const stage = (what: string) => console.error(`  ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s, RSS ${(process.memoryUsage.rss() / 1e6).toFixed(0)} MB`);
// the hashed files' SHA-256s, as the appender would hold them (every file: a build into an empty folder)
const hashedSql = `SELECT path, sha256(path) AS sha256 FROM (${files})`;
let bytes = 0;
// the spill folder goes however the run ends (the `old` mode runs out of memory at millions of files: 0.8 GB spilled)
try {
if (mode === 'old') {
  await run(conn, `CREATE TABLE sha AS SELECT path, digest, NULL::VARCHAR AS sha256 FROM (${files})`);
  await run(conn, `CREATE TABLE hashed AS ${hashedSql}`);
  await run(conn, `UPDATE sha SET sha256 = h.sha256 FROM hashed h WHERE sha.path = h.path`);
  await run(conn, `COPY sha TO ${sqlString(join(scratch, 'out.parquet'))} (FORMAT parquet)`);
  for await (const b of streamJoinedBytes(conn, { sql: `SELECT 0 AS k, ${checksumRecordSql('sha256', 'path')} AS t FROM sha ORDER BY path`, params: {} }, '', '\n')) bytes += b.bytes.length;
} else if (mode === 'written') {
  // the WrittenSha256 rows (seq, path, sha256 BLOB, link), then tree-manifest.ts's reduction and join
  await run(conn, `CREATE TABLE written (seq BIGINT, path VARCHAR, sha256 BLOB, link VARCHAR)`);
  await run(conn, `INSERT INTO written SELECT i, ${pathSql}, unhex(sha256(${pathSql})), NULL FROM range(${n}) r(i)`);
  stage('rows appended');
  await run(
    conn,
    `CREATE TABLE written_last AS SELECT w.path, w.sha256, w.link FROM written w SEMI JOIN (SELECT path, max(seq) AS seq FROM written GROUP BY path) m ON m.path = w.path AND m.seq = w.seq`,
  );
  await run(conn, `DROP TABLE written`);
  await run(
    conn,
    `CREATE TABLE written_sha256 AS
     SELECT regexp_replace(r.path, '^/+', '') AS path, CASE WHEN r.link IS NULL THEN r.sha256 ELSE s.sha256 END AS sha256
     FROM written_last r LEFT JOIN written_last s ON s.path = r.link AND s.link IS NULL
     WHERE CASE WHEN r.link IS NULL THEN r.sha256 ELSE s.sha256 END IS NOT NULL`,
  );
  await run(conn, `DROP TABLE written_last`);
  stage('last row of each path');
  const known = `SELECT f.path, f.digest, lower(hex(w.sha256)) AS sha256, w.sha256 IS NOT NULL AS written FROM (${files}) f LEFT JOIN written_sha256 w ON w.path = f.path`;
  for await (const b of streamKeyedText(conn, { sql: `SELECT CASE WHEN sha256 IS NULL THEN 1 WHEN written THEN 2 ELSE 0 END AS k, CASE WHEN sha256 IS NULL THEN path ELSE ${checksumRecordSql('sha256', 'path')} END AS t FROM (${known}) ORDER BY path`, params: {} })) {
    let text = ''; for (const x of b.texts) text += `${x}\n`; bytes += Buffer.byteLength(text);
  }
  await run(conn, `COPY (SELECT k.path, k.digest, k.sha256 FROM (${known}) k) TO ${sqlString(join(scratch, 'out.parquet'))} (FORMAT parquet)`);
} else {
  await run(conn, `CREATE TABLE hashed AS ${hashedSql}`);
  const known = `SELECT f.path, f.digest, NULL::VARCHAR AS sha256 FROM (${files}) f`;
  for await (const b of streamKeyedText(conn, { sql: `SELECT CASE WHEN sha256 IS NULL THEN 1 ELSE 0 END AS k, CASE WHEN sha256 IS NULL THEN path ELSE ${checksumRecordSql('sha256', 'path')} END AS t FROM (${known}) ORDER BY path`, params: {} })) {
    let text = ''; for (const x of b.texts) text += `${'0'.repeat(64)}  ${x}\n`; bytes += Buffer.byteLength(text);
  }
  await run(conn, `COPY (SELECT k.path, k.digest, coalesce(k.sha256, h.sha256) AS sha256 FROM (${known}) k LEFT JOIN hashed h ON h.path = k.path) TO ${sqlString(join(scratch, 'out.parquet'))} (FORMAT parquet)`);
}
} finally {
  clearInterval(t);
  conn.closeSync();
  db.closeSync();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`${mode} ${n}: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(0)} MB of lines, peak RSS ${(Math.max(peak, process.memoryUsage.rss()) / 1e6).toFixed(0)} MB, maxRSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB`);
