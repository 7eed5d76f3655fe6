/**
 * The file finder's script (bundled by Astro into an external module: the endpoint's CSP allows no inline
 * script). It turns the form (radar, from/to dates, file type) into a request to the live endpoint,
 * `GET /radarnet/mirror/v3/files?radar_code=…&timespan=FROM/TOT23:59:59.999&expanded=true`, and shows the
 * matching files with links to each file's JSON, CSV and checksum report, and to the whole answer in those
 * forms. The API has no file-type parameter: the type is kept here, from the expanded records, and the
 * downloads of a chosen type (JSON, CSV, checksum report) are the endpoint's answers with the other types' records
 * left out, made in the browser and offered under a file name (`download`). Without a type, the links are the
 * endpoint's own answers (`contentType=json` for JSON: a browser asking for HTML would get the route's docs),
 * which name their downloads themselves (Content-Disposition).
 * It says so in the status line when the endpoint is absent (a plain static host: the fetch fails, or is
 * 404, or answers with something that is not the answer to the query).
 */

import { downloadName } from '../../core/radar/download-name.ts';

export const PREFIX = '/radarnet/mirror/v3';
/** How long the finder waits for an answer. */
export const TIMEOUT_MS = 60_000;
/** Rows drawn at most; the links give the whole answer. */
export const MAX_ROWS = 1000;

export interface FinderQuery {
  /** Three letters, or '' for every radar. */
  radarCode: string;
  /** `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
  /** A file type, or '' for every type. */
  fileType: string;
}

export interface FileRecord {
  id: number;
  file_path: string;
  file_start_datetime: string;
  file_end_datetime: string;
  file_size: string;
  status_flag: number;
  checksum: string | null;
  radar_code: string;
  file_type: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a query, or undefined. */
export function problemOf(q: FinderQuery): string | undefined {
  if (q.radarCode !== '' && !/^[a-z]{3}$/.test(q.radarCode)) return `The radar code '${q.radarCode}' is not three letters.`;
  if (!DATE.test(q.from) || Number.isNaN(Date.parse(q.from))) return 'Give the first day as a date (YYYY-MM-DD).';
  if (!DATE.test(q.to) || Number.isNaN(Date.parse(q.to))) return 'Give the last day as a date (YYYY-MM-DD).';
  if (q.from > q.to) return `The first day (${q.from}) is after the last day (${q.to}).`;
  return undefined;
}

/** The `timespan` value: from the first day's midnight to the last millisecond of the last day (bounds are inclusive). */
export function timespanOf(q: FinderQuery): string {
  return `${q.from}/${q.to}T23:59:59.999`;
}

/** The request for the query's files, with more parameters (`contentType=csv`, `expanded=true`) after. */
export function filesUrl(q: FinderQuery, more: Record<string, string> = {}): string {
  const parts = [...(q.radarCode ? [`radar_code=${q.radarCode}`] : []), `timespan=${timespanOf(q)}`, ...Object.entries(more).map(([k, v]) => `${k}=${encodeURIComponent(v)}`)];
  return `${PREFIX}/files?${parts.join('&')}`;
}

/** One file's own path, in a representation (JSON asked for by name: a browser's Accept asks for the HTML docs). */
export function fileUrl(id: number, contentType: 'json' | 'csv' | 'checksumReport' = 'json'): string {
  return `${PREFIX}/files/${id}?contentType=${contentType}`;
}

/** The representations of a selection offered as downloads. */
export type DownloadKind = 'json' | 'json-expanded' | 'csv' | 'csv-expanded' | 'checksum';

export const DOWNLOADS: { kind: DownloadKind; label: string; more: Record<string, string> }[] = [
  { kind: 'json', label: 'JSON', more: { contentType: 'json' } },
  { kind: 'json-expanded', label: 'JSON, expanded', more: { contentType: 'json', expanded: 'true' } },
  { kind: 'csv', label: 'CSV', more: { contentType: 'csv' } },
  { kind: 'csv-expanded', label: 'CSV, expanded', more: { contentType: 'csv', expanded: 'true' } },
  { kind: 'checksum', label: 'checksum report', more: { contentType: 'checksumReport' } },
];

/** The name a download of the selection is offered under: the endpoint's name for the query (core/radar/download-name.ts), with the file type. */
export function selectionName(q: FinderQuery, kind: DownloadKind): string {
  const format = kind === 'checksum' ? 'checksum' : kind.startsWith('csv') ? 'csv' : 'json';
  const expanded = kind.endsWith('-expanded');
  const selection = { ...(q.radarCode ? { radarCode: q.radarCode } : {}), timespan: { start: Date.parse(`${q.from}T00:00:00Z`), end: Date.parse(`${q.to}T23:59:59.999Z`) } };
  const name = downloadName('/files', { format: format === 'json' ? 'csv' : format, expanded, suffix: '' }, selection) ?? 'files.csv';
  const base = name.replace(/(\.expanded)?\.(csv|sha1)$/, '');
  const type = q.fileType ? `-${q.fileType.replace(/[^A-Za-z0-9._-]+/g, '_')}` : '';
  return `${base}${type}${expanded ? '.expanded' : ''}.${format === 'checksum' ? 'sha1' : format}`;
}

/**
 * The records of a CSV text, each with its line end, header first: a line end inside quotes stays in its record.
 * The endpoint writes a header (`includeHeaders` is true by default), so the first is the header.
 */
export function csvRecords(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * The endpoint's answer for the whole query kept to the chosen records: `all` is the expanded answer (every type,
 * in the endpoint's order), `text` the same query's answer in the download's representation. Each record of a
 * collection answer comes in the order of `all`; a checksum report has a line only for a record with a checksum.
 * Throws when the answer does not line up with `all` (it changed in between).
 */
export function keepSelected(kind: DownloadKind, text: string, all: FileRecord[], keep: (r: FileRecord) => boolean): string {
  if (kind === 'json' || kind === 'json-expanded') {
    const records = JSON.parse(text) as { id: number }[];
    if (records.length !== all.length || records.some((r, i) => r.id !== all[i]!.id)) throw new Error('the JSON answer does not list the files the finder shows');
    return `${JSON.stringify(records.filter((_, i) => keep(all[i]!)))}\n`;
  }
  if (kind === 'checksum') {
    const withSum = all.filter((r) => r.checksum !== null && r.checksum !== '');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length !== withSum.length) throw new Error('the checksum report does not list the files the finder shows');
    return lines.filter((line, i) => {
      const r = withSum[i]!;
      if (!line.replace(/^\\/, '').startsWith(`${r.checksum}  `)) throw new Error(`the checksum report's line ${i + 1} is not that of file ${r.id}`);
      return keep(r);
    }).map((l) => `${l}\n`).join('');
  }
  const [header, ...records] = csvRecords(text);
  if (header === undefined || records.length !== all.length) throw new Error('the CSV answer does not list the files the finder shows');
  return header + records.filter((_, i) => keep(all[i]!)).join('');
}

/** Whether a record answers the query (an answer that does not is a static file served for any query). */
export function matches(r: FileRecord, q: FinderQuery): boolean {
  if (q.radarCode && r.radar_code !== q.radarCode) return false;
  const start = Date.parse(`${q.from}T00:00:00Z`);
  const end = Date.parse(`${q.to}T23:59:59.999Z`);
  return Date.parse(r.file_start_datetime) <= end && Date.parse(r.file_end_datetime) >= start;
}

export type Outcome =
  | { kind: 'ok'; files: FileRecord[]; all: number; records: FileRecord[] }
  | { kind: 'absent'; message: string }
  | { kind: 'error'; message: string };

const ABSENT = 'The finder needs the live snapcat endpoint (npm run serve), which answers queries; this site is served without it';

/** Asks the endpoint; never throws. */
export async function find(q: FinderQuery, fetcher: typeof fetch = fetch): Promise<Outcome> {
  const url = filesUrl(q, { expanded: 'true' });
  let res: Response;
  try {
    res = await fetcher(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') return { kind: 'error', message: `No answer within ${TIMEOUT_MS / 1000} s: choose fewer days or one radar.` };
    return { kind: 'absent', message: `${ABSENT}: the request failed (${(e as Error).message}).` };
  }
  if (res.status === 404 || res.status === 405 || res.status === 501) return { kind: 'absent', message: `${ABSENT}: ${url.split('?')[0]} answered ${res.status}.` };
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) {
    let why = `The endpoint answered ${res.status} ${res.statusText}`.trim() + '.';
    if (type.includes('json')) {
      const body = (await res.json().catch(() => undefined)) as { userMessage?: string } | undefined;
      if (body?.userMessage) why = `The endpoint refused the query: ${body.userMessage}.`;
    }
    return { kind: 'error', message: why };
  }
  if (!type.includes('json')) return { kind: 'absent', message: `${ABSENT}: the answer is ${type || 'of no type'}, not JSON.` };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { kind: 'absent', message: `${ABSENT}: the answer is no JSON.` };
  }
  if (!Array.isArray(body)) return { kind: 'absent', message: `${ABSENT}: the answer is no list of files.` };
  const records = body as FileRecord[];
  if (!records.every((r) => typeof r === 'object' && r !== null && typeof r.id === 'number' && matches(r, q))) {
    return { kind: 'absent', message: `${ABSENT}: the answer holds files outside the query, as a static file served for any query does.` };
  }
  const files = q.fileType ? records.filter((r) => r.file_type === q.fileType) : records;
  return { kind: 'ok', files, all: records.length, records };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function size(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} B`;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function linkList(links: { label: string; href: string; name?: string }[]): HTMLUListElement {
  return el('ul', { class: 'inline' }, ...links.map((l) => el('li', {}, el('a', { href: l.href, ...(l.name ? { 'aria-label': l.name } : {}) }, l.label))));
}

function when(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** Asks the endpoint for the whole answer in a download's representation and keeps the chosen records. */
async function selectionText(q: FinderQuery, kind: DownloadKind, all: FileRecord[], fetcher: typeof fetch = fetch): Promise<string> {
  const d = DOWNLOADS.find((x) => x.kind === kind)!;
  const res = await fetcher(filesUrl(q, d.more), { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`the endpoint answered ${res.status}`);
  return keepSelected(kind, await res.text(), all, (r) => r.file_type === q.fileType);
}

const MEDIA: Record<DownloadKind, string> = {
  json: 'application/json',
  'json-expanded': 'application/json',
  csv: 'text/csv',
  'csv-expanded': 'text/csv',
  checksum: 'text/plain',
};

/**
 * A link to a download of the chosen type's records: on its first click the finder asks the endpoint, keeps the
 * records, and offers the result under its name; the link then holds the file (a `blob:` URL).
 */
function selectionLink(q: FinderQuery, d: (typeof DOWNLOADS)[number], all: FileRecord[], say: (text: string) => void): HTMLAnchorElement {
  const a = el('a', { href: filesUrl(q, d.more), download: selectionName(q, d.kind), 'data-download': d.kind }, d.label);
  let made = false;
  a.addEventListener('click', (ev) => {
    if (made) return;
    ev.preventDefault();
    a.setAttribute('aria-busy', 'true');
    selectionText(q, d.kind, all)
      .then((text) => {
        made = true;
        a.href = URL.createObjectURL(new Blob([text], { type: MEDIA[d.kind] }));
        a.click();
      })
      .catch((e: unknown) => say(`The ${d.label} of the ${q.fileType} files could not be made: ${(e as Error).message}.`))
      .finally(() => a.removeAttribute('aria-busy'));
  });
  return a;
}

/** The results: what was asked, links to the downloads of the selection and of the whole answer, and a table of the files. */
export function renderResults(target: HTMLElement, q: FinderQuery, files: FileRecord[], records: FileRecord[], say: (text: string) => void = () => {}): void {
  const all = records.length;
  const jsonUrl = filesUrl(q, { expanded: 'true' });
  target.replaceChildren();
  target.dataset.query = jsonUrl;
  target.dataset.count = String(files.length);
  const who = q.radarCode ? `radar ${q.radarCode}` : 'every radar';
  const what = q.fileType ? `${q.fileType} files` : 'files';
  const whole = (d: (typeof DOWNLOADS)[number]) => el('li', {}, el('a', { href: filesUrl(q, d.more), 'data-download': d.kind }, d.label));
  target.append(
    el('h2', { id: 'results-heading', tabindex: '-1' }, `${files.length.toLocaleString('en')} ${what} of ${who}, ${q.from} to ${q.to}`),
    el('p', {}, 'Asked: ', el('code', {}, jsonUrl)),
  );
  if (q.fileType) {
    target.append(
      el(
        'div',
        { class: 'answer-links', 'data-selection': q.fileType },
        el('span', {}, `Download the ${files.length.toLocaleString('en')} ${q.fileType} files listed:`),
        el('ul', { class: 'inline' }, ...DOWNLOADS.map((d) => el('li', {}, selectionLink(q, d, records, say)))),
      ),
      el(
        'div',
        { class: 'answer-links' },
        el('span', {}, `The whole answer (all ${all.toLocaleString('en')} files, every type: the API has no file-type parameter):`),
        el('ul', { class: 'inline' }, ...DOWNLOADS.map(whole)),
      ),
    );
  } else {
    target.append(el('div', { class: 'answer-links', 'data-selection': '' }, el('span', {}, `Download the ${all.toLocaleString('en')} files listed:`), el('ul', { class: 'inline' }, ...DOWNLOADS.map(whole))));
  }
  if (files.length === 0) {
    target.append(el('p', {}, 'No file matches. Widen the timespan, or choose another radar or type.'));
    return;
  }
  const shown = files.slice(0, MAX_ROWS);
  if (shown.length < files.length) target.append(el('p', {}, `The first ${MAX_ROWS.toLocaleString('en')} are listed; the links above give them all.`));
  const everyRadar = q.radarCode === '';
  const cols = ['File', 'Links', ...(everyRadar ? ['Radar'] : []), 'Type', 'Starts (UTC)', 'Ends (UTC)', 'Size', 'Status'];
  const head = el('tr', {}, ...cols.map((h) => el('th', { scope: 'col' }, h)));
  const rows = shown.map((f) => {
    const name = baseName(f.file_path);
    return el(
      'tr',
      { 'data-id': String(f.id) },
      el('th', { scope: 'row' }, el('code', {}, name)),
      el(
        'td',
        {},
        linkList([
          { label: 'JSON', href: fileUrl(f.id), name: `JSON of ${name}` },
          { label: 'CSV', href: fileUrl(f.id, 'csv'), name: `CSV of ${name}` },
          { label: 'checksum', href: fileUrl(f.id, 'checksumReport'), name: `checksum report of ${name}` },
        ]),
      ),
      ...(everyRadar ? [el('td', {}, f.radar_code)] : []),
      el('td', {}, f.file_type),
      el('td', {}, when(f.file_start_datetime)),
      el('td', {}, when(f.file_end_datetime)),
      el('td', { class: 'num' }, size(Number(f.file_size) || 0)),
      el('td', {}, f.status_flag === 0 ? 'ok' : 'blacklisted'),
    );
  });
  target.append(
    el(
      'div',
      { class: 'table-wrap', role: 'region', 'aria-labelledby': 'results-heading', tabindex: '0' },
      el('table', { class: 'finder-table' }, el('caption', {}, `Files of ${who}, ${q.from} to ${q.to}${q.fileType ? `, type ${q.fileType}` : ''}`), el('thead', {}, head), el('tbody', {}, ...rows)),
    ),
  );
}

function queryOf(form: HTMLFormElement): FinderQuery {
  const data = new FormData(form);
  const get = (k: string) => String(data.get(k) ?? '').trim();
  return { radarCode: get('radar_code').toLowerCase(), from: get('from'), to: get('to'), fileType: get('file_type') };
}

/** Wires the form `#finder`: submit asks the endpoint; a page URL with the form's fields asks at once. */
export function initFinder(): void {
  const form = document.querySelector<HTMLFormElement>('#finder');
  const status = document.querySelector<HTMLElement>('#finder-status');
  const results = document.querySelector<HTMLElement>('#finder-results');
  if (!form || !status || !results) return;
  status.textContent = 'Choose a radar, the days and a type, then find the files.';
  const say = (text: string, kind: 'info' | 'absent' | 'error') => {
    status.textContent = text;
    status.dataset.kind = kind;
  };
  const clear = () => {
    results.replaceChildren();
    delete results.dataset.query;
    delete results.dataset.count;
  };
  const run = async (q: FinderQuery) => {
    // the last answer goes as soon as another is asked: nothing stale stays beside a new message
    clear();
    const problem = problemOf(q);
    if (problem) {
      say(problem, 'error');
      return;
    }
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (button) button.disabled = true;
    results.setAttribute('aria-busy', 'true');
    say('Asking the endpoint…', 'info');
    try {
      const out = await find(q);
      if (out.kind === 'ok') {
        renderResults(results, q, out.files, out.records, (text) => say(text, 'error'));
        say(`Found ${out.files.length.toLocaleString('en')} files.`, 'info');
      } else {
        clear();
        say(out.message, out.kind);
      }
    } finally {
      results.removeAttribute('aria-busy');
      if (button) button.disabled = false;
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = queryOf(form);
    const params = new URLSearchParams({ ...(q.radarCode ? { radar_code: q.radarCode } : {}), from: q.from, to: q.to, ...(q.fileType ? { file_type: q.fileType } : {}) });
    history.replaceState(null, '', `${location.pathname}?${params}`);
    void run(q);
  });
  // a bookmarked or shared finder URL: fill the form and ask
  const asked = new URLSearchParams(location.search);
  if (asked.has('from') || asked.has('radar_code')) {
    for (const name of ['radar_code', 'from', 'to', 'file_type']) {
      const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      const v = asked.get(name);
      if (field && v !== null) field.value = v;
    }
    void run(queryOf(form));
  }
}
