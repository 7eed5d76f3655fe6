import { describe, expect, test } from 'vitest';
import { barBuckets } from '../../core/charts/index.ts';

const ms = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe('barBuckets: sums per UTC bucket', () => {
  test('byHour sums every value of the hour, the last partial hour included', () => {
    const start = ms('2024-03-01T10:00:00Z');
    const t = Array.from({ length: 10 }, (_, i) => start + i * 15 * 60_000); // 10:00 .. 12:15
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const b = barBuckets({ t, v }, 'byHour');
    expect(b.map((x) => [x.start, x.end, x.sum, x.count])).toEqual([
      [start, start + H, 10, 4],
      [start + H, start + 2 * H, 26, 4],
      [start + 2 * H, start + 3 * H, 19, 2],
    ]);
    expect(b.reduce((s, x) => s + x.sum, 0)).toBe(v.reduce((a, c) => a + c, 0));
  });

  test('nulls and NaN are skipped; a bucket of only gaps is left out', () => {
    const t = new Float64Array([ms('2024-03-01T00:00:00Z'), ms('2024-03-01T12:00:00Z'), ms('2024-03-02T06:00:00Z'), ms('2024-03-03T23:59:59Z')]);
    expect(barBuckets({ t, v: [1.5, null, null, 2] }, 'byDay').map((x) => [new Date(x.start).toISOString(), x.sum]))
      .toEqual([['2024-03-01T00:00:00.000Z', 1.5], ['2024-03-03T00:00:00.000Z', 2]]);
    expect(barBuckets({ t, v: new Float64Array([1, 2, NaN, 4]) }, 'byDay').map((x) => x.sum)).toEqual([3, 4]);
  });

  test('byWeek starts on Monday (UTC), byMonth on the 1st', () => {
    const t = [ms('2024-03-03T12:00:00Z'), ms('2024-03-04T00:00:00Z'), ms('2024-03-10T23:00:00Z'), ms('2024-04-01T00:00:00Z')];
    const v = [1, 2, 3, 4];
    expect(barBuckets({ t, v }, 'byWeek').map((x) => [new Date(x.start).toISOString().slice(0, 10), x.sum]))
      .toEqual([['2024-02-26', 1], ['2024-03-04', 5], ['2024-04-01', 4]]);
    expect(barBuckets({ t, v }, 'byMonth').map((x) => [new Date(x.start).toISOString().slice(0, 10), new Date(x.end).toISOString().slice(0, 10), x.sum]))
      .toEqual([['2024-03-01', '2024-04-01', 6], ['2024-04-01', '2024-05-01', 4]]);
  });

  test('unsorted input gives buckets in time order; sums equal the total', () => {
    const t = [5, 1, 3, 2, 4].map((d) => ms(`2024-01-0${d}T08:00:00Z`));
    const v = [5, 1, 3, 2, 4];
    const b = barBuckets({ t, v }, 'byDay');
    expect(b.map((x) => x.sum)).toEqual([1, 2, 3, 4, 5]);
    expect(barBuckets({ t: [], v: [] }, 'byDay')).toEqual([]);
  });
});
