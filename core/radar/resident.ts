/**
 * Small tables answered from memory. A live query on the 49-row radar table cost more in DuckDB's per-query
 * set-up (0.7 ms CPU for any query, 2.1 ms with the radar records' JSON) than a whole answer from memory. So
 * the endpoint reads each small table once per build: the columns the filters look at, and every record's text
 * in each format. A request is then a filter over a few rows and a join of byte strings.
 *
 * The filters here are the SQL ones, row by row (filters.ts FILTERS: each entry's `sql` and `rows`), with DuckDB's
 * semantics: a NULL column matches nothing, timestamps are compared in microseconds, coordinates as doubles.
 * Property tests hold them to the SQL on the demo catalogue (test/integration/resident-tables.test.ts) and on
 * generated rows (test/integration/radar-filters-sql.test.ts).
 */
import { RADAR_FORMATS } from '../formats/radar.ts';
import type { BodyFrame } from './bodies.ts';
import { selectionResident, selectionRowTests, type ResidentColumns, type Selection } from './filters.ts';
export type { ResidentColumns };
import type { RecordFormat } from './record-sql.ts';
import type { Resource } from './resources.ts';
import type { RadarRoute } from './routes.ts';

/** Tables up to this many rows are resident (radars 49, institutes 20; coverage, at 10,659 a year, is not). */
export const RESIDENT_MAX_ROWS = 2_000;

/** A format and view: `json`, `json+expanded`, `checksum`, `csv` (comma-separated only: other delimiters go to SQL). */
export type ResidentVariant = `${RecordFormat}${'' | '+expanded'}`;

export interface ResidentTable {
  resource: Resource;
  columns: ResidentColumns;
  /** Each row's text per variant, null where the row has none in that format. */
  texts: Partial<Record<ResidentVariant, (Buffer | null)[]>>;
}

export function residentVariant(format: RecordFormat, expanded: boolean): ResidentVariant {
  return `${format}${expanded && RADAR_FORMATS[format].expandable ? '+expanded' : ''}`;
}

/** Whether memory can answer this route and selection: no route condition, no latest-only flag, and every filter's value one memory holds (FILTERS `resident`). */
export function residentCanAnswer(table: ResidentTable | undefined, route: RadarRoute, format: RecordFormat, expanded: boolean, s: Selection): table is ResidentTable {
  if (!table || route.where !== undefined || route.latestFlag !== undefined) return false;
  if (!selectionResident(s, format)) return false;
  return table.texts[residentVariant(format, expanded)] !== undefined;
}

/** The rows a selection (and an id) picks, in answer order: the WHERE of queries.ts, row by row (each filter's `rows`). */
export function residentRows(t: ResidentTable, s: Selection, id: bigint | undefined, maxDurationMs: number): number[] {
  const c = t.columns;
  const tests = selectionRowTests(s, { resource: t.resource, maxDurationMs }, c);
  if (id !== undefined) tests.unshift((i) => c.id[i] === id);
  const rows: number[] = [];
  for (let i = 0; i < c.id.length; i++) if (tests.every((test) => test(i))) rows.push(i);
  return rows;
}

/** The body of those rows, framed as a streamed answer is (bodies.ts): the same bytes. */
export function residentBody(texts: (Buffer | null)[], rows: number[], frame: BodyFrame): Buffer {
  const parts: Buffer[] = [Buffer.from(frame.open)];
  const between = Buffer.from(frame.terminator + frame.separator);
  const terminator = Buffer.from(frame.terminator);
  let wrote = false;
  for (const i of rows) {
    const text = texts[i];
    if (text === null || text === undefined) continue;
    if (wrote) parts.push(between);
    parts.push(text);
    wrote = true;
  }
  if (wrote) parts.push(terminator);
  parts.push(Buffer.from(frame.close));
  return Buffer.concat(parts);
}
