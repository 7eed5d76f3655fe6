/** The Timeseries API part of a build: its database, then (unless database-only) its static tree and pre-rendered charts. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { all, releaseBuffers, ROW_GROUP_SIZE, run, sqlString, TIMESERIES_ROW_GROUP_SIZE } from '../../lib/duckdb.ts';
import { GROUP_SERIES, OBSERVATIONS_DIR } from '../../lib/series-parquet.ts';
import type { Progress } from '../lib/progress.ts';
import { writeSeriesFile } from '../../lib/series-file.ts';
import { duckSeriesSource, loadCatalogue, TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { openSeriesStore } from '../../lib/series-segments.ts';
import { staticFileCount } from '../../core/timeseries/static-tree.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ApiBuildContext } from '../lib/api-build.ts';
import { tableReadSql } from '../snapshot/files.ts';
import { copyDatabase, lastTimestamps, linkSegments, nextSegmentName, settleSegments, writeSources, type AppendPlan } from './append.ts';
import { checkConfigReferences, readConfigFiles } from './config-files.ts';
import { appendTimeseriesDb, buildTimeseriesDb } from './timeseries-db.ts';
import { observationSourcesDigest } from '../downloads.ts';
import { writeTimeseriesTree } from './write-tree.ts';
import { prerenderCharts } from './prerender-charts.ts';

/** The observations a daily append added, for the downloads: dropped by the build (build.ts) when it ends. */
export const APPENDED_TABLE = 'memory.appended_observations';

/** No observations: the new files of an append that brought none. */
const NO_OBSERVATIONS = `(SELECT NULL::VARCHAR AS timeseries_id, NULL::BIGINT AS "timestamp", NULL::DOUBLE AS "value" WHERE false)`;

export async function buildTimeseries(ctx: ApiBuildContext): Promise<void> {
  const { conn, progress } = ctx;
  const config = readConfigFiles(ctx.snapshotDir);
  const append = ctx.timeseriesAppend;
  // a daily append starts from the last build's database and series file (append.ts)
  if (append) progress.begin("timeseries database: the last build's, copied");
  const last = append ? lastTimestamps(join(append.previous, 'data')) : undefined;
  if (append) copyDatabase(append.previous, ctx.dataDir);
  await run(conn, `ATTACH ${sqlString(join(ctx.dataDir, TIMESERIES_DB_FILE))} AS timeseries_v1 (ROW_GROUP_SIZE ${TIMESERIES_ROW_GROUP_SIZE})`);
  await run(conn, 'USE timeseries_v1');
  try {
    const onTable = (name: string) => progress.begin(`timeseries database: ${name}`);
    let added = 0;
    if (append) {
      const newObservations = append.added.length > 0 ? tableReadSql({ file: join(ctx.snapshotDir, 'observations'), partitioned: true, files: append.added }) : NO_OBSERVATIONS;
      added = await appendTimeseriesDb(conn, ctx.tableSql, newObservations, config, last!, onTable);
    } else {
      // a full build writes its series file pass by pass with the observations table (timeseries-db.ts): no
      // statement streams the whole table (issue 23); a partitioned build writes Parquet from the table below
      await buildTimeseriesDb(conn, ctx.tableSql, config, onTable, ctx.partitioned ? {} : { seriesFileDir: ctx.dataDir });
    }
    const cat = await loadCatalogue(conn, Date.parse(ctx.manifest.taken_at));
    checkConfigReferences(cat);
    if (append || ctx.partitioned) progress.begin('timeseries observations file');
    if (append) {
      await appendSeriesFile(ctx, append, added, cat.timeseries.length);
      if (ctx.writeTree) {
        // the downloads rewrite the months of the added rows alone (downloads.ts): the table stays until the build ends
        await run(conn, `ALTER TABLE memory.new_observations RENAME TO ${APPENDED_TABLE.slice('memory.'.length)}`);
        ctx.appended.observations = { table: APPENDED_TABLE, since: observationSourcesDigest(join(append.previous, 'data'))! };
      } else await run(conn, 'DROP TABLE memory.new_observations');
    } else if (ctx.partitioned) await writePartitionedObservations(conn, ctx.dataDir, cat.timeseries.length, progress);
    writeSources(ctx.dataDir, ctx.snapshotDir);
    if (ctx.writeTree) {
      // the tree and the charts need little of DuckDB: its buffers, full from the database phase, go back to the
      // system (lib/duckdb.ts releaseBuffers; docs/scale-out.md "Memory budget of a build")
      await releaseBuffers(conn, ctx.memoryLimit);
      // the tree and the charts read the observations where the endpoint reads them: the series file just
      // written (a read of a series is a seek), not the database's table (a query each, 60 ms at 10^9 rows);
      // a partitioned build's endpoint reads them through DuckDB, and so does its tree
      const store = ctx.partitioned ? undefined : openSeriesStore(ctx.dataDir);
      try {
        const source = store?.source ?? duckSeriesSource(conn);
        progress.expectFiles('timeseries tree', staticFileCount(cat));
        await writeTimeseriesTree({ cat, source, writer: ctx.writer, progress, profile: ctx.timeseriesProfile });
        if (ctx.charts) {
          const charts = await prerenderCharts({ cat, source, writer: ctx.writer, progress, cacheDir: ctx.cacheDir });
          ctx.stats['timeseries charts rendered'] = charts.rendered;
          ctx.stats['timeseries charts from cache'] = charts.fromCache;
        }
      } finally {
        store?.close();
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

/**
 * A partitioned build's observations (lib/series-parquet.ts): hive-partitioned Parquet by series group and year,
 * `data/observations/group=G/year=Y/data_0.parquet`, each file sorted by (sid, timestamp), written group by group
 * (one sort of at most GROUP_SERIES series at a time, on one thread so that each file keeps that order), and the
 * rows per series and year in `observation_counts`. No series file: the endpoints read these files, wherever the
 * build is stored. The database keeps its observations table (the change history and the downloads read it).
 */
async function writePartitionedObservations(conn: DuckDBConnection, dataDir: string, seriesCount: number, progress: Progress): Promise<void> {
  const year = `year(make_timestamp("timestamp" * 1000))::INTEGER`;
  await run(conn, `CREATE TABLE observation_counts AS SELECT sid, ${year} AS year, count(*) AS n FROM observations GROUP BY ALL ORDER BY sid, year`);
  const [threads] = await all(conn, "SELECT current_setting('threads') AS n");
  await run(conn, 'SET threads = 1');
  mkdirSync(join(dataDir, OBSERVATIONS_DIR));
  try {
    for (let g = 0; g * GROUP_SERIES < seriesCount; g++) {
      progress.begin(`timeseries observations, Parquet by group and year: group ${g + 1} of ${Math.ceil(seriesCount / GROUP_SERIES)}`);
      await run(
        conn,
        `COPY (SELECT sid, "timestamp", "value", ${year} AS year FROM observations WHERE sid BETWEEN ${g * GROUP_SERIES} AND ${(g + 1) * GROUP_SERIES - 1} ORDER BY sid, "timestamp")
         TO ${sqlString(join(dataDir, OBSERVATIONS_DIR, `group=${g}`))} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (year), ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`,
      );
    }
  } finally {
    await run(conn, `SET threads = ${Number(threads?.['n'] ?? 2)}`);
  }
}
