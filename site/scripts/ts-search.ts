/**
 * The search page's script (bundled by Astro into a file of its own: the endpoint's Content-Security-Policy
 * allows `script-src 'self'` only). Asks the live endpoint, `GET /api/v1/search?q=...`, and lists the answer
 * grouped by type, in the API's order, with links to the browse pages (timeseries, stations, phenomena) and to the API.
 * A plain static host has no search: a failed request, a 404 or an answer that is not a JSON array says so.
 * The query is kept in the address (`?q=`), so a search can be bookmarked and the back button works.
 */

interface SearchItem {
  id: string;
  label: string;
  type: string;
  href: string;
}

const API = '/api/v1/';
/** Types in the order the API groups them (docs/timeseries-api-notes.md), with their heading and collection. */
const TYPES: { type: string; heading: string; collection: string }[] = [
  { type: 'timeseries', heading: 'Timeseries', collection: 'timeseries' },
  { type: 'phenomenon', heading: 'Phenomena', collection: 'phenomena' },
  { type: 'procedure', heading: 'Procedures', collection: 'procedures' },
  { type: 'offering', heading: 'Offerings', collection: 'offerings' },
  { type: 'station', heading: 'Stations', collection: 'stations' },
  { type: 'feature', heading: 'Features', collection: 'features' },
  { type: 'category', heading: 'Categories', collection: 'categories' },
];

type Outcome =
  | { kind: 'results'; items: SearchItem[] }
  | { kind: 'absent'; detail: string }
  | { kind: 'error'; message: string };

function isItems(x: unknown): x is SearchItem[] {
  return Array.isArray(x) && x.every((i) => i && typeof i === 'object' && typeof i.id === 'string' && typeof i.label === 'string' && typeof i.type === 'string');
}

export async function search(q: string, signal?: AbortSignal): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`${API}search?q=${encodeURIComponent(q)}`, { headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    return { kind: 'absent', detail: 'the request failed' };
  }
  const json = /\bjson\b/i.test(res.headers.get('content-type') ?? '');
  if (res.status === 404 || res.status === 405 || !json) return { kind: 'absent', detail: `the host answered ${res.status}${json ? '' : ' without JSON'}` };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { kind: 'absent', detail: 'the answer is not JSON' };
  }
  if (!res.ok) {
    const msg = (body as { userMessage?: unknown } | null)?.userMessage;
    return { kind: 'error', message: `The endpoint answered ${res.status}${typeof msg === 'string' ? `: ${msg}` : ''}.` };
  }
  if (!isItems(body)) return { kind: 'absent', detail: 'the answer is not a list of search results' };
  return { kind: 'results', items: body };
}

/** Where an item leads on this site, and its URL in the API. */
export function targets(item: SearchItem): { page: string | undefined; api: string } {
  const t = TYPES.find((x) => x.type === item.type);
  const fromHref = item.href?.startsWith('./') ? `${API}${item.href.slice(2)}` : undefined;
  const api = fromHref ?? `${API}${t?.collection ?? item.type}/${encodeURIComponent(item.id)}`;
  const page = item.type === 'timeseries'
    ? `/browse/timeseries/${encodeURIComponent(item.id)}/`
    : item.type === 'station'
      ? `/browse/stations/#${encodeURIComponent(item.id)}`
      : item.type === 'phenomenon' ? `/browse/timeseries/#phenomenon-${encodeURIComponent(item.id)}` : undefined;
  return { page, api };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function render(results: HTMLElement, items: SearchItem[]): void {
  const groups = TYPES.map((t) => ({ ...t, items: items.filter((i) => i.type === t.type) }));
  const known = new Set(TYPES.map((t) => t.type));
  const other = items.filter((i) => !known.has(i.type));
  if (other.length > 0) groups.push({ type: 'other', heading: 'Other', collection: '', items: other });
  const nodes: Node[] = [];
  for (const g of groups) {
    if (g.items.length === 0) continue;
    const id = `results-${g.type}`;
    const list = el('ul', { class: 'ts-results' });
    for (const item of g.items) {
      const { page, api } = targets(item);
      list.append(el('li', {},
        page ? el('a', { href: page }, item.label) : el('span', { class: 'ts-label' }, item.label),
        ' ',
        el('span', { class: 'muted' }, '(', el('code', {}, item.id), ', ', el('a', { href: api, 'aria-label': `${item.label} in the API` }, 'API'), ')'),
      ));
    }
    nodes.push(el('section', { 'aria-labelledby': id }, el('h2', { id }, `${g.heading} (${g.items.length})`), list));
  }
  results.replaceChildren(...nodes);
}

function init(): void {
  const form = document.getElementById('ts-search-form') as HTMLFormElement | null;
  const input = document.getElementById('ts-q') as HTMLInputElement | null;
  const status = document.getElementById('ts-search-status');
  const results = document.getElementById('ts-search-results');
  if (!form || !input || !status || !results) return;
  let current: AbortController | undefined;

  const say = (text: string, kind: 'info' | 'absent' | 'error' = 'info') => {
    status.textContent = text;
    status.dataset['state'] = kind;
  };

  const run = async (q: string) => {
    current?.abort();
    results.replaceChildren();
    if (q === '') {
      say('Type a word to search for, for example a river, a town or a phenomenon.');
      return;
    }
    const ctl = new AbortController();
    current = ctl;
    say(`Searching for “${q}”…`);
    let out: Outcome;
    try {
      out = await search(q, ctl.signal);
    } catch {
      return; // aborted: a newer search runs
    }
    if (ctl !== current) return;
    if (out.kind === 'absent') {
      say(`The search is not available here: it needs the live endpoint, and this host does not answer it (${out.detail}). Browse the stations and timeseries instead, which need no endpoint.`, 'absent');
      return;
    }
    if (out.kind === 'error') {
      say(out.message, 'error');
      return;
    }
    say(out.items.length === 0 ? `Nothing found for “${q}”.` : `${out.items.length} result${out.items.length === 1 ? '' : 's'} for “${q}”.`);
    render(results, out.items);
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
