/**
 * npm run serve -- [--build dist] [--port 8080] [--host 127.0.0.1] [--workers 1]   (PORT, HOST and SNAPCAT_WORKERS also honoured)
 *
 * Serves a build: the static tree and the live queries. The process started is a supervisor (node:cluster's
 * primary) that runs `--workers N` endpoint processes on one port (default 1): they share nothing but the build
 * folder, which each opens read-only and watches on its own, so N may be the number of cores. A worker that
 * dies is replaced at once (the port answers again within about a second); one that dies before it ever
 * listened (a build that cannot be opened) stops the supervisor with exit code 1 instead of a restart loop.
 * `npm start` runs the same supervisor over the build it made.
 * SNAPCAT_DUCKDB_THREADS sets each process's DuckDB threads (default 1); SNAPCAT_RENDER_TIMEOUT_MS a chart render's
 * time limit (default 15000).
 * The Timeseries API answers in the profile the build was made in (build.json `timeseriesProfile`): a
 * SNAPCAT_TIMESERIES_PROFILE that differs is reported, not applied (rebuild to change it); one that is no
 * profile stops the endpoint.
 */
import cluster from 'node:cluster';
import { realpathSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';
import { openServedBuild, type ServedBuild } from './served-build.ts';
import { ChartRenderer } from '../lib/chart-renderer.ts';
import { supervise } from '../lib/supervisor.ts';
import { commandLine, wholeNumber, type CliOption, type CliSpec } from '../lib/cli.ts';
import { parseProfile, PROFILE_ENV, type TimeseriesProfile } from '../core/timeseries/profile.ts';

export interface ServeOptions extends AppOptions {
  build: string;
  port: number;
  host: string;
  /** How often to look whether `build` (a link such as dist) points at a new build, ms; 0: never. */
  watchMs?: number;
  /** Time limit of a query until its answer starts (default 10 s; SNAPCAT_QUERY_TIMEOUT_MS). */
  queryTimeoutMs?: number;
  /** DuckDB threads per database (default 1, see PoolLimits.threads). */
  duckdbThreads?: number;
  /** Time limit of a chart render from the moment it is let in, ms (default 15 s; SNAPCAT_RENDER_TIMEOUT_MS); not used with `renderer`. */
  renderTimeoutMs?: number;
}

/**
 * Serves a build. When `build` is the link a build swaps (dist -> dist.builds/<stamp>), a new build is picked
 * up while serving: it is opened fully first, then new requests go to it; the old one answers the requests it
 * has and is closed when they are done. A new build that cannot be opened is reported and the old one kept.
 */
export async function serve(opts: ServeOptions) {
  const open = (folder: string) => openServedBuild(folder, 4, { ...(opts.queryTimeoutMs ? { queryTimeoutMs: opts.queryTimeoutMs } : {}), ...(opts.duckdbThreads ? { threads: opts.duckdbThreads } : {}) });
  const renderer = opts.renderer ?? new ChartRenderer(opts.renderTimeoutMs ? { timeoutMs: opts.renderTimeoutMs } : {});
  // undefined until the first build is open: the endpoint answers 503 meanwhile (/healthz says so)
  let opened: ServedBuild | undefined;
  const server = createApp(() => opened, { ...opts, renderer });
  const listening = () => new Promise<void>((resolve) => server.listen(opts.port, opts.host, resolve));
  // A single endpoint listens first, so a health check sees 503 while the build opens. A worker of --workers opens
  // first: until it listens, node:cluster hands its connections to the workers that answer.
  const listenFirst = !cluster.isWorker;
  if (listenFirst) await listening();
  try {
    opened = await open(realpathSync(opts.build));
  } catch (e) {
    if (listenFirst) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!opts.renderer) await renderer.close();
    throw e;
  }
  let build: ServedBuild = opened;
  let swapping = false;
  /** Builds that could not be opened, reported once each (the watch looks again every 2 s while one is linked). */
  const refused = new Set<string>();
  const retire = (old: ServedBuild) => {
    const t = setInterval(() => {
      if (old.inFlight > 0) return;
      clearInterval(t);
      old.close();
    }, 200);
  };
  const watch = async () => {
    if (swapping) return;
    swapping = true;
    let target: string | undefined;
    try {
      target = realpathSync(opts.build);
      if (target === build.folder || refused.has(target)) return;
      const next = await open(target);
      const old = build;
      build = opened = next;
      console.error(`snapcat now serving ${next.manifest.name} (taken at ${next.manifest.taken_at}) from ${target}`);
      retire(old);
    } catch (e) {
      const what = target ?? opts.build;
      if (refused.has(what)) return;
      refused.add(what);
      console.error(`snapcat: a new build at ${opts.build} (${what}) could not be opened, still serving ${build.folder}: ${firstLine(e)} (reported once for this build)`);
    } finally {
      swapping = false;
    }
  };
  const watchMs = opts.watchMs ?? 2000;
  const watcher = watchMs > 0 ? setInterval(() => void watch(), watchMs) : undefined;
  watcher?.unref();
  if (!listenFirst) await listening();
  const address = server.address() as AddressInfo;
  return {
    server,
    get build() {
      return build;
    },
    renderer,
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    async close() {
      if (watcher) clearInterval(watcher);
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!opts.renderer) await renderer.close();
      build.close();
    },
  };
}

/** The first line of an error's message (DuckDB's run over several lines), for one-line reports. */
export function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n').find((l) => l.trim() !== '')?.trim() ?? m;
}

/** A worker: serves the build, and stops when told to or when its supervisor is gone. */
export async function runWorker(opts: ServeOptions, profile: TimeseriesProfile | undefined): Promise<void> {
  let s: Awaited<ReturnType<typeof serve>>;
  try {
    s = await serve(opts);
  } catch (e) {
    // one clear line, no stack trace: the build cannot be served (corrupt, unreadable, missing, port taken)
    console.error(`snapcat: cannot serve ${opts.build}: ${firstLine(e)}`);
    process.exit(1);
  }
  console.error(`snapcat serving ${s.build.manifest.name} (taken at ${s.build.manifest.taken_at}) on ${s.url}${cluster.isWorker ? ` (worker ${process.pid})` : ''}`);
  if (!cluster.isWorker || cluster.worker?.id === 1) {
    console.error(`  radar catalogue: ${s.url}/radarnet/mirror/v3/ (and ${s.url}/superdarn/mirror/v3/, the path BAS scripts call)`);
    if (s.build.timeseries) console.error(`  timeseries API: ${s.url}/api/v1/ (profile ${s.build.timeseries.profile})`);
    if (s.build.timeseries && profile !== undefined && profile !== s.build.timeseries.profile) {
      console.error(`  ${PROFILE_ENV}=${profile} is not applied: ${opts.build} was built in profile ${s.build.timeseries.profile}, which it serves (build it again to change the profile)`);
    }
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // answers in flight may finish; a client that holds its connection open does not keep the process
    setTimeout(() => process.exit(0), 5000).unref();
    void s.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // a worker whose supervisor is gone (killed outright) stops too, instead of serving on unsupervised
  if (cluster.isWorker) process.on('disconnect', stop);
}

/** `npm run serve`'s command line (lib/cli.ts: --help, and a bad option is one line and exit code 2). */
export const SERVE_CLI = {
  command: 'npm run serve --',
  usage: '[--build dist] [--port 8080] [--host 127.0.0.1] [--workers 1]',
  summary: `Serves a build: the static tree and the live queries of both APIs, under a supervisor that replaces an
endpoint process that dies. Watches the build link: a new build is opened fully, then served (hot swap).`,
  options: {
    build: { type: 'string', value: 'DIR', default: 'dist', describe: 'the build (the link npm run build swaps)' },
    port: { type: 'string', value: 'N', default: process.env['PORT'] ?? '8080', defaultText: `$PORT, else 8080`, describe: 'the TCP port (0: any free port)', check: wholeNumber(0, 65535) },
    host: { type: 'string', value: 'ADDRESS', default: process.env['HOST'] ?? '127.0.0.1', defaultText: '$HOST, else 127.0.0.1', describe: 'the address to listen on' },
    workers: { type: 'string', value: 'N', default: process.env['SNAPCAT_WORKERS'] ?? '1', defaultText: '$SNAPCAT_WORKERS, else 1', describe: 'endpoint processes on the port (up to one per core; 1 to 64)', check: (v: string) => wholeNumber(1, 64)(v) === undefined ? undefined : 'must be a whole number from 1 to 64 (for example --workers 2)' },
  },
  env: {
    SNAPCAT_DUCKDB_THREADS: "each process's DuckDB threads (default 1)",
    SNAPCAT_QUERY_TIMEOUT_MS: "a radar query's time until its answer starts (default 10000)",
    SNAPCAT_RENDER_TIMEOUT_MS: "a chart render's time from the moment it is let in (default 15000)",
    SNAPCAT_SPOOL_DISK_MB: "temporary files of streamed answers per process (default 2048)",
    [PROFILE_ENV]: 'reported when it differs from the profile the build was made in (rebuild to change it)',
  },
  examples: ['npm run serve -- --build dist --port 8080', 'npm run serve -- --build /srv/snapcat/dist --host 0.0.0.0 --port 80 --workers 2'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  const { values } = commandLine(SERVE_CLI);
  let profile: TimeseriesProfile | undefined;
  try {
    profile = process.env[PROFILE_ENV] ? parseProfile(process.env[PROFILE_ENV]) : undefined;
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const workers = Number(values.workers);
  if (cluster.isPrimary) {
    if (workers > 1) console.error(`snapcat: ${workers} endpoint processes on port ${values.port}`);
    supervise(workers);
  } else {
    const queryTimeoutMs = Number(process.env['SNAPCAT_QUERY_TIMEOUT_MS']) || undefined;
    const duckdbThreads = Number(process.env['SNAPCAT_DUCKDB_THREADS']) || undefined;
    const renderTimeoutMs = Number(process.env['SNAPCAT_RENDER_TIMEOUT_MS']) || undefined;
    await runWorker({ build: values.build, port: Number(values.port), host: values.host, ...(queryTimeoutMs ? { queryTimeoutMs } : {}), ...(duckdbThreads ? { duckdbThreads } : {}), ...(renderTimeoutMs ? { renderTimeoutMs } : {}) }, profile);
  }
}
