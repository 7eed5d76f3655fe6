/**
 * The search page's script (bundled by Astro into a file of its own: the endpoint's Content-Security-Policy
 * allows `script-src 'self'` only). Loads the site's index (`/search-index.json`, site/lib/search-index.ts: the
 * radars and every label of the timeseries catalogue in every locale) once, and searches it in the browser, case-
 * and diacritics-insensitive (site/lib/search-text.ts): no endpoint is needed, so it works on a static host too.
 * Results are grouped by kind, best matches first, each linked to its page (or its API record); a label of
 * another locale that matched is shown beside the default one. The query is kept in the address (`?q=`).
 */
import { entryFolds, queryWords, rank } from '../lib/search-text.ts';
import type { EntryType, IndexEntry, SearchIndex } from '../lib/search-index.ts';

const INDEX_URL = '/search-index.json';

const HEADINGS: Record<EntryType, string> = {
  radar: 'Radars',
  timeseries: 'Timeseries',
  station: 'Stations',
  phenomenon: 'Phenomena',
  procedure: 'Procedures',
  offering: 'Offerings',
  feature: 'Features',
  category: 'Categories',
  service: 'Services',
};
const ORDER = Object.keys(HEADINGS) as EntryType[];

interface Entry {
  type: EntryType;
  id: string;
  label: string;
  href: string;
  other: string[];
  folded: string[];
}

export interface Hit {
  entry: Entry;
  rank: number;
  /** The text that matched (a label of another locale, an institute), when the label did not. */
  via: string | undefined;
}

export function prepare(index: SearchIndex): Entry[] {
  return index.entries.map(([type, id, label, href, other]: IndexEntry) => ({ type, id, label, href, other, folded: entryFolds([label, id, ...other]) }));
}

/** The entries matching every word, best first, then in the index's order (by kind, then label). */
export function searchEntries(entries: readonly Entry[], q: string): Hit[] {
  const words = queryWords(q);
  const hits: Hit[] = [];
  for (const entry of entries) {
    const r = rank(entry.folded, words);
    if (r === undefined) continue;
    const own = rank(entryFolds([entry.label]), words);
    const via = own === undefined ? entry.other.find((o) => rank(entryFolds([o]), words) !== undefined) : undefined;
    hits.push({ entry, rank: r, via });
  }
  return hits.sort((a, b) => a.rank - b.rank);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function render(results: HTMLElement, hits: Hit[]): void {
  const nodes: Node[] = [];
  for (const type of ORDER) {
    const group = hits.filter((h) => h.entry.type === type);
    if (group.length === 0) continue;
    const id = `results-${type}`;
    const list = el('ul', { class: 'search-results' });
    for (const { entry, via } of group) {
      list.append(
        el(
          'li',
          { 'data-type': entry.type, 'data-id': entry.id },
          el('a', { href: entry.href }, entry.label),
          ...(via ? [' ', el('span', { class: 'via' }, `(${via})`)] : []),
          ' ',
          el('span', { class: 'muted' }, el('code', {}, entry.id)),
        ),
      );
    }
    nodes.push(el('section', { 'aria-labelledby': id }, el('h2', { id }, `${HEADINGS[type]} (${group.length})`), list));
  }
  results.replaceChildren(...nodes);
}

let loaded: Promise<Entry[]> | undefined;
function loadIndex(): Promise<Entry[]> {
  loaded ??= fetch(INDEX_URL, { headers: { Accept: 'application/json' } }).then(async (res) => {
    if (!res.ok) throw new Error(`${INDEX_URL} answered ${res.status}`);
    return prepare((await res.json()) as SearchIndex);
  });
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

function init(): void {
  const form = document.getElementById('site-search-form') as HTMLFormElement | null;
  const input = document.getElementById('site-q') as HTMLInputElement | null;
  const status = document.getElementById('site-search-status');
  const results = document.getElementById('site-search-results');
  if (!form || !input || !status || !results) return;
  const say = (text: string, kind: 'info' | 'error' = 'info') => {
    status.textContent = text;
    status.dataset['state'] = kind;
  };
  let asked = 0;
  const run = async (q: string) => {
    const mine = ++asked;
    results.replaceChildren();
    if (q === '') {
      say('Type a word to search for: a radar code or name, an institute, a river, a town or a phenomenon, in any language of the labels.');
      return;
    }
    let entries: Entry[];
    try {
      entries = await loadIndex();
    } catch (e) {
      say(`The search index could not be loaded (${(e as Error).message}).`, 'error');
      return;
    }
    if (mine !== asked) return;
    const hits = searchEntries(entries, q);
    say(hits.length === 0 ? `Nothing found for “${q}”.` : `${hits.length} result${hits.length === 1 ? '' : 's'} for “${q}”.`);
    render(results, hits);
  };
  const fromAddress = () => new URLSearchParams(location.search).get('q')?.trim() ?? '';
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = input.value.trim();
    const url = new URL(location.href);
    if (q === '') url.searchParams.delete('q');
    else url.searchParams.set('q', q);
    if (url.href !== location.href) history.pushState(null, '', url);
    void run(q);
  });
  window.addEventListener('popstate', () => {
    input.value = fromAddress();
    void run(input.value);
  });
  form.dataset['ready'] = 'true';
  const q = fromAddress();
  if (q !== '') {
    input.value = q;
    void run(q);
  }
}

if (typeof document !== 'undefined') init();
