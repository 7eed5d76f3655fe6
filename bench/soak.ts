/**
 * Soak: a realistic mix of static and live requests (and a few POSTs and charts) against an endpoint process
 * on loopback for a fixed time, with autocannon. Counts every non-2xx answer, error and timeout, and samples
 * the endpoint's resident memory: growth is the median of the last tenth of the run over the median of the
 * tenth after the warm-up (the first tenth).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startEndpointProcess } from './radar.ts';
import { endpointRss, median } from './stats.ts';

export interface SoakResult {
  seconds: number;
  requests: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  rssStartMb: number;
  rssEndMb: number;
  rssGrowth: number;
  mix: string[];
}

type Req = { method?: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The request mix for a build: what its tree holds decides the ids. */
export function requestMix(buildDir: string): Req[] {
  const site = join(buildDir, 'site');
  const out: Req[] = [{ path: '/' }, { path: '/openapi.json' }];
  const radars = readJson<{ id: number; code?: string[] | string }[]>(join(site, 'radarnet/mirror/v3/radars.json'));
  if (radars) {
    const id = radars[0]!.id;
    const manifest = readJson<{ snapshot: { taken_at: string } }>(join(buildDir, 'build.json'))!;
    const day = manifest.snapshot.taken_at.slice(0, 10);
    out.push(
      { path: '/radarnet/mirror/v3/' },
      { path: '/radarnet/mirror/v3/radars' },
      { path: `/radarnet/mirror/v3/radars/${id}` },
      { path: '/radarnet/mirror/v3/radars?contentType=csv' },
      { path: `/radarnet/mirror/v3/files?timespan=P1D/${day}&limit=100` },
      { path: `/radarnet/mirror/v3/files?timespan=PT6H/${day}&contentType=checksum` },
      { path: '/radarnet/mirror/v3/radars', headers: { Accept: 'text/csv' } },
      { path: '/radarnet/mirror/v3/nothing' },
      { path: '/radarnet/mirror/v3/files?timespan=not-a-date' },
    );
  }
  const series = readJson<{ id: string }[]>(join(site, 'api/v1/timeseries.json'));
  if (series) {
    const a = series[0]!.id, b = series[Math.floor(series.length / 2)]!.id;
    out.push(
      { path: '/api/v1/' },
      { path: '/api/v1/stations' },
      { path: '/api/v1/stations?locale=de' },
      { path: '/api/v1/stations?near=%7B%22center%22%3A%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B7.1%2C50.7%5D%7D%2C%22radius%22%3A100%7D' },
      { path: `/api/v1/timeseries/${a}` },
      { path: `/api/v1/timeseries/${a}/getData` },
      { path: `/api/v1/timeseries/${b}/getData?timespan=P2D/2024-01-08TZ&format=highchart` },
      { path: `/api/v1/timeseries/${a}/getData?generalize=true` },
      { path: '/api/v1/search?q=rhein' },
      { method: 'POST', path: '/api/v1/timeseries/getData', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ timespan: 'P1D/2024-01-08TZ', timeseries: [a, b] }) },
      { path: '/api/v1/stations?limit=0' },
    );
    // a chart now and then: one in 40 requests
    if (out.length < 40) out.push({ path: `/api/v1/timeseries/${a}/getData.png?width=400&height=250` });
  }
  return out;
}

export async function runSoak(opts: { build: string; seconds: number; connections?: number; port?: number; log?: (l: string) => void }): Promise<SoakResult> {
  const log = opts.log ?? (() => {});
  const port = opts.port ?? 18000 + (process.pid % 1000);
  const mix = requestMix(opts.build);
  const child = await startEndpointProcess(opts.build, port);
  const samples: { t: number; mb: number }[] = [];
  const sampler = setInterval(() => samples.push({ t: performance.now(), mb: endpointRss(child.pid!).rssMb }), 1000);
  try {
    // warm the routes once (first queries, the browser for the chart) before measuring
    for (const r of mix) await fetch(`http://127.0.0.1:${port}${r.path}`, { method: r.method ?? 'GET', ...(r.headers ? { headers: r.headers } : {}), ...(r.body ? { body: r.body } : {}) }).then((x) => x.arrayBuffer());
    const t0 = performance.now();
    log(`soak: ${mix.length} kinds of request, ${opts.connections ?? 8} connections, ${opts.seconds} s`);
    let i = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: opts.connections ?? 8,
      duration: opts.seconds,
      timeout: 30,
      requests: [
        {
          setupRequest: (req) => {
            const r = mix[i++ % mix.length]!;
            return { ...req, method: r.method ?? 'GET', path: r.path, headers: r.headers ?? {}, ...(r.body ? { body: r.body } : {}) };
          },
        },
      ],
    });
    const seconds = (performance.now() - t0) / 1000;
    const kept = samples.filter((s) => s.t >= t0);
    const tenth = Math.max(1, Math.floor(kept.length / 10));
    const after = median(kept.slice(tenth, 2 * tenth).map((s) => s.mb));
    const end = median(kept.slice(-tenth).map((s) => s.mb));
    // 4xx answers are expected (the mix holds bad requests on purpose); errors are 5xx, resets and timeouts
    const fivexx = result['5xx'] as number;
    return {
      seconds,
      requests: result.requests.total,
      errors: result.errors + fivexx,
      non2xx: result.non2xx,
      timeouts: result.timeouts,
      rps: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      rssStartMb: after,
      rssEndMb: end,
      rssGrowth: end / after - 1,
      mix: mix.map((r) => `${r.method ?? 'GET'} ${r.path}`),
    };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
  }
}
