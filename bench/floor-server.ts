/**
 * The floor of serving a held answer with node on this machine: `node bench/floor-server.ts --upstream <base>
 * --port P [--workers 2]`. Processes as the endpoint's (node:cluster, the same count), each answering a path with
 * the bytes it got from `upstream` the first time it was asked, and with those bytes from a Map ever after:
 * node:http and nothing else (no routing, headers, metrics, compression, admission). bench/tail.ts runs it beside
 * the endpoint: what the endpoint's latency is above this floor is the endpoint's; what the floor shows is node's
 * and the machine's (its scheduler, on a shared machine).
 */
import cluster from 'node:cluster';
import { createServer, get as httpGet } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string' }, workers: { type: 'string', default: '2' } } });
if (!values.upstream || !values.port) throw new Error('usage: node bench/floor-server.ts --upstream http://127.0.0.1:P --port P [--workers 2]');
const upstream = values.upstream;

if (cluster.isPrimary) {
  const n = Number(values.workers);
  let up = 0;
  for (let i = 0; i < n; i++) {
    cluster.fork().on('listening', () => {
      if (++up === n) console.error(`floor serving on ${values.port}`);
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  });
} else {
  const held = new Map<string, { type: string; body: Buffer }>();
  const fetchBytes = (path: string) =>
    new Promise<{ type: string; body: Buffer }>((resolve, reject) => {
      httpGet(`${upstream}${path}`, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ type: String(res.headers['content-type'] ?? 'application/json'), body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  createServer((req, res) => {
    const path = req.url ?? '/';
    const hit = held.get(path);
    if (hit) {
      res.writeHead(200, { 'Content-Type': hit.type, 'Content-Length': hit.body.length });
      res.end(hit.body);
      return;
    }
    fetchBytes(path).then(
      (a) => {
        held.set(path, a);
        res.writeHead(200, { 'Content-Type': a.type, 'Content-Length': a.body.length });
        res.end(a.body);
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  }).listen(Number(values.port), '127.0.0.1');
}
