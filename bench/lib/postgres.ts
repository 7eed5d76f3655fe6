/**
 * A real PostgreSQL for the benchmarks: Debian's server binaries (`/usr/lib/postgresql/<version>/bin/`), found
 * or installed (`apt-get install postgresql`, as root, with no system service started), a fresh cluster
 * initdb'd into a folder of its own, started in the foreground on a Unix socket in that folder (no TCP), and
 * stopped by its own pid. PostgreSQL refuses to run as root: when this process is root, initdb and postgres
 * run as the `postgres` user (`runuser`), which then owns the folder.
 */
import { aptInstall, whyNoApt } from './debian.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresBinaries {
  /** The folder holding postgres, initdb, pg_ctl, psql. */
  bin: string;
  /** `PostgreSQL 15.14 (Debian 15.14-0+deb12u1)` */
  version: string;
  /** `found` or the apt-get command that installed it. */
  how: string;
}

/** The bin folder of the newest Debian PostgreSQL server installed, if any. */
export function findPostgres(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : undefined;
}

function versionOf(bin: string): string {
  const r = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  return r.stdout.trim().replace(/^postgres \(PostgreSQL\) /, 'PostgreSQL ') || 'PostgreSQL (unknown version)';
}

/**
 * Debian's PostgreSQL server, installed when missing (root and apt-get needed; an install that could run but
 * fails throws). RUNLEVEL=1 (and Docker's policy-rc.d where present) keeps the package from starting the
 * system cluster.
 */
export function ensurePostgres(): PostgresBinaries {
  const found = findPostgres();
  if (found) return { bin: found, version: versionOf(found), how: 'found' };
  const cannot = whyNoApt('PostgreSQL', 'postgresql');
  if (cannot) throw new Error(cannot);
  const { path, how } = aptInstall('PostgreSQL', [['postgresql', 'postgresql-contrib']], findPostgres, 600_000);
  return { bin: path, version: versionOf(path), how };
}

/** Settings for this machine (24 GiB, 2 cores): a read-mostly server, loaded without durability. */
export const BENCH_SETTINGS: Record<string, string> = {
  shared_buffers: '2GB',
  effective_cache_size: '16GB',
  work_mem: '64MB',
  maintenance_work_mem: '1GB',
  max_parallel_workers_per_gather: '2',
  max_parallel_maintenance_workers: '2',
  random_page_cost: '1.1', // SSD
  effective_io_concurrency: '200',
  jit: 'off', // compiling costs more than it saves on queries of milliseconds
  // loading: no durability needed for a throw-away cluster
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_wal_size: '8GB',
  checkpoint_timeout: '30min',
  autovacuum: 'off', // every table is loaded once, then VACUUM ANALYZEd; nothing changes after
  max_connections: '40',
  logging_collector: 'off',
  log_min_messages: 'warning',
};

export interface RunningPostgres {
  /** The socket folder: the `host` a client connects to. */
  host: string;
  port: number;
  user: string;
  database: string;
  version: string;
  dataDir: string;
  process: ChildProcess;
  /** A client config for pg. */
  client(extra?: pg.PoolConfig): pg.PoolConfig;
  /** Fast shutdown (SIGINT to the postmaster), then SIGQUIT if it lingers; removes the folder unless `keep`. */
  stop(opts?: { keep?: boolean }): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('running as root, but there is no postgres user to run PostgreSQL as (Debian\'s postgresql package creates it)');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/**
 * initdb into `<folder>/data` (the folder is emptied first) and start postgres on the socket `<folder>` and
 * `port`; resolves when it accepts connections, with a database `database` created. `reuse`: a data directory
 * already in the folder (a cluster an earlier run stopped with `stop({ keep: true })`) is started as it is.
 */
export async function startPostgres(opts: { bin: PostgresBinaries; folder: string; port: number; database?: string; settings?: Record<string, string>; reuse?: boolean }): Promise<RunningPostgres> {
  const { bin, folder, port } = opts;
  const database = opts.database ?? 'bench';
  const owner = postgresUser();
  // as the postgres user when root: PostgreSQL refuses to run as root
  const as = (cmd: string, args: string[]): [string, string[]] => (owner ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
  const dataDir = join(folder, 'data');
  if (!(opts.reuse && existsSync(join(dataDir, 'PG_VERSION')))) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    if (owner) chownSync(folder, owner.uid, owner.gid);
    const [icmd, iargs] = as(join(bin.bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
    const init = spawnSync(icmd, iargs, { encoding: 'utf8', cwd: '/' });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.stderr}\n${init.stdout}`);
  }
  const settings = { ...BENCH_SETTINGS, ...opts.settings, listen_addresses: '', unix_socket_directories: folder, port: String(port) };
  const [pcmd, pargs] = as(join(bin.bin, 'postgres'), ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])]);
  const child = spawn(pcmd, pargs, { stdio: ['ignore', 'ignore', 'pipe'], cwd: '/' });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => {
    log += d.toString();
    if (log.length > 100_000) log = log.slice(-50_000);
  });
  /** The postmaster's own pid (runuser stands between when root). */
  const postmasterPid = (): number | undefined => {
    try {
      return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  const signal = (sig: NodeJS.Signals) => {
    const pid = postmasterPid();
    try {
      if (pid) process.kill(pid, sig);
      else child.kill(sig);
    } catch {
      // already gone
    }
  };
  // never left running by a bench process that dies: SIGQUIT is PostgreSQL's immediate shutdown
  const orphanGuard = () => signal('SIGQUIT');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));

  const client = (extra: pg.PoolConfig = {}): pg.PoolConfig => ({ host: folder, port, user: 'postgres', database, ...extra });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}):\n${log}`);
    const c = new pg.Client(client({ database: 'postgres' }));
    try {
      await c.connect();
      const has = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (has.rowCount === 0) await c.query(`CREATE DATABASE ${database} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'`);
      await c.end();
      break;
    } catch (e) {
      await c.end().catch(() => undefined);
      if (Date.now() > deadline) {
        signal('SIGQUIT');
        throw new Error(`postgres did not accept connections: ${(e as Error).message}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    host: folder,
    port,
    user: 'postgres',
    database,
    version: bin.version,
    dataDir,
    process: child,
    client,
    async stop(o = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        signal('SIGINT'); // fast shutdown: ends the sessions, checkpoints, exits
        const t = setTimeout(() => signal('SIGQUIT'), 30_000);
        await exited(child);
        clearTimeout(t);
      }
      if (!o.keep) rmSync(folder, { recursive: true, force: true });
    },
  };
}
