/**
 * Raw data as CSV, for spreadsheets and Helgoland's export (DECISIONS.md "Real clients"): the values of the
 * data answer (after force_latest_values and generalization), one row each, `\r\n` line ends as in the radar
 * API's CSV (RFC 4180). No field ever needs quoting: ids, ISO times and numbers hold no delimiter or quote.
 *
 * - GET `/timeseries/{id}/getData` (`.csv`, `Accept: text/csv`): header `timestamp,value`.
 * - POST `/timeseries/getData`: header `timeseries,timestamp,value`, the series one after the other in the
 *   order named (one table, so each row says whose it is).
 * - Times: ISO 8601 UTC with milliseconds (`2024-01-08T00:00:00.000Z`, as the radar API writes datetimes).
 * - Values: as JSON writes them; a null is an empty field.
 * - `locale`: where the locale's language writes a decimal comma (de, nl, fr, ...), the delimiter is `;` and
 *   the decimal separator `,`, which is what a spreadsheet in that language reads as numbers (it takes `,` as
 *   its list separator otherwise); elsewhere `,` and `.`. Only the separators change: no thousands
 *   separators, no localised dates.
 * - `bom=true` (Helgoland sends it): a UTF-8 byte order mark first, so Excel reads the file as UTF-8.
 *
 * File names (Content-Disposition): `<id>_<start>_<end>.csv` (`timeseries_...` for a POST), times in ISO 8601
 * basic format (`20240108T000000Z`); in a ZIP, one `<id>.csv` per series.
 */
import { asciiFileName } from '../http/download.ts';
import type { Points, SeriesData } from './data-body.ts';
import type { Locale } from './locale.ts';
import { readParam } from './params.ts';
import type { Timespan } from './timespan.ts';

/** The body fields a POST download may carry besides the data options (they win over the query's). */
export const DOWNLOAD_KEYS = ['locale', 'bom', 'zip'];

export interface Download {
  /** One CSV, or a ZIP of one CSV per series. */
  kind: 'csv' | 'zip';
  dialect: CsvDialect;
  bom: boolean;
}

/**
 * The download a request asks for: `kind` from the path or `Accept` (`getData.zip`, `application/zip`: a
 * ZIP), and, as 52°North's server reads them, `zip=true` (a ZIP from `.csv` too), `bom`, `locale`.
 */
export function readDownload(query: URLSearchParams, kind: 'csv' | 'zip'): Download {
  const zip = readParam(query, 'zip') ?? false;
  return { kind: zip ? 'zip' : kind, dialect: csvDialect(readParam(query, 'locale')), bom: readParam(query, 'bom') ?? false };
}

export interface CsvDialect {
  delimiter: ',' | ';';
  decimal: '.' | ',';
}

const dialects = new Map<string, CsvDialect>();

/** The separators of a locale (see the module comment); `,` and `.` without one, or for a locale the runtime does not know. */
export function csvDialect(locale: Locale): CsvDialect {
  if (locale === undefined) return { delimiter: ',', decimal: '.' };
  const tag = locale.replace('_', '-');
  let d = dialects.get(tag);
  if (!d) {
    let comma = false;
    try {
      comma = Intl.NumberFormat.supportedLocalesOf(tag).length > 0 && new Intl.NumberFormat(tag).formatToParts(1.5).find((p) => p.type === 'decimal')?.value === ',';
    } catch {
      comma = false;
    }
    d = comma ? { delimiter: ';', decimal: ',' } : { delimiter: ',', decimal: '.' };
    dialects.set(tag, d);
  }
  return d;
}

export interface CsvOptions {
  dialect: CsvDialect;
  bom: boolean;
  /** Write the `timeseries` column (POST). */
  withId: boolean;
}

const BOM = '\uFEFF';

function rows(out: string[], id: string | undefined, p: Points, { delimiter, decimal }: CsvDialect): void {
  const prefix = id === undefined ? '' : `${id}${delimiter}`;
  for (let i = 0; i < p.t.length; i++) {
    const v = p.v[i]!;
    // String(v) is what JSON.stringify writes for a finite number
    const value = Number.isFinite(v) ? (decimal === ',' ? String(v).replace('.', ',') : String(v)) : '';
    out.push(`${prefix}${new Date(p.t[i]!).toISOString()}${delimiter}${value}\r\n`);
  }
}

/** The CSV text of the series (one, or several with the `timeseries` column). */
export function csvText(series: SeriesData[], o: CsvOptions): string {
  const d = o.dialect.delimiter;
  const out: string[] = [`${o.bom ? BOM : ''}${o.withId ? `timeseries${d}` : ''}timestamp${d}value\r\n`];
  for (const s of series) rows(out, o.withId ? s.id : undefined, s.points, o.dialect);
  return out.join('');
}

/** `20240108T000000Z`: an instant in ISO 8601 basic format, for file names (milliseconds only when there are some). */
function basicTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/[-:]/g, '').replace(/\.000Z$/, 'Z').replace('.', '');
}

/** The download's file name: `<id>_<start>_<end>.<ext>` (`timeseries_...` for several series). */
export function downloadName(ids: string[], span: Timespan, ext: 'csv' | 'zip'): string {
  const base = ids.length === 1 ? ids[0]! : 'timeseries';
  return asciiFileName(`${base}_${basicTime(span.start)}_${basicTime(span.end)}.${ext}`);
}
