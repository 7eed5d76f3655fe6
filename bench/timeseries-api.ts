/**
 * Timings of the Timeseries API through the endpoint: `npx node bench/timeseries-api.ts [--stations 100000]`.
 *
 * A synthetic snapshot (written to .cache/bench-timeseries): 100,000 stations spread over Europe, and a
 * series with one year of 10-minute values (2023: 52,560 points), built like any snapshot. Then, medians of
 * warm runs:
 * - getData of the year through the endpoint (HTTP request to last byte received), and in-process: the
 *   DuckDB read alone, the JSON body alone, and both (answerData);
 * - the same year with generalize=true (LTTB to 200 points);
 * - near (50 km circles) and bbox (1° × 0.7° boxes) over the 100,000 stations, through the endpoint and
 *   in-process (filter, sort by label, JSON);
 * - opening the build (the endpoint's start: catalogue load and station index).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { build } from '../build-scripts/build.ts';
import { BUILD_CODE, cacheKey, stamp, stamped, STAMP_FILE } from './lib/bench-cache.ts';
import { writeTable, type Row } from '../build-scripts/demo/timeseries/write.ts';
import { MANIFEST_FILE, SNAPSHOT_FORMAT_VERSION } from '../core/snapshot/table-schema.ts';
import { TIMESERIES_TABLES } from '../core/snapshot/timeseries-tables.ts';
import { collectionAnswer } from '../core/timeseries/answer.ts';
import { answerData } from '../core/timeseries/data.ts';
import { dataBody } from '../core/timeseries/data-body.ts';
import { readGetData } from '../core/timeseries/data-request.ts';
import { readCollectionParams } from '../core/timeseries/params.ts';
import { seriesStoreCurrent } from '../lib/series-segments.ts';
import { serve } from '../server/main.ts';
import { openServedBuild } from '../server/served-build.ts';

const YEAR_START = Date.UTC(2023, 0, 1);
const YEAR_POINTS = 365 * 144;
const YEAR_SPAN = '2023-01-01T00:00:00Z/2023-12-31T23:59:59Z';

/** mulberry32: a small seeded pseudo-random stream for the benchmarks' request mixes. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median ms of `runs` calls after `warm` unmeasured ones; each call gets its run number. */
async function time(fn: (i: number) => Promise<unknown>, runs: number, warm = 5): Promise<number> {
  for (let i = 0; i < warm; i++) await fn(i);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn(i);
    ms.push(performance.now() - s);
  }
  return median(ms);
}

/** The synthetic snapshot: `stations` stations, three series, the first with a year of 10-minute values. */
async function writeSnapshot(dir: string, stations: number): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const r = rng(1);
  const srv = 'srv_bench';
  const one = (prefix: string, label: string) => ({ id: `${prefix}_bench`, label, service_id: srv });
  const sta: Row[] = Array.from({ length: stations }, (_, i) => ({ id: `sta_${i}`, label: `Station ${i}`, longitude: -10 + 40 * r(), latitude: 36 + 34 * r(), service_id: srv }));
  const series = ['year', 'week', 'empty'].map((name, i) => ({
    id: `ts_${name}`, label: `Level@Station ${i}`, service_id: srv, category_id: 'cat_bench', offering_id: 'off_bench', feature_id: 'foi_bench',
    procedure_id: 'pro_bench', phenomenon_id: 'phe_bench', station_id: `sta_${i}`, uom: 'cm',
  }));
  let level = 300;
  const observations: Row[] = [];
  for (let k = 0; k < YEAR_POINTS; k++) {
    level = Math.max(0, level + (r() - 0.5) * 2 + 0.5 * Math.sin(k / 500));
    observations.push({ timeseries_id: 'ts_year', timestamp: YEAR_START + k * 600_000, value: Math.round(level * 10) / 10 });
  }
  for (let k = 0; k < 7 * 144; k++) observations.push({ timeseries_id: 'ts_week', timestamp: Date.UTC(2023, 11, 25) + k * 600_000, value: k % 50 });
  const resources: Row[] = [
    { id: srv, label: 'Bench service', service_url: 'https://bench.example.org/sos', version: '2.0.0', type: 'SOS', supports_first_latest: true },
  ];
  const rows: Record<string, Row[]> = {
    services: resources,
    categories: [one('cat', 'Bench category')],
    offerings: [one('off', 'BENCH')],
    features: [one('foi', 'Bench site')],
    procedures: [one('pro', 'Bench gauge')],
    phenomena: [one('phe', 'Level')],
    stations: sta,
    timeseries: series,
    observations,
    reference_values: [{ id: 'ref_year_ms1', label: 'Warning level 1', timeseries_id: 'ts_year' }],
    reference_value_observations: [{ reference_value_id: 'ref_year_ms1', timestamp: YEAR_START, value: 500 }],
  };
  const labelled = Object.entries(rows).flatMap(([t, list]) => (['observations', 'reference_value_observations'].includes(t) ? [] : list));
  rows['labels'] = labelled.map((x) => ({ resource_id: x['id'] as string, locale: 'en', label: x['label'] as string }));
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await instance.connect();
  try {
    for (const spec of TIMESERIES_TABLES) await writeTable(conn, spec, rows[spec.name]!, dir);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  const manifest = { format_version: SNAPSHOT_FORMAT_VERSION, name: `bench-${stations}-stations`, taken_at: '2024-01-01T00:00:00.000Z', apis: ['timeseries-v1'] };
  await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}

export interface TimeseriesApiBenchOptions {
  stations?: number;
  runs?: number;
  /** Work folder (snapshot and build); default .cache/bench-timeseries. */
  dir?: string;
  log?: (line: string) => void;
  /** Keep the snapshot and build of an earlier run with the same number of stations. */
  reuse?: boolean;
}

/** The bench network's work folder: the snapshot and its build (`dist`). */
export const TIMESERIES_BENCH_DIR = resolve(join(fileURLToPath(new URL('..', import.meta.url)), '.cache', 'bench-timeseries'));

/**
 * The bench network (`stations` stations, a year of 10-minute values) written and built into `dir`, unless
 * `reuse` and a build of the same inputs by the same code is there (bench/lib/bench-cache.ts: the key covers the
 * station count, `dbOnly`, this file's generator and the build's code). `dbOnly`: the database alone, no static
 * tree nor charts (what the live queries read). Returns the build folder, and the build's seconds when it built.
 */
export async function timeseriesBenchBuild(opts: { stations: number; dir?: string; reuse: boolean; dbOnly?: boolean; log: (line: string) => void }): Promise<{ dist: string; buildSeconds?: number }> {
  const dir = resolve(opts.dir ?? TIMESERIES_BENCH_DIR);
  const dist = join(dir, 'dist');
  const key = cacheKey({ stations: opts.stations, seed: 1, dbOnly: opts.dbOnly ?? false }, ['bench/timeseries-api.ts', ...BUILD_CODE]);
  // a build without a series file of this format is made again
  if (opts.reuse && stamped(dir, key) && seriesStoreCurrent(join(dist, 'data'))) return { dist };
  opts.log(`timeseries bench: writing a snapshot with ${opts.stations} stations and ${YEAR_POINTS} values of a year, and building it${opts.dbOnly ? ' (database only)' : ''}`);
  await rm(join(dir, STAMP_FILE), { force: true });
  await writeSnapshot(join(dir, 'snapshot'), opts.stations);
  const t = performance.now();
  await build({ snapshot: join(dir, 'snapshot'), out: dist, quiet: true, dbOnly: opts.dbOnly ?? false });
  stamp(dir, key);
  return { dist, buildSeconds: (performance.now() - t) / 1000 };
}

export async function runTimeseriesApiBenchmarks(opts: TimeseriesApiBenchOptions = {}): Promise<Record<string, number>> {
  const stations = opts.stations ?? 100_000;
  const runs = opts.runs ?? 31;
  const dir = resolve(opts.dir ?? TIMESERIES_BENCH_DIR);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const out: Record<string, number> = {};

  const built = await timeseriesBenchBuild({ stations, dir, log, reuse: opts.reuse ?? false });
  if (built.buildSeconds !== undefined) out['build_s'] = built.buildSeconds;

  let t = performance.now();
  const opened = await openServedBuild(join(dir, 'dist'));
  out['endpoint_open_ms'] = performance.now() - t;
  opened.close();

  const s = await serve({ build: join(dir, 'dist'), port: 0, host: '127.0.0.1' });
  try {
    const ts = s.build.timeseries!;
    const cat = ts.catalogue;
    // node:http with keep-alive: the lean client, so the figures are the endpoint's more than the client's
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const fetchBytes = (path: string) =>
      new Promise<number>((resolveBytes, reject) => {
        httpGet(`${s.url}${path}`, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${body.toString().slice(0, 200)}`));
            else resolveBytes(body.length);
          });
        }).on('error', reject);
      });
    const yearPath = `/api/v1/timeseries/ts_year/getData?timespan=${YEAR_SPAN}`;
    out['getData_year_bytes'] = await fetchBytes(yearPath);
    out['getData_year_endpoint_ms'] = await time(() => fetchBytes(yearPath), runs);
    out['getData_year_generalized_endpoint_ms'] = await time(() => fetchBytes(`${yearPath}&generalize=true`), runs);

    const k = cat.ids.timeseries.get('ts_year')!;
    const request = readGetData(new URLSearchParams({ timespan: YEAR_SPAN }), cat, k).request;
    const points = await ts.series.source.read(cat.timeseries[k]!, request.span);
    out['getData_year_points'] = points.t.length;
    out['getData_year_query_ms'] = await time(() => ts.series.source.read(cat.timeseries[k]!, request.span), runs);
    out['getData_year_body_ms'] = await time(async () => dataBody([{ id: 'ts_year', points, refs: [] }], request), runs);
    out['getData_year_in_process_ms'] = await time(() => answerData(cat, ts.series.source, request), runs);

    const r = rng(5);
    const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
    const circles = Array.from({ length: runs + 5 }, () => JSON.stringify({ center: point(-5 + 30 * r(), 40 + 26 * r()), radius: 50 }));
    const boxes = Array.from({ length: runs + 5 }, () => {
      const [w, s0] = [-8 + 36 * r(), 38 + 30 * r()];
      return JSON.stringify({ ll: point(w, s0), ur: point(w + 1, s0 + 0.7) });
    });
    const geo = (name: 'near' | 'bbox', list: string[]) => (i: number) => fetchBytes(`/api/v1/stations?${name}=${encodeURIComponent(list[i]!)}`);
    out['near_50km_endpoint_ms'] = await time(geo('near', circles), runs);
    out['bbox_1deg_endpoint_ms'] = await time(geo('bbox', boxes), runs);
    const inProcess = (name: 'near' | 'bbox', list: string[]) => async (i: number) =>
      collectionAnswer(cat, 'stations', readCollectionParams(new URLSearchParams({ [name]: list[i]! }), 'stations'), '/api/v1/stations', new URLSearchParams()).body.length;
    out['near_50km_in_process_ms'] = await time(inProcess('near', circles), runs);
    out['bbox_1deg_in_process_ms'] = await time(inProcess('bbox', boxes), runs);
    out['near_50km_mean_stations'] = circles.reduce((n, c) => n + JSON.parse(collectionAnswer(cat, 'stations', readCollectionParams(new URLSearchParams({ near: c }), 'stations'), '', new URLSearchParams()).body).length, 0) / circles.length;
    out['stations_sorted_page_endpoint_ms'] = await time((i) => fetchBytes(`/api/v1/stations?offset=${i * 100}&limit=100`), runs);
    agent.destroy();
  } finally {
    await s.close();
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { stations: { type: 'string', default: '100000' }, runs: { type: 'string', default: '31' }, reuse: { type: 'boolean', default: false } } });
  const results = await runTimeseriesApiBenchmarks({ stations: Number(values.stations), runs: Number(values.runs), reuse: values.reuse });
  const width = Math.max(...Object.keys(results).map((k) => k.length));
  for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(width)}  ${v >= 100 ? v.toFixed(0) : v.toPrecision(3)}`);
}
