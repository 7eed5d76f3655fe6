/**
 * Daily append (build-scripts/timeseries/append.ts): a snapshot whose observations are a folder of files, one
 * day newer (the last build's files unchanged, one new file), is built over the last build writing only the new
 * observations; the endpoint then answers exactly as over a full build of the same snapshot: getData of several
 * series over spans across the day boundaries (tvp, flot with the values before and after the span,
 * generalized, POST of several series), first and last values, status. Segments are merged as the append's
 * limits say (lowered here to reach both kinds of merge in six days). A new observation before a series' last
 * one, or a changed earlier file, makes the build a full one.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build, type BuildResult } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { appendLimits } from '../../build-scripts/timeseries/append.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { SEGMENTS_FILE } from '../../lib/series-segments.ts';
import { runTmp } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';
import { copySnapshotBesideObservations } from '../helpers/snapshot-copy.ts';

const DAY = 86_400_000;
const FROM = Date.parse('2024-01-01T00:00:00Z');
const BASE_DAYS = 20;
const APPENDS = 6;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

let work = '';
/** The whole period's snapshot, cut into the base file and one file a day. */
let source = '';
let seriesIds: string[] = [];

/** A snapshot of the base and the first `k` appended days: the same files every time (copied, bytes equal). */
function snapshotOf(k: number, suffix = ''): string {
  const dir = join(work, `snap-${k}${suffix}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'observations'), { recursive: true });
  copySnapshotBesideObservations(source, dir);
  for (const part of ['day=base', ...Array.from({ length: k }, (_, i) => `day=${iso(FROM + (BASE_DAYS + i) * DAY).slice(0, 10)}`)]) {
    cpSync(join(work, 'parts', part), join(dir, 'observations', part), { recursive: true });
  }
  const manifest = JSON.parse(readFileSync(join(source, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
  manifest['name'] = `append-test-${k}`;
  manifest['taken_at'] = new Date(FROM + (BASE_DAYS + k) * DAY).toISOString();
  writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}

async function body(base: string, path: string, init?: RequestInit): Promise<string> {
  const res = await fetch(`${base}${path}`, { headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, ...init });
  const text = await res.text();
  return `${res.status} ${text}`;
}

/** The requests compared: every one is answered with the same status and bytes by both endpoints. */
function requests(k: number): { path: string; init?: RequestInit }[] {
  const out: { path: string; init?: RequestInit }[] = [{ path: '/api/v1/timeseries?expanded=true' }];
  const ids = [seriesIds[0]!, seriesIds[1]!, seriesIds[Math.floor(seriesIds.length / 2)]!, seriesIds.at(-1)!, seriesIds[7]!];
  const end = FROM + (BASE_DAYS + k) * DAY;
  const spans = [
    [FROM, end],
    ...Array.from({ length: k }, (_, i) => [FROM + (BASE_DAYS + i) * DAY - 6 * 3_600_000, FROM + (BASE_DAYS + i) * DAY + 6 * 3_600_000]),
    [end - 3 * DAY + 3_600_000, end - DAY - 3_600_000],
    [end - 2 * 3_600_000, end + 5 * DAY],
  ];
  for (const id of ids) {
    out.push({ path: `/api/v1/timeseries/${id}?expanded=true` }, { path: `/api/v1/timeseries/${id}/extras` });
    for (const [a, b] of spans) {
      const timespan = `${iso(a!)}/${iso(b!)}`;
      out.push(
        { path: `/api/v1/timeseries/${id}/getData?timespan=${timespan}` },
        { path: `/api/v1/timeseries/${id}/getData?timespan=${timespan}&format=flot&expanded=true` },
        { path: `/api/v1/timeseries/${id}/getData?timespan=${timespan}&generalize=true` },
      );
    }
  }
  out.push({ path: '/api/v1/timeseries/getData', init: { method: 'POST', body: JSON.stringify({ timeseries: ids, timespan: `${iso(end - 2 * DAY)}/${iso(end)}`, format: 'flot', expanded: true }) } });
  return out;
}

/** The appended build at `dist` and a full build of the same snapshot answer every request alike. */
async function compareWithFull(snapshot: string, k: number): Promise<void> {
  const full = join(work, `full-${k}`);
  await build({ snapshot, out: full, quiet: true, dbOnly: true, full: true, history: false });
  let a: Served | undefined;
  let b: Served | undefined;
  try {
    [a, b] = await Promise.all([startEndpoint(join(work, 'dist'), { watchMs: 0 }), startEndpoint(full, { watchMs: 0 })]);
    let nonEmpty = 0;
    for (const r of requests(k)) {
      const [x, y] = await Promise.all([body(a.url, r.path, r.init), body(b.url, r.path, r.init)]);
      expect(x, r.path).toBe(y);
      expect(x.slice(0, 3), r.path).toBe('200');
      if (/"values":\[\[|"values":\[\{/.test(x)) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(20);
  } finally {
    await Promise.all([a?.close(), b?.close()]);
    rmSync(`${full}.builds`, { recursive: true, force: true });
  }
}

const results: BuildResult[] = [];
const saved = { ...appendLimits };

beforeAll(async () => {
  work = runTmp(inject('tsSnapshot'), 'daily-append');
  rmSync(work, { recursive: true, force: true });
  source = join(work, 'source');
  await writeDemoSnapshot({ from: '2024-01-01', days: BASE_DAYS + APPENDS, seed: 3, out: source, apis: ['timeseries-v1'], fastValues: true, log: () => {} });
  // the observations cut by day: the base (the first 20 days) and a file a day after it
  const instance = await openDuckDB({ threads: 2 });
  const conn = await instance.connect();
  try {
    const obs = `read_parquet(${sqlString(join(source, 'observations.parquet'))})`;
    const cut = async (part: string, lo: number, hi: number) => {
      mkdirSync(join(work, 'parts', part), { recursive: true });
      await run(conn, `COPY (SELECT * FROM ${obs} WHERE "timestamp" >= ${lo} AND "timestamp" < ${hi} ORDER BY timeseries_id, "timestamp") TO ${sqlString(join(work, 'parts', part, 'part-0.parquet'))} (FORMAT parquet)`);
    };
    await cut('day=base', 0, FROM + BASE_DAYS * DAY);
    for (let i = 0; i < APPENDS; i++) await cut(`day=${iso(FROM + (BASE_DAYS + i) * DAY).slice(0, 10)}`, FROM + (BASE_DAYS + i) * DAY, FROM + (BASE_DAYS + i + 1) * DAY);
    seriesIds = (await all(conn, `SELECT id FROM read_parquet(${sqlString(join(source, 'timeseries.parquet'))}) ORDER BY id`)).map((r) => String(r['id']));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  // lowered so that six appends reach both merges: a pair of appended segments merged at the fourth, all at the sixth
  appendLimits.maxDeltas = 3;
  appendLimits.mergeAllShare = 0.275;
}, 600_000);

afterAll(() => {
  Object.assign(appendLimits, saved);
});

describe('daily append', () => {
  test('the first build is a full one; each next day appends one segment of its new observations alone', async () => {
    results.push(await build({ snapshot: snapshotOf(0), out: join(work, 'dist'), quiet: true, dbOnly: true }));
    expect(results[0]!.stats['timeseries observations appended']).toBeUndefined();
    for (let k = 1; k <= APPENDS; k++) {
      const r = await build({ snapshot: snapshotOf(k), out: join(work, 'dist'), quiet: true, dbOnly: true });
      results.push(r);
      // about a day of 276 series (10-minute to hourly): thousands of rows, not the base's
      expect(r.stats['timeseries observations appended']).toBeGreaterThan(10_000);
      expect(r.stats['timeseries observations appended']).toBeLessThan(60_000);
      const data = join(r.folder, 'data');
      const before = join(results[k - 1]!.folder, 'data');
      // the base segment is the last build's file (a hard link: not written again) until all are merged
      if (k < 6) expect(statSync(join(data, 'observations-v1.pairs')).ino).toBe(statSync(join(before, 'observations-v1.pairs')).ino);
      const segments = k < 6 ? (JSON.parse(readFileSync(join(data, SEGMENTS_FILE), 'utf8')) as { segments: string[] }) : { segments: [] };
      if (k <= 3) expect(segments.segments).toHaveLength(1 + k);
      if (k === 4) {
        // four appended: the two adjacent with the fewest rows merged into one
        expect(segments.segments).toHaveLength(4);
        expect(r.stats['timeseries observations rewritten by merges']).toBeGreaterThan(0);
      }
      if (k === 2 || k === 4) await compareWithFull(snapshotOf(k), k);
    }
  }, 600_000);

  test('at the sixth day the appended rows pass a quarter of the base: all merged into one series file, answering as a full build', async () => {
    const r = results[APPENDS]!;
    expect(() => statSync(join(r.folder, 'data', SEGMENTS_FILE))).toThrow();
    expect(r.stats['timeseries segments']).toBe(1);
    expect(statSync(join(r.folder, 'data', 'observations-v1.pairs')).ino).not.toBe(statSync(join(results[APPENDS - 1]!.folder, 'data', 'observations-v1.pairs')).ino);
    await compareWithFull(snapshotOf(APPENDS), APPENDS);
  }, 600_000);

  test('a new observation at or before its series\' last one makes the build a full one, answering as such', async () => {
    const snapshot = snapshotOf(APPENDS, 'late');
    // one row of the base period not in it (a minute after a series' first timestamp), in a new file
    mkdirSync(join(snapshot, 'observations', 'day=late'));
    await duck((conn) =>
      run(
        conn,
        `COPY (SELECT timeseries_id, "timestamp" + 60000 AS "timestamp", "value" FROM read_parquet(${sqlString(join(work, 'parts', 'day=base', 'part-0.parquet'))}) LIMIT 1)
         TO ${sqlString(join(snapshot, 'observations', 'day=late', 'part-0.parquet'))} (FORMAT parquet)`,
      ),
    );
    const r = await build({ snapshot, out: join(work, 'dist'), quiet: true, dbOnly: true });
    expect(r.stats['timeseries observations appended']).toBeUndefined();
    expect(r.stats['timeseries segments']).toBeUndefined();
    const full = await build({ snapshot, out: join(work, 'full-late'), quiet: true, dbOnly: true, full: true, history: false });
    const pairs = (b: BuildResult) => readFileSync(join(b.folder, 'data', 'observations-v1.pairs'));
    expect(pairs(r).length).toBe(pairs(full).length);
    expect(pairs(r).equals(pairs(full))).toBe(true);
  }, 600_000);

  test('a changed earlier file makes the build a full one', async () => {
    // over a build of the six days' files
    await build({ snapshot: snapshotOf(APPENDS), out: join(work, 'dist'), quiet: true, dbOnly: true, full: true });
    // the same files, the last day's written again with one value changed: its footer's statistics differ
    const snapshot = snapshotOf(APPENDS, 'changed');
    const dayDir = `day=${iso(FROM + (BASE_DAYS + APPENDS - 1) * DAY).slice(0, 10)}`;
    const file = join(snapshot, 'observations', dayDir, 'part-0.parquet');
    rmSync(file);
    await duck((conn) =>
      run(
        conn,
        `COPY (SELECT timeseries_id, "timestamp", CASE WHEN row_number() OVER (ORDER BY timeseries_id, "timestamp") = 1 THEN 12345.5 ELSE "value" END AS "value"
         FROM read_parquet(${sqlString(join(work, 'parts', dayDir, 'part-0.parquet'))}) ORDER BY timeseries_id, "timestamp") TO ${sqlString(file)} (FORMAT parquet)`,
      ),
    );
    const r = await build({ snapshot, out: join(work, 'dist'), quiet: true, dbOnly: true });
    expect(r.stats['timeseries observations appended']).toBeUndefined();
    // and a snapshot of the same files as the served build appends nothing, in one segment
    const same = await build({ snapshot: snapshotOf(APPENDS), out: join(work, 'dist'), quiet: true, dbOnly: true });
    expect(same.stats['timeseries observations appended']).toBeUndefined();
    const again = await build({ snapshot: snapshotOf(APPENDS), out: join(work, 'dist'), quiet: true, dbOnly: true });
    expect(again.stats['timeseries observations appended']).toBe(0);
    expect(again.stats['timeseries segments']).toBe(1);
  }, 600_000);
});

async function duck(fn: (conn: Awaited<ReturnType<Awaited<ReturnType<typeof openDuckDB>>['connect']>>) => Promise<unknown>): Promise<void> {
  const instance = await openDuckDB({ threads: 1 });
  const conn = await instance.connect();
  try {
    await fn(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
