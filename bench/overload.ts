/**
 * Overload, the crash mixes of issue 18: chart requests that once ran the endpoint out of memory, at once,
 * against an endpoint process started as `npm run serve` starts it (ENDPOINT_NODE_FLAGS, under its supervisor),
 * over the 30-day timeseries demo. Per mix: the answers (200, or 503 with Retry-After), the longest wait for
 * an answer, whether the same endpoint process answered on, and the peak resident memory of the endpoint
 * processes and, apart, of their browser.
 *
 * Only the crash mixes: the slow-reader and 4×-overload scenarios of the issue are not here yet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../build-scripts/build.ts';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { freePort } from '../test/helpers/nginx.ts';
import { startEndpointProcess, WORK } from './radar.ts';
import { childrenOf, endpointRss, treeRssMb } from './stats.ts';

export interface MixResult {
  name: string;
  requests: number;
  ok: number;
  refused: number;
  /** Answers neither 200 nor 503 with Retry-After, and requests that failed (reset, crash). */
  bad: number;
  longestMs: number;
  seconds: number;
  endpointPeakMb: number;
  browserPeakMb: number;
  /** The same endpoint process answered after the mix. */
  survived: boolean;
}

async function demoBuild(log: (l: string) => void): Promise<string> {
  const snap = join(WORK, 'overload-ts-snapshot');
  const out = join(WORK, 'overload-ts-dist');
  if (!existsSync(join(out, 'build.json'))) {
    log('overload: the 30-day timeseries demo (generated and built once into bench/.work) ...');
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: snap, apis: ['timeseries-v1'], log: () => {} });
    await build({ snapshot: snap, out, quiet: true, charts: false, site: false });
  }
  return out;
}

export async function runOverloadBench(log: (l: string) => void = () => {}): Promise<{ mixes: MixResult[] }> {
  const dist = await demoBuild(log);
  const port = await freePort();
  const supervisor = await startEndpointProcess(dist, port);
  const base = `http://127.0.0.1:${port}/api/v1`;
  try {
    const ids = ((await (await fetch(`${base}/timeseries?limit=100`)).json()) as { id: string }[]).map((t) => t.id);
    // warm: the browser started, the first chart drawn
    await (await fetch(`${base}/timeseries/${ids[0]}/getData.png`)).arrayBuffer();
    const pdf = () => ({ accept: 'application/pdf', body: { timespan: 'P1Y/2024-01-31TZ', timeseries: ids } });
    const png = () => ({ accept: 'image/png', body: { timespan: 'P1Y/2024-01-31TZ', timeseries: ids, width: 4000, height: 4000, legend: true } });
    const mixes: [string, { accept: string; body: object }[]][] = [
      ['4 PDFs of 100 series, P1Y/2024-01-31TZ', [pdf(), pdf(), pdf(), pdf()]],
      ['2 such PDFs and 2 PNGs of 4000×4000 with a legend', [pdf(), pdf(), png(), png()]],
      ['4 such PDFs and 2 such PNGs', [pdf(), pdf(), pdf(), pdf(), png(), png()]],
    ];
    const results: MixResult[] = [];
    for (const [name, requests] of mixes) {
      const [worker] = childrenOf(supervisor.pid!);
      let endpointPeakMb = 0;
      let browserPeakMb = 0;
      const sample = () => {
        const e = endpointRss(supervisor.pid!).rssMb;
        endpointPeakMb = Math.max(endpointPeakMb, e);
        browserPeakMb = Math.max(browserPeakMb, treeRssMb(supervisor.pid!).rssMb - e);
      };
      const sampler = setInterval(sample, 50);
      const t0 = performance.now();
      const answers = await Promise.all(requests.map(async (r) => {
        const s = performance.now();
        try {
          const res = await fetch(`${base}/timeseries/getData`, { method: 'POST', headers: { Accept: r.accept, 'Content-Type': 'application/json' }, body: JSON.stringify(r.body) });
          await res.arrayBuffer();
          return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - s };
        } catch {
          return { status: 0, retryAfter: null, ms: performance.now() - s };
        }
      }));
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      sample();
      const survived = (await fetch(`${base}/stations`).then((r) => r.status, () => 0)) === 200 && childrenOf(supervisor.pid!)[0] === worker;
      const ok = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 503 && Number(a.retryAfter) >= 1).length;
      const r: MixResult = { name, requests: answers.length, ok, refused, bad: answers.length - ok - refused, longestMs: Math.max(...answers.map((a) => a.ms)), seconds, endpointPeakMb, browserPeakMb, survived };
      log(`overload: ${name}: ${JSON.stringify(r)}`);
      results.push(r);
    }
    return { mixes: results };
  } finally {
    supervisor.kill('SIGTERM');
    await new Promise((r) => supervisor.once('exit', r));
  }
}
