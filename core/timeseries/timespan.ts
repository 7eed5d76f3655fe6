/**
 * The Timeseries API's `timespan` (DECISIONS.md): ISO 8601 intervals as 52°North takes them,
 * `start/end`, `period/end` and `start/period`, e.g. `PT6H/2013-08-16TZ`, `P0Y0M3D/2013-01-31TZ`,
 * `2013-07-13TZ/2013-08-13TZ`, `2013-08-13T10:00:00+02:00/P1D`.
 *
 * - A datetime is an ISO 8601 date with optional time and zone (no zone means UTC). Missing parts take their
 *   lowest value (`2013-08` is 1 August, midnight). A date followed by `T` and a zone but no time
 *   (`2013-08-16TZ`, `2013-08-16T+02:00`) is midnight in that zone.
 * - A `+` in an offset that arrived as a space (an unencoded query string) is read as `+`.
 * - A period is `PnYnMnWnDTnHnMnS` (any subset, letters in either case, a fraction on the seconds only).
 *   Years and months are calendar arithmetic in UTC, the day clamped to the month's last day
 *   (2013-03-31 minus P1M is 2013-02-28), as Joda-Time does; weeks, days and smaller parts are fixed lengths
 *   (UTC has no daylight saving). `period/end` subtracts the period from the end, `start/period` adds it.
 * - A lone date without `/` (`2013`, `2013-08`, `2013-08-16`) is that whole year, month or day.
 * - Bounds are inclusive milliseconds since the epoch; start equal to end is one instant.
 * - Refused with 400 naming `timespan`: anything else, two periods, a zero period, start after end.
 */
import { z } from 'zod';
import { HttpError, badParameter } from '../http/errors.ts';
import { parsePartialDatetime } from '../radar/partial-datetime.ts';

export type { Timespan } from '../timespan.ts';
import type { Timespan } from '../timespan.ts';

export interface Period {
  /** Calendar months (years × 12 + months). */
  months: number;
  /** Everything of fixed length (weeks, days, hours, minutes, seconds), in ms. */
  fixedMs: number;
}

export const TIMESPAN_EXAMPLE = 'timespan=PT6H/2013-08-16TZ';
export const DEFAULT_MAX_TIMESPAN = 'P1Y1D';

const DAY_MS = 86_400_000;
const PERIOD = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;
const ZONE = '(?:Z|[+-]\\d{2}(?::?\\d{2})?)';
/** `2013-08-16TZ`, `2013-08-16T+02:00`, `2013-08-16T 02:00` (decoded `+`), `2013-08-16Z`: a zone with no time. */
const DATE_WITH_ZONE = new RegExp(`^(\\d{4}-\\d{2}-\\d{2})(?:T(${ZONE}| \\d{2}(?::?\\d{2})?)|(${ZONE}))$`, 'i');
const LONE_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** `PnYnMnWnDTnHnMnS`; undefined when the text is not such a period (zero periods are read; callers decide). */
export function parsePeriod(text: string): Period | undefined {
  const s = text.trim();
  const m = PERIOD.exec(s);
  if (!m || /^P$/i.test(s) || /T$/i.test(s)) return undefined;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]!.replace(',', '.')));
  const months = n(1) * 12 + n(2);
  const fixedMs = Math.round(((n(3) * 7 + n(4)) * 24 * 3600 + n(5) * 3600 + n(6) * 60 + n(7)) * 1000);
  if (!Number.isSafeInteger(months) || !Number.isSafeInteger(fixedMs)) return undefined;
  return { months, fixedMs };
}

function daysInMonth(year: number, month0: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month0 + 1, 0); // day 0 of the next month: the last day of this one
  return d.getUTCDate();
}

function addMonthsUtc(ms: number, months: number): number {
  if (months === 0) return ms;
  const d = new Date(ms);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month0));
  const out = new Date(ms);
  out.setUTCFullYear(year, month0, day); // keeps the time of day; no two-digit-year mapping
  return out.getTime();
}

/** `ms` plus (`sign` 1) or minus (`sign` -1) the period: calendar months first, then the fixed part. */
export function shiftByPeriod(ms: number, period: Period, sign: 1 | -1): number {
  return addMonthsUtc(ms, sign * period.months) + sign * period.fixedMs;
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

function parseInstant(text: string): Read<number> {
  const s = text.trim();
  const dz = DATE_WITH_ZONE.exec(s);
  const normalised = dz ? `${dz[1]}T00:00${(dz[2] ?? dz[3])!.replace(/^ /, '+')}` : s;
  const r = parsePartialDatetime(normalised);
  if (r.ok) return { ok: true, value: r.ms };
  if (r.problem.includes('is not a datetime')) {
    return { ok: false, problem: `has '${text}', which is not a datetime such as 2013-08-16TZ, 2013-08-16 or 2013-08-13T10:00:00+02:00` };
  }
  return { ok: false, problem: `cannot be read: ${r.problem.replace(`'${normalised}'`, `'${text}'`)}` };
}

function lastInstantOf(text: string): Read<Timespan> | undefined {
  const m = LONE_DATE.exec(text.trim());
  if (!m) return undefined;
  const start = parseInstant(text);
  if (!start.ok) return start;
  const next = m[3] !== undefined ? start.value + DAY_MS : addMonthsUtc(start.value, m[2] !== undefined ? 1 : 12);
  return { ok: true, value: { start: start.value, end: next - 1 } };
}

function readTimespan(text: string): Read<Timespan> {
  const parts = text.trim().split('/');
  if (parts.length === 1) {
    const lone = lastInstantOf(parts[0]!);
    if (lone) return lone;
  }
  if (parts.length !== 2 || parts.some((p) => p.trim() === '')) {
    return { ok: false, problem: `must be an ISO 8601 interval start/end, period/end or start/period, not '${text}'` };
  }
  const [a, b] = parts as [string, string];
  const pa = /^\s*P/i.test(a) ? parsePeriod(a) : undefined;
  const pb = /^\s*P/i.test(b) ? parsePeriod(b) : undefined;
  for (const [side, period] of [[a, pa], [b, pb]] as const) {
    if (/^\s*P/i.test(side) && period === undefined) return { ok: false, problem: `has '${side}', which is not an ISO 8601 period such as PT6H, P3D or P1Y2M` };
    if (period && period.months === 0 && period.fixedMs <= 0) return { ok: false, problem: `has the period '${side}', which is not longer than zero` };
  }
  if (pa && pb) return { ok: false, problem: `has two periods ('${text}'); one side must be a datetime` };
  const sa = pa ? undefined : parseInstant(a);
  const sb = pb ? undefined : parseInstant(b);
  if (sa && !sa.ok) return sa;
  if (sb && !sb.ok) return sb;
  const start = sa ? (sa as { value: number }).value : shiftByPeriod((sb as { value: number }).value, pa!, -1);
  const end = sb ? (sb as { value: number }).value : shiftByPeriod(start, pb!, 1);
  if (!Number.isFinite(start) || !Number.isFinite(end) || Math.abs(start) > 8.64e15 || Math.abs(end) > 8.64e15) {
    return { ok: false, problem: `is out of range ('${text}')` };
  }
  if (start > end) return { ok: false, problem: `starts after it ends ('${text}')` };
  return { ok: true, value: { start, end } };
}

/** One zod schema for the parameter, shared by the GET query, the POST bodies and the docs. */
export const timespanSchema = z.string().transform((v, ctx): Timespan => {
  const r = readTimespan(v);
  if (r.ok) return r.value;
  ctx.addIssue({ code: 'custom', message: r.problem });
  return z.NEVER;
});

/** Reads a timespan; throws HttpError 400 naming `timespan`, with a valid example, when it cannot be read. */
export function parseTimespan(text: string): Timespan {
  const r = timespanSchema.safeParse(text);
  if (r.success) return r.data;
  throw badParameter('timespan', r.error.issues[0]?.message ?? 'cannot be read', TIMESPAN_EXAMPLE, [
    'Forms: start/end, period/end, start/period, e.g. 2013-07-13TZ/2013-08-13TZ, P3D/2013-01-31TZ, 2013-08-13T10:00:00+02:00/P1D',
  ]);
}

/** No timespan given: the week ending at the snapshot's taken_at (DECISIONS.md), never the wall clock. */
export function defaultTimespan(takenAtMs: number): Timespan {
  return { start: takenAtMs - 7 * DAY_MS, end: takenAtMs };
}

/**
 * 400 "Requested timespan is too long" when end > start + maxPeriod (calendar arithmetic, so P1Y1D from
 * 2012-02-29 reaches 2013-03-01). maxPeriod is configuration: an unreadable one is a programming error.
 */
export function checkMaxTimespan(span: Timespan, maxPeriod: string = DEFAULT_MAX_TIMESPAN): Timespan {
  const max = parsePeriod(maxPeriod);
  if (!max) throw new Error(`configured maximum timespan '${maxPeriod}' is not an ISO 8601 period`);
  if (span.end > shiftByPeriod(span.start, max, 1)) {
    throw new HttpError(400, 'Requested timespan is too long', {
      hints: [
        `A valid example: timespan=${maxPeriod}/${new Date(span.end).toISOString()}`,
        `Parameter 'timespan' may cover at most ${maxPeriod}`,
      ],
    });
  }
  return span;
}

/** `start/end` as `YYYY-MM-DDTHH:MM:SS.sssZ` datetimes, readable again by parseTimespan. */
export function formatTimespan(span: Timespan): string {
  return `${new Date(span.start).toISOString()}/${new Date(span.end).toISOString()}`;
}
