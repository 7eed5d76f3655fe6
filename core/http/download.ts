/**
 * A download's file name and its `Content-Disposition` (DECISIONS.md "Real clients"), for the radar API's CSV and
 * checksum reports and the Timeseries API's charts, CSV and ZIP answers alike, and for the nginx rules that name
 * the static tree's files the same way. Names hold ASCII letters, digits, `.`, `_` and `-` only, so the header
 * needs no quoting or escaping and no name holds a folder.
 */

/** Any character a download's file name may not hold. */
const UNSAFE_CHAR = /[^A-Za-z0-9._-]/g;
/** Any run of characters a download's file name may not hold. */
const UNSAFE_RUN = /[^A-Za-z0-9._-]+/g;

/** A file name of safe characters only: each other character (`'each'`) or each run of them (`'runs'`) becomes `_`. */
export function asciiFileName(text: string, replace: 'each' | 'runs' = 'each'): string {
  return text.replace(replace === 'each' ? UNSAFE_CHAR : UNSAFE_RUN, '_');
}

/** The `Content-Disposition` around a value as is: a safe file name, or an nginx template of safe captures (`$1-$2`). */
export function attachmentTemplate(value: string): string {
  return `attachment; filename="${value}"`;
}

/** The `Content-Disposition` of a download: `attachment; filename="<name>"`, the name made safe (each other character `_`). */
export function attachment(fileName: string): string {
  return attachmentTemplate(asciiFileName(fileName));
}
