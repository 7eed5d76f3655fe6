/**
 * The supervisor of the endpoint's processes (node:cluster's primary), shared by `npm run serve` (server/main.ts)
 * and `npm start` (build-scripts/start.ts, which names server/main.ts as the workers' script, by path): it runs the
 * workers, replaces one that dies, and answers their requests for the whole cluster's metrics
 * (lib/cluster-metrics.ts).
 */
import cluster from 'node:cluster';
import { answerClusterMetrics } from './cluster-metrics.ts';

/** How often a worker may die within a minute before the supervisor gives up (a crash loop serves nobody). */
const MAX_RESTARTS_PER_MINUTE = 30;

/**
 * The supervisor: runs `workers` endpoint processes (cluster workers running `exec` with `args`; default this
 * script with its own arguments) and replaces one that dies at once, until SIGINT or SIGTERM stops them all. A
 * worker that dies before it listened, or more than MAX_RESTARTS_PER_MINUTE deaths in a minute, stops the
 * supervisor with exit code 1 (the worker said why).
 */
export function supervise(workers: number, worker?: { exec: string; args: string[] }): void {
  if (worker) cluster.setupPrimary({ exec: worker.exec, args: worker.args });
  let stopping = false;
  const listened = new Set<number>();
  const deaths: number[] = [];
  const fork = () => cluster.fork();
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
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!listened.has(w.id)) {
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
    console.error(`snapcat: worker ${w.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}
