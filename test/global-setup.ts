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
    /** A timeseries-only demo (8 days from 2024-01-01, so the default week is full), and its build. */
    tsSnapshot: string;
    tsBuild: string;
  }
}

export default async function setup(project: TestProject) {
  // A folder of this run's own: test runs may overlap (several terminals, watch mode).
  const root = join(TEST_TMP, `run-${process.pid}`);
  const snapshot = join(root, 'demo-snapshot');
  const out = join(root, 'demo-dist');
  const tsSnapshot = join(root, 'ts-snapshot');
  const tsOut = join(root, 'ts-dist');
  await Promise.all([
    (async () => {
      await writeDemoSnapshot({ from: '2024-03-01', days: 2, seed: 7, out: snapshot, apis: ['radarnet-mirror-v3'], log: () => {} });
      await build({ snapshot, out, quiet: true });
    })(),
    (async () => {
      await writeDemoSnapshot({ from: '2024-01-01', days: 8, seed: 1, out: tsSnapshot, apis: ['timeseries-v1'], log: () => {} });
      await build({ snapshot: tsSnapshot, out: tsOut, quiet: true });
    })(),
  ]);
  project.provide('demoSnapshot', snapshot);
  project.provide('demoBuild', out);
  project.provide('tsSnapshot', tsSnapshot);
  project.provide('tsBuild', tsOut);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}
