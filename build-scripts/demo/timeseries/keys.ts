/** Identifier helpers of the demo network: URL-safe slugs and 32-bit hash keys. */

const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'ae', Ö: 'oe', Ü: 'ue', ß: 'ss', è: 'e', é: 'e' };

/** `Hann. Münden` → `hann_muenden`: lower case ASCII letters, digits and single underscores. */
export function slug(text: string): string {
  return text
    .replace(/[äöüÄÖÜßèé]/g, (c) => UMLAUTS[c]!)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** FNV-1a 32-bit hash of a string: the stable key of a station or series in the value streams. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
