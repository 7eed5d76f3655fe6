/**
 * The pure parts of `npm run bench -- --only timeseries-postgres` (bench/pg-timeseries-*.ts): the PostgreSQL
 * server's own answer writer against snapcat's (core/timeseries/data-body.ts), the packed points it reads, the
 * SQL it renders, the generalizer it picks, the load's chunks and the load tool's script. The answers' equality
 * over a real PostgreSQL is test/integration/timeseries-postgres.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { dataBody } from '../../core/timeseries/data-body.ts';
import { chunkRanges } from '../../bench/pg-timeseries-load.ts';
import { generalizerOf, getDataSql, packedPointsSql, postDataSql, tvpBody, unpackPoints } from '../../bench/pg-timeseries-server.ts';
import { loadedRatio, loadedText, MIN_LOADED_ANSWERS, requestScriptText } from '../../bench/timeseries-postgres.ts';

const points = {
  t: Float64Array.from([1704067200000, 1704067800000, 1704068400000, 1704069000123, 1704069600000]),
  v: Float64Array.from([1.5, NaN, -0.000123, 1e21, 3]),
};

describe('the PostgreSQL server answer writer', () => {
  test("a GET of one series in tvp is snapcat's body, null values and all", () => {
    const snapcat = Buffer.from(dataBody([{ id: 'ts_a', points, refs: [] }], { format: 'tvp', expanded: false, mode: 'single' })).toString('utf8');
    expect(tvpBody(points)).toBe(snapcat);
    expect(JSON.parse(tvpBody(points)).values[1]).toEqual({ timestamp: 1704067800000, value: null });
  });

  test('no points: an empty list, as snapcat writes it', () => {
    const none = { t: new Float64Array(0), v: new Float64Array(0) };
    expect(tvpBody(none)).toBe(Buffer.from(dataBody([{ id: 'ts_a', points: none, refs: [] }], { format: 'tvp', expanded: false, mode: 'single' })).toString('utf8'));
  });

  test('packed points (big-endian float8 pairs, NaN for null) read back as they were; none for a series without values', () => {
    const b = Buffer.alloc(16 * points.t.length);
    points.t.forEach((t, i) => {
      b.writeDoubleBE(t, 16 * i);
      b.writeDoubleBE(points.v[i]!, 16 * i + 8);
    });
    const back = unpackPoints(b.subarray(0)); // a view, as pg hands a bytea
    expect(Array.from(back.t)).toEqual(Array.from(points.t));
    expect(Array.from(back.v)).toEqual(Array.from(points.v));
    expect(unpackPoints(null).t.length).toBe(0);
  });
});

describe('the SQL', () => {
  const span = { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 8, 0, 0, 0, 5) };

  test('instants are bound as UTC ISO texts, exact to the millisecond, the id as a parameter', () => {
    const q = getDataSql("ts_x'; DROP TABLE observation; --", span);
    expect(q.values).toEqual(["ts_x'; DROP TABLE observation; --", '2024-01-01T00:00:00.000Z', '2024-01-08T00:00:00.005Z']);
    expect(q.text).not.toContain('DROP');
    expect(q.text).toContain('BETWEEN $2::timestamptz AND $3::timestamptz');
    expect(q.text).toContain('ORDER BY o.sampling_time_start');
    expect(packedPointsSql('ts_x', span).values).toEqual(['ts_x', '2024-01-01T00:00:00.000Z', '2024-01-08T00:00:00.005Z']);
  });

  test("a POST's body is wrapped in allTimeseries in the spec profile, not in 52north's, in the order named", () => {
    const spec = postDataSql(['ts_b', 'ts_a'], span, 'spec');
    expect(spec.text).toMatch(/^SELECT '\{"allTimeseries":\{' \|\| /);
    expect(spec.text).toMatch(/\|\| '\}\}' AS body/);
    expect(spec.text).toContain("ORDER BY q.ord");
    expect(spec.values[0]).toEqual(['ts_b', 'ts_a']);
    const n52 = postDataSql(['ts_a'], span, '52north');
    expect(n52.text).toMatch(/^SELECT '\{' \|\| /);
    expect(n52.text).toMatch(/\|\| '\}' AS body/);
  });
});

describe('the generalizer', () => {
  test('none without generalize=true; the build default without an algorithm; the asked one with its options', () => {
    expect(generalizerOf(new URLSearchParams('timespan=P1D/2024-01-02TZ'), 'lttb')).toBeUndefined();
    expect(generalizerOf(new URLSearchParams('generalize=true'), 'lttb')).toEqual({ algorithm: 'lttb', threshold: 200 });
    expect(generalizerOf(new URLSearchParams('generalize=true'), 'dp')).toEqual({ algorithm: 'dp', tolerance: 0.1 });
    expect(generalizerOf(new URLSearchParams('generalize=true&generalizing_algorithm=LTTB&threshold=50'), 'dp')).toEqual({ algorithm: 'lttb', threshold: 50 });
  });
});

describe('the load', () => {
  test('series are grouped into ranges of about the target rows, every series in exactly one', () => {
    const counts = [0, 1, 2, 3, 4, 5, 6].map((sid) => ({ sid, n: sid === 3 ? 25 : 4 }));
    expect(chunkRanges(counts, 10)).toEqual([[0, 2], [3, 3], [4, 6]]);
    expect(chunkRanges(counts, 1000)).toEqual([[0, 6]]);
    expect(chunkRanges([], 10)).toEqual([]);
  });
});

describe("wrk's script", () => {
  test('every request ends a second earlier than the one before, from the given end; POST bodies name every series', () => {
    const get = requestScriptText({ method: 'GET', period: 'P1Y', ids: ['ts_a', 'ts_"b'], suffix: '&generalize=true' }, 1706646000);
    expect(get).toContain('local ids = {"ts_a", "ts_\\"b"}');
    expect(get).toContain('os.date("!%Y-%m-%dT%H:%M:%SZ", 1706646000 - n)');
    expect(get).toContain('"/getData?timespan=" .. "P1Y" .. "/" .. e .. "&generalize=true"');
    const post = requestScriptText({ method: 'POST', period: 'P7D', ids: ['ts_a', 'ts_b'] }, 1706646000);
    expect(post).toContain('wrk.format("POST", "/api/v1/timeseries/getData", json');
    expect(post).toContain('"[\\"ts_a\\",\\"ts_b\\"]"');
  });
});

describe('the load runs in words', () => {
  const run = (requests: number, medianMs: number, p99Ms: number, rps: number) => ({ requests, medianMs, p99Ms, rps, failures: 0, toolBusy: 0.1 });

  test('latencies and their ratios where both sides answered enough', () => {
    expect(loadedText(run(400, 20, 80, 80))).toBe('median 20.0 ms, p99 80.0 ms, 80 req/s');
    expect(loadedRatio(run(400, 20, 80, 80), run(100, 100, 160, 20))).toBe('median ×0.20, p99 ×0.50, throughput ×4.00');
  });

  test('a run with too few answers has no latency figure and no latency ratio, nor a division by zero', () => {
    const none = run(0, 0, 0, 0);
    expect(loadedText(none)).toMatch(/^only 0 answers in the run: no latency figure/);
    expect(loadedRatio(run(400, 20, 80, 80), none)).toBe('PostgreSQL answered none');
    expect(loadedRatio(run(400, 20, 80, 80), run(MIN_LOADED_ANSWERS - 1, 3000, 4000, 3))).toBe('throughput ×26.67');
  });
});
