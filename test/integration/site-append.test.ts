/**
 * The site step of daily builds (build-scripts/site.ts, lib/site-inputs.ts): a daily append's site is a full
 * build's site of the same snapshot, file for file and byte for byte; its changed inputs (the day's last
 * values, the week up to the new snapshot) made the pages again, which show the new day; a build whose inputs
 * did not change keeps the last build's pages without Astro; and the site's key follows a changed input.
 */
import { cpSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { build, type BuildResult } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { readSiteInputs, siteKey } from '../../build-scripts/lib/site-inputs.ts';
import { openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp } from '../helpers/paths.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DAY = 86_400_000;
const FROM = '2024-01-01';
const DAYS = 3;
const LAST_DAY = Date.parse(`${FROM}T00:00:00Z`) + (DAYS - 1) * DAY;

let work = '';
let archive = '';
let daily = '';

const siteFiles = (folder: string) => (JSON.parse(readFileSync(join(folder, 'site-files.json'), 'utf8')) as { files: string[] }).files;

/** The last value's time a series page shows (its `<dt>Last value</dt><dd>… <time datetime>`). */
function lastValueTime(folder: string, page: string): string | undefined {
  const html = readFileSync(join(folder, 'site', page), 'utf8');
  return /<dt>Last value<\/dt>\s*<dd>[^]*?<time datetime="([^"]+)"/.exec(html)?.[1];
}

beforeAll(async () => {
  work = runTmp(inject('tsSnapshot'), 'site-append');
  rmSync(work, { recursive: true, force: true });
  const source = join(work, 'source');
  archive = join(work, 'snapshot-archive');
  daily = join(work, 'snapshot-daily');
  await writeDemoSnapshot({ from: FROM, days: DAYS, seed: 5, out: source, apis: ['timeseries-v1'], fastValues: true, log: () => {} });
  // the observations as a folder of files: the archive (all days but the last) and the last day
  const instance = await openDuckDB({ threads: 2 });
  const conn = await instance.connect();
  try {
    const obs = `read_parquet(${sqlString(join(source, 'observations.parquet'))})`;
    for (const dir of [join(archive, 'observations', 'day=archive'), join(daily, 'observations', 'day=last')]) mkdirSync(dir, { recursive: true });
    await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" < ${LAST_DAY} ORDER BY timeseries_id, "timestamp") TO ${sqlString(join(archive, 'observations', 'day=archive', 'part-0.parquet'))} (FORMAT parquet)`);
    await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" >= ${LAST_DAY} ORDER BY timeseries_id, "timestamp") TO ${sqlString(join(daily, 'observations', 'day=last', 'part-0.parquet'))} (FORMAT parquet)`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  mkdirSync(join(daily, 'observations', 'day=archive'));
  linkSync(join(archive, 'observations', 'day=archive', 'part-0.parquet'), join(daily, 'observations', 'day=archive', 'part-0.parquet'));
  for (const f of readdirSync(source)) {
    if (f === 'observations.parquet' || f === 'snapshot.json' || !statSync(join(source, f)).isFile()) continue;
    for (const dir of [archive, daily]) linkSync(join(source, f), join(dir, f));
  }
  const manifest = JSON.parse(readFileSync(join(source, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(archive, 'snapshot.json'), JSON.stringify({ ...manifest, name: 'site-append-archive', taken_at: new Date(LAST_DAY).toISOString() }, null, 2) + '\n');
  writeFileSync(join(daily, 'snapshot.json'), JSON.stringify({ ...manifest, name: 'site-append-daily' }, null, 2) + '\n');
}, 600_000);

describe('the site of daily builds', () => {
  let first: BuildResult;
  let append: BuildResult;
  let recycled: BuildResult;
  let linked: BuildResult;
  let full: BuildResult;
  /** Each series page's last value time in the archive's build (its folder is recycled later). */
  const archiveLast = new Map<string, string | undefined>();
  const seriesPages = (folder: string) => siteFiles(folder).filter((f) => /^browse\/timeseries\/[^/]+\/index\.html$/.test(f));

  test('the archive, the daily append over it, the same snapshot again twice (over a recycled and a linked folder), and in full', async () => {
    const out = join(work, 'dist');
    first = await build({ snapshot: archive, out, quiet: true, charts: false });
    for (const page of seriesPages(first.folder)) archiveLast.set(page, lastValueTime(first.folder, page));
    append = await build({ snapshot: daily, out, quiet: true, charts: false });
    // the archive's folder recycled: its older pages are the base, the append's are linked from the served build
    recycled = await build({ snapshot: daily, out, quiet: true, charts: false, recycleAfterMs: 0 });
    // the served build's tree linked: its pages are the base, kept
    linked = await build({ snapshot: daily, out, quiet: true, charts: false, recycleAfterMs: 3_600_000 });
    full = await build({ snapshot: daily, out: join(work, 'dist-full'), quiet: true, charts: false, full: true });
    expect(append.stats['timeseries observations appended']).toBeGreaterThan(0);
    expect(first.stats['site pages']).toBeGreaterThan(300);
  }, 1_200_000);

  test('a changed input makes the pages again: the append ran Astro, and its series pages show the new day', () => {
    expect(first.stats['site pages kept']).toBe(0);
    expect(append.stats['site pages kept']).toBe(0);
    expect(append.stats['site astro seconds']).toBeGreaterThan(0);
    const pages = seriesPages(full.folder);
    expect(pages.length).toBeGreaterThan(200);
    let moved = 0;
    for (const page of pages) {
      const before = archiveLast.get(page);
      const now = lastValueTime(full.folder, page);
      if (before !== undefined && now !== undefined && Date.parse(now) >= LAST_DAY && Date.parse(before) < LAST_DAY) moved++;
    }
    expect(moved).toBeGreaterThan(200);
  });

  test('unchanged inputs keep the last pages: a build of the same snapshot does not run Astro', () => {
    expect(recycled.base?.how).toBe('recycled');
    expect(linked.base?.how).toBe('linked');
    for (const r of [recycled, linked]) {
      expect(r.stats['site pages kept']).toBe(r.stats['site pages']);
      expect(r.stats['site astro seconds']).toBe(0);
    }
    // over the linked folder no page was written: every one was the base's
    expect(linked.stats['tree files written'] ?? 0).toBeLessThan(linked.stats['site pages']!);
    expect(full.stats['site pages kept']).toBe(0);
  });

  test("the daily builds' site is the full build's, byte for byte", () => {
    const out = join(work, 'dist');
    const files = siteFiles(out);
    expect(files).toEqual(siteFiles(full.folder));
    expect(files.length).toBeGreaterThan(300);
    for (const rel of files) {
      expect(readFileSync(join(out, 'site', rel)).equals(readFileSync(join(full.folder, 'site', rel))), rel).toBe(true);
    }
    // and the record of the kept site is the full build's (the same key: the same inputs, the same values)
    expect(readSiteInputs(out)).toEqual(readSiteInputs(full.folder));
  });

  test("the site's key follows each input it records", () => {
    const copy = join(work, 'copy');
    cpSync(full.folder, copy, { recursive: true });
    const record = readSiteInputs(copy)!;
    const key = siteKey(ROOT, copy, record.inputs);
    expect(siteKey(ROOT, copy, record.inputs)).toBe(key);
    const input = record.inputs.find((i) => /^file:api\/v1\/timeseries\/[^/]+\/getData\.expanded\.json$/.test(i));
    expect(input, record.inputs.filter((i) => i.startsWith('file:')).slice(0, 5).join(', ')).toBeDefined();
    const data = input!.slice('file:'.length);
    const bytes = readFileSync(join(copy, 'site', data));
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x30 ? 0x31 : 0x30;
    writeFileSync(join(copy, 'site', data), bytes);
    expect(siteKey(ROOT, copy, record.inputs)).not.toBe(key);
    rmSync(copy, { recursive: true, force: true });
  });
});
