/**
 * The observations download over daily appends (build-scripts/downloads.ts): partitioned by year and month, an
 * appended build learns which months changed from the rows the append added (no fingerprint scan of the
 * archive), rewrites those months alone and keeps the others (the same files: same inodes), and its downloads
 * are byte for byte a full build's, across a year and month boundary (2023-12-31 → 2024-01-01), after a month
 * of days appended at once, and across a month boundary within a year (2024-01-31 → 2024-02-01). A corrected
 * observation of an old year (an earlier file rewritten: the database is built in full) rewrites its month; an
 * append whose base tree is not the build it appended to (a recycled older folder) falls back to the scan, so
 * neither serves stale bytes.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build, type BuildResult } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { DOWNLOADS_STATE_FILE, type DownloadIndex } from '../../build-scripts/downloads.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp } from '../helpers/paths.ts';
import { copySnapshotBesideObservations } from '../helpers/snapshot-copy.ts';

const at = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
/** The observations cut into files: the base, then what each append adds. */
const PARTS: [name: string, from: number, to: number][] = [
  ['part=base', at('2023-12-30'), at('2023-12-31')],
  ['part=1', at('2023-12-31'), at('2024-01-01')],
  // the year and month boundary
  ['part=2', at('2024-01-01'), at('2024-01-02')],
  // a month of days at once (an append after an outage)
  ['part=3', at('2024-01-02'), at('2024-02-01')],
  // a month boundary within the year
  ['part=4', at('2024-02-01'), at('2024-02-02')],
  ['part=5', at('2024-02-02'), at('2024-02-03')],
];

let work = '';
let source = '';
const OBS = 'downloads/timeseries/observations';

/** A snapshot of the base and the first `k` appended parts; `corrected`: the base file with one value changed. */
function snapshotOf(k: number, corrected = false): string {
  const dir = join(work, `snap-${k}${corrected ? '-corrected' : ''}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'observations'), { recursive: true });
  copySnapshotBesideObservations(source, dir);
  for (const [name] of PARTS.slice(0, k + 1)) {
    cpSync(join(work, corrected && name === 'part=base' ? 'corrected' : 'parts', name), join(dir, 'observations', name), { recursive: true });
  }
  const manifest = JSON.parse(readFileSync(join(source, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
  manifest['name'] = `downloads-append-${k}${corrected ? '-corrected' : ''}`;
  manifest['taken_at'] = new Date(PARTS[k]![2]).toISOString();
  writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}

const indexText = (folder: string) => readFileSync(join(folder, 'site', 'downloads', 'index.json'), 'utf8');
const observationFiles = (folder: string) => (JSON.parse(indexText(folder)) as DownloadIndex).tables.find((t) => t.name === 'observations')!.files;
const inode = (folder: string, rel: string) => statSync(join(folder, 'site', rel), { throwIfNoEntry: false })?.ino;
/** The downloads state's entries of the observations: fingerprint and rows by file. */
function observationState(folder: string): Record<string, { fp: string; rows: number }> {
  const state = JSON.parse(readFileSync(join(folder, DOWNLOADS_STATE_FILE), 'utf8')) as { files: Record<string, { fp: string; rows: number }> };
  return Object.fromEntries(Object.entries(state.files).filter(([rel]) => rel.startsWith(OBS)).map(([rel, e]) => [rel, { fp: e.fp, rows: e.rows }]));
}

/** A full build of the same snapshot has the same index, the same bytes in every download, the same fingerprints. */
async function expectSameAsFull(r: BuildResult, snapshot: string, name: string): Promise<void> {
  const full = await build({ snapshot, out: join(work, `full-${name}`), quiet: true, charts: false, site: false, full: true, history: false });
  expect(indexText(r.folder)).toBe(indexText(full.folder));
  const index = JSON.parse(indexText(full.folder)) as DownloadIndex;
  for (const f of index.tables.flatMap((t) => t.files)) {
    expect(readFileSync(join(r.folder, 'site', f.path)).equals(readFileSync(join(full.folder, 'site', f.path))), f.path).toBe(true);
  }
  expect(observationState(r.folder)).toEqual(observationState(full.folder));
  rmSync(join(work, `full-${name}.builds`), { recursive: true, force: true });
}

const month = (y: number, m: number) => `/${OBS}/year=${y}/month=${m}/observations-${y}-${String(m).padStart(2, '0')}.parquet`;
const built: BuildResult[] = [];
const appendBuild = (snapshot: string, extra: { recycleAfterMs?: number } = {}) =>
  build({ snapshot, out: join(work, 'dist'), quiet: true, charts: false, site: false, recycleAfterMs: 3_600_000, ...extra });

beforeAll(async () => {
  work = runTmp(inject('tsSnapshot'), 'downloads-append');
  rmSync(work, { recursive: true, force: true });
  source = join(work, 'source');
  await writeDemoSnapshot({ from: '2023-12-30', days: 35, seed: 5, out: source, apis: ['timeseries-v1'], fastValues: true, log: () => {} });
  const instance = await openDuckDB({ threads: 2 });
  const conn = await instance.connect();
  try {
    const obs = `read_parquet(${sqlString(join(source, 'observations.parquet'))})`;
    for (const [name, lo, hi] of PARTS) {
      mkdirSync(join(work, 'parts', name), { recursive: true });
      await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" >= ${lo} AND "timestamp" < ${hi} ORDER BY timeseries_id, "timestamp") TO ${sqlString(join(work, 'parts', name, 'part-0.parquet'))} (FORMAT parquet)`);
    }
    // the base with its first observation (2023-12-30, an old year by then) corrected
    mkdirSync(join(work, 'corrected', 'part=base'), { recursive: true });
    await run(
      conn,
      `COPY (SELECT timeseries_id, "timestamp", CASE WHEN row_number() OVER (ORDER BY timeseries_id, "timestamp") = 1 THEN coalesce("value", 0) + 1000.5 ELSE "value" END AS "value"
       FROM read_parquet(${sqlString(join(work, 'parts', 'part=base', 'part-0.parquet'))}) ORDER BY timeseries_id, "timestamp")
       TO ${sqlString(join(work, 'corrected', 'part=base', 'part-0.parquet'))} (FORMAT parquet)`,
    );
    const [n] = await all(conn, `SELECT count(*) AS n FROM ${obs} WHERE "timestamp" >= ${PARTS.at(-1)![2]}`);
    expect(Number(n!['n'])).toBe(0);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the observations download over daily appends', () => {
  test('a full build writes one file a month; each append rewrites the months of its rows alone, without a scan, as a full build would', async () => {
    const first = await appendBuild(snapshotOf(0));
    built.push(first);
    expect(first.stats['downloads tables from the append']).toBe(0);
    expect(observationFiles(first.folder).map((f) => f.path)).toEqual([month(2023, 12)]);
    expect(observationFiles(first.folder).map((f) => [f.year, f.month])).toEqual([[2023, 12]]);
    // expected months after each append, and which of them the append rewrote
    const steps: { months: string[]; rewritten: string[] }[] = [
      { months: [month(2023, 12)], rewritten: [month(2023, 12)] },
      { months: [month(2023, 12), month(2024, 1)], rewritten: [month(2024, 1)] },
      { months: [month(2023, 12), month(2024, 1)], rewritten: [month(2024, 1)] },
      { months: [month(2023, 12), month(2024, 1), month(2024, 2)], rewritten: [month(2024, 2)] },
    ];
    for (let k = 1; k <= 4; k++) {
      const snapshot = snapshotOf(k);
      const r = await appendBuild(snapshot);
      built.push(r);
      const before = built[k - 1]!;
      expect(r.stats['timeseries observations appended'], `append ${k}`).toBeGreaterThan(0);
      expect(r.stats['downloads tables from the append'], `append ${k}`).toBe(1);
      const files = observationFiles(r.folder);
      expect(files.map((f) => f.path)).toEqual(steps[k - 1]!.months);
      for (const f of files) {
        const kept = inode(before.folder, f.path) !== undefined && inode(r.folder, f.path) === inode(before.folder, f.path);
        expect({ file: f.path, rewritten: !kept }).toEqual({ file: f.path, rewritten: steps[k - 1]!.rewritten.includes(f.path) });
      }
      if (k === 2 || k === 4) await expectSameAsFull(r, snapshot, String(k));
    }
  }, 900_000);

  test('a corrected observation of an old year rewrites its month (the fingerprint scan of a full database build)', async () => {
    const snapshot = snapshotOf(4, true);
    const r = await appendBuild(snapshot);
    built.push(r);
    expect(r.stats['timeseries observations appended']).toBeUndefined();
    expect(r.stats['downloads tables from the append']).toBe(0);
    const before = built[4]!;
    const files = observationFiles(r.folder);
    expect(files.map((f) => f.path)).toEqual([month(2023, 12), month(2024, 1), month(2024, 2)]);
    expect(inode(r.folder, month(2023, 12))).not.toBe(inode(before.folder, month(2023, 12)));
    expect(files[0]!.sha256).not.toBe(observationFiles(before.folder)[0]!.sha256);
    expect(inode(r.folder, month(2024, 1))).toBe(inode(before.folder, month(2024, 1)));
    expect(inode(r.folder, month(2024, 2))).toBe(inode(before.folder, month(2024, 2)));
    await expectSameAsFull(r, snapshot, 'corrected');
  }, 600_000);

  test('an append over a recycled older tree (not the build appended to) scans, and rewrites the corrected month it holds stale', async () => {
    // the served build is the corrected one; the folder recycled as the base is the one before it, whose
    // December file holds the uncorrected value
    const snapshot = snapshotOf(5, true);
    const r = await appendBuild(snapshot, { recycleAfterMs: 0 });
    expect(r.base?.how).toBe('recycled');
    expect(r.stats['timeseries observations appended']).toBeGreaterThan(0);
    expect(r.stats['downloads tables from the append']).toBe(0);
    expect(observationFiles(r.folder)[0]!.sha256).toBe(observationFiles(built[5]!.folder)[0]!.sha256);
    await expectSameAsFull(r, snapshot, 'recycled');
  }, 600_000);
});
