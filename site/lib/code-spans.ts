/**
 * Markdown code spans in the texts of the code's tables (table and column meanings, schema descriptions):
 * `` `x` `` becomes code. Only code spans: no other markdown is read, and an unpaired backtick stays as it is.
 */
export interface TextPart {
  text: string;
  code: boolean;
}

/** The text cut into plain and code parts; a span of N backticks is closed by the next run of exactly N. */
export function codeSpans(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      plain += text[i];
      i++;
      continue;
    }
    let n = 0;
    while (text[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let close = -1;
    for (let j = text.indexOf(fence, i + n); j >= 0; j = text.indexOf(fence, j + 1)) {
      if (text[j - 1] !== '`' && text[j + n] !== '`') {
        close = j;
        break;
      }
    }
    if (close < 0) {
      plain += fence;
      i += n;
      continue;
    }
    let inner = text.slice(i + n, close);
    // CommonMark: one space stripped from both ends when both have one and the span is not all spaces
    if (inner.length > 1 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '') inner = inner.slice(1, -1);
    if (plain) parts.push({ text: plain, code: false });
    plain = '';
    parts.push({ text: inner, code: true });
    i = close + n;
  }
  if (plain) parts.push({ text: plain, code: false });
  return parts;
}
