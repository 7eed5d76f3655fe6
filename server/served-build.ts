/**
 * A build folder as the endpoint serves it: the static tree; the radar catalogue's read-only DuckDB database
 * with a small pool of connections (lib/duckdb-pool.ts: requests borrow one for the life of a query); the Timeseries API's metadata,
 * read from its database at start, and its series file.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { CatalogueFacts } from '../core/radar/queries.ts';
import type { SnapshotManifest } from '../core/snapshot/table-schema.ts';
import { run, sqlString } from '../lib/duckdb.ts';
import { ConnectionPool, PARTITIONED_BUFFERS, type PoolLimits } from '../lib/duckdb-pool.ts';
import { assertNoHiveKeys } from '../lib/hive.ts';
import { RADAR_DB_FILE, readCatalogueFacts } from '../lib/radar-catalogue.ts';
import type { Catalogue } from '../core/timeseries/catalogue.ts';
import { openSeriesStore } from '../lib/series-segments.ts';
import { OBSERVATIONS_DIR, openParquetSeries, type ObservationStore } from '../lib/series-parquet.ts';
import { loadCatalogue, TIMESERIES_DB_FILE } from '../lib/timeseries-store.ts';
import { parseProfile, type TimeseriesProfile } from '../core/timeseries/profile.ts';
import type { ResidentTable } from '../core/radar/resident.ts';
import type { ResourceName } from '../core/radar/resources.ts';
import { loadRadarRows, loadResidentTables } from './resident-tables.ts';
import { loadChangeHistory } from './changes-handler.ts';

export interface ServedBuild {
  folder: string;
  site: string;
  manifest: SnapshotManifest;
  /** Requests being answered from this build (a replaced build is closed when none are left). */
  inFlight: number;
  /** Identifies this build's answers: a hash of its build.json and folder name, the base of every ETag. */
  tag: string;
  /** When the build was made: the time its build.json was written, ms since the epoch (build.json holds no clock time). */
  builtAt: number;
  /** The radar catalogue: its database, facts about it, and its small tables in memory. */
  /** history: the change history is loaded into the pool's database (server/changes-handler.ts loadChangeHistory). */
  radar?: { pool: ConnectionPool; facts: CatalogueFacts; resident: Partial<Record<ResourceName, ResidentTable>>; history: boolean };
  /**
   * The Timeseries API: its metadata in memory, its observations in the series file (lib/series-file.ts; its segments after daily appends: lib/series-segments.ts), or in a partitioned build's Parquet files (lib/series-parquet.ts). The
   * database is read once, when the build is opened.
   */
  timeseries?: { catalogue: Catalogue; series: ObservationStore; profile: TimeseriesProfile };
  close(): void;
}

export async function openServedBuild(folder: string, poolSize = 4, limits: PoolLimits = {}): Promise<ServedBuild> {
  const buildJson = readFileSync(join(folder, 'build.json'), 'utf8');
  const info = JSON.parse(buildJson) as { snapshot: SnapshotManifest; timeseriesProfile?: unknown };
  // the profile the build made its tree in, never this process's environment (a build from before profiles: spec)
  const profile = parseProfile(info.timeseriesProfile, `timeseriesProfile in ${join(folder, 'build.json')}`);
  const build: ServedBuild = {
    folder,
    site: join(folder, 'site'),
    manifest: info.snapshot,
    inFlight: 0,
    tag: createHash('sha1').update(`${basename(folder)}\n${buildJson}`).digest('base64url').slice(0, 16),
    builtAt: statSync(join(folder, 'build.json')).mtimeMs,
    close() {
      build.radar?.pool.close();
      if (build.timeseries) build.timeseries.series.close();
    },
  };
  const radarDb = join(folder, 'data', RADAR_DB_FILE);
  if (existsSync(radarDb)) {
    const pool = await ConnectionPool.open(radarDb, poolSize, limits);
    try {
      const facts = await pool.withoutLimit(readCatalogueFacts);
      // a partitioned catalogue below a folder named like `key=value` is refused before anything is read from it
      if (facts.partitioned) {
        assertNoHiveKeys(dirname(radarDb));
        await pool.withoutLimit((c) => run(c, `SET memory_limit = ${sqlString(PARTITIONED_BUFFERS)}`));
      }
      const radarRows = await pool.withoutLimit((c) => loadRadarRows(c, facts));
      build.radar = { pool, facts: { ...facts, radarRows }, resident: await pool.withoutLimit((c) => loadResidentTables(c, facts)), history: await loadChangeHistory(pool, folder) };
    } catch (e) {
      pool.close();
      throw e;
    }
  }
  const timeseriesDb = join(folder, 'data', TIMESERIES_DB_FILE);
  if (existsSync(timeseriesDb)) {
    try {
      const catalogue = await readTimeseriesCatalogue(timeseriesDb, Date.parse(info.snapshot.taken_at), limits);
      const dataDir = dirname(timeseriesDb);
      const series = existsSync(join(dataDir, OBSERVATIONS_DIR)) ? await openParquetSeries(timeseriesDb, dataDir, limits) : openSeriesStore(dataDir);
      build.timeseries = { catalogue, series, profile };
    } catch (e) {
      // the radar catalogue's pool, opened already, is not left open
      build.close();
      throw e;
    }
  }
  return build;
}

/** The Timeseries API's metadata, read once from its database, which is then closed. */
async function readTimeseriesCatalogue(path: string, takenAt: number, limits: PoolLimits): Promise<Catalogue> {
  const pool = await ConnectionPool.open(path, 1, limits);
  try {
    return await pool.withoutLimit((c) => loadCatalogue(c, takenAt));
  } finally {
    pool.close();
  }
}
