/**
 * The time axis: where its ticks fall and how they read.
 *
 * - The axis spans exactly the requested timespan.
 * - Ticks: the finest of the candidate steps below (minutes to decades, each aligned to UTC calendar
 *   units: hours on the hour, weeks on Mondays (ISO), months on the 1st) that leaves at least
 *   MIN_TICK_SPACING px between ticks. With bars, only steps made of whole buckets are candidates, so every
 *   tick is a bucket start: weekly bars get Monday ticks (never months, which do not start on Mondays),
 *   monthly bars month or year ticks.
 * - Labels: one format per zoom level (the step's unit), in the chart's language: times of day `13:00`;
 *   days and weeks `22 Jan` (de `22. Jan`, nl `22 jan`); months `Jan`; years `2024`. A second row gives what
 *   the labels leave out, at the first tick and wherever it changes: the date under times of day, the year
 *   under days and months; so the year is always shown at least once.
 */
import { utcDay, utcHour, utcMinute, utcMonday, utcMonth, utcYear, type CountableTimeInterval, type TimeInterval } from 'd3-time';
import { timeLocale, type Language } from './locale.ts';
import type { BarInterval } from './spec.ts';

export type TickLevel = 'time' | 'day' | 'month' | 'year';
export const MIN_TICK_SPACING = 80;

const MINUTE = 60_000, HOUR = 60 * MINUTE, DAY = 24 * HOUR, WEEK = 7 * DAY, MONTH = 30.44 * DAY, YEAR = 365.25 * DAY;

interface Step {
  interval: TimeInterval;
  /** Approximate length, ms. */
  ms: number;
  level: TickLevel;
  /** The bar intervals whose buckets it is made of. */
  buckets: readonly BarInterval[];
  weeklyOnly?: boolean;
}

/** Every k-th Monday, counted from the Monday 1970-01-05, so the ticks do not depend on the domain. */
function mondays(k: number): TimeInterval {
  if (k === 1) return utcMonday;
  const epoch = Date.UTC(1970, 0, 5);
  return utcMonday.filter((d) => Math.round((+d - epoch) / WEEK) % k === 0);
}

function every(iv: CountableTimeInterval, k: number): TimeInterval {
  return k === 1 ? iv : iv.every(k)!;
}

const NO_WEEK: readonly BarInterval[] = ['byHour', 'byDay', 'byMonth'];

const STEPS: readonly Step[] = [
  ...[1, 5, 10, 15, 30].map((k): Step => ({ interval: every(utcMinute, k), ms: k * MINUTE, level: 'time', buckets: [] })),
  ...[1, 2, 3, 6, 12].map((k): Step => ({ interval: every(utcHour, k), ms: k * HOUR, level: 'time', buckets: ['byHour'] })),
  ...[1, 2].map((k): Step => ({ interval: every(utcDay, k), ms: k * DAY, level: 'day', buckets: ['byHour', 'byDay'] })),
  ...[1, 2].map((k): Step => ({ interval: mondays(k), ms: k * WEEK, level: 'day', buckets: ['byHour', 'byDay', 'byWeek'] })),
  // longer runs of weeks only for weekly bars; other charts get months
  ...[4, 13, 26, 52].map((k): Step => ({ interval: mondays(k), ms: k * WEEK, level: 'day', buckets: ['byWeek'], weeklyOnly: true })),
  ...[1, 2, 3, 6].map((k): Step => ({ interval: every(utcMonth, k), ms: k * MONTH, level: 'month', buckets: NO_WEEK })),
  ...[1, 2, 5, 10, 20, 50, 100].map((k): Step => ({ interval: every(utcYear, k), ms: k * YEAR, level: 'year', buckets: NO_WEEK })),
];

export interface TimeTicks {
  ticks: Date[];
  level: TickLevel;
}

/** The ticks of [start, end] for a plot `width` px wide; `bars` the bar interval ticks must align to. */
export function timeTicks(start: number, end: number, width: number, bars?: BarInterval): TimeTicks {
  const max = Math.max(2, Math.floor(width / MIN_TICK_SPACING));
  const span = Math.max(1, end - start);
  const candidates = STEPS.filter((s) => (bars === undefined ? !s.weeklyOnly : s.buckets.includes(bars)));
  for (const s of candidates) {
    if (span / s.ms > max * 1.5) continue; // far too many: skip without listing them
    const ticks = s.interval.range(new Date(start), new Date(end + 1));
    if (ticks.length <= max) return { ticks, level: s.level };
  }
  const last = candidates.at(-1) ?? STEPS.at(-1)!;
  return { ticks: last.interval.range(new Date(start), new Date(end + 1)), level: last.level };
}

const DAY_FORMAT: Readonly<Record<Language, string>> = { en: '%-d %b', de: '%-d. %b', nl: '%-d %b' };
const DATE_FORMAT: Readonly<Record<Language, string>> = { en: '%-d %b %Y', de: '%-d. %b %Y', nl: '%-d %b %Y' };

export interface TickLabel {
  label: string;
  /** The second row (date or year) where it is shown, else undefined. */
  context: string | undefined;
}

/** Labels of the ticks at their level, with the second row at the first tick and where it changes. */
export function tickLabels(t: TimeTicks, lang: Language): TickLabel[] {
  const l = timeLocale(lang);
  const label = l.utcFormat(t.level === 'time' ? '%H:%M' : t.level === 'day' ? DAY_FORMAT[lang] : t.level === 'month' ? '%b' : '%Y');
  const context = t.level === 'time' ? l.utcFormat(DATE_FORMAT[lang]) : t.level === 'year' ? undefined : l.utcFormat('%Y');
  const unit = t.level === 'time' ? utcDay : utcYear;
  let prev: number | undefined;
  return t.ticks.map((d) => {
    const u = +unit.floor(d);
    const show = context !== undefined && u !== prev;
    prev = u;
    return { label: label(d), context: show ? context!(d) : undefined };
  });
}
