/**
 * The data files, generated inside DuckDB from the radar profiles (`radar_params`).
 *
 * Time is cut into 2-hour slots (slot s starts at s · 7200 s since 1970). A radar writes one file
 * per running channel in every slot of its operating period that is not in an outage:
 * - outages (`is_down`): multi-hour outages (1-8 slots, some days), multi-day outages (1-15 days,
 *   some 32-day epochs) and long gaps (weeks to months, some years; often for flaky radars and
 *   radars offline or under test), all pure functions of (seed, radar, slot);
 * - a file starts at the slot start plus a few seconds (often none); after an outage the radar
 *   restarts somewhere inside the slot; a file ends where the next one starts (so consecutive
 *   files touch), or, before an outage, sometimes early (the radar stopped);
 * - channels: multi-channel radars run all their channels in some 16-day blocks, else only `a`.
 * The big tables `slots` and `cand` are built here; file-details.ts gives the rest of each row.
 */
import { fileNameSql } from './file-names.ts';
import { RAWACF_ERA_S, SLOT_SECONDS } from './radar-profiles.ts';
import type { SqlSession } from './sql-session.ts';
import { sqlInt } from './sql-text.ts';
import { FT_DAT, FT_FITACF, FT_RAWACF } from './vocabularies.ts';

export const FILE_MACROS = [
  `CREATE OR REPLACE MACRO is_down(r, s, p_short, p_multi, p_gap, gap_lmin, gap_lmax) AS (
     hit(r, s, 12, 10, p_short, 1, 8)
     OR hit(r, s, 384, 20, p_multi, 12, 180)
     OR hit(r, s, 4380, 30, p_gap, gap_lmin, gap_lmax))`,
  // Start delay of a file after its slot boundary: none for a third of the files, else 1-20 s.
  `CREATE OR REPLACE MACRO jit(r, s, ch) AS
     CASE WHEN u(r, s, 51, ch) < 0.35 THEN 0 ELSE 1 + floor(u(r, s, 52, ch) * 20)::BIGINT END`,
];

/** Tables `channels` and `slots`: the up slots of every radar, in range or in a late batch. */
export async function buildSlots(db: SqlSession): Promise<void> {
  await db.run(`CREATE OR REPLACE TABLE channels AS
    SELECT * FROM (VALUES (0, 'a'), (1, 'b'), (2, 'c'), (3, 'd')) t(ch, chl)`);
  const down = (s: string): string => `is_down(b.r, ${s}, p.p_short, p.p_multi, p.p_gap, p.gap_lmin, p.gap_lmax)`;
  await db.run(`CREATE OR REPLACE TABLE slots AS
    WITH base AS (
      SELECT r, unnest(range(slot_lo, slot_hi)) AS s, false AS prerange FROM radar_params WHERE slot_hi > slot_lo
      UNION ALL
      SELECT l.r, l.s, true FROM late_slots l JOIN radar_params p USING (r) WHERE l.s < p.slot_lo
    )
    SELECT b.r, b.s, b.prerange,
      b.s > p.slot_lo AND ${down('b.s - 1')} AS restart,
      ${down('b.s + 1')} AS next_down,
      CASE WHEN p.max_ch > 1 AND u(b.r, b.s // 192, 40, 0) < p.p_multi_block THEN p.max_ch ELSE 1 END AS nch
    FROM base b JOIN radar_params p USING (r)
    WHERE NOT ${down('b.s')}`);
}

/**
 * Table `cand`: one row per generated file and per blocklisted file, with its identity
 * (`cid`, unique), radar, type, start/end (seconds), name and blocklist flag.
 */
export async function buildCandidates(db: SqlSession): Promise<void> {
  const slot = sqlInt(SLOT_SECONDS);
  await db.run(`CREATE OR REPLACE TABLE gen AS
    WITH t AS (
      SELECT sl.r, sl.s, c.ch, c.chl, sl.nch, sl.prerange, sl.next_down, p.code, p.letter,
        CASE WHEN sl.restart THEN sl.s * ${slot} + 60 + floor(u(sl.r, sl.s, 50, 0) * 6600)::BIGINT + c.ch
             ELSE sl.s * ${slot} + jit(sl.r, sl.s, c.ch) END AS fstart
      FROM slots sl JOIN channels c ON c.ch < sl.nch JOIN radar_params p ON p.r = sl.r
    ), e AS (
      SELECT *,
        CASE WHEN next_down AND u(r, s, 53, 0) < 0.5
             THEN fstart + 300 + floor(u(r, s, 54, 0) * greatest(0, (s + 1) * ${slot} - fstart - 300))::BIGINT
             ELSE (s + 1) * ${slot} + jit(r, s + 1, ch) END AS fend,
        unnest(CASE WHEN fstart >= ${sqlInt(RAWACF_ERA_S)} THEN [${FT_RAWACF}, ${FT_FITACF}]
                    WHEN letter IS NULL THEN []::INTEGER[] ELSE [${FT_DAT}] END) AS ft
      FROM t
    )
    SELECT r * 4294967296 + (s * 8 + ch) * 4 + ft AS cid, r, s * 8 + ch AS fk, ft, nch, prerange, fstart, fend,
      ${fileNameSql()} AS filename
    FROM e`);
  await db.run(`CREATE OR REPLACE TABLE cand AS
    SELECT g.cid, g.r, g.fk, g.ft, g.nch, g.prerange, g.fstart, g.fend, g.filename, b.filename IS NOT NULL AS blocked
    FROM gen g LEFT JOIN blocked b ON b.r = g.r AND b.filename = g.filename
    UNION ALL
    SELECT b.cid, b.r, b.cid, b.ft, 1, false, b.fstart, b.fstart + ${slot}, b.filename, true
    FROM blocked b WHERE NOT EXISTS (SELECT 1 FROM gen g WHERE g.r = b.r AND g.filename = b.filename)`);
  await db.run('DROP TABLE gen');
}
