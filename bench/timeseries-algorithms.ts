/**
 * Timings of the Timeseries API's pure algorithms: `npx node bench/timeseries-algorithms.ts`.
 * Medians: LTTB and Douglas-Peucker over 10^6 points, and StationIndex `bbox` / `near` over 100,000 random
 * stations against the brute-force scan, measured side by side on the same queries.
 */
import { mulberry32 } from '../build-scripts/demo/hash.ts';
import { fileURLToPath } from 'node:url';
import { douglasPeuckerIndices, lttb, lttbIndices, type TimeValue } from '../core/timeseries/generalize.ts';
import { scanNear, unitVectors } from '../core/timeseries/geo/sphere.ts';
import { StationIndex, bruteForceInBox, type LonLatBox } from '../core/timeseries/geo/station-index.ts';

const rng = mulberry32;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median ms of `runs` calls, after `warm` unmeasured ones. */
function time(fn: () => unknown, runs: number, warm = 2): number {
  for (let i = 0; i < warm; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    fn();
    ms.push(performance.now() - s);
  }
  return median(ms);
}

function randomWalk(n: number): { t: Float64Array; v: Float64Array } {
  const r = rng(1);
  const t = new Float64Array(n);
  const v = new Float64Array(n);
  let x = 0;
  for (let i = 0; i < n; i++) {
    t[i] = 1376611200000 + i * 60_000;
    x += r() - 0.5;
    v[i] = x + 5 * Math.sin(i / 5000);
  }
  return { t, v };
}

/** 100,000 stations: two thirds spread over the sphere by area, one third clustered over central Europe. */
function randomStations(n: number): { ids: string[]; lon: Float64Array; lat: Float64Array } {
  const r = rng(2);
  const lon = new Float64Array(n);
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const europe = i % 3 === 0;
    lon[i] = europe ? 6 + 9 * r() : -180 + 360 * r();
    lat[i] = europe ? 47 + 8 * r() : (Math.asin(2 * r() - 1) * 180) / Math.PI;
  }
  return { ids: Array.from({ length: n }, (_, i) => `sta_${i}`), lon, lat };
}

/** Median ms per query for the index and for the scan, over the same queries. */
function perQuery<Q>(queries: Q[], index: (q: Q) => unknown, scan: (q: Q) => unknown): { index: number; scan: number } {
  const a: number[] = [];
  const b: number[] = [];
  for (const q of queries.slice(0, 20)) (index(q), scan(q)); // warm-up
  for (const q of queries) {
    let s = performance.now();
    index(q);
    a.push(performance.now() - s);
    s = performance.now();
    scan(q);
    b.push(performance.now() - s);
  }
  return { index: median(a), scan: median(b) };
}

export async function runAlgorithmBenchmarks(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const s = randomWalk(1_000_000);
  out['lttb_1e6_to_200_ms'] = time(() => lttbIndices(s.t, s.v, 200), 21);
  const gappy = { t: s.t, v: Float64Array.from(s.v, (x, i) => (i % 10_000 < 50 ? NaN : x)) };
  out['lttb_1e6_100_gaps_to_500_ms'] = time(() => lttbIndices(gappy.t, gappy.v, 500), 11);
  const points: TimeValue[] = Array.from(s.t, (t, i) => ({ timestamp: t, value: s.v[i]! }));
  out['lttb_1e6_objects_to_200_ms'] = time(() => lttb(points, 200), 7);
  out['dp_1e6_tolerance_0.1_ms'] = time(() => douglasPeuckerIndices(s.t, s.v, 0.1), 7, 1);
  out['dp_1e6_tolerance_0.1_points_kept'] = douglasPeuckerIndices(s.t, s.v, 0.1).length;
  out['dp_1e6_tolerance_1_ms'] = time(() => douglasPeuckerIndices(s.t, s.v, 1), 7, 1);

  const st = randomStations(100_000);
  out['station_index_build_1e5_ms'] = time(() => new StationIndex(st.ids, st.lon, st.lat), 5, 1);
  const index = new StationIndex(st.ids, st.lon, st.lat);
  const r = rng(3);
  const boxes: LonLatBox[] = Array.from({ length: 500 }, (_, i) => {
    const w = i % 2 ? 10 * r() : 40 * r(); // half of them small, half up to 40° wide
    const west = -180 + 360 * r();
    const south = -90 + (180 - w / 2) * r();
    return { west, south, east: west + w > 180 ? west + w - 360 : west + w, north: south + w / 2 };
  });
  const b = perQuery(boxes, (q) => index.inBboxIndices(q), (q) => bruteForceInBox(st.lon, st.lat, q));
  out['bbox_index_median_ms'] = b.index;
  out['bbox_scan_median_ms'] = b.scan;
  out['bbox_speedup'] = b.scan / b.index;
  const circles = Array.from({ length: 500 }, (_, i) => ({
    lon: -180 + 360 * r(),
    lat: i % 5 === 0 ? 80 + 10 * r() : (Math.asin(2 * r() - 1) * 180) / Math.PI,
    km: [10, 100, 500, 2000][i % 4]! * (0.5 + r()),
  }));
  const xyz = unitVectors(st.lon, st.lat); // the scan gets precomputed unit vectors too: a fair baseline
  const n = perQuery(circles, (q) => index.nearIndices(q.lon, q.lat, q.km), (q) => scanNear(xyz, q.lon, q.lat, q.km));
  out['near_index_median_ms'] = n.index;
  out['near_scan_median_ms'] = n.scan;
  out['near_speedup'] = n.scan / n.index;
  // the slowest query of all (median of 5 runs each), and the two that return (nearly) every station
  const worst = Math.max(...boxes.map((q) => time(() => index.inBboxIndices(q), 5, 1)), ...circles.map((q) => time(() => index.nearIndices(q.lon, q.lat, q.km), 5, 1)));
  out['geo_index_slowest_query_ms'] = worst;
  out['bbox_whole_world_ms'] = time(() => index.inBboxIndices({ west: -180, south: -90, east: 180, north: 90 }), 21);
  out['near_20000_km_ms'] = time(() => index.nearIndices(10, 50, 20_000), 21);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await runAlgorithmBenchmarks();
  const width = Math.max(...Object.keys(results).map((k) => k.length));
  for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(width)}  ${v >= 100 ? v.toFixed(0) : v.toPrecision(3)}`);
}
