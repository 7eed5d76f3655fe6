/** Small helpers for SQL text built in JS. */

/** A SQL string literal (DuckDB strings know no backslash escapes). */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A SQL integer literal, refusing anything that is not a safe integer. */
export function sqlInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${n}`);
  return String(n);
}
