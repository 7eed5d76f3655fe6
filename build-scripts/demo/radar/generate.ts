/**
 * The radar data-mirror demo (API `radarnet-mirror-v3`): one Parquet file per table of
 * RADAR_TABLES, realistic and deterministic for a seed.
 *
 * Small tables (radars, institutes, vocabularies) are built in JS from the real SuperDARN
 * reference data; the big ones (files, transfers, transfer instances, coverage) are generated
 * inside DuckDB from integer ranges with hash-based pseudo-random numbers (random.ts), so every
 * row is a pure function of (seed, radar, slot, ...) and 30 years stream to Parquet with bounded
 * memory (a file-backed working database that spills to a temporary folder).
 *
 * The snapshot instant (`takenAt`) only cuts: what has happened by then (a file has started, a
 * transfer has ended, a late batch has been sent) is in, the rest is not, and ids follow the order
 * in which the mirror records things (transfers by their end, files by their first arrival,
 * coverage intervals by their creation). So the snapshot of one more day, from the same `from`
 * and seed, holds every row of this one with the same id and values, but for the changes a day
 * brings to earlier rows: a radar's latest_data, a file's last_updated when it arrives again, a
 * coverage interval that grows or merges into an older one (test/integration/demo-prefix.test.ts).
 */
import { RADAR_TABLES } from '../../../core/snapshot/radar-tables.ts';
import type { DemoOptions } from '../options.ts';
import { blockedFiles, readBlocklist } from './blocklist.ts';
import { buildCoverage, temporalCoverageSql } from './coverage.ts';
import { buildFileDetails, buildFilesOut, filesSql } from './file-details.ts';
import { FILE_MACROS, buildCandidates, buildSlots } from './files.ts';
import { lateSlots } from './late-files.ts';
import { PROFILE_COLUMNS, SLOT_SECONDS, profileRow, radarProfiles } from './radar-profiles.ts';
import { SUPERDARN_DATA_DIR, readReferenceData } from './radars.ts';
import { randomMacros } from './random.ts';
import { loadRadarsBase, radarsSql, writeLookupTables } from './small-tables.ts';
import { openSession, type SqlSession } from './sql-session.ts';
import { TRANSFER_MACROS, buildTransfers, transferInstancesSql, transferLogsSql, transfersSql } from './transfers.ts';

/** Checks that every written table has exactly the contract's columns, in order. */
async function checkColumns(db: SqlSession, outDir: string): Promise<void> {
  for (const t of RADAR_TABLES) {
    const rows = await db.query(`DESCRIBE SELECT * FROM read_parquet('${outDir.replaceAll("'", "''")}/${t.name}.parquet')`);
    const got = rows.map((r) => String(r.column_name)).join(',');
    const want = t.columns.map((c) => c.name).join(',');
    if (got !== want) throw new Error(`radar demo: ${t.name}.parquet has columns ${got}, expected ${want}`);
  }
}

export async function generateRadarDemo(o: DemoOptions): Promise<void> {
  const t0 = performance.now();
  const fromS = Math.floor(o.from.getTime() / 1000);
  const toS = Math.floor(o.takenAt.getTime() / 1000);
  if (fromS % SLOT_SECONDS !== 0 || toS <= fromS) throw new Error('radar demo: from must be a UTC midnight before takenAt');
  let lap = t0;
  const say = (what: string): void => {
    const now = performance.now();
    const rss = (process.memoryUsage().rss / 1e6).toFixed(0);
    o.log(`radar demo: ${what} (${((now - lap) / 1000).toFixed(1)} s, total ${((now - t0) / 1000).toFixed(1)} s, rss ${rss} MB)`);
    lap = now;
  };

  const ref = readReferenceData();
  const profiles = radarProfiles(ref, o.seed, fromS, toS);
  const blocked = blockedFiles(readBlocklist(SUPERDARN_DATA_DIR), profiles, o.seed, fromS, toS);
  const late = lateSlots(profiles, o.seed, fromS, toS);

  const db = await openSession();
  try {
    for (const m of [...randomMacros(o.seed), ...FILE_MACROS, ...TRANSFER_MACROS]) await db.run(m);
    await db.load('radar_params', PROFILE_COLUMNS, profiles.map(profileRow));
    await db.load('late_slots', [['r', 'BIGINT'], ['s', 'BIGINT'], ['send_s', 'BIGINT']], late.map((l) => [l.radarId, l.slot, l.sendS]));
    await db.load('blocked', [['cid', 'BIGINT'], ['r', 'BIGINT'], ['filename', 'VARCHAR'], ['ft', 'BIGINT'], ['fstart', 'BIGINT']],
      blocked.map((b) => [-b.key, b.radarId, b.filename, b.fileTypeId, b.startS]));
    for (const [t, n] of await writeLookupTables(db, ref, o.outDir)) say(`${t}: ${n} rows`);
    await loadRadarsBase(db, ref, fromS, toS);

    await buildSlots(db);
    await buildCandidates(db);
    await buildFileDetails(db);
    say(`generated ${await count(db, 'fc')} candidate files (${blocked.length} blocklisted, ${late.length} late slots)`);
    await buildTransfers(db, toS);
    await buildFilesOut(db);
    await buildCoverage(db);

    const big: [string, string][] = [
      ['radars', radarsSql()],
      ['files', filesSql()],
      ['transfer_logs', transferLogsSql()],
      ['transfers', transfersSql()],
      ['transfer_instances', transferInstancesSql()],
      ['temporal_coverage', temporalCoverageSql()],
    ];
    for (const [table, sql] of big) say(`${table}: ${await db.copyParquet(sql, o.outDir, table)} rows`);
    await checkColumns(db, o.outDir);
  } finally {
    await db.close();
  }
  say('done');
}

async function count(db: SqlSession, table: string): Promise<number> {
  const rows = await db.query(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]!.n);
}
