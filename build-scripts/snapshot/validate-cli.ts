/**
 * Validate a snapshot folder from the command line:
 *
 *   npx node build-scripts/snapshot/validate-cli.ts DIR
 *
 * Prints `snapshot NAME (taken_at ...): valid, N tables, M rows` and exits 0,
 * or prints the problems one per line and exits 1 (2 on a usage error).
 */
import { openDuckDB } from '../../lib/duckdb.ts';
import { makeScratch, removeScratch } from '../lib/scratch.ts';
import { SnapshotInvalid, validateSnapshot } from './validate.ts';

async function main(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    console.error('usage: node build-scripts/snapshot/validate-cli.ts SNAPSHOT_DIR');
    return 2;
  }
  const dir = args[0] as string;
  // the build's settings (build.ts): 2 threads, 1 GB, spilling to a scratch folder removed however this ends
  const scratch = makeScratch('validate');
  const instance = await openDuckDB({ threads: 2, memoryLimit: '1GB', tempDirectory: scratch });
  const conn = await instance.connect();
  const started = performance.now();
  try {
    const snapshot = await validateSnapshot(dir, conn);
    const tables = Object.values(snapshot.tables);
    const rowCount = tables.reduce((sum, t) => sum + t.rows, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `snapshot ${snapshot.manifest.name} (taken_at ${snapshot.manifest.taken_at}): valid, ` +
        `${tables.length} tables, ${rowCount} rows (checked in ${seconds} s)`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof SnapshotInvalid)) throw error;
    const count = error.problems.length;
    console.error(`snapshot ${error.dir}: invalid, ${count} ${count === 1 ? 'problem' : 'problems'}:`);
    for (const problem of error.problems) console.error(`  ${problem}`);
    return 1;
  } finally {
    conn.closeSync();
    instance.closeSync();
    removeScratch(scratch);
  }
}

process.exitCode = await main(process.argv.slice(2));
