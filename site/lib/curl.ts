/**
 * The `curl` line of a docs example: the request as a command a developer pastes into a POSIX shell. The
 * origin is not known when the site is built (any host may serve the tree), so the line is made with a
 * placeholder origin that the page's script (site/scripts/copy-curl.ts) replaces with the page's own origin.
 */

export interface CurlRequest {
  method: 'GET' | 'POST';
  /** The path and query, percent-encoded as sent: `/api/v1/timeseries/ts_x/getData?timespan=...`. */
  target: string;
  /** Request headers, in order (`Accept`, `Content-Type`). */
  headers?: [string, string][];
  /** A POST body (JSON text). */
  body?: string;
  /** Save the answer to this file (`-o`): binary answers (PNG, PDF). */
  output?: string;
}

/** The placeholder origin of a line made at build time. */
export const ORIGIN_PLACEHOLDER = 'https://<host>';

/** One word for a POSIX shell: single-quoted unless it is plain. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The words of the command, `curl` first; the URL is `origin` + target. */
export function curlWords(req: CurlRequest, origin: string): string[] {
  const words = ['curl', '-sS'];
  if (req.method !== 'GET') words.push('-X', req.method);
  for (const [name, value] of req.headers ?? []) words.push('-H', `${name}: ${value}`);
  if (req.body !== undefined) words.push('--data-binary', req.body);
  if (req.output !== undefined) words.push('-o', req.output);
  words.push(`${origin}${req.target}`);
  return words;
}

/** The command line: words quoted for a POSIX shell and joined by spaces. */
export function curlLine(req: CurlRequest, origin: string = ORIGIN_PLACEHOLDER): string {
  return curlWords(req, origin).map(shellQuote).join(' ');
}

/**
 * The words of a line as a POSIX shell reads them, for lines this module writes: plain words, single-quoted
 * parts and `\'` between them. Anything else (double quotes, `$`, backslashes elsewhere) is refused.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  for (let i = 0; i < line.length; ) {
    const ch = line[i]!;
    if (ch === ' ') {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote at ${i}`);
      cur = (cur ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '\\' && line[i + 1] === "'") {
      cur = (cur ?? '') + "'";
      i += 2;
    } else if (/[A-Za-z0-9_./:=@%+,-]/.test(ch)) {
      cur = (cur ?? '') + ch;
      i++;
    } else {
      throw new Error(`unexpected ${JSON.stringify(ch)} at ${i}`);
    }
  }
  if (cur !== undefined) words.push(cur);
  return words;
}
