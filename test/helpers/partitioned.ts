/** The shared demo catalogue as a partitioned build, for the tests of `build --partitioned`. */
import { rmSync } from 'node:fs';
import { build } from '../../build-scripts/build.ts';
import { partitionSnapshot } from '../../build-scripts/snapshot/partition.ts';
import { runTmp } from './paths.ts';

/**
 * The demo snapshot partitioned (`npm run partition-snapshot`) into `<name>-snapshot` and built `--partitioned`
 * into `<name>-build`, both in this test run's folder; returns the build's `out`.
 */
export async function partitionedDemoBuild(demoSnapshot: string, name: string): Promise<string> {
  const snapshot = runTmp(demoSnapshot, `${name}-snapshot`);
  rmSync(snapshot, { recursive: true, force: true });
  await partitionSnapshot({ snapshot: demoSnapshot, out: snapshot });
  const out = runTmp(demoSnapshot, `${name}-build`);
  await build({ snapshot, out, quiet: true, partitioned: true });
  return out;
}
