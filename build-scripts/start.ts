/**
 * npm start: the whole job on the demo snapshot. Generates the demo snapshot if there is none
 * (.snapshots/demo), builds it if the current build is not of it or not in the timeseries profile asked for
 * (SNAPCAT_TIMESERIES_PROFILE, default spec), then serves it on PORT/HOST under the same supervisor as
 * `npm run serve` (server/main.ts: one endpoint process, replaced when it dies).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MANIFEST_FILE } from '../core/snapshot/table-schema.ts';
import { fileURLToPath } from 'node:url';
import { supervise } from '../lib/supervisor.ts';
import { parseProfile, PROFILE_ENV } from '../core/timeseries/profile.ts';
import { build, BUILDABLE_APIS } from './build.ts';
import { reasonToBuild } from './lib/start-plan.ts';
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
  const profile = parseProfile(process.env[PROFILE_ENV]);
  if (!existsSync(join(values.snapshot, MANIFEST_FILE))) {
    console.error(`no snapshot at ${values.snapshot}: generating the demo snapshot (30 days from 2024-01-01, seed 1)`);
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: values.snapshot, apis: BUILDABLE_APIS });
  }
  const manifest = readJson(join(values.snapshot, MANIFEST_FILE));
  const built = readJson(join(values.out, 'build.json')) as { snapshot?: unknown; timeseriesProfile?: unknown } | undefined;
  const reason = reasonToBuild(manifest, built, profile);
  if (reason !== undefined) {
    console.error(`building ${values.snapshot} into ${values.out} (timeseries profile ${profile}): ${reason}`);
    await build({ snapshot: values.snapshot, out: values.out, timeseriesProfile: profile });
  } else {
    console.error(`${values.out} is already a build of ${values.snapshot} (timeseries profile ${profile})`);
  }
  supervise(1, { exec: fileURLToPath(new URL('../server/main.ts', import.meta.url)), args: ['--build', values.out, '--port', values.port, '--host', values.host] });
} catch (e) {
  console.error(`npm start failed: ${(e as Error).message}`);
  process.exit(1);
}
