/** Endpoints on port 0 over a build, for integration tests. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../server/main.ts';
import type { ChartRenderer } from '../../lib/chart-renderer.ts';
import type { Spooler } from '../../lib/spool.ts';

export type Served = Awaited<ReturnType<typeof serve>>;

export async function startEndpoint(build: string, opts: { liveOnly?: boolean; renderer?: ChartRenderer; watchMs?: number; queryTimeoutMs?: number; spooler?: Spooler } = {}): Promise<Served> {
  return serve({ build, port: 0, host: '127.0.0.1', ...opts });
}

/** Two endpoints over one build: one answering from the static tree, one by queries only; and the tree's folder. */
export async function startTreeAndLive(build: string): Promise<{ fromTree: Served; live: Served; site: string; close(): Promise<void> }> {
  const [fromTree, live] = await Promise.all([startEndpoint(build), startEndpoint(build, { liveOnly: true })]);
  return { fromTree, live, site: join(realpathSync(build), 'site'), close: async () => void (await Promise.all([fromTree.close(), live.close()])) };
}

export interface Got {
  status: number;
  type: string;
  headers: Headers;
  body: Buffer;
  text: string;
}

export async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, body, text: body.toString('utf8') };
}

/** Runs `fn` over items with at most `n` at once. */
export async function inParallel<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** GET `path` as JSON; anything but a 200 throws, naming the path and status. */
export async function json<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: { Accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}
