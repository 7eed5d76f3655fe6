/**
 * The range picker of a series page (site/scripts/series-chart.ts): which timespan a choice means, how the page's
 * address keeps it, and the data links of that timespan. Pure and free of Node (bundled into the page's script).
 *
 * - Every range ends at the snapshot's instant (`taken_at`, the end of the default week, never the wall clock):
 *   day P1D, week P7D (the default: the tree's getData file), month P1M and year P1Y back from it, calendar
 *   arithmetic in UTC as the API's `timespan` periods (a month back from 31 March is 29 February or the 28th).
 * - Custom: two dates, both days whole in UTC: from the first day's 00:00 to the day after the last (exclusive
 *   in effect; the API's span is inclusive, and a value at exactly that midnight is the next day's first).
 * - The address: `?range=day|month|year` (week has no parameter: the plain address is the week), or
 *   `?range=custom&from=YYYY-MM-DD&to=YYYY-MM-DD`. An unreadable address falls back to the week.
 * - The API caps a timespan at P1Y1D (`requestIntervalRestriction`); a custom range longer than that is refused
 *   here with the same words before anything is fetched.
 * - A custom range in the address that cannot be drawn (reversed dates on first load) draws the week, with a
 *   notice naming the refused range and why (`rangeOnLoad`); the form keeps the refused dates to correct.
 */

export const RANGES = ['day', 'week', 'month', 'year', 'custom'] as const;
export type RangeKey = (typeof RANGES)[number];

export interface RangeChoice {
  key: RangeKey;
  /** Custom only: the first and last day, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
}

export interface Span {
  start: number;
  end: number;
}

const DAY = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const RANGE_LABELS: Record<RangeKey, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year', custom: 'Custom' };

/** The words of a range in a heading: "The month up to the snapshot", "2024-01-03 to 2024-01-10". */
export function rangeTitle(c: RangeChoice): string {
  return c.key === 'custom' ? `${c.from} to ${c.to}` : `The ${c.key} up to the snapshot`;
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** `ms` moved by `months` calendar months in UTC, the day clamped to the month's last (as the API's periods). */
export function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const out = new Date(ms);
  out.setUTCFullYear(year, month0, Math.min(d.getUTCDate(), daysInMonth(year, month0)));
  return out.getTime();
}

/** Midnight UTC of a `YYYY-MM-DD` date, or NaN. */
export function dayStart(date: string | undefined): number {
  const m = DATE.exec(date ?? '');
  if (!m) return NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === date ? ms : NaN;
}

/** `YYYY-MM-DD` of an instant (UTC). */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The timespan of a choice, or the reason there is none (a custom range that cannot be drawn). */
export function rangeSpan(c: RangeChoice, takenAt: number): Span | { problem: string } {
  switch (c.key) {
    case 'day':
      return { start: takenAt - DAY, end: takenAt };
    case 'week':
      return { start: takenAt - 7 * DAY, end: takenAt };
    case 'month':
      return { start: addMonthsUtc(takenAt, -1), end: takenAt };
    case 'year':
      return { start: addMonthsUtc(takenAt, -12), end: takenAt };
    case 'custom': {
      const start = dayStart(c.from);
      const last = dayStart(c.to);
      if (Number.isNaN(start)) return { problem: 'Choose the first day.' };
      if (Number.isNaN(last)) return { problem: 'Choose the last day.' };
      if (last < start) return { problem: 'The last day lies before the first.' };
      const end = last + DAY;
      if (end > addMonthsUtc(start, 12) + DAY) return { problem: 'A range may cover at most a year and a day (the API’s limit).' };
      return { start, end };
    }
  }
}

/**
 * What the page draws for a choice its address holds: the choice itself, or, when it cannot be drawn (a custom
 * range reversed, unreadable or too long), the week with a notice that names the refused range and the reason.
 * A refused choice made in the form is not drawn at all: the form says why and the chart stays as it is.
 */
export function rangeOnLoad(c: RangeChoice, takenAt: number): { choice: RangeChoice; span: Span; notice?: string } {
  const got = rangeSpan(c, takenAt);
  if (!('problem' in got)) return { choice: c, span: got };
  const week: RangeChoice = { key: 'week' };
  const asked = c.key === 'custom' ? `${c.from || '?'} to ${c.to || '?'}` : c.key;
  return {
    choice: week,
    span: rangeSpan(week, takenAt) as Span,
    notice: `The range in the address (${asked}) was refused: ${got.problem} Shown instead: ${rangeTitle(week).toLowerCase()}.`,
  };
}

/** The choice an address keeps (the week when it keeps none or an unreadable one). */
export function readRange(params: URLSearchParams): RangeChoice {
  const key = params.get('range');
  if (key === 'custom') {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    return { key, from, to };
  }
  if (key === 'day' || key === 'month' || key === 'year') return { key };
  return { key: 'week' };
}

/** The address' query for a choice ('' for the week), keeping other parameters of `params`. */
export function writeRange(c: RangeChoice, params: URLSearchParams = new URLSearchParams()): string {
  const out = new URLSearchParams(params);
  for (const k of ['range', 'from', 'to']) out.delete(k);
  if (c.key !== 'week') out.set('range', c.key);
  if (c.key === 'custom') {
    out.set('from', c.from ?? '');
    out.set('to', c.to ?? '');
  }
  const q = out.toString();
  return q ? `?${q}` : '';
}

/** Spans longer than this are fetched generalized (LTTB) to GENERALIZED_POINTS points. */
export const GENERALIZE_AFTER = 40 * DAY;
export const GENERALIZED_POINTS = 2000;

/** The `timespan` parameter of a span: `start/end`, ISO datetimes in UTC. */
export function timespanParam(s: Span): string {
  return `${new Date(s.start).toISOString()}/${new Date(s.end).toISOString()}`;
}

export interface RangeLinks {
  png: string;
  pdf: string;
  csv: string;
  json: string;
  /**
   * What the chart fetches: flot (`[t, v]` pairs, half the bytes of tvp) with the reference values,
   * generalized for long spans.
   */
  data: string;
  generalized: boolean;
}

/** The endpoint's answers for a series and a span (`api` is `/api/v1/timeseries/<id>`). */
export function rangeLinks(api: string, s: Span): RangeLinks {
  const ts = `timespan=${encodeURIComponent(timespanParam(s))}`;
  const generalized = s.end - s.start > GENERALIZE_AFTER;
  return {
    png: `${api}/getData.png?${ts}&expanded=true`,
    pdf: `${api}/getData.pdf?${ts}&expanded=true`,
    csv: `${api}/getData.csv?${ts}`,
    json: `${api}/getData.json?${ts}&expanded=true`,
    data: `${api}/getData.json?${ts}&expanded=true&format=flot${generalized ? `&generalize=true&generalizing_algorithm=LTTB&threshold=${GENERALIZED_POINTS}` : ''}`,
    generalized,
  };
}
