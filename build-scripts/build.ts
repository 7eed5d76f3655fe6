/**
 * npm run build -- --snapshot DIR [--out dist] [--full] [--db-only] [--partitioned] [--no-charts] [--no-site] [--quiet]
 *
 * Validates a snapshot, then builds beside the last good output and swaps it in at the end:
 *   <out>/site/   the static tree (any static host serves it)
 *   <out>/data/   the databases the endpoint queries
 *   <out>/build.json
 *   <out>/radar-summary.json  what the radar browse pages show of the big collections (radar/browse-summary.ts)
 *   <out>/site/openapi.json, and the docs site's pages (/, /docs/, /browse/)
 *   <out>/nginx.conf  nginx in front of the endpoint (docs/nginx.md)
 * A snapshot that fails validation, or a build that fails, writes nothing and exits non-zero.
 * --db-only writes the databases and no static tree: for catalogues too large to pre-generate, the endpoint
 * answers every path by a query. --partitioned (database-only too) writes the radar catalogue's big tables, and
 * the timeseries observations (by series group and year), as hive-partitioned Parquet under <out>/data/ for
 * catalogues too large for one machine (docs/scale-out.md).
 * --no-charts skips pre-rendering the configured charts (no Chromium needed); --no-site skips the Astro
 * documentation and browsing site (build-scripts/site.ts).
 * <out>.cache/ keeps what the next build of the same output may reuse (pre-rendered charts by content hash).
 *
 * Builds are incremental: a build starts from an earlier build's tree (lib/atomic-output.ts) and rewrites
 * only the files whose bytes change, removing those the new snapshot no longer has (lib/tree-state.ts); the
 * tree is the one a build into an empty folder gives. --full starts from an empty folder.
 *
 * SNAPCAT_TIMESERIES_PROFILE (`spec`, the default, or `52north`) chooses the Timeseries API's profile
 * (core/timeseries/profile.ts); any other value stops the build with exit code 1 before anything is written.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ApiName } from '../core/snapshot/table-schema.ts';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB, releaseBuffers, run, withMemoryCap } from '../lib/duckdb.ts';
import { commandLine, type CliOption, type CliSpec } from '../lib/cli.ts';
import { makeScratch, removeScratch, removeOnSignals } from '../lib/scratch.ts';
import type { ApiBuildContext } from './lib/api-build.ts';
import { buildAtomically, type BaseTree } from './lib/atomic-output.ts';
import { TreeState } from './lib/tree-state.ts';
import { Progress } from './lib/progress.ts';
import { TreeWriter } from './lib/tree-writer.ts';
import { MANIFEST_FILE, writeTreeManifest, WrittenSha256, type ManifestResult } from './lib/tree-manifest.ts';
import { buildRadar } from './radar/build-radar.ts';
import { finishSnapshots, recordHistory, SNAPSHOTS_FILE, type SnapshotsDocument } from './lib/snapshot-history.ts';
import { writeFeeds } from './lib/feeds.ts';
import { APPENDED_TABLE, buildTimeseries } from './timeseries/build-timeseries.ts';
import { planAppend } from './timeseries/append.ts';
import { AppendRejected } from './timeseries/timeseries-db.ts';
import { tableReadSql } from './snapshot/files.ts';
import { validateSnapshot } from './snapshot/validate.ts';
import { buildSite as buildSiteNow } from './site.ts';
import { SITE_INPUTS_FILE } from './lib/site-inputs.ts';
import { openApiDocument, OPENAPI_PATH } from '../core/openapi/document.ts';
import { nginxConfig } from './nginx-config.ts';
import { DOWNLOADS_MEMORY_LIMIT, writeDownloads } from './downloads.ts';
import { writeQueryAssets } from './query-assets.ts';
import { parseProfile, PROFILE_ENV, type TimeseriesProfile } from '../core/timeseries/profile.ts';

const API_BUILDERS: Partial<Record<ApiName, (ctx: ApiBuildContext) => Promise<void>>> = {
  'radarnet-mirror-v3': buildRadar,
  'timeseries-v1': buildTimeseries,
};

/** The APIs this version can build. */
export const BUILDABLE_APIS = Object.keys(API_BUILDERS) as ApiName[];

export interface BuildResult {
  folder: string;
  files: number;
  bytes: number;
  seconds: number;
  /** Tree-relative paths in the order written, when asked for (benchmarks). */
  order: string[] | undefined;
  /** Seconds per phase (validation, databases, trees). */
  phases: Record<string, number>;
  /** CPU seconds per phase (Progress.cpuPhases: the process's, all its threads), beside the wall seconds of `phases`. */
  cpuPhases: Record<string, number>;
  /** Peak resident memory per phase, MB (Progress.rssPhases; empty where /proc is not Linux's). */
  rssPhases: Record<string, number>;
  /** Counts the APIs report (`timeseries charts rendered`, `timeseries charts from cache`) and the tree's (`tree files written`, `… kept`, `… removed`). */
  stats: Record<string, number>;
  /** The earlier tree the build started from; undefined for a build into an empty folder. */
  base: BaseTree | undefined;
}

export interface BuildOptions {
  snapshot: string;
  out: string;
  quiet?: boolean;
  /** Write only the endpoint's databases, no static tree. */
  dbOnly?: boolean;
  /** Database-only, with the big radar tables and the timeseries observations as hive-partitioned Parquet beside the databases (docs/scale-out.md). */
  partitioned?: boolean;
  /** Pre-render the configured charts (default true). */
  charts?: boolean;
  /** Build the documentation and browsing site into the tree (default true; never for a database-only build). */
  site?: boolean;
  recordOrder?: boolean;
  /**
   * Record the snapshot history and write the files made from it (history/, snapshots.json, the Atom feeds;
   * docs/changes.md). Default true. False gives a tree that depends on the snapshot alone, whatever was
   * published before (tests that compare the trees of builds with different histories).
   */
  history?: boolean;
  /** Build into an empty folder, not over an earlier build's tree. */
  full?: boolean;
  /**
   * Build the Timeseries API's data as a daily append over the served build when the snapshot allows it
   * (timeseries/append.ts; default true, never with `full`).
   */
  append?: boolean;
  /** See AtomicOptions.recycleAfterMs. */
  recycleAfterMs?: number;
  /**
   * The Timeseries API's profile (core/timeseries/profile.ts): the shapes the tree holds and the endpoint
   * answers. Default: SNAPCAT_TIMESERIES_PROFILE, else `spec`. Recorded in build.json as `timeseriesProfile`.
   */
  timeseriesProfile?: TimeseriesProfile;
  /**
   * DuckDB's memory limit for validation and the databases (default 1GB). What does not fit spills to a scratch
   * folder: the big tables are checked and written in passes sized to this limit (snapshot/key-passes.ts,
   * timeseries/timeseries-db.ts), so a build's memory does not grow with the snapshot.
   */
  memoryLimit?: string;
}

/** Site builds one at a time in a process: Astro's build reads process-wide settings (environment, folder). */
let siteBuilds: Promise<unknown> = Promise.resolve();
function buildSite(opts: Parameters<typeof buildSiteNow>[0]): ReturnType<typeof buildSiteNow> {
  const next = siteBuilds.then(() => buildSiteNow(opts));
  siteBuilds = next.catch(() => {});
  return next;
}

export async function build(opts: BuildOptions): Promise<BuildResult> {
  try {
    return await buildOnce(opts);
  } catch (e) {
    if (!(e instanceof AppendRejected)) throw e;
    // nothing was swapped in: the same build in full
    if (!opts.quiet) process.stderr.write(`${e.message}: building in full\n`);
    return await buildOnce({ ...opts, append: false });
  }
}

async function buildOnce(opts: BuildOptions): Promise<BuildResult> {
  if (opts.partitioned) opts = { ...opts, dbOnly: true };
  // an invalid profile stops the build before anything is read or written
  const timeseriesProfile = opts.timeseriesProfile === undefined ? parseProfile(process.env[PROFILE_ENV]) : parseProfile(opts.timeseriesProfile, 'timeseriesProfile');
  const t0 = performance.now();
  const progress = new Progress(process.stderr, opts.quiet ?? false);
  // DuckDB spills here; removed however the build ends (lib/scratch.ts: a killed build's by the next build)
  const scratch = makeScratch('build');
  const memoryLimit = opts.memoryLimit ?? '1GB';
  const opened: { instance?: DuckDBInstance; conn?: DuckDBConnection; recorder?: DuckDBConnection } = {};
  let sha256: WrittenSha256 | undefined;
  try {
    const instance = (opened.instance = await openDuckDB({ threads: 2, memoryLimit, tempDirectory: scratch }));
    const conn = (opened.conn = await instance.connect());
    const recorderConn = (opened.recorder = await instance.connect());
    // the build served when this one starts: its snapshot is the one this one's change set is against, and its
    // timeseries data the one a daily append starts from
    const previous = existsSync(opts.out) ? realpathSync(opts.out) : undefined;
    const plan = !(opts.full ?? false) && !(opts.partitioned ?? false) && (opts.append ?? true) ? planAppend(previous, resolve(opts.snapshot)) : 'a full build was asked for';
    const append = typeof plan === 'string' ? undefined : plan;
    if (append) progress.line(`daily append over ${append.previous}: ${append.added.length} new observation files, ${append.known.size} known`);
    progress.begin('validating snapshot');
    // within the snapshot's tables too: the table, the check, the pass and DuckDB's percentage (query-progress.ts)
    const snap = await validateSnapshot(resolve(opts.snapshot), conn, { ...(append ? { known: append.known } : {}), onProgress: (text) => progress.detail(text) });
    const timeseriesAppend = append && snap.manifest.apis.includes('timeseries-v1') ? append : undefined;
    for (const api of snap.manifest.apis) {
      if (!API_BUILDERS[api]) throw new Error(`snapshot ${snap.manifest.name} declares API ${api}, which this version of snapcat cannot build yet`);
    }
    let order: string[] | undefined;
    const stats: Record<string, number> = {};
    let base: BaseTree | undefined;
    // linking the served tree into the new folder (or recycling an older one) is a phase of its own
    progress.begin('base tree');
    const folder = await buildAtomically(
      opts.out,
      async (dir, from) => {
        base = from;
        const site = join(dir, 'site');
        const dataDir = join(dir, 'data');
        await mkdir(site, { recursive: true });
        await mkdir(dataDir, { recursive: true });
        if (from) progress.line(`building over the tree of ${from.from} (${from.how})`);
        const state = await TreeState.open(conn, recorderConn, from?.stateFolder);
        // every file's SHA-256 as it is written, for the manifest (tree-manifest.ts): a tree is not read back
        sha256 = opts.dbOnly ? undefined : await WrittenSha256.open(conn, recorderConn);
        const writer = new TreeWriter(site, progress, { recordOrder: opts.recordOrder ?? false, base: state.baseFiles, overBase: state.overBase, ...(sha256 ? { sha256 } : {}) });
        order = writer.order;
        const appended: ApiBuildContext['appended'] = {};
        for (const api of snap.manifest.apis) {
          await API_BUILDERS[api]!({
            conn,
            manifest: snap.manifest,
            tableSql: (t) => {
              const source = snap.sources[t];
              if (!source) throw new Error(`table ${t} was not validated`);
              return tableReadSql(source);
            },
            snapshotDir: snap.dir,
            buildDir: dir,
            dataDir,
            writer,
            state,
            progress,
            memoryLimit,
            writeTree: !opts.dbOnly,
            partitioned: opts.partitioned ?? false,
            charts: opts.charts ?? true,
            cacheDir: `${resolve(opts.out)}.cache`,
            stats,
            timeseriesProfile,
            ...(timeseriesAppend ? { timeseriesAppend } : {}),
            appended,
          });
        }
        const tree = await state.totals(writer);
        const buildInfo = { snapshot: snap.manifest, timeseriesProfile, files: tree.files, bytes: tree.bytes };
        await writeFile(join(dir, 'build.json'), JSON.stringify(buildInfo, null, 2) + '\n');
        // the snapshot and its change set against the served build (docs/changes.md), while the tree state's key
        // fingerprints are at hand
        const withHistory = opts.history ?? true;
        let history: SnapshotsDocument | undefined;
        if (withHistory) {
          progress.begin('snapshot history');
          const recorded = await recordHistory({ conn, folder: dir, previous, manifest: snap.manifest, ...(opts.dbOnly ? {} : { newKeysSql: state.keysSql() }) });
          history = recorded.document;
          stats['history seconds'] = recorded.seconds;
        }
        if (opts.dbOnly) {
          if (history) finishSnapshots(dir, history, undefined);
          return;
        }
        if (history) {
          progress.begin('feeds');
          stats['feeds'] = await writeFeeds(conn, writer, dir, history);
        }
        // The catalogue's tables as Parquet to query in place, and their index (downloads.ts, docs/downloads.md)
        const dl = await withMemoryCap(conn, DOWNLOADS_MEMORY_LIMIT, memoryLimit, () => writeDownloads({
          conn,
          apis: snap.manifest.apis,
          snapshot: snap.manifest,
          dataDir,
          buildDir: dir,
          writer,
          progress,
          baseFolder: state.baseFolder,
          scratch,
          ...(appended.observations ? { appended: appended.observations } : {}),
        }));
        await run(conn, `DROP TABLE IF EXISTS ${APPENDED_TABLE}`);
        stats['downloads written'] = dl.written;
        stats['downloads kept'] = dl.kept;
        stats['downloads tables from the append'] = dl.fromAppend.length;
        // The OpenAPI description of both APIs at a stable path of the tree (core/openapi/)
        writer.write(OPENAPI_PATH, JSON.stringify(openApiDocument(), null, 2) + '\n');
        // An nginx configuration serving the tree through the `out` link and passing the rest to the endpoint
        await writeFile(join(dir, 'nginx.conf'), nginxConfig({ site: join(resolve(opts.out), 'site') }));
        if (opts.site ?? true) {
          // Astro runs in this process and needs nothing of DuckDB: the downloads' buffers go back to the system
          await releaseBuffers(conn, memoryLimit);
          // DuckDB-WASM for the "Query in your browser" page (query-assets.ts)
          writeQueryAssets(writer);
          progress.begin('site: Astro');
          const built = await buildSite({ buildFolder: dir, quiet: true, writer, ...(previous && !(opts.full ?? false) ? { last: previous } : {}) });
          stats['site pages'] = built.pages;
          stats['site pages kept'] = built.reused ? built.pages : 0;
          for (const [part, s] of Object.entries(built.parts)) stats[`site ${part} seconds`] = s;
        } else {
          // a recycled folder's record of its older site, whose pages this build does not keep
          await rm(join(dir, SITE_INPUTS_FILE), { force: true });
        }
        progress.begin('tree state');
        let manifest: ManifestResult | undefined;
        const all = await state.finish(writer, dir, {
          path: MANIFEST_FILE,
          also: history ? [SNAPSHOTS_FILE] : [],
          write: async (filesSql) => {
            progress.begin('manifest');
            manifest = await writeTreeManifest(conn, recorderConn, writer, site, filesSql, dir, state.baseFolder);
            // snapshots.json names the manifest's digest, so it is the one file of the tree the manifest does not list
            if (history) writer.write(SNAPSHOTS_FILE, finishSnapshots(dir, history, manifest!.sha256));
            progress.begin('tree state saved');
          },
        });
        stats['manifest files hashed'] = manifest!.hashed;
        stats['manifest files hashed when written'] = manifest!.written;
        stats['manifest files reused'] = manifest!.reused;
        // build.json names the manifest's digest (the file itself lists the tree, build.json is beside it)
        await writeFile(join(dir, 'build.json'), JSON.stringify({ ...buildInfo, manifestSha256: manifest!.sha256 }, null, 2) + '\n');
        stats['tree files'] = all.files;
        stats['tree files written'] = writer.counts.written;
        stats['tree files kept'] = all.files - writer.counts.written;
        stats['tree files removed'] = writer.counts.removed;
      },
      { reuse: !(opts.full ?? false) && !opts.dbOnly, recycleAfterMs: opts.recycleAfterMs },
    );
    const seconds = (performance.now() - t0) / 1000;
    progress.done(`built ${snap.manifest.name}: ${progress.files} files, ${(progress.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s (${Math.round(progress.files / seconds)} files/s) -> ${opts.out}`);
    return { folder, files: progress.files, bytes: progress.bytes, seconds, order, phases: progress.phases, cpuPhases: progress.cpuPhases, rssPhases: progress.rssPhases, stats, base };
  } finally {
    progress.stop();
    // (a build that failed before its manifest leaves the SHA-256s' appender open: closed before its connection);
    // each close on its own, so that one that throws (a failed build's appender) leaves none open and no scratch
    for (const close of [() => sha256?.close(), () => opened.recorder?.closeSync(), () => opened.conn?.closeSync(), () => opened.instance?.closeSync()]) {
      try {
        close();
      } catch {
        // the build's own error, if any, is the one reported
      }
    }
    removeScratch(scratch);
  }
}

/** `npm run build`'s command line (lib/cli.ts: --help, and a bad option is one line and exit code 2). */
export const BUILD_CLI = {
  command: 'npm run build --',
  usage: '--snapshot DIR [--out dist] [--full] [--db-only] [--partitioned] [--no-charts] [--no-site] [--quiet]',
  summary: `Validates a snapshot, then builds it beside the last good build and swaps it in at the end (OUT is a link to
OUT.builds/<stamp>). A snapshot that fails validation, or a build that fails, writes nothing, leaves the last
good build served, and exits 1. Builds are incremental over the last build unless --full.`,
  options: {
    snapshot: { type: 'string', value: 'DIR', required: true, describe: 'the snapshot folder (snapshot.json and one Parquet file or folder per table)' },
    out: { type: 'string', value: 'DIR', default: 'dist', describe: 'the build: a link to the finished folder in DIR.builds/; DIR.cache/ keeps reusable charts' },
    full: { type: 'boolean', default: false, describe: 'build into an empty folder, not over the last build (no incremental build, no daily append)' },
    'db-only': { type: 'boolean', default: false, describe: 'write the databases only, no static tree: the endpoint answers every path by a query' },
    partitioned: { type: 'boolean', default: false, describe: 'database-only, with the big tables as hive-partitioned Parquet (docs/scale-out.md)' },
    'no-charts': { type: 'boolean', default: false, describe: 'do not pre-render the configured charts (no Chromium needed)' },
    'no-site': { type: 'boolean', default: false, describe: 'do not build the documentation and browsing site (Astro)' },
    quiet: { type: 'boolean', default: false, describe: 'no progress lines, only errors' },
  },
  env: {
    [PROFILE_ENV]: 'the Timeseries API profile built: spec (default) or 52north',
    SNAPCAT_HISTORY_KEEP: 'snapshots whose change sets are kept (default 30)',
    CHROMIUM_PATH: 'the browser that renders the charts (default: a system chromium, else the packed one)',
  },
  examples: ['npm run build -- --snapshot snapshots/demo --out dist', 'npm run build -- --snapshot /data/snapshots/2026-11-26 --out /srv/snapcat/dist --no-site --quiet'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  removeOnSignals();
  const { values } = commandLine(BUILD_CLI);
  try {
    await build({ snapshot: values.snapshot, out: values.out, quiet: values.quiet, dbOnly: values['db-only'], partitioned: values.partitioned, charts: !values['no-charts'], site: !values['no-site'], full: values.full });
  } catch (e) {
    console.error(`\nbuild failed, nothing written (the last good build is untouched): ${(e as Error).message}`);
    process.exit(1);
  }
}
