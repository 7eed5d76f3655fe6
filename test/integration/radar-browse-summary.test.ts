/**
 * The radar browse pages count the two big collections (`/files`, `/transferred/files`) from the build's radar
 * browse summary (build-scripts/radar/browse-summary.ts, computed in DuckDB), no longer by scanning the tree's
 * expanded JSON collections. For the same build, filesByRadar() and transferActivity() return exactly what the
 * scan returned (test/helpers/radar-activity-scan.ts keeps it): every field, and every Map's keys in the same
 * order. Over the shared demo build, and over a demo snapshot whose file starts have sub-millisecond parts,
 * larger for smaller ids: the texts of the records cut them off, so files of one millisecond are ordered by id,
 * not by the exact timestamp.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { writeSiteData } from '../../build-scripts/site-data.ts';
import { SITE_DATA_DIR } from '../../core/site-data/documents.ts';
import { BROWSE_SUMMARY_FILE, RECENT } from '../../core/radar/browse-summary-file.ts';
import { openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import type { RadarFiles, TransferActivity } from '../../site/lib/radar-activity.ts';
import { runTmp } from '../helpers/paths.ts';

/** Maps as arrays of their entries, recursively: equal values then also list the keys in the same order. */
function plain(v: unknown): unknown {
  if (v instanceof Map) return [...v].map(([k, x]) => [k, plain(x)]);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

interface Both {
  summary: { files: Map<string, RadarFiles>; activity: TransferActivity };
  scan: { files: Map<string, RadarFiles>; activity: TransferActivity };
}

/** Both ways of one build folder, each from fresh modules (the site's caches are per module). */
async function bothWays(folder: string): Promise<Both> {
  const saved = process.env.SNAPCAT_BUILD;
  process.env.SNAPCAT_BUILD = await realpath(folder);
  // the site reads the summary through its page family's document, written before Astro runs (a build without a site has none yet)
  if (!existsSync(join(process.env.SNAPCAT_BUILD, SITE_DATA_DIR))) await writeSiteData(process.env.SNAPCAT_BUILD, () => {});
  vi.resetModules();
  try {
    const site = await import('../../site/lib/radar-activity.ts');
    const scan = await import('../helpers/radar-activity-scan.ts');
    return {
      summary: { files: site.filesByRadar(), activity: site.transferActivity() },
      scan: { files: scan.filesByRadarFromCollection(), activity: scan.transferActivityFromCollection() },
    };
  } finally {
    if (saved === undefined) delete process.env.SNAPCAT_BUILD;
    else process.env.SNAPCAT_BUILD = saved;
  }
}

function expectSame(b: Both): void {
  expect(plain(b.summary.files)).toStrictEqual(plain(b.scan.files));
  expect(plain(b.summary.activity)).toStrictEqual(plain(b.scan.activity));
}

describe('the radar browse summary', () => {
  let folder: string;

  beforeAll(async () => {
    const root = runTmp(inject('demoSnapshot'), `browse-summary-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const snapshot = join(root, 'snapshot');
    await writeDemoSnapshot({ from: '2024-02-26', days: 4, seed: 3, out: snapshot, apis: ['radarnet-mirror-v3'], log: () => {} });
    // each file starts 0-999 µs after its whole second, more for smaller ids (files of one start differ in id by a few)
    const files = join(snapshot, 'files.parquet');
    const db = await openDuckDB();
    const conn = await db.connect();
    try {
      await run(
        conn,
        `COPY (SELECT * REPLACE (file_start_datetime + to_microseconds(999 - id % 1000) AS file_start_datetime) FROM read_parquet(${sqlString(files)}) ORDER BY id)
         TO ${sqlString(`${files}.new`)} (FORMAT parquet)`,
      );
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    renameSync(`${files}.new`, files);
    folder = (await build({ snapshot, out: join(root, 'dist'), quiet: true, site: false, charts: false })).folder;
  }, 300_000);

  test('is a file of the build folder, outside the static tree', () => {
    expect(existsSync(join(folder, BROWSE_SUMMARY_FILE))).toBe(true);
    expect(existsSync(join(folder, 'site', BROWSE_SUMMARY_FILE))).toBe(false);
  });

  test('gives what the scan of the collections gave, sub-millisecond file starts included', async () => {
    const b = await bothWays(folder);
    expectSame(b);
    // the data exercise what the summary must get right: several radars, blacklisted files, alarm categories,
    // full lists of latest files, and files of one start (to the millisecond) in them, ordered by id
    const radars = [...b.summary.files.values()];
    expect(radars.length).toBeGreaterThan(3);
    expect(radars.some((r) => r.byType.length > 1)).toBe(true);
    expect(radars.some((r) => r.byType.some((t) => t.flagged > 0))).toBe(true);
    expect(radars.every((r) => r.recent.length <= RECENT)).toBe(true);
    expect(radars.some((r) => r.recent.length === RECENT)).toBe(true);
    const ties = radars.flatMap((r) => r.recent.slice(1).filter((f, i) => f.start === r.recent[i]!.start));
    expect(ties.length).toBeGreaterThan(0);
    expect(b.summary.activity.byCategoryDay.size).toBeGreaterThan(1);
    expect(b.summary.activity.instances).toBeGreaterThan(0);
    expect(b.summary.activity.firstDay! < b.summary.activity.lastDay!).toBe(true);
  });

  test('gives what the scan gave for the shared demo build', async () => {
    const b = await bothWays(inject('demoBuild'));
    expectSame(b);
    expect(b.summary.files.size).toBeGreaterThan(0);
  });

  test('without a radar tree, nothing (as the scan)', async () => {
    const empty = runTmp(inject('demoSnapshot'), `browse-summary-empty-${process.pid}`);
    rmSync(empty, { recursive: true, force: true });
    mkdirSync(empty, { recursive: true });
    // a database-only build of the radar catalogue: build.json, no tree, no summary
    writeFileSync(join(empty, 'build.json'), JSON.stringify({ snapshot: { name: 'x', apis: ['radarnet-mirror-v3'] }, files: 0, bytes: 0 }));
    const b = await bothWays(empty);
    expectSame(b);
    expect(b.summary.files.size).toBe(0);
    expect(b.summary.activity.instances).toBe(0);
    expect(b.summary.activity.firstDay).toBeUndefined();
  });
});
