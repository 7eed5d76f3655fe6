/**
 * npm start: the whole job on the demo snapshot. Generates the demo snapshot if there is none
 * (.snapshots/demo), builds it if the current build is not of it or not in the timeseries profile asked for
 * (SNAPCAT_TIMESERIES_PROFILE, default spec), then serves it. The demo is published as two consecutive daily
 * snapshots: the day before (`<snapshot>-previous`, one day fewer) is built first and the demo over it, so the
 * snapshot history, the change API and the feeds have a day of changes (docs/changes.md). It then serves it on PORT/HOST under the same supervisor as
 * `npm run serve` (server/main.ts: one endpoint process, replaced when it dies).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, wholeNumber, type CliOption, type CliSpec } from '../lib/cli.ts';
import { MANIFEST_FILE } from '../core/snapshot/table-schema.ts';
import { fileURLToPath } from 'node:url';
import { supervise } from '../lib/supervisor.ts';
import { parseProfile, PROFILE_ENV } from '../core/timeseries/profile.ts';
import { build, BUILDABLE_APIS } from './build.ts';
import { reasonToBuild } from './lib/start-plan.ts';
import { writeDemoSnapshot } from './demo-snapshot.ts';
import { HISTORY_DIR, SNAPSHOTS_FILE } from './lib/snapshot-history.ts';

/** `npm start`'s command line (lib/cli.ts). */
export const START_CLI = {
  command: 'npm start --',
  usage: '[--snapshot .snapshots/demo] [--out dist] [--port 8080] [--host 127.0.0.1]',
  summary: `The whole job on the demo: generates the demo snapshot when there is none (30 days from 2024-01-01, seed 1, and
the day before), builds it when the build is not of it (the day before first, so the history has a day of
changes), then serves it as npm run serve does (one endpoint process, replaced when it dies).`,
  options: {
    snapshot: { type: 'string', value: 'DIR', default: '.snapshots/demo', describe: 'the snapshot to serve (the demo is generated there when missing)' },
    out: { type: 'string', value: 'DIR', default: 'dist', describe: 'the build' },
    port: { type: 'string', value: 'N', default: process.env['PORT'] ?? '8080', defaultText: '$PORT, else 8080', describe: 'the TCP port', check: wholeNumber(0, 65535) },
    host: { type: 'string', value: 'ADDRESS', default: process.env['HOST'] ?? '127.0.0.1', defaultText: '$HOST, else 127.0.0.1', describe: 'the address to listen on' },
  },
  env: { [PROFILE_ENV]: 'the Timeseries API profile built and served: spec (default) or 52north' },
  examples: ['npm start', 'PORT=9000 npm start'],
} as const satisfies CliSpec<Record<string, CliOption>>;

const { values } = commandLine(START_CLI);

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

try {
  const profile = parseProfile(process.env[PROFILE_ENV]);
  const previousSnapshot = `${values.snapshot}-previous`;
  let previousName: string | undefined;
  if (values.snapshot === '.snapshots/demo') {
    if (!existsSync(join(values.snapshot, MANIFEST_FILE)) || !existsSync(join(previousSnapshot, MANIFEST_FILE))) {
      console.error(`generating the demo snapshots: 30 days from 2024-01-01, seed 1 (${values.snapshot}), and the day before (${previousSnapshot})`);
      await writeDemoSnapshot({ from: '2024-01-01', days: 29, seed: 1, out: previousSnapshot, apis: BUILDABLE_APIS });
      await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: values.snapshot, apis: BUILDABLE_APIS });
    }
    previousName = (readJson(join(previousSnapshot, MANIFEST_FILE)) as { name?: string } | undefined)?.name;
  } else if (!existsSync(join(values.snapshot, MANIFEST_FILE))) {
    console.error(`no snapshot at ${values.snapshot}: generating the demo snapshot (30 days from 2024-01-01, seed 1)`);
    await writeDemoSnapshot({ from: '2024-01-01', days: 30, seed: 1, out: values.snapshot, apis: BUILDABLE_APIS });
  }
  const manifest = readJson(join(values.snapshot, MANIFEST_FILE));
  const built = readJson(join(values.out, 'build.json')) as { snapshot?: unknown; timeseriesProfile?: unknown } | undefined;
  const history = existsSync(values.out) ? (readJson(join(realpathSync(values.out), HISTORY_DIR, SNAPSHOTS_FILE)) as { snapshots?: { name?: unknown }[] } | undefined) : undefined;
  const reason = reasonToBuild(manifest, built, profile, previousName, history);
  if (reason !== undefined) {
    if (previousName !== undefined) {
      console.error(`building ${previousSnapshot} into ${values.out} (timeseries profile ${profile}): the day before the demo`);
      await build({ snapshot: previousSnapshot, out: values.out, timeseriesProfile: profile });
    }
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
