/**
 * How the record texts of a query become a response body, per format and shape. Pure: the build writes the
 * pieces to a file, the endpoint to a socket, so both give the same bytes.
 */
import type { SqlFragment } from './filters.ts';
import type { RecordFormat } from './record-sql.ts';
import type { Shape } from './routes.ts';

export interface BodyFrame {
  /** Before the first record. */
  open: string;
  /** Between two records. */
  separator: string;
  /** After every record. */
  terminator: string;
  /** After the last record (also when there is none). */
  close: string;
}

export function bodyFrame(format: RecordFormat, shape: Shape, csvHeader: string | undefined): BodyFrame {
  switch (format) {
    case 'json':
      return shape === 'one' ? { open: '', separator: '', terminator: '', close: '' } : { open: '[', separator: ',', terminator: '', close: ']' };
    case 'csv':
      return { open: csvHeader === undefined ? '' : `${csvHeader}\r\n`, separator: '', terminator: '\r\n', close: '' };
    case 'checksum':
      return { open: '', separator: '', terminator: '\n', close: '' };
  }
}

/**
 * Joins one batch of record texts; `first` tells whether a record was written before this batch. A null
 * text is a record with nothing to show in this format (a checksum report line of a null checksum).
 */
export function joinBatch(frame: BodyFrame, batch: (string | null)[], first: boolean): string {
  const texts = batch.includes(null) ? batch.filter((t): t is string => t !== null) : (batch as string[]);
  if (texts.length === 0) return '';
  const body = texts.join(frame.terminator + frame.separator) + frame.terminator;
  return first ? body : frame.separator + body;
}

/**
 * A body built whole in SQL, for small answers: one row `(n, s)`, the number of records (counted up to
 * `limit + 1`) and, when n ≤ limit, their texts joined as joinBatch joins them (nulls left out), in answer
 * order. One text crosses from DuckDB instead of a text per record, which is most of a small answer's cost.
 * `q` must number its records in answer order (`rn`: RecordQuery.ordinal).
 */
export function joinedRecordsSql(q: SqlFragment, frame: BodyFrame, limit: number): SqlFragment {
  return {
    sql: `SELECT count(*) AS n, string_agg(t || $body_terminator, $body_separator ORDER BY rn) AS s FROM (SELECT rn, t FROM (${q.sql}) LIMIT ${Math.trunc(limit) + 1})`,
    params: { ...q.params, body_terminator: frame.terminator, body_separator: frame.separator },
  };
}
