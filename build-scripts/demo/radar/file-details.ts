/**
 * Table `fc`: every candidate file with its size, record interval, checksum presence, status
 * and the transfers that bring it (as transfer indices `k` of its radar, see transfers.ts).
 *
 * Sizes (bytes), log-normal around a median that grows with the years:
 * - rawacf: 33 MB in mid-2023, 6.5 % less per year before (about 12 MB in 2006); fitacf about 12 %
 *   of its rawacf; `.dat`: 15 KB in 1993, growing 35 % a year;
 * - scaled by the radar (beams, site) and by the fraction of the 2-hour slot the file covers;
 *   2.5 % of files are cut short (log-uniform down to 300 bytes) and 0.06 % are nearly empty
 *   (under 55 bytes: the mirror's `small`).
 * Arrival: the first transfer of the radar that starts after the file ends (with a 2 % chance a
 * transfer fails and half its files come with the next one); 3 % of files come again a few
 * transfers later (60 % after a bzip2 failure), a quarter of those with a different hash
 * (`nomatch`); late batches (late-files.ts) arrive, or arrive again, as `old`.
 */
import { SLOT_SECONDS } from './radar-profiles.ts';
import type { SqlSession } from './sql-session.ts';
import { fileChecksumSql } from './file-content.ts';
import { filePathSql, tsSql } from './file-names.ts';
import { FILE_BLACKLISTED, FILE_OK, FT_FITACF, TS } from './vocabularies.ts';

const YEAR_SECONDS = 31_556_952;

export async function buildFileDetails(db: SqlSession): Promise<void> {
  const year = `(c.fstart / ${YEAR_SECONDS}.0 + 1970)`;
  const median = `CASE WHEN c.ft = 1 THEN 15e3 * exp(0.30 * (${year} - 1993.7)) ELSE 33e6 * exp(0.065 * (${year} - 2023.5)) END
    * p.size_factor * CASE WHEN c.nch > 1 THEN 0.6 ELSE 1 END`;
  const frac = `least(1.0, (c.fend - c.fstart) / ${SLOT_SECONDS}.0)`;
  const kafter = (t: string): string => `kafter(c.r, ${t}, p.t_every, p.t_phase, p.t_jitter)`;
  await db.run(`CREATE OR REPLACE TABLE fc AS
    WITH a AS (
      SELECT c.cid, c.r, c.fk, c.ft, c.filename, c.fstart, c.fend, c.blocked, c.prerange, ls.send_s,
        ${median} * exp(0.3 * gauss(c.r, c.fk, 100)) * ${frac} AS body,
        u(c.r, c.fk, 102, 0) AS v_tail,
        ${kafter('CASE WHEN c.prerange THEN ls.send_s ELSE c.fend END')} AS k_a,
        CASE WHEN c.cid > 0 AND NOT c.prerange AND ls.send_s IS NOT NULL THEN ${kafter('ls.send_s')} END AS k_old
      FROM cand c JOIN radar_params p ON p.r = c.r
      -- equality only (a hash join): blocklisted extra files have negative keys, so they match no slot
      LEFT JOIN late_slots ls ON ls.r = c.r AND ls.s = c.fk // 8
    ), b AS (
      SELECT *,
        CASE WHEN v_tail < 0.0006 THEN floor(u(r, fk, 103, 0) * 55)
             WHEN v_tail < 0.025 THEN exp(ln(300) + u(r, fk, 104, 0) * greatest(0, ln(greatest(body, 300)) - ln(300)))
             ELSE body END AS base
      FROM a
    ), d AS (
      SELECT *,
        round(CASE WHEN ft = ${FT_FITACF} THEN base * 0.12 * exp(0.2 * gauss(r, fk, 105)) ELSE base END)::BIGINT AS size,
        CASE WHEN u(r, k_a, 201, 0) < 0.02 AND u(r, fk, 115, ft) < 0.5 THEN k_a + 1 ELSE k_a END AS k_p,
        u(r, fk, 119, ft) AS v_alarm
      FROM b
    ), e AS (
      SELECT *,
        CASE WHEN blocked THEN ${TS.blacklisted} WHEN size < 55 THEN ${TS.small} WHEN prerange THEN ${TS.old}
             WHEN v_alarm < 0.0003 THEN ${TS.notRegular} WHEN v_alarm < 0.0023 THEN ${TS.compressionFailure}
             WHEN v_alarm < 0.0033 THEN ${TS.compressionException} END AS st_p
      FROM d
    )
    SELECT cid, r, ft, filename, fstart, fend, blocked, size,
      CASE WHEN u(r, fk, 111, 0) < 0.02 OR size < 55 THEN NULL ELSE fstart + floor(u(r, fk, 112, 0) * 6)::BIGINT END AS dstart,
      CASE WHEN u(r, fk, 111, 0) < 0.02 OR size < 55 THEN NULL
           ELSE greatest(fstart + floor(u(r, fk, 112, 0) * 6)::BIGINT, fend - 1 - floor(u(r, fk, 113, 0) * 60)::BIGINT) END AS dend,
      u(r, fk, 110, ft) < 0.01 AS no_checksum,
      fend + 1 + floor(u(r, fk, 114, ft) * 90)::BIGINT AS last_mod,
      u(r, fk, 120, ft) AS v_updated,
      k_p, st_p,
      CASE WHEN u(r, fk, 116, ft) < CASE WHEN st_p IN (${TS.compressionFailure}, ${TS.compressionException}) THEN 0.6 ELSE 0.03 END
           THEN k_p + 1 + floor(u(r, fk, 117, ft) * 6)::BIGINT END AS k_rep,
      CASE WHEN blocked THEN ${TS.blacklisted} WHEN size < 55 THEN ${TS.small} WHEN u(r, fk, 118, ft) < 0.25 THEN ${TS.noMatch} END AS st_rep,
      k_old,
      CASE WHEN blocked THEN ${TS.blacklisted} WHEN size < 55 THEN ${TS.small} ELSE ${TS.old} END AS st_old
    FROM e`);
  await db.run('DROP TABLE cand');
}

/**
 * Table `files_sorted` and view `files_out`: the kept files (those that arrived by the snapshot
 * instant), stored in id order. File ids follow the first arrival (the first transfer that brought
 * the file, by transfer id, then start and name), as a mirror numbers records when it creates
 * them: a file that arrives after an earlier snapshot's instant, even one of an earlier day, gets an
 * id above all the files that snapshot holds, whose ids never change. Row ids are the file ids minus
 * one and scans return rows in insertion order, so writing the big tables needs no further sort.
 */
export async function buildFilesOut(db: SqlSession): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE files_sorted AS
    WITH kept AS (SELECT cid, min(transfer_id) AS first_transfer, max(t_end) AS arrival FROM inst GROUP BY cid)
    SELECT f.*, kept.first_transfer, kept.arrival,
      -- the channel chain a file belongs to, for coverage: its channel, or itself when blacklisted
      CASE WHEN f.blocked THEN -abs(f.cid) ELSE (f.cid % 4294967296) // 4 % 8 END AS chain
    FROM fc f JOIN kept USING (cid) ORDER BY kept.first_transfer, f.fstart, f.filename`);
  await db.run('DROP TABLE fc');
  await db.run('CREATE OR REPLACE VIEW files_out AS SELECT rowid + 1 AS id, * FROM files_sorted');
}

/** SQL of the Parquet table `files`. last_updated: when the record last changed, after the last arrival. */
export function filesSql(): string {
  return `SELECT id, filename, file_path,
      ${tsSql('fstart')} AS file_start_datetime, ${tsSql('fend')} AS file_end_datetime,
      CASE WHEN dstart IS NULL THEN NULL ELSE ${tsSql('dstart')} END AS data_start_datetime,
      CASE WHEN dend IS NULL THEN NULL ELSE ${tsSql('dend')} END AS data_end_datetime,
      ${tsSql('last_mod')} AS last_mod, size AS file_size,
      CASE WHEN blocked THEN ${FILE_BLACKLISTED} ELSE ${FILE_OK} END::BIGINT AS status_flag,
      CASE WHEN no_checksum THEN NULL ELSE ${fileChecksumSql('filename')} END AS checksum,
      true AS include_in_file_coverage,
      dstart IS NOT NULL AND NOT blocked AS include_in_data_coverage,
      ${tsSql('greatest(arrival, last_mod) + 5 + floor(v_updated * 300)')} AS last_updated,
      r AS radar_id, ft::BIGINT AS file_type_id
    FROM (SELECT *, ${filePathSql()} AS file_path FROM files_out)`;
}
