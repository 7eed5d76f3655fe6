/**
 * Renders one record as text inside DuckDB, one SQL expression per format. Building JSON and CSV in SQL is
 * 5-10x faster than turning rows into JS objects (PERFORMANCE-NOTES.md), and the static build and the live
 * endpoint share these expressions, so they write the same bytes.
 */
import type { Field, FieldKind } from './resources.ts';

export type { RecordFormat } from '../formats/radar.ts';

/** Identifiers come from the resource table in resources.ts, never from a request. */
function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}

/** A datetime as the records' texts write it (`2024-01-01T00:00:00.000Z`). */
export const DATETIME = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%S.%gZ')`;

/** The value as it appears inside a JSON object. */
function jsonValue(kind: FieldKind, col: string): string {
  switch (kind) {
    case 'int':
    case 'text':
    case 'bool':
      return col;
    case 'datetime':
      return DATETIME(col);
    case 'digits':
      return `CAST(${col} AS VARCHAR)`;
    case 'json':
      return `json(${col})`;
  }
}

/** The value as text (null stays null), the form CSV quotes. */
function textValue(kind: FieldKind, col: string): string {
  switch (kind) {
    case 'text':
      return col;
    case 'json':
      return `CAST(json(${col}) AS VARCHAR)`; // minified, as in the JSON output
    case 'datetime':
      return DATETIME(col);
    case 'int':
    case 'bool':
    case 'digits':
      return `CAST(${col} AS VARCHAR)`;
  }
}

/**
 * RFC 4180 quoting of one text `x` with the delimiter bound as `$delimiter`; null becomes an empty field.
 * Applied through one lambda over the row's list of values: written once per field instead, the expression
 * tree grows so large that planning it costs 5x the query (16 ms against 3.5 ms for one expanded file).
 */
export const CSV_QUOTE = `x -> CASE WHEN x IS NULL THEN '' WHEN contains(x, $delimiter) OR contains(x, '"') OR contains(x, chr(10)) OR contains(x, chr(13)) THEN '"' || replace(x, '"', '""') || '"' ELSE x END`;

export function jsonRecordSql(fields: Field[]): string {
  return `CAST(json_object(${fields.map((fl) => `'${ident(fl.name)}', ${jsonValue(fl.kind, ident(fl.column))}`).join(', ')}) AS VARCHAR)`;
}

export function csvRecordSql(fields: Field[]): string {
  return `array_to_string(list_transform([${fields.map((fl) => textValue(fl.kind, ident(fl.column))).join(', ')}], ${CSV_QUOTE}), $delimiter)`;
}

/**
 * SQL: a checksum report line as GNU `sha1sum` writes it, `<checksum>  <name>`; a name holding a backslash, LF or CR
 * is escaped (`\\`, `\n`, `\r`) behind a leading `\`, so `sha1sum -c` reads each line as one entry and no name can
 * add a line (DECISIONS.md "Real clients"). Validation refuses CR and LF in names now, but an older snapshot may
 * hold them. A null checksum (or name) gives a null line: the record has none. (DuckDB string literals take a
 * backslash as it is.)
 */
export function checksumRecordSql(checksum: string, filename: string): string {
  const c = ident(checksum);
  const n = ident(filename);
  const escaped = `replace(replace(replace(${n}, '\\', '\\\\'), chr(10), '\\n'), chr(13), '\\r')`;
  return `CASE WHEN contains(${n}, '\\') OR contains(${n}, chr(10)) OR contains(${n}, chr(13)) THEN '\\' || ${c} || '  ' || ${escaped} ELSE ${c} || '  ' || ${n} END`;
}

/** The CSV header row (without line end), quoted like the values. */
export function csvHeader(fields: Field[], delimiter: string): string {
  return fields
    .map((fl) => (fl.name.includes(delimiter) || /["\r\n]/.test(fl.name) ? `"${fl.name.replaceAll('"', '""')}"` : fl.name))
    .join(delimiter);
}
