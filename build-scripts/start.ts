/**
 * npm start: the whole job on the demo snapshot. Generates the demo snapshot if there is none
 * (.snapshots/demo), builds it if the current build is not of it, then serves it on PORT/HOST.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MANIFEST_FILE } from '../core/snapshot/table-schema.ts';
import { serve } from '../server/main.ts';
import { build, BUILDABLE_APIS } from './build.ts';
import { writeDemoSnapshot } from './demo-snapshot.ts';

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: '.snapshots/demo' },
    out: { type: 'string', default: 'dist' },
    port: { type: 'string', default: process.env['PORT'] ?? '8080' },
    host: { type: 'string', default: process.env['HOST'] ?? '127.0.0.1' },
  },
});

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

try {
  if (!existsSync(join(values.snapshot, MANIFEST_FILE))) {
    console.error(`no snapshot at ${values.snapshot}: generating the demo snapshot (30 days from 2024-01-01, seed 1)`);
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: values.snapshot, apis: BUILDABLE_APIS });
  }
  const manifest = readJson(join(values.snapshot, MANIFEST_FILE));
  const built = readJson(join(values.out, 'build.json')) as { snapshot?: unknown } | undefined;
  if (JSON.stringify(built?.snapshot) !== JSON.stringify(manifest)) {
    await build({ snapshot: values.snapshot, out: values.out });
  } else {
    console.error(`${values.out} is already a build of ${values.snapshot}`);
  }
  const s = await serve({ build: values.out, port: Number(values.port), host: values.host });
  console.error(`snapcat serving ${s.build.manifest.name} on ${s.url}`);
  console.error(`  radar catalogue API: ${s.url}/radarnet/mirror/v3/ (and ${s.url}/superdarn/mirror/v3/, the path BAS scripts call)`);
  if (s.build.timeseries) console.error(`  timeseries API: ${s.url}/api/v1/`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`npm start failed: ${(e as Error).message}`);
  process.exit(1);
}
