/**
 * Validate a snapshot folder from the command line:
 *
 *   npm run validate -- DIR      (node build-scripts/snapshot/validate-cli.ts DIR)
 *
 * Prints `snapshot NAME (taken_at ...): valid, N tables, M rows` and exits 0,
 * or prints the problems one per line and exits 1 (2 on a usage error; --help: lib/cli.ts).
 */
import { commandLine, type CliOption, type CliSpec } from '../../lib/cli.ts';
import { openDuckDB } from '../../lib/duckdb.ts';
import { makeScratch, removeOnSignals, removeScratch } from '../../lib/scratch.ts';
import { Progress } from '../lib/progress.ts';
import { SnapshotInvalid, validateSnapshot } from './validate.ts';

export const VALIDATE_CLI = {
  command: 'npm run validate --',
  usage: '[--quiet] SNAPSHOT_DIR',
  summary: `Checks a snapshot as a build does before it builds (docs/snapshot-format.md): the manifest, every table's file,
its columns and types, then every row (nulls, patterns, rules, unique keys, references), with DuckDB's memory
bounded at 1 GB. Valid: one line on stdout, exit 0. Invalid: every problem of the first failing stage on stderr,
each naming the file, the column and the first bad row, exit 1.`,
  options: {
    quiet: { type: 'boolean', default: false, describe: 'no progress on stderr (the table, the check, its pass and percentage, redrawn on a terminal, every 5 s to a pipe)' },
  },
  positionals: { names: ['SNAPSHOT_DIR'], describe: 'the snapshot folder (snapshot.json and one Parquet file or folder per table)', min: 1, max: 1 },
  env: { TMPDIR: 'where DuckDB spills (snapcat-validate-<pid>-…, removed at the end; default /tmp)' },
  examples: ['npm run validate -- snapshots/demo'],
} as const satisfies CliSpec<Record<string, CliOption>>;

async function main(): Promise<number> {
  const { values, positionals } = commandLine(VALIDATE_CLI);
  const dir = positionals[0]!;
  const progress = new Progress(process.stderr, values.quiet);
  // the build's settings (build.ts): 2 threads, 1 GB, spilling to a scratch folder removed however this ends
  const scratch = makeScratch('validate');
  const instance = await openDuckDB({ threads: 2, memoryLimit: '1GB', tempDirectory: scratch });
  const conn = await instance.connect();
  const started = performance.now();
  try {
    progress.begin(`validating ${dir}`);
    const snapshot = await validateSnapshot(dir, conn, { onProgress: (text) => progress.detail(text) });
    progress.clear();
    const tables = Object.values(snapshot.tables);
    const rowCount = tables.reduce((sum, t) => sum + t.rows, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `snapshot ${snapshot.manifest.name} (taken_at ${snapshot.manifest.taken_at}): valid, ` +
        `${tables.length} tables, ${rowCount} rows (checked in ${seconds} s)`,
    );
    return 0;
  } catch (error) {
    progress.clear();
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

removeOnSignals();
process.exitCode = await main();
