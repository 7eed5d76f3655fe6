/**
 * Content codings (DECISIONS.md "Real clients", Compression): which coding an answer is sent in, decided from
 * `Accept-Encoding` (RFC 9110 12.5.3), the answer's status, media type and size. Pure: the endpoint's
 * compressor (server/compression.ts) carries the decision out; the tests read it as a table.
 *
 * - Codings offered: zstd, br, gzip. Among codings of equal q the server's order decides: zstd (the best
 *   ratio at the fast levels a live answer can afford, BENCHMARKS.md "compression"), then br, then gzip
 *   (every client has it). `x-gzip` is gzip (RFC 9110 8.4.1.3).
 * - A coding is acceptable when listed with q > 0, or covered by `*` with q > 0 and not listed itself.
 * - identity is acceptable unless refused (`identity;q=0`, or `*;q=0` without an `identity` entry). An
 *   identity that is not listed ranks below every listed coding with q > 0 (`gzip;q=0.1` still means gzip).
 * - No header: identity (clients that say nothing get the plain bytes, as from nginx). An empty header:
 *   identity (RFC 9110: no coding wanted).
 * - An answer is compressed when a coding wins, its status has a body (not 1xx, 204, 304), its media type is
 *   not compressed already (PNG, PDF, ZIP, ...: see compressibleType) and it is at least COMPRESS_MIN_BYTES
 *   long or of unknown length (a streamed answer); when identity is refused, any size.
 * - When nothing is acceptable (every coding and identity refused), the answer goes as identity anyway
 *   (RFC 9110 12.1 lets a server disregard the header rather than fail the request; no 406 for this).
 */

export type Coding = 'zstd' | 'br' | 'gzip';

/** The codings offered, in the server's order of preference among equal q-values. */
export const CODINGS: readonly Coding[] = ['zstd', 'br', 'gzip'];

/** Answers shorter than this go uncompressed when identity is acceptable (DECISIONS.md: 1 KB or more). */
export const COMPRESS_MIN_BYTES = 1024;

export interface CodingPreference {
  /** The coding to use when the answer is compressible, or undefined for identity. */
  coding: Coding | undefined;
  /** The client refused identity (`identity;q=0`, or `*;q=0` without an identity entry). */
  identityRefused: boolean;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The members of an Accept-Encoding header: coding (lower case) to q. A member whose q is not a qvalue
 * (RFC 9110 12.4.2: 0 to 1, at most three decimals) is left out, as is one that is not a token. A coding
 * listed twice keeps its first q.
 */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const member of header.split(',')) {
    const [name, ...params] = member.split(';').map((s) => s.trim());
    if (!name || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    let q = 1;
    let ok = true;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const v = p.slice(eq + 1).trim();
      if (!QVALUE.test(v)) ok = false;
      else q = Number(v);
    }
    if (!ok) continue;
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    if (!out.has(coding)) out.set(coding, q);
  }
  return out;
}

/** The coding the client prefers among those offered (see the module comment for the rules). */
export function preferredCoding(header: string | undefined, offered: readonly Coding[] = CODINGS): CodingPreference {
  if (header === undefined) return { coding: undefined, identityRefused: false };
  const members = parseAcceptEncoding(header);
  const star = members.get('*');
  const qOf = (c: string): number => members.get(c) ?? star ?? 0;
  const identityQ = members.get('identity') ?? (star === 0 ? 0 : undefined);
  let best: { coding: Coding; q: number } | undefined;
  for (const coding of offered) {
    const q = qOf(coding);
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  const identityRefused = identityQ === 0;
  // identity listed with a higher q than every coding wins; an unlisted identity ranks below any listed coding
  if (!best || (identityQ !== undefined && identityQ > best.q)) return { coding: undefined, identityRefused };
  return { coding: best.coding, identityRefused };
}

/**
 * Media types worth compressing: text, JSON, XML, JavaScript, SVG, CSV. Images other than SVG, PDF, ZIP,
 * gzip and every other binary type are left alone (already compressed, or unknown).
 */
export function compressibleType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('text/')) return true;
  if (type === 'application/json' || type === 'application/javascript' || type === 'application/xml' || type === 'image/svg+xml') return true;
  return type.endsWith('+json') || type.endsWith('+xml');
}

export interface AnswerShape {
  status: number;
  /** The Content-Type the answer has. */
  contentType: string | undefined;
  /** Its length when known (a whole answer), undefined when streamed. */
  length: number | undefined;
  /** A Content-Encoding the answer already has (then it is left as it is). */
  contentEncoding?: string | undefined;
}

/** The coding an answer is sent in, or undefined for identity. */
export function codingFor(pref: CodingPreference, answer: AnswerShape): Coding | undefined {
  if (!pref.coding) return undefined;
  if (answer.status < 200 || answer.status === 204 || answer.status === 304) return undefined;
  if (answer.contentEncoding) return undefined;
  if (!compressibleType(answer.contentType)) return undefined;
  if (answer.length !== undefined && answer.length < COMPRESS_MIN_BYTES && !pref.identityRefused) return undefined;
  return pref.coding;
}

/**
 * The ETag of an answer in a coding: the coding's name added inside the quotes (`"b-h"` → `"b-h-br"`), so no
 * strong ETag is shared by different bytes. A weak ETag stays weak.
 */
export function etagInCoding(etag: string, coding: Coding): string {
  const m = /^(W\/)?"(.*)"$/.exec(etag);
  return m ? `${m[1] ?? ''}"${m[2]}-${coding}"` : etag;
}

/** The ETags an answer may have had in any coding, identity first: what `If-None-Match` is compared with. */
export function etagsInAnyCoding(etag: string): string[] {
  return [etag, ...CODINGS.map((c) => etagInCoding(etag, c))];
}
