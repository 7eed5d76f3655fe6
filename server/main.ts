/**
 * npm run serve -- [--build dist] [--port 8080] [--host 127.0.0.1]   (PORT and HOST also honoured)
 *
 * Serves a build: the static tree and the live queries.
 */
import { realpathSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';
import { openServedBuild } from './served-build.ts';
import { ChartRenderer } from '../lib/chart-renderer.ts';

export async function serve(opts: { build: string; port: number; host: string } & AppOptions) {
  const build = await openServedBuild(realpathSync(opts.build));
  const renderer = opts.renderer ?? new ChartRenderer();
  const server = createApp(() => build, { ...opts, renderer });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host, resolve));
  const address = server.address() as AddressInfo;
  return {
    server,
    build,
    renderer,
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    async close() {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!opts.renderer) await renderer.close();
      build.close();
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      build: { type: 'string', default: 'dist' },
      port: { type: 'string', default: process.env['PORT'] ?? '8080' },
      host: { type: 'string', default: process.env['HOST'] ?? '127.0.0.1' },
    },
  });
  const s = await serve({ build: values.build, port: Number(values.port), host: values.host });
  console.error(`snapcat serving ${s.build.manifest.name} (taken at ${s.build.manifest.taken_at}) on ${s.url}`);
  console.error(`  radar catalogue: ${s.url}/radarnet/mirror/v3/`);
  if (s.build.timeseries) console.error(`  timeseries API: ${s.url}/api/v1/`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
