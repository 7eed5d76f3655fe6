/**
 * Temporal coverage: contiguous intervals per radar, file type and coverage type, from the kept
 * files (`files_out`).
 * - `file` coverage: file start..end of the files counted in file coverage; files that touch or
 *   overlap merge, any gap (> 0 s) starts a new interval. Status 1 (blacklisted) when an interval
 *   holds a blacklisted file, else 0.
 * - `data` coverage: first..last record (data_start..data_end) of the files counted in data
 *   coverage. Records inside consecutive files never touch (the last record of one file ends a
 *   little before the next file's first), so data intervals merge across gaps of up to
 *   DATA_GAP_TOLERANCE_S seconds, the normal hand-over between files; longer gaps break them.
 *
 * Ids, as a mirror that keeps the table up to date file by file numbers its rows: a file that
 * arrives touching no interval of files that arrived before it (by file id, the arrival order)
 * creates an interval, numbered in creation order (file id, then coverage type); a file that
 * touches one extends it; a file that fills the gap between two merges them into the older one,
 * and the younger row goes (its id is not used again). So an interval keeps its id as it grows,
 * ids ascend with creation, not with the start, and have holes where intervals merged. A snapshot
 * of one more day holds the same ids for the same intervals, grown, plus the new ones.
 */
import { tsSql } from './file-names.ts';
import type { SqlSession } from './sql-session.ts';
import { COV_DATA, COV_FILE, FILE_OK } from './vocabularies.ts';

/** Width (seconds) of the time buckets that find the files touching a file. */
const BUCKET_S = 7200;

export const DATA_GAP_TOLERANCE_S = 180;

/**
 * Tables `cov_i` (the intervals, without ids), `cov_c` (the files that created an interval, with
 * their creation number) and `cov_out` (the intervals with ids), once `files_out` exists.
 *
 * The intervals: files of one channel of a radar and type form a chain of disjoint intervals in
 * start order, so chain islands only need lag/lead (one sorted pass) and a filter keeps their
 * boundary rows; then chain islands of all channels (blacklisted files are chains of their own)
 * are merged with a running maximum of the ends.
 *
 * The creators: a file created an interval when no file with a smaller id touches it. The same
 * sorted pass settles most files (a chain neighbour with a smaller id touches them); the few
 * others (chain island starts, files that arrived after a neighbour) are checked against every
 * file of their radar, type and coverage type near them in time (a join on 2-hour buckets).
 * An interval's id is the smallest creation number among its creators: that of its first file.
 */
export async function buildCoverage(db: SqlSession): Promise<void> {
  const longest = Number((await db.query('SELECT coalesce(max(fend - fstart), 0) AS l FROM files_out'))[0]!.l);
  const members = `SELECT id AS fid, r, ft, ${COV_FILE} AS ct, chain, fstart AS s, fend AS e, CASE WHEN blocked THEN 1 ELSE ${FILE_OK} END AS flag, 0 AS tol
      FROM files_out
      UNION ALL
      SELECT id, r, ft, ${COV_DATA}, chain, dstart, dend, ${FILE_OK}, ${DATA_GAP_TOLERANCE_S}
      FROM files_out WHERE dstart IS NOT NULL AND NOT blocked AND size >= 55`;
  await db.run(`CREATE OR REPLACE TABLE cov_b AS
    WITH n AS (
      SELECT *, lag(e) OVER w AS pe, lag(fid) OVER w AS pid, lead(s) OVER w AS ns, lead(fid) OVER w AS nid
      FROM (${members}) WINDOW w AS (PARTITION BY r, ft, ct, chain ORDER BY s, fid)
    )
    SELECT r, ft, ct, chain, s, e, flag, tol, fid,
      pe IS NULL OR s > pe + tol AS is_start, ns IS NULL OR ns > e + tol AS is_end,
      NOT ((pe IS NOT NULL AND s <= pe + tol AND pid < fid) OR (ns IS NOT NULL AND ns <= e + tol AND nid < fid)) AS cand
    FROM n WHERE pe IS NULL OR s > pe + tol OR ns IS NULL OR ns > e + tol
      OR NOT ((pe IS NOT NULL AND s <= pe + tol AND pid < fid) OR (ns IS NOT NULL AND ns <= e + tol AND nid < fid))`);
  await db.run(`CREATE OR REPLACE TABLE cov_i AS
    WITH b AS (SELECT * FROM cov_b WHERE is_start OR is_end), c AS (
      SELECT r, ft, ct, s, CASE WHEN is_end THEN e ELSE lead(e) OVER (PARTITION BY r, ft, ct, chain ORDER BY s, fid) END AS e, flag, tol, is_start
      FROM b
    ), g AS (
      -- chain islands of all channels: an island starting after the running maximum of the ends (plus the tolerance) breaks
      SELECT *, max(e) OVER (PARTITION BY r, ft, ct ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS reach FROM c WHERE is_start
    ), h AS (
      SELECT *, CASE WHEN s > lag(reach) OVER (PARTITION BY r, ft, ct ORDER BY s, e) + tol THEN 1 ELSE 0 END AS brk FROM g
    ), k AS (
      SELECT *, sum(brk) OVER (PARTITION BY r, ft, ct ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island FROM h
    )
    SELECT r, ft, ct, min(s) AS s, max(e) AS e, max(flag) AS flag FROM k GROUP BY r, ft, ct, island`);
  await db.run(`CREATE OR REPLACE TABLE cov_c AS
    WITH x AS (SELECT fid, r, ft, ct, s, e, tol FROM cov_b WHERE cand),
    xb AS (SELECT *, unnest(range((s - ${longest} - tol) // ${BUCKET_S}, (e + tol) // ${BUCKET_S} + 1)) AS bk FROM x),
    m AS (SELECT fid, r, ft, ct, s, e, s // ${BUCKET_S} AS bk FROM (${members})),
    beaten AS (
      SELECT DISTINCT xb.fid, xb.ct FROM xb JOIN m ON m.r = xb.r AND m.ft = xb.ft AND m.ct = xb.ct AND m.bk = xb.bk
      WHERE m.fid < xb.fid AND m.s <= xb.e + xb.tol AND xb.s <= m.e + xb.tol
    )
    SELECT row_number() OVER (ORDER BY x.fid, x.ct) AS n, x.fid, x.r, x.ft, x.ct, x.s
    FROM x ANTI JOIN beaten USING (fid, ct) ORDER BY n`);
  await db.run(`CREATE OR REPLACE TABLE cov_out AS
    WITH first AS (
      SELECT i.r, i.ft, i.ct, i.s, min(c.n) AS id FROM cov_c c ASOF JOIN cov_i i ON c.r = i.r AND c.ft = i.ft AND c.ct = i.ct AND c.s >= i.s
      GROUP BY i.r, i.ft, i.ct, i.s
    )
    SELECT first.id, i.* FROM cov_i i JOIN first USING (r, ft, ct, s) ORDER BY first.id`);
  const [check] = await db.query('SELECT (SELECT count(*) FROM cov_i) AS intervals, (SELECT count(*) FROM cov_out) AS numbered');
  if (check!.intervals !== check!.numbered) throw new Error(`radar demo: ${check!.intervals} coverage intervals but ${check!.numbered} with an id`);
  for (const t of ['cov_b', 'cov_c']) await db.run(`DROP TABLE ${t}`);
}

/** SQL of the Parquet table `temporal_coverage`, once buildCoverage() has run. */
export function temporalCoverageSql(): string {
  return `SELECT id, r AS radar_id, ft AS file_type_id, ct AS coverage_type_id,
      ${tsSql('s')} AS start_datetime, ${tsSql('e')} AS end_datetime, (e - s)::BIGINT AS duration, flag::BIGINT AS status_flag
    FROM cov_out ORDER BY id`;
}
