/**
 * Pre-rendering the configured charts into the static tree (core/timeseries/prerender.ts says which).
 *
 * Each chart's page (its SVG: the series data, style, size, language, labels) is hashed with the browser
 * that renders it; a PNG already in the cache under that hash is linked into the tree instead of rendered
 * again. The cache (`<out>.cache/charts/`) keeps the charts of the last build only.
 *
 * Data is read one chart at a time from the build's series store; up to the renderer's page count render at
 * once behind it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalogue } from '../../core/timeseries/catalogue.ts';
import { chartDocument } from '../../core/timeseries/chart-document.ts';
import type { SeriesSource } from '../../core/timeseries/data.ts';
import { prerenderJobs } from '../../core/timeseries/prerender.ts';
import { ChartRenderer } from '../../lib/chart-renderer.ts';
import { resolveChromium } from '../../lib/chromium.ts';
import type { Progress } from '../lib/progress.ts';
import type { TreeWriter } from '../lib/tree-writer.ts';

/** Change when the renderer's output changes for the same page (flags, screenshot options). */
const RENDER_VERSION = 'png-1';

export interface PrerenderResult {
  charts: number;
  rendered: number;
  fromCache: number;
}

export async function prerenderCharts(opts: {
  /** Where the observations are read: the build's series store, as the endpoint reads them. */
  source: SeriesSource;
  cat: Catalogue;
  writer: TreeWriter;
  progress: Progress;
  cacheDir: string;
  /** A renderer to use (benchmarks); by default one of its own, closed at the end. */
  renderer?: ChartRenderer;
}): Promise<PrerenderResult> {
  const { cat, source, writer, progress } = opts;
  const jobs = prerenderJobs(cat);
  const result: PrerenderResult = { charts: jobs.length, rendered: 0, fromCache: 0 };
  if (jobs.length === 0) return result;
  progress.expectFiles('timeseries charts', jobs.length);
  progress.begin(`timeseries charts: ${jobs.length} charts`);

  const cache = join(opts.cacheDir, 'charts');
  mkdirSync(cache, { recursive: true });
  const exe = await resolveChromium();
  const renderer = opts.renderer ?? new ChartRenderer({ executable: exe });
  const used = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  try {
    for (const job of jobs) {
      if (failure) break;
      const doc = await chartDocument(cat, source, job.request);
      const key = createHash('sha256').update(`${RENDER_VERSION}\n${exe.path}\n${doc.kind}\n${job.request.width}x${job.request.height}\n`).update(doc.html).digest('hex');
      const cached = join(cache, `${key}.png`);
      used.add(`${key}.png`);
      const size = statSync(cached, { throwIfNoEntry: false })?.size;
      if (size !== undefined) {
        writer.linkFrom(cached, job.file, size);
        result.fromCache++;
        continue;
      }
      const p = renderer.render(doc).then(
        (png) => {
          const tmp = `${cached}.${process.pid}.tmp`;
          writeFileSync(tmp, png);
          renameSync(tmp, cached);
          writer.linkFrom(cached, job.file, png.length);
          result.rendered++;
        },
        (e: unknown) => {
          failure ??= new Error(`pre-rendering ${job.file} failed: ${(e as Error).message}`, { cause: e });
        },
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      if (inFlight.size >= renderer.pages) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    if (!opts.renderer) await renderer.close();
  }
  if (failure) throw failure;
  for (const name of readdirSync(cache)) if (!used.has(name)) rmSync(join(cache, name), { force: true });
  progress.line(`timeseries charts: ${result.charts} pre-rendered (${result.rendered} rendered, ${result.fromCache} unchanged from the cache)`);
  return result;
}
