/**
 * HTTP `Range` requests on the files of the static site (RFC 9110 §14), as the endpoint answers them
 * (server/respond.ts) and as nginx does with `max_ranges 1` (build-scripts/nginx-config.ts), so both agree:
 *
 * - One satisfiable range: 206 with `Content-Range: bytes first-last/length` and those bytes. `bytes=a-b`,
 *   `bytes=a-` (to the end) and `bytes=-n` (the last n bytes; the whole file when n is longer) are read; a last
 *   byte past the end is the end.
 * - No satisfiable range (a first byte at or past the end, `bytes=-0`): 416 with `Content-Range: bytes * /length`.
 * - Several satisfiable ranges: refused by answering 200 with the whole file. A `multipart/byteranges` answer
 *   costs a reader more than it saves (the readers this serves, DuckDB and pyarrow over HTTP, ask for one range
 *   at a time) and nginx with `max_ranges 1` does the same, so both servers give the same answer. Ranges that
 *   cannot be satisfied do not count (nginx's rule): `bytes=0-9,999999-` on a small file is the one range.
 * - A header that is not a byte range (another unit, a malformed spec, a last byte before the first) is ignored,
 *   as RFC 9110 asks: 200 with the whole file.
 */

export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/** What `Range: header` asks of a file of `size` bytes. `end` is inclusive. */
export function rangeAnswer(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: 'whole' };
  const satisfiable: { start: number; end: number }[] = [];
  for (const raw of m[1]!.split(',')) {
    const spec = raw.trim();
    if (spec === '') continue; // RFC 9110 allows empty list elements
    const r = /^(\d*)-(\d*)$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return { kind: 'whole' };
    if (r[1] === '') {
      const n = Number(r[2]);
      if (!Number.isSafeInteger(n)) return { kind: 'whole' };
      if (n > 0 && size > 0) satisfiable.push({ start: Math.max(0, size - n), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const last = r[2] === '' ? Infinity : Number(r[2]);
    if (!Number.isSafeInteger(start) || (r[2] !== '' && !Number.isSafeInteger(last))) return { kind: 'whole' };
    if (last < start) return { kind: 'whole' };
    if (start < size) satisfiable.push({ start, end: Math.min(last, size - 1) });
  }
  if (satisfiable.length === 0) return size === 0 ? { kind: 'whole' } : { kind: 'unsatisfiable' };
  if (satisfiable.length > 1) return { kind: 'whole' };
  return { kind: 'partial', ...satisfiable[0]! };
}

/**
 * True when `If-Range` lets the Range apply: absent, or the answer's current strong ETag. A date never matches
 * (the site's files have no Last-Modified), nor a weak ETag (RFC 9110 §13.1.5): the whole file is sent.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string | undefined): boolean {
  if (ifRange === undefined) return true;
  const v = ifRange.trim();
  return etag !== undefined && !v.startsWith('W/') && v === etag;
}
