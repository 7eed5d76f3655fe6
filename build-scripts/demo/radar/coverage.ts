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
 * Ids ascend with the start (then radar, file type, coverage type).
 */
import { tsSql } from './file-names.ts';
import { COV_DATA, COV_FILE, FILE_OK } from './vocabularies.ts';

export const DATA_GAP_TOLERANCE_S = 180;

/**
 * SQL of the Parquet table `temporal_coverage`, once `files_out` exists.
 *
 * Two steps keep the window work small at scale. Files of one channel of a radar and type form
 * a chain of disjoint intervals in start order, so chain islands only need lag/lead (one sorted
 * pass) and a filter keeps their boundary rows; then chain islands of all channels (blacklisted
 * files are chains of their own) are merged with a running maximum of the ends.
 */
export function temporalCoverageSql(): string {
  return `WITH f AS (
      SELECT r, ft, ${COV_FILE} AS ct, chain, fstart AS s, fend AS e, CASE WHEN blocked THEN 1 ELSE ${FILE_OK} END AS flag, 0 AS tol
      FROM files_out
      UNION ALL
      SELECT r, ft, ${COV_DATA}, chain, dstart, dend, ${FILE_OK}, ${DATA_GAP_TOLERANCE_S}
      FROM files_out WHERE dstart IS NOT NULL AND NOT blocked AND size >= 55
    ), n AS (
      SELECT *, lag(e) OVER w AS pe, lead(s) OVER w AS ns
      FROM f WINDOW w AS (PARTITION BY r, ft, ct, chain ORDER BY s)
    ), b AS (
      -- boundary rows of the chain islands: first and last file of each
      SELECT r, ft, ct, chain, s, e, flag, tol, pe IS NULL OR s > pe + tol AS is_start, ns IS NULL OR ns > e + tol AS is_end
      FROM n WHERE pe IS NULL OR s > pe + tol OR ns IS NULL OR ns > e + tol
    ), c AS (
      SELECT r, ft, ct, s, CASE WHEN is_end THEN e ELSE lead(e) OVER (PARTITION BY r, ft, ct, chain ORDER BY s) END AS e, flag, tol, is_start
      FROM b
    ), g AS (
      -- chain islands of all channels: an island starting after the running maximum of the ends (plus the tolerance) breaks
      SELECT *, max(e) OVER (PARTITION BY r, ft, ct ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS reach FROM c WHERE is_start
    ), h AS (
      SELECT *, CASE WHEN s > lag(reach) OVER (PARTITION BY r, ft, ct ORDER BY s, e) + tol THEN 1 ELSE 0 END AS brk FROM g
    ), k AS (
      SELECT *, sum(brk) OVER (PARTITION BY r, ft, ct ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island FROM h
    ), i AS (
      SELECT r, ft, ct, min(s) AS s, max(e) AS e, max(flag) AS flag FROM k GROUP BY r, ft, ct, island
    )
    SELECT row_number() OVER (ORDER BY s, r, ft, ct) AS id, r AS radar_id, ft AS file_type_id, ct AS coverage_type_id,
      ${tsSql('s')} AS start_datetime, ${tsSql('e')} AS end_datetime, (e - s)::BIGINT AS duration, flag::BIGINT AS status_flag
    FROM i ORDER BY id`;
}
