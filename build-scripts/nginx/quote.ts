/** Quoting of text written into nginx.conf (build-scripts/nginx-config.ts and its parts). */

/** A double-quoted nginx string (backslash and double quote escaped). */
export function q(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A single-quoted nginx string for `return` text; nginx would expand `$`, so none may be in it. */
export function body(text: string): string {
  if (text.includes('$')) throw new Error(`nginx return text cannot hold '$': ${text}`);
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
