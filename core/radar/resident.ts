/**
 * Small tables answered from memory. A live query on the 49-row radar table cost more in DuckDB's per-query
 * set-up (0.7 ms CPU for any query, 2.1 ms with the radar records' JSON) than a whole answer from memory. So
 * the endpoint reads each small table once per build: the columns the filters look at, and every record's text
 * in each format. A request is then a filter over a few rows and a join of byte strings.
 *
 * The filters here are the SQL ones of filters.ts, row by row, with DuckDB's semantics: a NULL column matches
 * nothing, timestamps are compared in microseconds, coordinates as doubles. A property test holds them to the
 * SQL on the demo catalogue (test/integration/resident-tables.test.ts).
 */
import type { BodyFrame } from './bodies.ts';
import type { Selection } from './queries.ts';
import type { RecordFormat } from './record-sql.ts';
import type { Resource } from './resources.ts';
import type { RadarRoute } from './routes.ts';

/** Tables up to this many rows are resident (radars 49, institutes 20; coverage, at 10,659 a year, is not). */
export const RESIDENT_MAX_ROWS = 2_000;

/** The columns the filters read, one entry per row in answer order. Times are microseconds since the epoch. */
export interface ResidentColumns {
  id: bigint[];
  latitude?: (number | null)[];
  longitude?: (number | null)[];
  radarCode?: (string | null)[];
  /** The instant column, or the interval's start. */
  timeStart?: (number | null)[];
  /** The interval's end. */
  timeEnd?: (number | null)[];
}

/** A format and view: `json`, `json+expanded`, `checksum`, `csv` (comma-separated only: other delimiters go to SQL). */
export type ResidentVariant = `${RecordFormat}${'' | '+expanded'}`;

export interface ResidentTable {
  resource: Resource;
  columns: ResidentColumns;
  /** Each row's text per variant, null where the row has none in that format. */
  texts: Partial<Record<ResidentVariant, (Buffer | null)[]>>;
}

export function residentVariant(format: RecordFormat, expanded: boolean): ResidentVariant {
  return `${format}${expanded && format !== 'checksum' ? '+expanded' : ''}`;
}

/** Whether memory can answer this route and selection: no route condition, no latest-only flag, a comma for CSV. */
export function residentCanAnswer(table: ResidentTable | undefined, route: RadarRoute, format: RecordFormat, expanded: boolean, s: Selection): table is ResidentTable {
  if (!table || route.where !== undefined || route.latestFlag !== undefined) return false;
  if (format === 'csv' && s.delimiter !== ',') return false;
  return table.texts[residentVariant(format, expanded)] !== undefined;
}

const US_PER_MS = 1000;

/** The rows a selection (and an id) picks, in answer order: the WHERE of queries.ts, row by row. */
export function residentRows(t: ResidentTable, s: Selection, id: bigint | undefined, maxDurationMs: number): number[] {
  const r = t.resource;
  const c = t.columns;
  const tests: ((i: number) => boolean)[] = [];
  if (id !== undefined) tests.push((i) => c.id[i] === id);
  if (s.timespan && r.time) {
    const start = s.timespan.start * US_PER_MS;
    const end = s.timespan.end * US_PER_MS;
    const ts = c.timeStart!;
    if (r.time.kind === 'instant') {
      tests.push((i) => ts[i] !== null && ts[i]! >= start && ts[i]! <= end);
    } else {
      const te = c.timeEnd!;
      const bound = (s.timespan.start - maxDurationMs) * US_PER_MS;
      tests.push((i) => ts[i] !== null && te[i] !== null && ts[i]! <= end && te[i]! >= start && ts[i]! >= bound);
    }
  }
  if (s.bbox && r.radar) {
    const b = s.bbox;
    const lat = c.latitude!;
    const lon = c.longitude!;
    const inLon = b.minX <= b.maxX ? (x: number) => x >= b.minX && x <= b.maxX : (x: number) => x >= b.minX || x <= b.maxX;
    tests.push((i) => lat[i] !== null && lon[i] !== null && lat[i]! >= b.minY && lat[i]! <= b.maxY && inLon(lon[i]!));
  }
  if (s.radarCode !== undefined && r.radar) {
    const code = s.radarCode;
    tests.push((i) => c.radarCode![i] === code);
  }
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
