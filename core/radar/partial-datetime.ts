/**
 * Partial ISO 8601 datetimes for the radar catalogue's `timespan` (DECISIONS.md): `2016`, `2016-03`,
 * `2016-03-01`, `2016-03-01T12`, `2016-03-01T12:30`, with or without seconds, milliseconds, `Z` or an offset.
 * Missing parts take their lowest value. No zone means UTC.
 */

/** The datetime forms read (letters in any case). */
export const PARTIAL_DATETIME_PATTERN =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export type PartialDatetimeResult = { ok: true; ms: number } | { ok: false; problem: string };

/** Date.UTC without its two-digit-year rule (which reads years 0-99 as 1900-1999). */
function utc(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month, 0)).getUTCDate();
}

export function parsePartialDatetime(input: string): PartialDatetimeResult {
  // A '+' offset that was not URL-encoded arrives as a space: `12:00 01:00` means `12:00+01:00`.
  const text = input.trim().replace(/^(\d{4}-\d{2}-\d{2}[T ]\d{2}(?::\d{2}(?::\d{2}(?:\.\d+)?)?)?) (\d{2}(?::?\d{2})?)$/i, '$1+$2');
  const m = PARTIAL_DATETIME_PATTERN.exec(text);
  if (!m) return { ok: false, problem: `'${input}' is not a datetime such as 2016, 2016-03, 2016-03-01 or 2016-03-01T12:30:00Z` };
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (zone && h === undefined) return { ok: false, problem: `'${input}' has a time zone but no time` };
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12) return { ok: false, problem: `'${input}' has month ${month}; months run from 01 to 12` };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, problem: `'${input}' has day ${day}, which month ${month} of ${year} does not have` };
  if (hour > 23) return { ok: false, problem: `'${input}' has hour ${hour}; hours run from 00 to 23` };
  if (minute > 59) return { ok: false, problem: `'${input}' has minute ${minute}; minutes run from 00 to 59` };
  if (second > 59) return { ok: false, problem: `'${input}' has second ${second}; seconds run from 00 to 59` };
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const oh = Number(zm[2]);
    const om = zm[3] === undefined ? 0 : Number(zm[3]);
    if (oh > 23 || om > 59) return { ok: false, problem: `'${input}' has an offset ${zone} out of range` };
    offsetMinutes = (zm[1] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = utc(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  if (year < 1 || !Number.isFinite(ms)) return { ok: false, problem: `'${input}' is out of range` };
  return { ok: true, ms };
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, the one datetime form the catalogue writes. */
export function formatDatetime(ms: number): string {
  return new Date(ms).toISOString();
}
