/**
 * Raw data answers, pure: the number formatting (identical to JSON.stringify), the body shapes of every
 * format and mode, reference values sampled as step functions, force_latest_values, generalization bounds,
 * and reading GET and POST data requests.
 */
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../core/http/errors.ts';
import { answerData, sampleSteps, type DataRequest, type SeriesSource } from '../../core/timeseries/data.ts';
import { dataBody, type Points, type SeriesData } from '../../core/timeseries/data-body.ts';
import { MAX_POST_SERIES, readGetData, readPostData } from '../../core/timeseries/data-request.ts';
import { JsonBytes } from '../../core/timeseries/json-bytes.ts';
import { tinyCatalogue } from '../helpers/ts-catalogue.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const pts = (t: number[], v: number[]): Points => ({ t: Float64Array.from(t), v: Float64Array.from(v) });

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('JsonBytes.number writes what JSON.stringify writes', () => {
  test('special and edge values', () => {
    for (const x of [0, -0, 1, -1, 0.1, -0.1, 0.001, 0.0005, 1e-7, 123.456, 999999999.9, 1e9 + 0.5, 2147483647, 2147483648, 1704067200000, -1704067200000, 1e15, 1e21, 0.1 + 0.2, 5e-324, Number.MAX_VALUE, NaN, Infinity, -Infinity]) {
      expect(text(new JsonBytes(4).number(x).bytes()), String(x)).toBe(JSON.stringify(x));
    }
  });

  test('a million random values: decimals of every kind, integers, arbitrary doubles', () => {
    const r = rng(42);
    const f = new Float64Array(1);
    const u = new Uint32Array(f.buffer);
    const out = new JsonBytes();
    const expected: string[] = [];
    for (let i = 0; i < 125_000; i++) {
      const k = Math.floor((r() - 0.5) * 2e8);
      u[0] = r() * 2 ** 32;
      u[1] = r() * 2 ** 32;
      for (const x of [k / 10, k / 100, k / 1000, k / 10000, k, (r() - 0.5) * 10 ** Math.floor(r() * 30 - 15), Math.round(r() * 1e6) / 1e3 + 0.1 * 0.2, f[0]!]) {
        out.number(x).raw(',');
        expected.push(JSON.stringify(x));
      }
    }
    expect(text(out.bytes())).toBe(expected.join(',') + ',');
  });

  test('values: timestamps as JSON.stringify writes them, on and across every edge of the 13-digit fast path', () => {
    const r = rng(7);
    const t: number[] = [1e12 - 1, 1e12, 1e12 + 1, 1e13 - 1, 1e13, 1e13 + 1, -1704067200000, 1704067200000.5, 0, NaN, 17e11, 17e11];
    // runs that cross a multiple of 10^8 (the high five digits change), with other numbers between equal highs
    for (let k = 0; k < 2000; k++) {
      const base = Math.floor(1e12 + r() * 9e12);
      for (const x of [base, base + 1, Math.ceil(base / 1e8) * 1e8 - 1, Math.ceil(base / 1e8) * 1e8, base + 0.25, base + 600_000, 42, base + 1_200_000]) t.push(x);
    }
    const tf = Float64Array.from(t);
    const vf = Float64Array.from(t, (_, i) => (i % 5 === 0 ? NaN : i / 10));
    const tvp = t.map((x, i) => JSON.stringify({ timestamp: x, value: vf[i] })).join(',');
    const pairs = t.map((x, i) => JSON.stringify([x, vf[i]])).join(',');
    expect(text(new JsonBytes(8).values(tf, vf, 'tvp').bytes())).toBe(tvp);
    expect(text(new JsonBytes(8).values(tf, vf, 'pairs').bytes())).toBe(pairs);
    // a builder after another: the high digits are never taken from the other's buffer
    new JsonBytes(8).values(Float64Array.of(17e11), Float64Array.of(1), 'pairs');
    expect(text(new JsonBytes(8).raw('abcdefgh').values(Float64Array.of(17e11 + 1), Float64Array.of(1), 'pairs').bytes())).toBe('abcdefgh[1700000000001,1]');
    // two calls on one builder: the second starts afresh
    expect(text(new JsonBytes(8).values(tf.subarray(0, 3), vf.subarray(0, 3), 'pairs').raw('|').values(tf.subarray(3, 9), vf.subarray(3, 9), 'tvp').bytes())).toBe(
      `${t.slice(0, 3).map((x, i) => JSON.stringify([x, vf[i]])).join(',')}|${t.slice(3, 9).map((x, i) => JSON.stringify({ timestamp: x, value: vf[i + 3] })).join(',')}`,
    );
  });

  test('strings and non-ASCII text', () => {
    expect(text(new JsonBytes(2).raw('{').string('Köln "x"').raw('}').bytes())).toBe('{"Köln \\"x\\""}');
  });
});

describe('body shapes', () => {
  const a = { id: 'ts_a', points: pts([1, 2], [1.5, NaN]), refs: [{ id: 'ref_a', points: pts([1, 2], [7, 7]) }] };
  const b = { id: 'ts_b', points: pts([], []), refs: [] };
  const body = (series: SeriesData[], format: 'tvp' | 'highchart' | 'flot', expanded: boolean, mode: 'single' | 'multiple') => JSON.parse(text(dataBody(series, { format, expanded, mode })));
  const c = { ...a, before: pts([0], [3]), after: pts([], []) };

  test.each([
    ['tvp', false, 'single', [a], { values: [{ timestamp: 1, value: 1.5 }, { timestamp: 2, value: null }] }],
    ['tvp', true, 'single', [a], { ts_a: { values: [{ timestamp: 1, value: 1.5 }, { timestamp: 2, value: null }], extra: { referenceValues: { ref_a: { values: [{ timestamp: 1, value: 7 }, { timestamp: 2, value: 7 }] } } } } }],
    ['tvp', true, 'single', [b], { ts_b: { values: [], extra: { referenceValues: {} } } }],
    ['highchart', false, 'single', [a], { name: 'ts_a', data: [[1, 1.5], [2, null]] }],
    ['highchart', true, 'single', [a], [{ name: 'ts_a', data: [[1, 1.5], [2, null]] }, { name: 'ref_a', data: [[1, 7], [2, 7]] }]],
    ['tvp', false, 'multiple', [a, b], { allTimeseries: { ts_a: { values: [{ timestamp: 1, value: 1.5 }, { timestamp: 2, value: null }] }, ts_b: { values: [] } } }],
    ['highchart', false, 'multiple', [b, a], [{ name: 'ts_b', data: [] }, { name: 'ts_a', data: [[1, 1.5], [2, null]] }]],
    ['highchart', true, 'multiple', [a, b], [{ name: 'ts_a', data: [[1, 1.5], [2, null]] }, { name: 'ref_a', data: [[1, 7], [2, 7]] }, { name: 'ts_b', data: [] }]],
    ['flot', false, 'single', [{ ...a, refs: [] }], { values: [[1, 1.5], [2, null]], referenceValues: {} }],
    ['flot', true, 'single', [c], { ts_a: { values: [[1, 1.5], [2, null]], referenceValues: { ref_a: { values: [[1, 7], [2, 7]] } }, valueBeforeTimespan: [0, 3] } }],
    ['flot', true, 'single', [{ ...b, before: pts([0], [1]), after: pts([9], [-2.5]) }], { ts_b: { values: [], referenceValues: {}, valueBeforeTimespan: [0, 1], valueAfterTimespan: [9, -2.5] } }],
    ['flot', false, 'multiple', [b, { ...a, refs: [] }], { ts_b: { values: [], referenceValues: {} }, ts_a: { values: [[1, 1.5], [2, null]], referenceValues: {} } }],
    ['flot', true, 'multiple', [c, b], { ts_a: { values: [[1, 1.5], [2, null]], referenceValues: { ref_a: { values: [[1, 7], [2, 7]] } }, valueBeforeTimespan: [0, 3] }, ts_b: { values: [], referenceValues: {} } }],
  ] as const)('%s, expanded %s, %s', (format, expanded, mode, series, expected) => {
    expect(body(series as unknown as SeriesData[], format, expanded, mode)).toEqual(expected);
  });
});

describe('answers', () => {
  const cat = tinyCatalogue();
  // ts_aerzen_level (sid 0): values at 1000..9000 every 1000 ms, a null at 3000
  const data = pts([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000], [4, 4.5, NaN, 5, 6, 6.5, 7, 6.5, 6]);
  const source: SeriesSource = {
    async read(s, span) {
      if (s.sid !== 0) return pts([], []);
      const keep = [...data.t.keys()].filter((i) => data.t[i]! >= span.start && data.t[i]! <= span.end);
      return pts(keep.map((i) => data.t[i]!), keep.map((i) => data.v[i]!));
    },
    async lastBefore(s, before) {
      if (s.sid !== 0) return pts([], []);
      const i = [...data.t.keys()].filter((k) => data.t[k]! < before && data.v[k] === data.v[k]).at(-1);
      return i === undefined ? pts([], []) : pts([data.t[i]!], [data.v[i]!]);
    },
    async firstAfter(s, after) {
      if (s.sid !== 0) return pts([], []);
      const i = [...data.t.keys()].find((k) => data.t[k]! > after && data.v[k] === data.v[k]);
      return i === undefined ? pts([], []) : pts([data.t[i]!], [data.v[i]!]);
    },
  };
  const request = (over: Partial<DataRequest>): DataRequest => ({ series: [0], span: { start: 0, end: 10_000 }, format: 'tvp', expanded: false, generalize: undefined, forceLatestValues: false, mode: 'single', ...over });
  const answer = async (over: Partial<DataRequest>) => JSON.parse(text(await answerData(cat, source, request(over))));

  test('reference values sample their step function at the served timestamps', async () => {
    expect(sampleSteps(pts([1000, 5000], [5, 7]), Float64Array.from([500, 1000, 4999, 5000, 9000]))).toEqual(pts([1000, 4999, 5000, 9000], [5, 5, 7, 7]));
    const x = await answer({ expanded: true, span: { start: 4000, end: 6000 } });
    expect(x.ts_aerzen_level.extra.referenceValues.ref_aerzen_ms1.values).toEqual([
      { timestamp: 4000, value: 5 },
      { timestamp: 5000, value: 7 },
      { timestamp: 6000, value: 7 },
    ]);
  });

  test('flot: [t, v] pairs; expanded adds the sampled reference values and the nearest non-null values outside the span', async () => {
    expect(await answer({ format: 'flot', span: { start: 4000, end: 6000 } })).toEqual({ values: [[4000, 5], [5000, 6], [6000, 6.5]], referenceValues: {} });
    expect(await answer({ format: 'flot', expanded: true, span: { start: 4000, end: 6000 } })).toEqual({
      ts_aerzen_level: { values: [[4000, 5], [5000, 6], [6000, 6.5]], referenceValues: { ref_aerzen_ms1: { values: [[4000, 5], [5000, 7], [6000, 7]] } }, valueBeforeTimespan: [2000, 4.5], valueAfterTimespan: [7000, 7] },
    });
    // the null at 3000 is no value before the span; nothing after the last value; generalization leaves both alone
    const edge = (await answer({ format: 'flot', expanded: true, span: { start: 3500, end: 9000 }, generalize: { algorithm: 'lttb', threshold: 3 } })).ts_aerzen_level;
    expect(edge.valueBeforeTimespan).toEqual([2000, 4.5]);
    expect(edge).not.toHaveProperty('valueAfterTimespan');
    expect(edge.values.length).toBeLessThanOrEqual(4);
    expect(edge.values[0]).toEqual([4000, 5]);
    expect(edge.values.at(-1)).toEqual([9000, 6]);
    expect(Object.keys(edge.referenceValues)).toEqual(['ref_aerzen_ms1']);
    expect(edge.referenceValues.ref_aerzen_ms1.values.map((p: number[]) => p[0])).toEqual(edge.values.map((p: number[]) => p[0]));
    // a span before every value: nothing before, the first value after
    expect((await answer({ format: 'flot', expanded: true, span: { start: 0, end: 500 } })).ts_aerzen_level).toEqual({ values: [], referenceValues: { ref_aerzen_ms1: { values: [] } }, valueAfterTimespan: [1000, 4] });
  });

  test('POST: the series are read at once, and the answer keeps the order they were named in', async () => {
    // a source whose reads finish in the reverse order they were asked for, counting how many are in flight
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    const slow: SeriesSource = {
      ...source,
      async read(s, span) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5 * (4 - s.sid)));
        order.push(s.sid);
        inFlight--;
        return source.read(s, span);
      },
    };
    const ids = [0, 1, 2, 3].map((k) => cat.timeseries[k]!.id);
    const x = JSON.parse(text(await answerData(cat, slow, request({ series: [0, 1, 2, 3], mode: 'multiple' }))));
    expect(most).toBe(4);
    expect(order).toEqual([3, 2, 1, 0]);
    expect(Object.keys(x.allTimeseries)).toEqual(ids);
    expect(x.allTimeseries[ids[0]!]).toEqual(await answer({}));
  });

  test('force_latest_values: a span without values answers the last value before it', async () => {
    expect((await answer({ span: { start: 9500, end: 20_000 } })).values).toEqual([]);
    expect((await answer({ span: { start: 9500, end: 20_000 }, forceLatestValues: true })).values).toEqual([{ timestamp: 9000, value: 6 }]);
    expect((await answer({ span: { start: 3000, end: 3500 }, forceLatestValues: true })).values).toEqual([{ timestamp: 2000, value: 4.5 }, { timestamp: 3000, value: null }]);
    expect((await answer({ span: { start: 5000, end: 6000 }, forceLatestValues: true })).values).toHaveLength(2);
    expect((await answer({ series: [3], forceLatestValues: true })).values).toEqual([]);
  });

  test('generalize keeps the first and last points and returns at most the threshold', async () => {
    const x = await answer({ generalize: { algorithm: 'lttb', threshold: 4 } });
    expect(x.values.length).toBeLessThanOrEqual(5); // the gap's marker may add one (generalize/lttb.ts)
    expect(x.values[0]).toEqual({ timestamp: 1000, value: 4 });
    expect(x.values.at(-1)).toEqual({ timestamp: 9000, value: 6 });
    const dp = await answer({ generalize: { algorithm: 'dp', tolerance: 100 } });
    expect(dp.values.map((p: { timestamp: number }) => p.timestamp)).toEqual([1000, 2000, 3000, 4000, 9000]);
  });

  test('GET: default timespan, the maximum, filters, what is static', () => {
    const def = readGetData(new URLSearchParams(), cat, 0);
    expect(def.request.span).toEqual({ start: cat.takenAt - 7 * 86_400_000, end: cat.takenAt });
    expect(def.isStatic).toBe(true);
    expect(readGetData(new URLSearchParams('expanded=true&format=tvp'), cat, 0).isStatic).toBe(true);
    for (const q of ['timespan=P1D/2024-01-09TZ', 'format=highchart', 'generalize=true', 'force_latest_values=true', 'phenomenon=phe_level']) expect(readGetData(new URLSearchParams(q), cat, 0).isStatic, q).toBe(false);
    expect(readGetData(new URLSearchParams('generalize=true'), cat, 0).request.generalize).toEqual({ algorithm: 'lttb', threshold: 200 });
    const tooLong = (() => { try { readGetData(new URLSearchParams('timespan=P31D/2024-01-09TZ'), cat, 0); } catch (e) { return e as HttpError; } })();
    expect(tooLong?.userMessage).toBe('Requested timespan is too long');
    expect(() => readGetData(new URLSearchParams('timespan=P30D/2024-01-09TZ'), cat, 0)).not.toThrow();
    const mismatch = (() => { try { readGetData(new URLSearchParams('phenomenon=phe_temp'), cat, 0); } catch (e) { return e as HttpError; } })();
    expect(mismatch?.status).toBe(404);
  });

  test('POST: ids in order, repeats once, body options win, filters select', () => {
    const r = readPostData({ timeseries: ['ts_zug_temp', 'ts_aerzen_level', 'ts_zug_temp'], timespan: 'PT1H/2024-01-08TZ', format: 'highcharts', expanded: true }, new URLSearchParams('format=tvp'), cat);
    expect(r.series.map((k) => cat.timeseries[k]!.id)).toEqual(['ts_zug_temp', 'ts_aerzen_level']);
    expect(r).toMatchObject({ format: 'highchart', expanded: true, mode: 'multiple', span: { start: Date.UTC(2024, 0, 7, 23), end: Date.UTC(2024, 0, 8) } });
    expect(readPostData({ timeseries: ['ts_zug_temp', 'ts_aerzen_level'], phenomenon: 'phe_level' }, new URLSearchParams(), cat).series).toEqual([0]);
  });

  test.each([
    [null, 400, 'JSON object'],
    [[], 400, 'JSON object'],
    [{}, 400, "'timeseries'"],
    [{ timeseries: [] }, 400, "'timeseries'"],
    [{ timeseries: 'ts_a' }, 400, "'timeseries'"],
    [{ timeseries: ['sta_x'] }, 400, "'timeseries'"],
    [{ timeseries: Array.from({ length: MAX_POST_SERIES + 1 }, (_, i) => `ts_${i}`) }, 400, "'timeseries'"],
    [{ timeseries: ['ts_aerzen_level'], timespan: 'yesterday' }, 400, "'timespan'"],
    [{ timeseries: ['ts_aerzen_level'], timespan: 'P1Y/2024-01-01' }, 400, 'too long'],
    [{ timeseries: ['ts_aerzen_level'], expanded: { yes: true } }, 400, "'expanded'"],
    [{ timeseries: ['ts_aerzen_level'], format: 'png' }, 400, "'format'"],
    [{ timeseries: ['ts_nope'] }, 404, 'ts_nope'],
  ])('POST body %j: %i', (body, status, message) => {
    let e: HttpError | undefined;
    try {
      readPostData(body, new URLSearchParams(), cat);
    } catch (x) {
      e = x as HttpError;
    }
    expect(e?.status).toBe(status);
    expect(e?.userMessage).toContain(message);
  });
});
