/**
 * /metrics over `--workers N`: each endpoint process keeps its own registry, and a scrape lands on whichever
 * process node:cluster hands the connection to. That process asks the supervisor, which collects every worker's
 * registry with prom-client's AggregatorRegistry (over the cluster's IPC channel) and answers the sum: counters
 * and histograms summed, gauges summed too except the ages (the oldest) and what prom-client's default metrics
 * say otherwise (process start time omitted, Node version the first). A scrape therefore sees the endpoint as one,
 * whichever worker answers; a worker that does not answer within 5 s makes the scrape a 503.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'snapcat:cluster-metrics-request';
const ANSWER = 'snapcat:cluster-metrics-answer';
const TIMEOUT_MS = 6_000;

interface Request {
  type: typeof REQUEST;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the supervisor: answers the workers' requests for the whole cluster's metrics. */
export function answerClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Request>) => {
    if (message?.type !== REQUEST || message.id === undefined) return;
    const id = message.id;
    const reply = (a: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...a } satisfies Answer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (e: unknown) => reply({ error: (e as Error).message }),
    );
  });
}

let registered = false;
let nextId = 0;
const pending = new Map<number, { resolve: (text: string) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

/** In a worker: the registry the supervisor's AggregatorRegistry collects (the one endpoint of this process). */
export function reportToCluster(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  if (registered) return;
  registered = true;
  // constructing one is what makes prom-client answer the supervisor's requests in a worker
  new AggregatorRegistry();
  process.on('message', (message: Partial<Answer>) => {
    if (message?.type !== ANSWER || message.id === undefined) return;
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    clearTimeout(p.timer);
    if (message.text !== undefined) p.resolve(message.text);
    else p.reject(new Error(message.error ?? 'no metrics'));
  });
}

/** In a worker: every worker's metrics, summed by the supervisor. */
export function clusterMetricsText(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the supervisor did not answer'));
    }, TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    process.send!({ type: REQUEST, id } satisfies Request);
  });
}
