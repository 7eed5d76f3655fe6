/**
 * Sorting and filtering for the browse tables (`table[data-table]`: radars, stations, timeseries), in the browser,
 * the state kept in the address so a sorted, filtered table can be bookmarked and shared:
 *
 * - `?q=words`: the rows holding every word in their text or their `data-filter` (labels in other locales, ids),
 *   case- and diacritics-insensitive (site/lib/search-text.ts);
 * - `?sort=KEY&order=asc|desc`: the column whose header has `data-key=KEY`; a cell's `data-sort` is its sort
 *   value when it has one (a number or an ISO time), else its text; numbers sort as numbers, empty cells last.
 *
 * A page with several tables names each one's parameters apart with `data-params="p-"` (`?p-q=`, `?p-sort=`,
 * `?p-order=`); a table without it uses the plain names.
 *
 * Each sortable header gets a button and `aria-sort`; a status line says how many rows are shown. Without
 * JavaScript the table is the full, unsorted one the page was built with.
 */
import { entryFolds, queryWords, rank } from '../lib/search-text.ts';

export type Order = 'asc' | 'desc';

/** Compares two sort values: numbers as numbers, else text in English order; an empty value last in either order. */
export function compareValues(a: string, b: string, order: Order): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
  const x = Number(a);
  const y = Number(b);
  const c = Number.isFinite(x) && Number.isFinite(y) ? x - y : a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
  return order === 'asc' ? c : -c;
}

/** Whether a row's text holds every word of a filter (a blank filter keeps every row). */
export function keeps(rowText: string, filter: string): boolean {
  const words = queryWords(filter);
  return words.length === 0 || rank(entryFolds([rowText]), words) !== undefined;
}

function cellValue(row: HTMLTableRowElement, index: number): string {
  const cell = row.cells[index];
  if (!cell) return '';
  return (cell.dataset['sort'] ?? cell.textContent ?? '').trim();
}

function setUp(table: HTMLTableElement, n: number): void {
  const body = table.tBodies[0];
  const headRow = table.tHead?.rows[0];
  if (!body || !headRow) return;
  const rows = Array.from(body.rows);
  const original = rows.slice();
  // what a filter looks in: the row's text, and its `data-filter` (labels in other locales, ids)
  const texts = new Map(rows.map((r) => [r, `${r.textContent ?? ''} ${r.dataset['filter'] ?? ''}`]));
  const id = table.id || `table-${n}`;
  const wrap = table.closest('.table-wrap') ?? table;
  const what = table.dataset['table'] ?? 'rows';
  // the names of this table's parameters in the address
  const pre = table.dataset['params'] ?? '';
  const Q = `${pre}q`;
  const SORT = `${pre}sort`;
  const ORDER = `${pre}order`;

  const tools = document.createElement('div');
  tools.className = 'table-tools';
  const label = document.createElement('label');
  label.htmlFor = `${id}-filter`;
  label.textContent = `Filter ${what}`;
  const input = document.createElement('input');
  input.type = 'search';
  input.id = `${id}-filter`;
  input.autocomplete = 'off';
  input.spellcheck = false;
  const status = document.createElement('span');
  status.className = 'muted';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  tools.append(label, input, status);
  wrap.before(tools);

  const headers = Array.from(headRow.cells).map((th, i) => ({ th, i, key: th.dataset['key'] ?? String(i + 1) }));
  let sortKey: string | undefined;
  let order: Order = 'asc';

  const apply = (push: boolean) => {
    const filter = input.value.trim();
    const col = headers.find((h) => h.key === sortKey);
    const sorted = col ? rows.slice().sort((a, b) => compareValues(cellValue(a, col.i), cellValue(b, col.i), order) || original.indexOf(a) - original.indexOf(b)) : original;
    let shown = 0;
    for (const r of sorted) {
      const keep = keeps(texts.get(r) ?? '', filter);
      r.hidden = !keep;
      if (keep) shown++;
    }
    body.append(...sorted);
    for (const h of headers) if (h.th.hasAttribute('aria-sort')) h.th.setAttribute('aria-sort', h === col ? (order === 'asc' ? 'ascending' : 'descending') : 'none');
    status.textContent = filter === '' ? `${rows.length} ${what}` : `${shown} of ${rows.length} ${what}`;
    if (push) {
      const url = new URL(location.href);
      if (filter) url.searchParams.set(Q, filter);
      else url.searchParams.delete(Q);
      if (col) {
        url.searchParams.set(SORT, col.key);
        url.searchParams.set(ORDER, order);
      } else {
        url.searchParams.delete(SORT);
        url.searchParams.delete(ORDER);
      }
      if (url.href !== location.href) history.replaceState(null, '', url);
    }
  };

  for (const h of headers) {
    if (h.th.dataset['sortable'] === 'false') continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.append(...Array.from(h.th.childNodes));
    h.th.append(button);
    h.th.setAttribute('aria-sort', 'none');
    button.addEventListener('click', () => {
      order = sortKey === h.key && order === 'asc' ? 'desc' : 'asc';
      sortKey = h.key;
      apply(true);
    });
  }
  input.addEventListener('input', () => apply(true));

  const params = new URLSearchParams(location.search);
  input.value = params.get(Q) ?? '';
  const asked = params.get(SORT);
  if (asked && headers.some((h) => h.key === asked && h.th.hasAttribute('aria-sort'))) {
    sortKey = asked;
    order = params.get(ORDER) === 'desc' ? 'desc' : 'asc';
  }
  apply(false);
  table.dataset['ready'] = 'true';
}

if (typeof document !== 'undefined') document.querySelectorAll<HTMLTableElement>('table[data-table]').forEach((t, i) => setUp(t, i));
