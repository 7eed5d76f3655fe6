/**
 * The site search's text rules, pure (the index builder and the browser script share them): how a label and a
 * query are folded, and how well an entry matches.
 *
 * Folding is case- and diacritics-insensitive, and knows German spelling without umlauts: a text is folded twice,
 * once with its marks dropped (`Köln` → `koln`) and once with umlauts and ß written out (`Köln` → `koeln`,
 * `Straße` → `strasse`); a query matches an entry when a fold of the query is in a fold of one of its texts, so
 * `koeln`, `koln`, `Köln` and `KÖLN` all find Köln. Several words must each be found, in any of the texts.
 */

/** The two folds of a text (the same string twice when it has no umlaut or ß). */
export function folds(text: string): [string, string] {
  const lower = text.toLowerCase();
  const plain = lower.normalize('NFD').replace(/\p{M}+/gu, '').replaceAll('ß', 'ss').replaceAll('æ', 'ae').replaceAll('ø', 'o').replaceAll('ł', 'l');
  const spelled = lower.replace(/[äöü]|a\u0308|o\u0308|u\u0308/g, (c) => `${c[0]}e`).replaceAll('ß', 'ss');
  return [plain, spelled.normalize('NFD').replace(/\p{M}+/gu, '').replaceAll('æ', 'ae').replaceAll('ø', 'o').replaceAll('ł', 'l')];
}

/** What an entry is matched on: each text folded, once. */
export function entryFolds(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => folds(t)))];
}

/** The query's words, each with its folds; none for a blank query. */
export function queryWords(q: string): [string, string][] {
  return q.split(/\s+/).filter(Boolean).map((w) => folds(w));
}

/**
 * How well an entry matches the query's words: undefined when a word is missing; else lower is better:
 * 0 a text equal to the query, 1 a text starting with it, 2 a word of a text starting with it, 3 inside a word.
 */
export function rank(entry: readonly string[], words: readonly [string, string][]): number | undefined {
  if (words.length === 0) return undefined;
  let worst = 0;
  for (const forms of words) {
    let best: number | undefined;
    for (const text of entry) {
      for (const w of forms) {
        const at = text.indexOf(w);
        if (at < 0) continue;
        const r = text === w ? 0 : at === 0 ? 1 : /[\p{L}\p{N}]/u.test(text[at - 1]!) ? 3 : 2;
        if (best === undefined || r < best) best = r;
      }
    }
    if (best === undefined) return undefined;
    worst = Math.max(worst, best);
  }
  return worst;
}
