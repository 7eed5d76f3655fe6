/**
 * Issue 23's probe: does a persistent DuckDB table's resident state grow with its row groups? Writes `ROWS`
 * synthetic observations `(sid INTEGER, timestamp BIGINT, value DOUBLE)`, sorted as the timeseries database's
 * are, into a new database file with `ROW_GROUP_SIZE RG`, in passes of `PASS` rows (as timeseries-db.ts
 * writes them: one INSERT a pass), DuckDB held to `ML`; after every pass it prints the process's resident
 * memory and what DuckDB's buffer manager says it holds (duckdb_memory()), then after a CHECKPOINT, after one
 * scan of the whole table, and after DETACH. No snapshot needed: the rows come from range().
 *
 *   ROWS=100000000 RG=8192 ML=128MB nice -n 19 ionice -c3 node bench/rowgroup-memory.ts OUTDIR
 *
 * OUTDIR must not exist; it holds the database (about 1 GB per 10^8 rows at RG 8192) and is removed at the end.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { all, openDuckDB, run, sqlString } from '../lib/duckdb.ts';

const out = resolve(process.argv[2] ?? '');
const rows = Number(process.env['ROWS'] ?? 1e8);
const rg = Number(process.env['RG'] ?? 8192);
const ml = process.env['ML'] ?? '128MB';
const pass = Number(process.env['PASS'] ?? 1e7);
/** Rows per series: a 10-minute series of ten years is 525,600; the demo at 10^9 averages 368,000. */
const perSeries = Number(process.env['PER_SERIES'] ?? 368_000);
if (existsSync(out)) throw new Error(`${out}: exists (give a new folder)`);
mkdirSync(join(out, 'spill'), { recursive: true });
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
const hwm = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
const t0 = performance.now();
const instance = await openDuckDB({ threads: 2, memoryLimit: ml, tempDirectory: join(out, 'spill') });
const conn = await instance.connect();
const duck = async () => {
  const [r] = await all(conn, 'SELECT (sum(memory_usage_bytes) / 1048576)::INTEGER AS mb FROM duckdb_memory()');
  return Number(r!['mb']);
};
const tags = async () => {
  const r = await all(conn, "SELECT tag, (memory_usage_bytes / 1048576)::INTEGER AS mb FROM duckdb_memory() WHERE memory_usage_bytes >= 1048576 ORDER BY tag");
  return r.map((x) => `${String(x['tag'])} ${Number(x['mb'])}`).join(', ');
};
const line = async (what: string) =>
  console.log(`${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${what.padEnd(28)} rss ${String(rss()).padStart(5)} MB  duckdb_memory ${String(await duck()).padStart(4)} MB (${await tags()})  hwm ${hwm()} MB`);
await run(conn, `ATTACH ${sqlString(join(out, 'probe.duckdb'))} AS probe (ROW_GROUP_SIZE ${rg})`);
await run(conn, 'CREATE TABLE probe.observations (sid INTEGER, "timestamp" BIGINT, "value" DOUBLE)');
console.log(`ROWS=${rows} RG=${rg} ML=${ml} PASS=${pass} PER_SERIES=${perSeries}: ${Math.ceil(rows / rg)} row groups`);
await line('start');
for (let lo = 0; lo < rows; lo += pass) {
  const hi = Math.min(rows, lo + pass);
  await run(
    conn,
    `INSERT INTO probe.observations SELECT (i // ${perSeries})::INTEGER, 1420070400000 + (i % ${perSeries}) * 600000, CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 1000) / 10.0 END
     FROM range(${lo}, ${hi}) t(i)`,
  );
  await line(`rows ${hi.toExponential(2)}`);
}
await run(conn, 'CHECKPOINT probe');
await line('after CHECKPOINT');
const [s] = await all(conn, 'SELECT count(*) AS n, sum("value") AS v FROM probe.observations');
await line(`after a scan of ${Number(s!['n']).toExponential(2)}`);
await run(conn, 'DETACH probe');
await line('after DETACH');
conn.closeSync();
instance.closeSync();
console.log(`closed: rss ${rss()} MB, VmHWM ${hwm()} MB`);
rmSync(out, { recursive: true, force: true });
