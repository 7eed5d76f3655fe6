/**
 * The "Query in your browser" page (/query/): DuckDB-WASM in a worker, both self-hosted under /query/duckdb/
 * (copied from @duckdb/duckdb-wasm at build: build-scripts/query-assets.ts), a view per table of
 * /downloads/index.json over its files' URLs on this host (hive partitioning for the partitioned ones), and the
 * answer of a query as a table. Extensions are never installed or loaded from the network.
 */
import { AsyncDuckDB, VoidLogger, type AsyncDuckDBConnection } from '@duckdb/duckdb-wasm';
import { DUCKDB_WASM_FILE as WASM_FILE, DUCKDB_WORKER_FILE as WORKER_FILE, QUERY_ASSETS as ASSETS } from '../../core/site/query-page.ts';

interface IndexTable {
  name: string;
  partitionedBy: string[];
  files: { path: string }[];
}

let opened: Promise<AsyncDuckDBConnection> | undefined;

async function open(): Promise<AsyncDuckDBConnection> {
  const worker = new Worker(new URL(ASSETS + WORKER_FILE, location.href).href);
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  await db.instantiate(new URL(ASSETS + WASM_FILE, location.href).href);
  const conn = await db.connect();
  // nothing is fetched from another host: no extension is installed from the network. Parquet is linked into
  // this DuckDB-WASM's binary (1.28.0, build-scripts/query-assets.ts): LOAD finds it there.
  await conn.query('SET autoinstall_known_extensions = false');
  await conn.query('LOAD parquet');
  const index = (await (await fetch('/downloads/index.json')).json()) as { tables: IndexTable[] };
  for (const t of index.tables) {
    if (t.files.length === 0) continue;
    const urls = t.files.map((f) => `'${new URL(f.path, location.href).href.replaceAll("'", "''")}'`).join(', ');
    await conn.query(`CREATE VIEW "${t.name}" AS SELECT * FROM read_parquet([${urls}], hive_partitioning = ${t.partitionedBy.length > 0})`);
  }
  return conn;
}

type Kind = 'date' | 'time' | undefined;

/** A value of the answer as text: times in ISO 8601 (UTC), dates as YYYY-MM-DD. */
function cellText(v: unknown, kind: Kind): string {
  if (v === null || v === undefined) return '';
  if (kind && (typeof v === 'number' || v instanceof Date)) {
    const iso = new Date(v).toISOString();
    return kind === 'date' ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

async function runQuery(sql: string): Promise<void> {
  const status = document.getElementById('status')!;
  const result = document.getElementById('result')!;
  result.replaceChildren();
  status.textContent = opened ? 'Running…' : 'Loading DuckDB…';
  const t0 = performance.now();
  try {
    opened ??= open();
    const conn = await opened;
    const table = await conn.query(sql);
    const fields = table.schema.fields;
    const kinds: Kind[] = fields.map((f) => (/^Timestamp/.test(String(f.type)) ? 'time' : /^Date/.test(String(f.type)) ? 'date' : undefined));
    const el = document.createElement('table');
    const head = el.createTHead().insertRow();
    for (const f of fields) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = f.name;
      head.appendChild(th);
    }
    const body = el.createTBody();
    for (const row of table.toArray() as { toJSON(): Record<string, unknown> }[]) {
      const r = body.insertRow();
      const o = row.toJSON();
      fields.forEach((f, i) => (r.insertCell().textContent = cellText(o[f.name], kinds[i])));
    }
    result.appendChild(el);
    status.textContent = `${table.numRows} row${table.numRows === 1 ? '' : 's'} in ${Math.round(performance.now() - t0)} ms`;
    status.dataset['state'] = 'done';
  } catch (e) {
    if (opened && !(await opened.then(() => true, () => false))) opened = undefined;
    status.textContent = `Error: ${(e as Error).message}`;
    status.dataset['state'] = 'error';
  }
}

const sqlBox = document.getElementById('sql') as HTMLTextAreaElement | null;
if (sqlBox) {
  document.getElementById('run')!.addEventListener('click', () => void runQuery(sqlBox.value));
  for (const b of Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-example]'))) {
    b.addEventListener('click', () => {
      sqlBox.value = b.dataset['sql'] ?? '';
      void runQuery(sqlBox.value);
    });
  }
}
