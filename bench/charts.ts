/**
 * Chart benchmarks on the demo network (35 days of 10-minute values):
 * - pre-rendering throughput: 800×500 one-week PNGs of every series, warm browser with its page pool,
 *   exactly as the build does it (data read, SVG, render), against launching a browser per chart;
 * - on demand through the endpoint: a one-week PNG and a one-week PDF report, medians.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { build } from '../build-scripts/build.ts';
import { chartDocument } from '../core/timeseries/chart-document.ts';
import { chartLanguage, type ChartRequest } from '../core/timeseries/chart-request.ts';
import { intervalSpan } from '../core/timeseries/prerender.ts';
import { ChartRenderer } from '../lib/chart-renderer.ts';
import { resolveChromium } from '../lib/chromium.ts';
import { serve } from '../server/main.ts';
import { median } from './stats.ts';

export interface ChartBench {
  chromium: string;
  charts: number;
  warmPerSec: number;
  perChartBrowserPerSec: number;
  perChartBrowserCharts: number;
  pngMedianMs: number;
  pngBytes: number;
  pdfMedianMs: number;
  pdfPages: number;
}

export async function runChartBenchmarks(work: string, log: (l: string) => void): Promise<ChartBench> {
  const snap = join(work, 'charts-snapshot');
  const dist = join(work, 'charts-dist');
  if (!existsSync(join(snap, 'manifest.json'))) await writeDemoSnapshot({ from: '2024-01-01', days: 35, seed: 1, out: snap, apis: ['timeseries-v1'], log: () => {} });
  await build({ snapshot: snap, out: dist, quiet: true, charts: false });
  const exe = await resolveChromium();
  const s = await serve({ build: dist, port: 0, host: '127.0.0.1' });
  try {
    const ts = s.build.timeseries!;
    const cat = ts.catalogue;
    const request = (k: number): ChartRequest => ({
      kind: 'png', series: [{ k, style: undefined }], span: intervalSpan('lastWeek', cat.takenAt), width: 800, height: 500,
      grid: true, legend: false, locale: undefined, language: chartLanguage(undefined), paper: 'A4', generalize: undefined, expanded: false, fitReferenceValues: false, base64: false,
    });
    const all = cat.timeseries.map((_, k) => k);
    const renderAll = async (ks: number[], renderer: () => Promise<{ r: ChartRenderer; done: () => Promise<void> }>, parallel: number) => {
      let next = 0;
      const source = ts.series.source;
      await Promise.all(Array.from({ length: parallel }, async () => {
        while (next < ks.length) {
          const doc = await chartDocument(cat, source, request(ks[next++]!));
          const { r, done } = await renderer();
          await r.render(doc);
          await done();
        }
      }));
    };

    log(`charts: ${all.length} one-week 800x500 PNGs with a warm browser (${exe.source}) ...`);
    const warm = new ChartRenderer({ executable: exe });
    await warm.warm();
    await renderAll(all.slice(0, 4), async () => ({ r: warm, done: async () => {} }), warm.pages);
    let t = performance.now();
    await renderAll(all, async () => ({ r: warm, done: async () => {} }), warm.pages + 1);
    const warmPerSec = all.length / ((performance.now() - t) / 1000);
    await warm.close();

    const few = all.slice(0, 12);
    log(`charts: ${few.length} of them launching a browser per chart ...`);
    t = performance.now();
    await renderAll(few, async () => {
      const r = new ChartRenderer({ executable: exe, pages: 1 });
      return { r, done: () => r.close() };
    }, 2);
    const perChartBrowserPerSec = few.length / ((performance.now() - t) / 1000);

    log('charts: on demand through the endpoint ...');
    const id = cat.timeseries.find((x) => x.id === 'ts_koeln_rhein_water_level')?.id ?? cat.timeseries[0]!.id;
    const fetchMs = async (path: string) => {
      const t0 = performance.now();
      const r = await fetch(`${s.url}${path}`);
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${body.toString().slice(0, 200)}`);
      return { ms: performance.now() - t0, body };
    };
    const png = `/api/v1/timeseries/${id}/getData.png`;
    const pdf = `/api/v1/timeseries/${id}/getData.pdf`;
    await fetchMs(png);
    await fetchMs(pdf);
    const pngTimes: number[] = [];
    let pngBytes = 0;
    for (let i = 0; i < 31; i++) {
      const r = await fetchMs(png);
      pngTimes.push(r.ms);
      pngBytes = r.body.length;
    }
    const pdfTimes: number[] = [];
    let pdfBody = Buffer.alloc(0);
    for (let i = 0; i < 15; i++) {
      const r = await fetchMs(pdf);
      pdfTimes.push(r.ms);
      pdfBody = r.body;
    }
    const pdfPages = (pdfBody.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    return {
      chromium: `${exe.source} (${exe.path})`,
      charts: all.length,
      warmPerSec,
      perChartBrowserPerSec,
      perChartBrowserCharts: few.length,
      pngMedianMs: median(pngTimes),
      pngBytes,
      pdfMedianMs: median(pdfTimes),
      pdfPages,
    };
  } finally {
    await s.close();
  }
}
