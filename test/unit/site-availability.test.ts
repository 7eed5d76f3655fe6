/** The availability matrix (core/site-data/availability.ts): daily shares of merged intervals, levels, the window. */
import { expect, test } from 'vitest';
import { availability, dailyShares, shareLevel, trimLeadingEmpty, union, windowDays } from '../../core/site-data/availability.ts';
import type { CoverageSeries } from '../../core/site-data/radar-activity.ts';

const t = (iso: string) => Date.parse(`${iso}Z`);

test('the window: count days ending with the last, oldest first', () => {
  expect(windowDays('2024-03-02', 3)).toEqual(['2024-02-29', '2024-03-01', '2024-03-02']);
});

test('overlapping intervals count once; a day is clipped', () => {
  expect(union([{ start: 5, end: 10 }, { start: 0, end: 6 }, { start: 20, end: 30 }])).toEqual([{ start: 0, end: 10 }, { start: 20, end: 30 }]);
  const ivs = [
    { start: t('2024-03-01T00:00:00'), end: t('2024-03-01T12:00:00') },
    { start: t('2024-03-01T06:00:00'), end: t('2024-03-01T18:00:00') },
    { start: t('2024-03-01T23:00:00'), end: t('2024-03-02T02:00:00') },
  ];
  expect(dailyShares(ivs, ['2024-02-29', '2024-03-01', '2024-03-02'])).toEqual([0, 19 / 24, 2 / 24]);
});

test('file coverage of every type, data coverage when a radar has no file coverage; alarms by day', () => {
  const series = (coverageType: string, fileType: string, start: string, end: string): CoverageSeries => ({ coverageType, fileType, intervals: [{ start: t(start), end: t(end), flagged: false }], seconds: 0 });
  const coverage = new Map([
    ['sas', [series('data', 'fitacf', '2024-03-01T00:00:00', '2024-03-02T00:00:00'), series('file', 'rawacf', '2024-03-01T00:00:00', '2024-03-01T06:00:00'), series('file', 'fitacf', '2024-03-01T12:00:00', '2024-03-01T18:00:00')]],
    ['pgr', [series('data', 'fitacf', '2024-03-01T00:00:00', '2024-03-01T12:00:00')]],
  ]);
  const alarms = new Map([['sas', new Map([['2024-03-01', 2]])]]);
  const rows = availability(['pgr', 'sas', 'kod'], coverage, alarms, ['2024-02-29', '2024-03-01']);
  expect(rows).toEqual([
    { code: 'pgr', cells: [{ day: '2024-02-29', share: 0, alarms: 0 }, { day: '2024-03-01', share: 0.5, alarms: 0 }] },
    { code: 'sas', cells: [{ day: '2024-02-29', share: 0, alarms: 0 }, { day: '2024-03-01', share: 0.5, alarms: 2 }] },
    { code: 'kod', cells: [{ day: '2024-02-29', share: 0, alarms: 0 }, { day: '2024-03-01', share: 0, alarms: 0 }] },
  ]);
  expect(trimLeadingEmpty(rows).map((r) => r.cells.map((c) => c.day))).toEqual([['2024-03-01'], ['2024-03-01'], ['2024-03-01']]);
});

test.each([[0, 0], [0.01, 1], [0.25, 2], [0.5, 3], [0.75, 4], [0.99, 4], [1, 5]] as const)('share %d is level %d', (share, level) => expect(shareLevel(share)).toBe(level));

test('gaps: between merged intervals only, in time order; file coverage of every type, else data coverage', async () => {
  const { gaps, coverageIntervals } = await import('../../core/site-data/availability.ts');
  expect(gaps([{ start: 0, end: 10 }, { start: 5, end: 12 }, { start: 20, end: 30 }, { start: 30, end: 40 }, { start: 50, end: 60 }])).toEqual([{ start: 12, end: 20 }, { start: 40, end: 50 }]);
  expect(gaps([])).toEqual([]);
  const s = (coverageType: string, start: number, end: number): CoverageSeries => ({ coverageType, fileType: 'x', intervals: [{ start, end, flagged: false }], seconds: 0 });
  expect(coverageIntervals([s('data', 0, 1), s('file', 2, 3)])).toEqual([{ start: 2, end: 3, flagged: false }]);
  expect(coverageIntervals([s('data', 0, 1)])).toEqual([{ start: 0, end: 1, flagged: false }]);
});
