/** SVG string helpers: XML escaping, number formatting (2 decimals), deterministic ids. */

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A number rounded to 2 decimals, without trailing zeros or a negative zero. */
export function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

/** Rounds every number in an SVG path string to 2 decimals. */
export function roundPath(d: string): string {
  return d.replace(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi, (m) => num(Number(m)));
}

/** A string usable as an XML id fragment: [A-Za-z0-9-] kept, anything else as `_<hex>_`. */
export function idPart(s: string): string {
  return s.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}

/** FNV-1a 32-bit hash, hex: short deterministic ids derived from content. */
export function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export type Attrs = Record<string, string | number | undefined>;

function attrs(a: Attrs): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === 'number' ? num(v) : esc(v)}"`;
  }
  return out;
}

/** `<name attrs/>` or `<name attrs>children</name>`; children are raw (already escaped) markup. */
export function el(name: string, a: Attrs, children?: string): string {
  return children === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${children}</${name}>`;
}

/** A text element; the text is escaped. */
export function text(a: Attrs, s: string): string {
  return el('text', a, esc(s));
}
