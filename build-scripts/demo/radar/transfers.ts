/**
 * Transfers, their logs and the transferred-file instances.
 *
 * Each radar's transfers run on a schedule: transfer k starts at phase + k · every (every 2, 3, 4
 * or 6 hours, per radar) plus up to 20 minutes of delay, so `kafter(t)` (the first transfer
 * starting after instant t) is a formula, not a search. A transfer exists when it brings at least
 * one file and has finished by the snapshot instant; its size is the sum of its files' sizes and
 * its duration follows from a rate typical of the tool (rsync ~6 MB/s, scp ~4 MB/s, sftp ~2.5 MB/s),
 * scaled by the site's link (Antarctic satellite links ~0.5 MB/s) and by the era (12 % slower per
 * year before 2023), with log-normal spread. 2 % of transfers report an error (they bring fewer
 * files: see file-details.ts). The data come from the radar's institute or, for some transfers,
 * through another mirror node (University of Saskatchewan or British Antarctic Survey).
 * Transfer ids follow the end (then radar and k): the mirror records a transfer when it finishes.
 */
import { transferLogPathSql, tsSql } from './file-names.ts';
import { logChecksumSql } from './file-content.ts';
import type { SqlSession } from './sql-session.ts';

export const TRANSFER_MACROS = [
  `CREATE OR REPLACE MACRO tstart(r, k, every, phase, jitter) AS phase + k * every + floor(u(r, k, 200, 0) * jitter)::BIGINT`,
  `CREATE OR REPLACE MACRO kafter(r, t, every, phase, jitter) AS
     CASE WHEN tstart(r, (t - phase) // every, every, phase, jitter) > t THEN (t - phase) // every ELSE (t - phase) // every + 1 END`,
];

/** Tables `inst_raw` (every arrival), `tr` (transfers that finished by `toS`, with ids) and `inst`. */
export async function buildTransfers(db: SqlSession, toS: number): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE inst_raw AS
    SELECT cid, r, k_p AS k, st_p AS st, size FROM fc
    UNION ALL SELECT cid, r, k_rep, st_rep, size FROM fc WHERE k_rep IS NOT NULL
    UNION ALL SELECT cid, r, k_old, st_old, size FROM fc WHERE k_old IS NOT NULL`);
  await db.run(`CREATE OR REPLACE TABLE tr AS
    WITH a AS (SELECT r, k, sum(size)::BIGINT AS size FROM inst_raw GROUP BY r, k),
    b AS (
      SELECT a.r, a.k, a.size, p.code, p.link_factor,
        tstart(a.r, a.k, p.t_every, p.t_phase, p.t_jitter) AS t_start,
        CASE WHEN u(a.r, a.k, 202, 0) < 0.94 THEN p.method_id
             ELSE (p.method_id + floor(u(a.r, a.k, 203, 0) * 2)::BIGINT) % 3 + 1 END AS method_id,
        u(a.r, a.k, 201, 0) < 0.02 AS is_error,
        CASE WHEN u(a.r, a.k, 207, 0) < p.p_relay THEN p.relay_institute_id ELSE p.institute_id END AS institute_id
      FROM a JOIN radar_params p USING (r)
    ),
    c AS (
      SELECT *,
        greatest(1, ceil(size / (CASE method_id WHEN 1 THEN 6e6 WHEN 2 THEN 2.5e6 ELSE 4e6 END * link_factor
          * exp(least(0, 0.12 * (t_start / 31556952.0 + 1970 - 2023))) * exp(0.5 * gauss(r, k, 204)))))::BIGINT
          + 2 + floor(u(r, k, 206, 0) * 25)::BIGINT AS duration
      FROM b
    )
    SELECT r, k, code, t_start, t_start + duration AS t_end, duration, size, size // duration AS rate, method_id, is_error, institute_id
    FROM c WHERE t_start + duration <= ${toS} ORDER BY t_end, r, k`);
  // Stored in id order: transfer id = row id + 1. A transfer is recorded when it ends, so ids follow the
  // end: those that ended by an earlier snapshot's instant keep their ids, and a transfer running at that
  // instant gets its id when it ends, after them.
  await db.run(`CREATE OR REPLACE TABLE inst AS
    SELECT i.cid, t.rowid + 1 AS transfer_id, i.st, t.t_end FROM inst_raw i JOIN tr t ON t.r = i.r AND t.k = i.k`);
  await db.run('DROP TABLE inst_raw');
}

/** SQL of the Parquet tables `transfer_logs` and `transfers` (transfer log id = transfer id). */
export function transferLogsSql(): string {
  return `SELECT id, file_path, ${logChecksumSql('file_path')} AS checksum, r AS radar_id, institute_id
    FROM (SELECT id, r, institute_id, ${transferLogPathSql()} AS file_path
          FROM (SELECT rowid + 1 AS id, *, CASE method_id WHEN 1 THEN 'rsync' WHEN 2 THEN 'sftp' ELSE 'scp' END AS method FROM tr))`;
}

export function transfersSql(): string {
  return `SELECT id, id AS transfer_log_id, ${tsSql('t_start')} AS start_datetime, ${tsSql('t_end')} AS end_datetime,
      duration, size, rate, method_id, is_error
    FROM (SELECT rowid + 1 AS id, * FROM tr)`;
}

/** SQL of `transfer_instances`, once `files_out` (kept files with ids) exists. */
export function transferInstancesSql(): string {
  return `SELECT f.id AS file_id, i.transfer_id, i.st AS status_id
    FROM inst i JOIN files_out f USING (cid) ORDER BY file_id, transfer_id`;
}
