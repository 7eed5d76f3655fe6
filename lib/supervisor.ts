/**
 * The supervisor of the endpoint's processes (node:cluster's primary), shared by `npm run serve` (server/main.ts)
 * and `npm start` (build-scripts/start.ts, which names server/main.ts as the workers' script, by path): it runs the
 * workers, replaces one that dies, and answers their requests for the whole cluster's metrics
 * (lib/cluster-metrics.ts).
 */
import cluster from 'node:cluster';
import { answerClusterMetrics } from './cluster-metrics.ts';
import { openSharedFolder, removeSharedFolder, SHARED_ANSWERS_ENV, SHARED_BUDGET, sweepSharedFolder } from './shared-answers-folder.ts';

/** How often the shared answers' folder is brought back within its budget (ms). */
const SWEEP_EVERY_MS = 2000;

/** How often a worker may die within a minute before the supervisor gives up (a crash loop serves nobody). */
const MAX_RESTARTS_PER_MINUTE = 30;

/**
 * The supervisor: runs `workers` endpoint processes (cluster workers running `exec` with `args`; default this
 * script with its own arguments) and replaces one that dies at once, until SIGINT or SIGTERM stops them all. A
 * worker that exits on its own before it listened, or more than MAX_RESTARTS_PER_MINUTE deaths in a minute, stops
 * the supervisor with exit code 1 (the worker said why); one killed by a signal before it listened is replaced.
 */
export function supervise(workers: number, worker?: { exec: string; args: string[] }): void {
  if (worker) cluster.setupPrimary({ exec: worker.exec, args: worker.args });
  let stopping = false;
  const listened = new Set<number>();
  const deaths: number[] = [];
  /** When each worker was forked (ms), for the line that reports its death. */
  const born = new Map<number, number>();
  // more than one process: the answers each holds are shared with the others (server/shared-answers.ts)
  const shared = workers > 1 ? openSharedFolder(SHARED_BUDGET) : undefined;
  if (shared) {
    setInterval(() => sweepSharedFolder(shared.dir, shared.budget), SWEEP_EVERY_MS).unref();
    process.on('exit', () => removeSharedFolder(shared.dir));
  }
  const fork = () => {
    const w = cluster.fork(shared ? { [SHARED_ANSWERS_ENV]: shared.dir } : {});
    born.set(w.id, Date.now());
    return w;
  };
  answerClusterMetrics();
  for (let i = 0; i < workers; i++) fork();
  cluster.on('listening', (w) => listened.add(w.id));
  const stop = (code: number) => {
    stopping = true;
    process.exitCode = code;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (born.get(w.id) ?? Date.now());
    born.delete(w.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // a worker that ended on its own before it listened cannot start (a bad build, a taken port): stop; one killed
    // from outside before it listened (kill -9, the OOM killer while it opened the build) is replaced as any other
    if (!listened.has(w.id) && signal === null) {
      stop(1);
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! < now - 60_000) deaths.shift();
    if (deaths.length > MAX_RESTARTS_PER_MINUTE) {
      console.error(`snapcat: ${deaths.length} endpoint processes died within a minute; stopping`);
      stop(1);
      return;
    }
    console.error(`snapcat: ${whyExited(w.process.pid, code, signal, lived)}; starting another`);
    fork();
  });
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

/**
 * One line for a worker's death: its exit code or the signal that killed it, how long it lived, and where its own
 * account is. A worker writes to the supervisor's stderr, so an uncaught exception's stack, or V8's "heap out of
 * memory", is in the lines just above; a signal names who ended it (SIGKILL: the kernel's OOM killer or an
 * operator; SIGABRT: V8 giving up, as on a heap out of memory).
 */
export function whyExited(pid: number | undefined, code: number | null, signal: string | null, livedMs: number): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? '?'}`;
  const why = signal === 'SIGKILL' ? ' (from outside: the kernel\'s OOM killer or kill -9)' : signal || code ? ' (its error, if it wrote one, is above)' : '';
  return `endpoint process ${pid ?? '?'} ${how} after ${(livedMs / 1000).toFixed(1)} s${why}`;
}
