/**
 * Once per test run: a small demo snapshot, generated and built, shared by the integration tests
 * (read-only for them). Tests that break things work on copies.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeDemoSnapshot } from '../build-scripts/demo-snapshot.ts';
import { build } from '../build-scripts/build.ts';
import { TEST_TMP } from './helpers/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    demoSnapshot: string;
    demoBuild: string;
  }
}

export default async function setup(project: TestProject) {
  // A folder of this run's own: test runs may overlap (several terminals, watch mode).
  const root = join(TEST_TMP, `run-${process.pid}`);
  const snapshot = join(root, 'demo-snapshot');
  const out = join(root, 'demo-dist');
  await writeDemoSnapshot({ from: '2024-03-01', days: 2, seed: 7, out: snapshot, apis: ['radarnet-mirror-v3'], log: () => {} });
  await build({ snapshot, out, quiet: true });
  project.provide('demoSnapshot', snapshot);
  project.provide('demoBuild', out);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}
