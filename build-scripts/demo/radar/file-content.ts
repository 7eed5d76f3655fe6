/**
 * Deterministic stand-ins for the bytes of the demo's files. The demo holds no real radar data,
 * but every non-null checksum in it is the real sha1 of these texts, so a test (or a curious
 * user) can write the files out and check a checksum report with `sha1sum -c`.
 *
 * The SQL expressions build the very same texts inside DuckDB (file names and paths are ASCII).
 */
import { sqlString as literal } from './sql-text.ts';

const FILE_PREFIX = 'snapcat demo radar data file ';
const LOG_PREFIX = 'snapcat demo transfer log ';

/** The demo content of the data file `filename` (name without directory). */
export function demoFileContent(filename: string): string {
  return `${FILE_PREFIX}${filename}\n`;
}

/** The demo content of the transfer log at `path`. */
export function demoTransferLogContent(path: string): string {
  return `${LOG_PREFIX}${path}\n`;
}

/** SQL: sha1 of demoFileContent(<filename expression>). */
export function fileChecksumSql(filenameExpr: string): string {
  return `sha1(${literal(FILE_PREFIX)} || ${filenameExpr} || chr(10))`;
}

/** SQL: sha1 of demoTransferLogContent(<path expression>). */
export function logChecksumSql(pathExpr: string): string {
  return `sha1(${literal(LOG_PREFIX)} || ${pathExpr} || chr(10))`;
}
