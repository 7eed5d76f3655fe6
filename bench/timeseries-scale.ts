/**
 * node --max-old-space-size=1024 --expose-gc bench/timeseries-scale.ts BUILD
 *
 * Answer times and resident memory of the endpoint over an existing build (issue 23: a database-only build of a
 * scaled demo, `npm run demo-snapshot -- --series-factor 10 --fast-values ...`): getData of one year (plain and
 * generalized) for 60 series picked by a hash of their ids, and a POST getData of one week of 100 series, 60
 * times each, ending at the build's last observation. In-process (the endpoint's `serve` on port 0), so the
 * resident memory printed is the endpoint's. Not part of `npm run bench` yet: it prints, it does not write
 * BENCHMARKS.md.
 */
import { serve } from '../server/main.ts';
import { openDuckDB } from '../lib/duckdb.ts';
import path from 'node:path';
if (!process.argv[2]) {
  console.error('usage: node bench/timeseries-scale.ts BUILD');
  process.exit(2);
}
const dist = path.resolve(process.argv[2]);
const inst = await openDuckDB({ path: path.join(dist, 'data/timeseries-v1.duckdb'), readOnly: true });
const c = await inst.connect();
const ids = (await c.runAndReadAll(`SELECT id FROM timeseries WHERE last_timestamp IS NOT NULL ORDER BY hash(id) LIMIT 300`)).getRows().map((r) => String(r[0]));
const [[lastT]] = (await c.runAndReadAll(`SELECT max(last_timestamp)::DOUBLE FROM timeseries`)).getRows() as [[number]];
c.closeSync(); inst.closeSync();
const end = new Date(lastT).toISOString().slice(0, 19) + 'Z';
const s = await serve({ build: dist, port: 0, host: '127.0.0.1' });
const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (f: () => Promise<Response>) => { const t = performance.now(); const r = await f(); const b = await r.arrayBuffer(); if (r.status !== 200) throw new Error(`${r.status} ${Buffer.from(b).toString().slice(0, 200)}`); return [performance.now() - t, b.byteLength] as const; };
console.log('observations build', dist, 'rss at start', rss(), 'MB');
for (const [name, f] of [
  ['getData one year', (id: string) => fetch(`${s.url}/api/v1/timeseries/${id}/getData?timespan=P1Y/${end}`)],
  ['getData one year generalize', (id: string) => fetch(`${s.url}/api/v1/timeseries/${id}/getData?timespan=P1Y/${end}&generalize=true`)],
  ['POST 100 series one week', (_id: string) => fetch(`${s.url}/api/v1/timeseries/getData`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ timespan: `P7D/${end}`, timeseries: ids.slice(0, 100) }) })],
] as const) {
  const ms: number[] = []; let bytes = 0;
  for (const id of ids.slice(0, 60)) { const [t, b] = await timed(() => f(id)); ms.push(t); bytes = b; }
  console.log(name, 'median', median(ms).toFixed(1), 'ms; p90', [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.9)]!.toFixed(1), 'ms;', bytes, 'bytes; rss', rss(), 'MB');
}
await s.close();
process.exit(0);
