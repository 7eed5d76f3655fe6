/**
 * A readable excerpt of a JSON text that may be cut anywhere (the start of a large file): indented two
 * spaces, short arrays and objects of plain values kept on one line (`[6.083, 50.776]`), at most `maxLines`
 * lines. Never parses the whole text, so a prefix of a gigabyte collection is as good as a whole small file.
 */

type Token = { kind: 'punct'; text: '{' | '}' | '[' | ']' | ',' | ':' } | { kind: 'value'; text: string };

const INLINE_WIDTH = 72;

/** The complete tokens of the text; a token cut by the end of the text is left out. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i++;
    } else if ('{}[],:'.includes(c)) {
      tokens.push({ kind: 'punct', text: c as '{' });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) break;
      tokens.push({ kind: 'value', text: text.slice(i, j + 1) });
      i = j + 1;
    } else {
      const m = /^[-+0-9.eEa-z]+/.exec(text.slice(i, i + 64));
      if (!m || i + m[0].length >= text.length) break;
      tokens.push({ kind: 'value', text: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

/** The one-line form of the container opening at `start`, when it holds only plain values and is short. */
function inline(tokens: Token[], start: number): { text: string; end: number } | undefined {
  const close = tokens[start]!.text === '{' ? '}' : ']';
  let text = tokens[start]!.text;
  for (let i = start + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === close) return { text: text + close, end: i };
    if (t.kind === 'punct' && t.text !== ',' && t.text !== ':') return undefined;
    text += t.text === ',' ? ', ' : t.text === ':' ? ': ' : t.text;
    if (text.length > INLINE_WIDTH) return undefined;
  }
  return undefined;
}

export interface JsonExcerpt {
  text: string;
  /** Lines or text were left out. */
  truncated: boolean;
}

export function jsonExcerpt(text: string, maxLines = 40, whole = true): JsonExcerpt {
  const tokens = tokenize(text);
  const lines: string[] = [];
  let line = '';
  let depth = 0;
  const newline = () => {
    lines.push(line);
    line = '  '.repeat(depth);
  };
  const close = (bracket: string) => {
    depth = Math.max(0, depth - 1);
    if (line.trim() !== '') newline();
    else line = '  '.repeat(depth);
    line += bracket;
  };
  let i = 0;
  for (; i < tokens.length && lines.length < maxLines; i++) {
    const t = tokens[i]!;
    if (t.text === '{' || t.text === '[') {
      const one = inline(tokens, i);
      if (one) {
        line += one.text;
        i = one.end;
      } else {
        line += t.text;
        depth++;
        newline();
      }
    } else if (t.text === '}' || t.text === ']') {
      close(t.text);
    } else if (t.text === ',') {
      line += ',';
      newline();
    } else {
      line += t.text === ':' ? ': ' : t.text;
    }
  }
  // a cut that would leave out only closing brackets leaves out nothing
  if (tokens.slice(i).every((t) => t.text === '}' || t.text === ']')) {
    for (; i < tokens.length; i++) close(tokens[i]!.text);
  }
  if (line.trim() !== '') lines.push(line);
  const truncated = i < tokens.length || !whole || depth > 0;
  if (truncated) lines.push('  '.repeat(Math.min(depth, 1)) + '…');
  return { text: lines.join('\n'), truncated };
}
