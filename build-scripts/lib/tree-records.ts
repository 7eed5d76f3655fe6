/**
 * Reading the large JSON collections of the radar tree (transferred files, coverage) in pieces, for the site's
 * data (build-scripts/site-data.ts): the
 * file is read in 4 MiB chunks and the whole records of each chunk are parsed as one array, so a collection
 * of gigabytes costs a chunk's memory (JSON.parse of a whole file stops at 512 MB of text), at the speed of
 * JSON.parse. The tree writes arrays of objects without white space (`[{…},{…}]`): a chunk is cut after
 * the last `},{` that closes a record. A `},{` inside a string, or between nested objects, leaves an
 * unbalanced piece that JSON.parse refuses, and the previous `},{` is tried instead; so the cut is exact.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CHUNK = 4 << 20;
const SEP = '},{';

/** The records of `s` up to its last record boundary, and what follows that boundary; none when it holds no whole record. */
function cutRecords(s: string): { records: unknown[]; rest: string } | undefined {
  for (let cut = s.lastIndexOf(SEP); cut >= 0; cut = cut === 0 ? -1 : s.lastIndexOf(SEP, cut - 1)) {
    let records: unknown;
    try {
      records = JSON.parse(`[${s.slice(0, cut + 1)}]`);
    } catch {
      continue;
    }
    return { records: records as unknown[], rest: s.slice(cut + 2) };
  }
  return undefined;
}

/**
 * Every object of the JSON array in the file `path`, in file order; none when the file is missing.
 * `chunkBytes`: for tests.
 */
export function* treeRecords<T>(path: string, chunkBytes = CHUNK): Generator<T, number> {
  if (!existsSync(path) || !statSync(path).isFile()) return 0;
  const fd = openSync(path, 'r');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const chunk = Buffer.allocUnsafe(chunkBytes);
  let count = 0;
  let carry = '';
  let started = false;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunkBytes, null);
      let s = carry + decoder.decode(chunk.subarray(0, n), { stream: n > 0 });
      if (!started) {
        s = s.trimStart();
        if (s === '' && n > 0) continue;
        if (!s.startsWith('[')) throw new Error(`${path} is no JSON array`);
        s = s.slice(1);
        started = true;
      }
      if (n === 0) {
        s = s.trimEnd();
        if (!s.endsWith(']')) throw new Error(`${path}: the JSON array is cut short`);
        s = s.slice(0, -1).trim();
        if (s !== '') {
          const last = JSON.parse(`[${s}]`) as T[];
          count += last.length;
          yield* last;
        }
        break;
      }
      const cut = cutRecords(s);
      if (cut) {
        count += cut.records.length;
        yield* cut.records as T[];
        carry = cut.rest;
      } else carry = s;
    }
  } finally {
    closeSync(fd);
  }
  return count;
}

/**
 * A reader of the tree in `siteDir`: calls `each` with every object of the JSON array in the tree file `rel`
 * (tree-relative), in file order, and returns the number of objects; 0 when the file is missing.
 */
export function treeRecordReader(siteDir: string): <T>(rel: string, each: (record: T) => void, chunkBytes?: number) => number {
  return <T>(rel: string, each: (record: T) => void, chunkBytes = CHUNK): number => {
    const it = treeRecords<T>(join(siteDir, rel), chunkBytes);
    for (;;) {
      const r = it.next();
      if (r.done) return r.value;
      each(r.value);
    }
  };
}
