/**
 * Every representation of the Radar Data Mirror Catalogue API, one entry each: its media type, the names
 * `contentType` takes, its file in the static tree, how a record is rendered (SQL, inside DuckDB) and how a body
 * frames the records, whether it is a download, and what the docs say of it. Negotiation, the endpoint's
 * Content-Type, the static-tree variants, nginx's `types` and rules, the download names, OpenAPI and the HTML docs
 * are all derived from RADAR_FORMATS: a new format is one entry here (and its record renderer in record-sql.ts).
 *
 * A format of records (`RecordFormat`) must have a renderer and a frame, a page format (HTML docs) has neither: the
 * mapped type below makes a missing piece a compile error.
 */
import type { BodyFrame } from '../radar/bodies.ts';
import { checksumRecordSql, csvHeader, csvRecordSql, jsonRecordSql } from '../radar/record-sql.ts';
import type { Field, Resource } from '../radar/resources.ts';
import type { Shape } from '../radar/routes.ts';
import { contentTypeOf, type MediaType } from './media.ts';

/** Formats whose answer is a list of records rendered in DuckDB. */
export type RecordFormat = 'json' | 'csv' | 'checksum';
/** Every format a radar path may produce. */
export type Format = RecordFormat | 'html';

interface FormatBase {
  media: MediaType;
  /** Short names `contentType` takes besides the media type (any case), the first the one the docs use. */
  names: readonly [string, ...string[]];
  /** The extension of its tree files (`P.csv`); `expandable`: also `P.expanded.csv` (else one file for both views). */
  ext: string;
  expandable: boolean;
  /** Answered as a file to save: a Content-Disposition named by download-name.ts. */
  download: boolean;
  /** Whether a path of this resource (undefined: the index) produces the format. */
  produces: (resource: Resource | undefined) => boolean;
  /** What the format holds, for the docs (HTML, OpenAPI). */
  docs: string;
}

export interface RecordFormatEntry extends FormatBase {
  kind: 'records';
  /** SQL: one record as text; null for a record with nothing to show in this format. */
  record: (resource: Resource, fields: Field[]) => string;
  /** Parameters the record SQL binds beyond the filters' (csv: `$delimiter`). */
  recordParams: (s: { delimiter: string }) => Record<string, string>;
  /** The header row of a body (without line end) for these fields, or undefined for a format without one. */
  header: (fields: Field[], delimiter: string) => string | undefined;
  /** How the records' texts make a body of a route's shape; `csvHeader` is the header row if one is asked for. */
  frame: (shape: Shape, csvHeader: string | undefined) => BodyFrame;
}

export interface PageFormatEntry extends FormatBase {
  /** A page made from the route alone (html-doc.ts), not from records. */
  kind: 'page';
}

export type RadarFormatEntry = RecordFormatEntry | PageFormatEntry;

const NONE: BodyFrame = { open: '', separator: '', terminator: '', close: '' };
const noParams = () => ({});
const noHeader = () => undefined;

export const RADAR_FORMATS: { readonly [F in Format]: F extends RecordFormat ? RecordFormatEntry : PageFormatEntry } = {
  json: {
    kind: 'records',
    media: { type: 'application/json', utf8: false },
    names: ['json'],
    ext: 'json',
    expandable: true,
    download: false,
    produces: () => true,
    docs: 'JSON, the default: an array of records for a collection, one object for a record path, the index object for /.',
    record: (_r, fields) => jsonRecordSql(fields),
    recordParams: noParams,
    header: noHeader,
    frame: (shape) => (shape === 'one' ? NONE : { open: '[', separator: ',', terminator: '', close: ']' }),
  },
  csv: {
    kind: 'records',
    media: { type: 'text/csv', utf8: true },
    names: ['csv'],
    ext: 'csv',
    expandable: true,
    download: true,
    produces: (r) => r !== undefined,
    docs: "CSV (RFC 4180, CRLF line ends): a header row of the view's field names (unless includeHeaders=false), then one row per record; nested values as JSON text.",
    record: (_r, fields) => csvRecordSql(fields),
    recordParams: (s) => ({ delimiter: s.delimiter }),
    header: (fields, delimiter) => csvHeader(fields, delimiter),
    frame: (_shape, header) => ({ open: header === undefined ? '' : `${header}\r\n`, separator: '', terminator: '\r\n', close: '' }),
  },
  checksum: {
    kind: 'records',
    media: { type: 'text/plain', utf8: true },
    names: ['checksumReport'],
    ext: 'sha1',
    expandable: false,
    download: true,
    produces: (r) => r?.checksum !== undefined,
    docs: 'Checksum report as sha1sum writes it: one line `<checksum>  <filename>` (two spaces, LF) per record that has a checksum.',
    record: (r) => checksumRecordSql(r.checksum!.checksum, r.checksum!.filename),
    recordParams: noParams,
    header: noHeader,
    frame: () => ({ open: '', separator: '', terminator: '\n', close: '' }),
  },
  html: {
    kind: 'page',
    media: { type: 'text/html', utf8: true },
    names: ['html'],
    ext: 'html',
    expandable: false,
    download: false,
    produces: () => true,
    docs: 'The HTML documentation page of this path: fields, parameters, representations.',
  },
};

/** Every format, in the order of RADAR_FORMATS (the docs' and the static tree's order). */
export const FORMATS = Object.keys(RADAR_FORMATS) as Format[];

export function radarFormat<F extends Format>(f: F): (typeof RADAR_FORMATS)[F] {
  return RADAR_FORMATS[f];
}

/** Whether a format answers with records (rendered in DuckDB), not a page. */
export function isRecordFormat(f: Format): f is RecordFormat {
  return RADAR_FORMATS[f].kind === 'records';
}

/** The Content-Type header each format is answered with. */
export const CONTENT_TYPES = Object.fromEntries(FORMATS.map((f) => [f, contentTypeOf(RADAR_FORMATS[f].media)])) as Record<Format, string>;

/** The media type each format is negotiated by (`Accept`) and named by. */
export const MEDIA_TYPES = Object.fromEntries(FORMATS.map((f) => [f, RADAR_FORMATS[f].media.type])) as Record<Format, string>;

/** The values `contentType` takes (in any case), each with the format it selects: the media type, then the short names. */
export const CONTENT_TYPE_VALUES: Record<string, Format> = Object.fromEntries(FORMATS.flatMap((f) => [RADAR_FORMATS[f].media.type, ...RADAR_FORMATS[f].names].map((v) => [v, f])));

/** The extensions of the tree's files (`json`, `csv`, `sha1`, `html`). */
export const TREE_FILE_EXTENSIONS: string[] = FORMATS.map((f) => RADAR_FORMATS[f].ext);
