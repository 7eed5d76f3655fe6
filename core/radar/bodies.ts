/**
 * How the record texts of a query become a response body, per format and shape. Pure: the build writes the
 * pieces to a file, the endpoint to a socket, so both give the same bytes.
 */
import { RADAR_FORMATS, type RecordFormat } from '../formats/radar.ts';
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

/** The frame of a format (RADAR_FORMATS) for a route's shape. */
export function bodyFrame(format: RecordFormat, shape: Shape, csvHeader: string | undefined): BodyFrame {
  return RADAR_FORMATS[format].frame(shape, csvHeader);
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
