/** Media types and the choice between them: `contentType` wins over `Accept` (DECISIONS.md). */
import { HttpError } from './errors.ts';

export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** Parses an Accept header into media ranges, highest preference first. Malformed parts are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...paramParts] = part.trim().split(';');
    const m = /^([\w.+*-]+)\/([\w.+*-]+)$/.exec((range ?? '').trim().toLowerCase());
    if (!m) continue;
    let q = 1;
    for (const p of paramParts) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k === 'q' && v !== undefined) {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      }
    }
    ranges.push({ type: m[1]!, subtype: m[2]!, q });
  }
  return ranges.sort((a, b) => b.q - a.q);
}

function matches(range: MediaRange, mediaType: string): boolean {
  const [t, s] = mediaType.split('/');
  return (range.type === '*' || range.type === t) && (range.subtype === '*' || range.subtype === s);
}

/**
 * Picks the producible media type the Accept header prefers; the first producible type when the header is
 * absent or empty. Throws 406 when the header names only types this path cannot produce.
 */
export function negotiate(accept: string | undefined, producible: readonly string[]): string {
  if (!accept || accept.trim() === '') return producible[0]!;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return producible[0]!;
  let best: { type: string; q: number; specificity: number } | undefined;
  for (const type of producible) {
    // The most specific matching range decides the quality of this type (RFC 9110 12.5.1).
    let q = -1;
    let specificity = -1;
    for (const r of ranges) {
      if (!matches(r, type)) continue;
      const spec = (r.type === '*' ? 0 : 1) + (r.subtype === '*' ? 0 : 1);
      if (spec > specificity) { specificity = spec; q = r.q; }
    }
    if (q > 0 && (!best || q > best.q)) best = { type, q, specificity };
  }
  if (!best) {
    throw new HttpError(406, `None of the media types in the Accept header can be produced for this path`, {
      hints: [`This path produces: ${producible.join(', ')}`, `A valid example: Accept: ${producible[0]}`],
    });
  }
  return best.type;
}
