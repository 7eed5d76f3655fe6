/**
 * Static files through the snapcat endpoint against nginx serving the same tree (with the configuration the
 * build writes), side by side in one run: the same mix of parameter-free paths, autocannon on loopback,
 * throughput and latency of each. nginx comes from Debian's packages (installed when missing).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { nginxConfig } from '../build-scripts/nginx-config.ts';
import { ensureNginx, freePort, startNginx } from '../test/helpers/nginx.ts';
import { startEndpointProcess } from './radar.ts';

export interface StaticBench {
  paths: string[];
  endpoint: { rps: number; p50: number; p99: number; mbps: number };
  nginx: { rps: number; p50: number; p99: number; mbps: number };
  ratio: number;
  nginxVersion: string;
}

/** Parameter-free paths of the tree: API records and collections of both APIs, a docs page, a chart. */
function staticPaths(buildDir: string): string[] {
  const site = join(buildDir, 'site');
  const json = <T>(p: string) => JSON.parse(readFileSync(join(site, p), 'utf8')) as T;
  const radars = json<{ id: number }[]>('radarnet/mirror/v3/radars.json');
  const series = json<{ id: string }[]>('api/v1/timeseries.json');
  return [
    '/radarnet/mirror/v3/',
    '/radarnet/mirror/v3/radars',
    `/radarnet/mirror/v3/radars/${radars[0]!.id}`,
    `/radarnet/mirror/v3/radars/${radars[5]!.id}?contentType=csv`,
    '/api/v1/',
    '/api/v1/stations',
    `/api/v1/timeseries/${series[0]!.id}`,
    `/api/v1/timeseries/${series[0]!.id}/getData`,
    '/api/v1/timeseries/ts_koeln_rhein_water_level/lastWeek',
    '/docs/radar/',
    '/browse/radars/',
  ];
}

async function load(url: string, paths: string[], seconds: number) {
  let i = 0;
  const r = await autocannon({
    url,
    connections: 16,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1e6 };
}

export async function runStaticVsNginx(buildDir: string, seconds: number, log: (l: string) => void): Promise<StaticBench> {
  const bin = ensureNginx();
  if ('skip' in bin) throw new Error(`nginx is not available: ${bin.skip}`);
  const paths = staticPaths(buildDir);
  const port = await freePort();
  const endpoint = await startEndpointProcess(buildDir, port);
  const ngx = await startNginx(bin.path, join(buildDir, '..', `nginx-bench-${process.pid}`), (listen) =>
    nginxConfig({ site: join(buildDir, 'site'), endpoint: `http://127.0.0.1:${port}`, listen }),
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    log(`static files: ${paths.length} paths, 16 connections, ${seconds} s each, endpoint then nginx, twice`);
    // warm both (page cache, first opens), then alternate so neither gets a quieter machine
    await load(base, paths, 2);
    await load(ngx.url, paths, 2);
    const e1 = await load(base, paths, seconds);
    const n1 = await load(ngx.url, paths, seconds);
    const e2 = await load(base, paths, seconds);
    const n2 = await load(ngx.url, paths, seconds);
    const best = (a: typeof e1, b: typeof e1) => (a.rps >= b.rps ? a : b);
    const e = best(e1, e2), n = best(n1, n2);
    return { paths, endpoint: e, nginx: n, ratio: e.rps / n.rps, nginxVersion: bin.version };
  } finally {
    await ngx.stop();
    endpoint.kill('SIGTERM');
  }
}
