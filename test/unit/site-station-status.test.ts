/** A series' status (the interval its last value lies in) and a station's (its most severe series'): site/lib/station-status.ts. */
import { describe, expect, test } from 'vitest';
import { statusOf, worstStatus } from '../../site/lib/station-status.ts';

const LEVELS = [
  { name: 'warning level 1', lower: '600', upper: '680', color: '#ffd700' },
  { name: 'below warning level 1', lower: '0', upper: '600', color: '#00a000' },
  { name: 'warning level 3', lower: '770', color: '#ff0000' },
  { name: 'warning level 2', lower: '680', upper: '770', color: '#ff8c00' },
];
const AIR = [
  { name: 'good', lower: '0', upper: '20', color: '#00a000' },
  { name: 'moderate', lower: '20', upper: '35', color: '#ffd700' },
];

describe('statusOf', () => {
  test('lower bound inclusive, upper exclusive, the top one open; severity by place in its own set ordered by lower bound', () => {
    expect(statusOf(LEVELS, 599.9)).toEqual({ name: 'below warning level 1', color: '#00a000', severity: 0 });
    expect(statusOf(LEVELS, 600)).toEqual({ name: 'warning level 1', color: '#ffd700', severity: 1 / 3 });
    expect(statusOf(LEVELS, 5000)).toEqual({ name: 'warning level 3', color: '#ff0000', severity: 1 });
    expect(statusOf(LEVELS, -1)).toBeUndefined();
    expect(statusOf(LEVELS, undefined)).toBeUndefined();
    expect(statusOf([], 3)).toBeUndefined();
  });
  test('a station takes its most severe series’ status, the first of equals; none without any', () => {
    const water = statusOf(LEVELS, 610)!;
    const air = statusOf(AIR, 30)!;
    expect(worstStatus([water, air])).toBe(air);
    expect(worstStatus([undefined, statusOf(AIR, 1), statusOf(LEVELS, 1)])?.name).toBe('good');
    expect(worstStatus([undefined])).toBeUndefined();
  });
});
