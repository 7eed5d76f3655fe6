/** The Timeseries API part of a build: its database, then (unless database-only) its static tree and pre-rendered charts. */
import { join } from 'node:path';
import { ROW_GROUP_SIZE, run, sqlString } from '../../lib/duckdb.ts';
import { writeSeriesFile } from '../../lib/series-file.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { staticFileCount } from '../../core/timeseries/static-tree.ts';
import type { ApiBuildContext } from '../lib/api-build.ts';
import { tableReadSql } from '../snapshot/files.ts';
import { copyDatabase, lastTimestamps, linkSegments, nextSegmentName, settleSegments, writeSources, type AppendPlan } from './append.ts';
import { checkConfigReferences, readConfigFiles } from './config-files.ts';
import { appendTimeseriesDb, buildTimeseriesDb } from './timeseries-db.ts';
import { writeTimeseriesTree } from './write-tree.ts';
import { prerenderCharts } from './prerender-charts.ts';

/** No observations: the new files of an append that brought none. */
const NO_OBSERVATIONS = `(SELECT NULL::VARCHAR AS timeseries_id, NULL::BIGINT AS "timestamp", NULL::DOUBLE AS "value" WHERE false)`;

export async function buildTimeseries(ctx: ApiBuildContext): Promise<void> {
  const { conn, progress } = ctx;
  const config = readConfigFiles(ctx.snapshotDir);
  const append = ctx.timeseriesAppend;
  // a daily append starts from the last build's database and series file (append.ts)
  const last = append ? lastTimestamps(join(append.previous, 'data')) : undefined;
  if (append) copyDatabase(append.previous, ctx.dataDir);
  await run(conn, `ATTACH ${sqlString(join(ctx.dataDir, TIMESERIES_DB_FILE))} AS timeseries_v1 (ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
  await run(conn, 'USE timeseries_v1');
  try {
    const onTable = (name: string) => progress.begin(`timeseries database: ${name}`);
    let added = 0;
    if (append) {
      const newObservations = append.added.length > 0 ? tableReadSql({ file: join(ctx.snapshotDir, 'observations'), partitioned: true, files: append.added }) : NO_OBSERVATIONS;
      added = await appendTimeseriesDb(conn, ctx.tableSql, newObservations, config, last!, onTable);
    } else await buildTimeseriesDb(conn, ctx.tableSql, config, onTable);
    const cat = await loadCatalogue(conn, Date.parse(ctx.manifest.taken_at));
    checkConfigReferences(cat);
    progress.begin('timeseries observations file');
    if (append) {
      await appendSeriesFile(ctx, append, added, cat.timeseries.length);
      await run(conn, 'DROP TABLE memory.new_observations');
    } else await writeSeriesFile(conn, ctx.dataDir, cat.timeseries.length);
    writeSources(ctx.dataDir, ctx.snapshotDir);
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

/** The last build's segments, linked, and one of the new observations (none when there are none), merged as append.ts says. */
async function appendSeriesFile(ctx: ApiBuildContext, append: AppendPlan, added: number, seriesCount: number): Promise<void> {
  let names = linkSegments(append.previous, ctx.dataDir);
  if (added > 0) {
    const name = nextSegmentName(names);
    await writeSeriesFile(ctx.conn, ctx.dataDir, seriesCount, { table: 'memory.new_observations', name });
    names = [...names, name];
  }
  const settled = settleSegments(ctx.dataDir, names);
  ctx.stats['timeseries observations appended'] = added;
  ctx.stats['timeseries segments'] = settled.names.length;
  ctx.stats['timeseries observations rewritten by merges'] = settled.rewritten;
}
