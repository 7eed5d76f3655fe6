/**
 * The series file the endpoint reads observations from (lib/series-file.ts), against the timeseries database
 * it was written from: the same points for spans with bounds on, between and beside stored timestamps, across
 * the file's blocks, outside a series and empty; the same last value before a time, past runs of nulls. Also:
 * a table out of (sid, timestamp) order fails the writer, and a truncated file is refused.
 */
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { lastValueBeforeQuery, firstValueAfterQuery, seriesRangeQuery } from '../../core/timeseries/data-queries.ts';
import type { Catalogue, SeriesRec } from '../../core/timeseries/catalogue.ts';
import { closeSeriesFile, openSeriesFile, PAIRS_FILE, readLastBefore, readFirstAfter, readSpan, spanCountAtMost, STRIDE, writeSeriesFile, type SeriesFile } from '../../lib/series-file.ts';
import { loadCatalogue, readPoints, TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';

let duck: DuckDBInstance;
let conn: DuckDBConnection;
let file: SeriesFile;
let cat: Catalogue;

beforeAll(async () => {
  const data = join(inject('tsBuild'), 'data');
  duck = await DuckDBInstance.create(join(data, TIMESERIES_DB_FILE), { access_mode: 'READ_ONLY' });
  conn = await duck.connect();
  cat = await loadCatalogue(conn, Date.UTC(2024, 0, 9));
  file = openSeriesFile(data);
});
afterAll(() => {
  closeSeriesFile(file);
  conn.closeSync();
  duck.closeSync();
});

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const plain = (p: { t: Float64Array; v: Float64Array }) => ({ t: [...p.t], v: [...p.v].map((x) => (Number.isNaN(x) ? null : x)) });

describe('the series file answers as the database does', () => {
  test('spans: on, between and beside stored timestamps, across blocks, outside, empty', async () => {
    const r = rng(7);
    let points = 0;
    let checked = 0;
    const series = cat.timeseries.filter((_, i) => i % 3 === 0);
    expect(series.some((s) => file.count[s.sid]! > 2 * STRIDE), 'some series spans several blocks').toBe(true);
    for (const s of series) {
      const all = await readPoints(conn, seriesRangeQuery(s.sid, { start: -1e15, end: 1e15 }));
      const ts = [...all.t];
      const at = () => (ts.length ? ts[Math.floor(r() * ts.length)]! : 0) + [0, 0, -1, 1, 300_000][Math.floor(r() * 5)]!;
      const spans = [
        { start: -1e15, end: 1e15 },
        { start: at(), end: at() },
        { start: (ts[0] ?? 0) - 86_400_000, end: (ts[0] ?? 0) - 1 },
        { start: (ts.at(-1) ?? 0) + 1, end: (ts.at(-1) ?? 0) + 86_400_000 },
        { start: (ts[STRIDE] ?? 0), end: (ts[2 * STRIDE - 1] ?? 0) },
        { start: (ts[STRIDE] ?? 0) + 1, end: (ts[STRIDE] ?? 0) + 1 },
        ...Array.from({ length: 12 }, () => {
          const [a, b] = [at(), at()];
          return { start: Math.min(a, b), end: Math.max(a, b) };
        }),
        { start: 5, end: 4 },
      ];
      for (const span of spans) {
        const want = await readPoints(conn, seriesRangeQuery(s.sid, span));
        const got = await readSpan(file, s, span);
        expect(plain(got), `${s.id} ${JSON.stringify(span)}`).toEqual(plain(want));
        // what chart admission counts from the index alone: never fewer, at most two blocks more
        const atMost = spanCountAtMost(file, s, span);
        expect(atMost).toBeGreaterThanOrEqual(got.t.length);
        expect(atMost).toBeLessThanOrEqual(got.t.length + 2 * STRIDE);
        points += got.t.length;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(points).toBeGreaterThan(10_000);
  });

  test('the last value before a time: on, between and beside timestamps, after nulls, before the first', async () => {
    const r = rng(11);
    let found = 0;
    for (const s of cat.timeseries) {
      const all = await readPoints(conn, seriesRangeQuery(s.sid, { start: -1e15, end: 1e15 }));
      const nullAfterValue = [...all.v].findIndex((v, i) => Number.isNaN(v) && i > 0 && !Number.isNaN(all.v[i - 1]!));
      const times = [-1e15, 1e15, all.t[0] ?? 0, (all.t[0] ?? 0) + 1, ...(nullAfterValue > 0 ? [all.t[nullAfterValue]!, all.t[nullAfterValue]! + 1] : [])];
      for (let i = 0; i < 6 && all.t.length; i++) times.push(all.t[Math.floor(r() * all.t.length)]! + [0, 1, -1][i % 3]!);
      for (const before of times) {
        const want = await readPoints(conn, lastValueBeforeQuery(s.sid, before));
        const got = await readLastBefore(file, s, before);
        expect(plain(got), `${s.id} before ${before}`).toEqual(plain(want));
        found += got.t.length;
      }
    }
    expect(found).toBeGreaterThan(50);
  });

  test('the first value after a time: on, between and beside timestamps, before nulls, after the last', async () => {
    const r = rng(12);
    let found = 0;
    for (const s of cat.timeseries) {
      const all = await readPoints(conn, seriesRangeQuery(s.sid, { start: -1e15, end: 1e15 }));
      const nullBeforeValue = [...all.v].findIndex((v, i) => Number.isNaN(v) && i + 1 < all.v.length && !Number.isNaN(all.v[i + 1]!));
      const last = all.t[all.t.length - 1] ?? 0;
      const times = [-1e15, 1e15, last, last - 1, ...(nullBeforeValue >= 0 ? [all.t[nullBeforeValue]!, all.t[nullBeforeValue]! - 1] : [])];
      for (let i = 0; i < 6 && all.t.length; i++) times.push(all.t[Math.floor(r() * all.t.length)]! + [0, 1, -1][i % 3]!);
      for (const after of times) {
        const want = await readPoints(conn, firstValueAfterQuery(s.sid, after));
        const got = await readFirstAfter(file, s, after);
        expect(plain(got), `${s.id} after ${after}`).toEqual(plain(want));
        found += got.t.length;
      }
    }
    expect(found).toBeGreaterThan(50);
  });
});

describe('writing and opening', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const series = (sid: number) => ({ sid }) as SeriesRec;

  async function written(rows: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'snapcat-series-'));
    dirs.push(dir);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      await c.run(`CREATE TABLE observations AS SELECT * FROM (VALUES ${rows}) v(sid, "timestamp", "value")`);
      await writeSeriesFile(c, dir, 3);
    } finally {
      c.closeSync();
      db.closeSync();
    }
    return dir;
  }

  test('a series without observations, nulls at the start, and a series key missing', async () => {
    const dir = await written(`(0, 10::BIGINT, NULL::DOUBLE), (0, 20, 1.5), (0, 30, NULL), (2, 5, -2.0)`);
    const f = openSeriesFile(dir);
    try {
      expect(plain(await readSpan(f, series(0), { start: 0, end: 100 }))).toEqual({ t: [10, 20, 30], v: [null, 1.5, null] });
      expect(plain(await readSpan(f, series(1), { start: 0, end: 100 }))).toEqual({ t: [], v: [] });
      expect(plain(await readSpan(f, series(2), { start: 5, end: 5 }))).toEqual({ t: [5], v: [-2] });
      expect(plain(await readLastBefore(f, series(0), 40))).toEqual({ t: [20], v: [1.5] });
      expect(plain(await readLastBefore(f, series(0), 20))).toEqual({ t: [], v: [] });
      expect(plain(await readLastBefore(f, series(1), 40))).toEqual({ t: [], v: [] });
    } finally {
      closeSeriesFile(f);
    }
  });

  test('a table out of (sid, timestamp) order fails the writer, naming the series', async () => {
    await expect(written(`(0, 10::BIGINT, 1.0::DOUBLE), (0, 5, 2.0)`)).rejects.toThrow(/series key 0: 5 after 10.*not in \(sid, timestamp\) order/);
    await expect(written(`(1, 10::BIGINT, 1.0::DOUBLE), (0, 5, 2.0)`)).rejects.toThrow(/series key 0 after 1/);
  });

  test('a truncated pairs file is refused when the build is opened', async () => {
    const dir = await written(`(0, 10::BIGINT, 1.0::DOUBLE), (0, 20, 2.0)`);
    truncateSync(join(dir, PAIRS_FILE), 24);
    expect(() => openSeriesFile(dir)).toThrow(/24 bytes, 32 expected \(rebuild the snapshot\)/);
  });
});
