/** The Timeseries API part of a build: its database, then (unless database-only) its static tree and pre-rendered charts. */
import { join } from 'node:path';
import { ROW_GROUP_SIZE, run, sqlString } from '../../lib/duckdb.ts';
import { writeSeriesFile } from '../../lib/series-file.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { staticFileCount } from '../../core/timeseries/static-tree.ts';
import type { ApiBuildContext } from '../lib/api-build.ts';
import { checkConfigReferences, readConfigFiles } from './config-files.ts';
import { buildTimeseriesDb } from './timeseries-db.ts';
import { writeTimeseriesTree } from './write-tree.ts';
import { prerenderCharts } from './prerender-charts.ts';

export async function buildTimeseries(ctx: ApiBuildContext): Promise<void> {
  const { conn, progress } = ctx;
  const config = readConfigFiles(ctx.snapshotDir);
  await run(conn, `ATTACH ${sqlString(join(ctx.dataDir, TIMESERIES_DB_FILE))} AS timeseries_v1 (ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
  await run(conn, 'USE timeseries_v1');
  try {
    await buildTimeseriesDb(conn, ctx.tableSql, config, (name) => progress.begin(`timeseries database: ${name}`));
    const cat = await loadCatalogue(conn, Date.parse(ctx.manifest.taken_at));
    checkConfigReferences(cat);
    progress.begin('timeseries observations file');
    await writeSeriesFile(conn, ctx.dataDir, cat.timeseries.length);
    if (ctx.writeTree) {
      progress.totalFiles += staticFileCount(cat);
      await writeTimeseriesTree({ conn, cat, writer: ctx.writer, progress, profile: ctx.timeseriesProfile });
      if (ctx.charts) {
        const charts = await prerenderCharts({ conn, cat, writer: ctx.writer, progress, cacheDir: ctx.cacheDir });
        ctx.stats['timeseries charts rendered'] = charts.rendered;
        ctx.stats['timeseries charts from cache'] = charts.fromCache;
      }
    }
    await run(conn, 'CHECKPOINT');
  } finally {
    await run(conn, 'USE memory');
    await run(conn, 'DETACH timeseries_v1');
  }
}
