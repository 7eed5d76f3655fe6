/**
 * Hive-partitioned snapshots: a table may be a folder `<table>/year=YYYY/radar=CODE/*.parquet` instead of
 * `<table>.parquet`. Validation reads either form and names the folder and the file in its problems; the build
 * of a partitioned copy of the demo snapshot writes the same radar tree, byte for byte.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import path, { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { partitionSnapshot } from '../../build-scripts/snapshot/partition.ts';
import { SnapshotInvalid, validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { sqlString } from '../../lib/duckdb.ts';
import { runTmp } from '../helpers/paths.ts';
import { TMP_ROOT, mutate, writeRadarFixture, type FixtureMutation } from '../helpers/radar-fixture.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const BIG = ['files', 'transfers', 'transfer_instances', 'temporal_coverage'];

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});
afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

async function problemsOf(dir: string): Promise<string[]> {
  const error = await validateSnapshot(dir, conn).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SnapshotInvalid);
  return (error as SnapshotInvalid).problems;
}

/** The radar fixture (test/helpers/radar-fixture.ts), optionally broken, then partitioned by year and radar into `<name>`. */
async function partitionedFixture(name: string, mutation: FixtureMutation = {}, under = 'partitioned-fixtures'): Promise<string> {
  const flat = await writeRadarFixture(conn, `${under}/${name}.flat`, mutation);
  const out = path.join(TMP_ROOT, under, name);
  rmSync(out, { recursive: true, force: true });
  await partitionSnapshot({ snapshot: flat, out }, conn);
  return out;
}

describe('validating a partitioned snapshot', () => {
  test('the partitioned fixture is valid: each big table a folder of year=/radar= folders', async () => {
    const dir = await partitionedFixture('valid');
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['year=2024']);
    expect(readdirSync(join(dir, 'files', 'year=2024')).sort()).toEqual(['radar=hal', 'radar=sas']);
    const snapshot = await validateSnapshot(dir, conn);
    expect(snapshot.tables.files).toEqual({ file: join(dir, 'files'), rows: 3 });
    expect(snapshot.tables.transfer_instances?.rows).toBe(3);
    expect(snapshot.tables.radars).toEqual({ file: join(dir, 'radars.parquet'), rows: 2 });
  });

  test('a bad value names the folder, the file below it and the row in that file', async () => {
    const dir = await partitionedFixture('bad checksum', mutate.setValue('files', 'checksum', "'nothex'", 'id = 2'));
    const [first] = await problemsOf(dir);
    expect(first).toMatch(/^files\/: column `checksum` row [12] of year=2024\/radar=sas\/data_0\.parquet \(id=2\): "nothex" does not match/);
  });

  test('keys are unique across partitions, and references are checked from every file', async () => {
    const dir = await partitionedFixture('duplicate across partitions');
    // A second file in another radar's folder, repeating id 1 with a radar that does not exist.
    const sas = join(dir, 'files', 'year=2024', 'radar=sas', 'data_0.parquet');
    await conn.run(
      `COPY (SELECT * REPLACE (99 AS radar_id) FROM read_parquet(${sqlString(sas)}) WHERE id = 1) TO ${sqlString(join(dir, 'files', 'year=2024', 'radar=hal', 'late.parquet'))} (FORMAT parquet)`,
    );
    const problems = await problemsOf(dir);
    expect(problems).toContain('files/: duplicate id 1 (rows 1 of year=2024/radar=hal/late.parquet and 1 of year=2024/radar=sas/data_0.parquet)');
    expect(problems).toContain('files/: column `radar_id` row 1 of year=2024/radar=hal/late.parquet (id=1): 99 is not an id in radars.parquet');
  });

  test('a table both as a file and as a folder, or a folder without Parquet files, is a problem', async () => {
    const both = await partitionedFixture('both forms');
    await copyFile(join(`${both}.flat`, 'files.parquet'), join(both, 'files.parquet'));
    expect(await problemsOf(both)).toEqual([`snapshot ${both}: both files.parquet and a folder files/ hold table \`files\`; keep one`]);

    const empty = await partitionedFixture('empty folder');
    rmSync(join(empty, 'transfers'), { recursive: true });
    mkdirSync(join(empty, 'transfers', 'year=2024'), { recursive: true });
    await writeFile(join(empty, 'transfers', 'README'), 'no data here\n');
    expect(await problemsOf(empty)).toEqual([`snapshot ${empty}: folder transfers/ holds no Parquet files (table \`transfers\`, needed by radarnet-mirror-v3)`]);
  });

  test('a partition key that is a described column gives that column; a folder above named like one is refused', async () => {
    // files partitioned by radar_id, written without the column: its values come from the folder names.
    const dir = await writeRadarFixture(conn, 'partitioned-fixtures/by radar_id');
    await conn.run(`COPY (SELECT * FROM read_parquet(${sqlString(join(dir, 'files.parquet'))})) TO ${sqlString(join(dir, 'files'))} (FORMAT parquet, PARTITION_BY (radar_id))`);
    rmSync(join(dir, 'files.parquet'));
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['radar_id=1', 'radar_id=2']);
    await expect(validateSnapshot(dir, conn)).resolves.toMatchObject({ tables: { files: { rows: 3 } } });

    // DuckDB reads `id=7` above the snapshot as column `id` of every partitioned table's rows.
    const clash = await partitionedFixture('snapshot', {}, 'partitioned-fixtures/id=7');
    const problems = await problemsOf(clash);
    expect(problems[0]).toBe('files/: a folder `id=...` above the snapshot would be read as column `id` of every row (hive partitioning); move the snapshot');
    expect(problems.every((p) => /^(files|transfers|temporal_coverage)\/: a folder `id=\.\.\.`/.test(p))).toBe(true);
  });
});

describe('a partitioned copy of the demo snapshot', () => {
  let partitioned: string;

  beforeAll(async () => {
    partitioned = runTmp(inject('demoSnapshot'), 'partitioned-demo');
    rmSync(partitioned, { recursive: true, force: true });
    await partitionSnapshot({ snapshot: inject('demoSnapshot'), out: partitioned });
  });

  test('validates, with the rows of the unpartitioned snapshot', async () => {
    const [flat, part] = [await validateSnapshot(inject('demoSnapshot'), conn), await validateSnapshot(partitioned, conn)];
    for (const [name, table] of Object.entries(flat.tables)) expect(part.tables[name]?.rows, name).toBe(table.rows);
    for (const name of BIG) {
      expect(part.tables[name]?.file).toBe(join(partitioned, name));
      expect(readdirSync(join(partitioned, name)).every((e) => /^year=\d{4}$/.test(e))).toBe(true);
    }
  });

  test('its build writes the same radar tree, byte for byte', async () => {
    const out = runTmp(inject('demoSnapshot'), 'partitioned-demo-dist');
    await build({ snapshot: partitioned, out, quiet: true, site: false, charts: false, full: true });
    const tree = (build: string) => join(build, 'site', 'radarnet');
    const diff = await run('diff', ['-r', '-q', tree(inject('demoBuild')), tree(out)]).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    expect(diff).toBe('');
    expect(readdirSync(join(tree(out), 'mirror', 'v3', 'files')).length).toBeGreaterThan(1000);
  }, 300_000);

  test('npm run partition-snapshot -- --by radar partitions by radar only', async () => {
    const out = runTmp(inject('demoSnapshot'), 'partitioned-by-radar');
    rmSync(out, { recursive: true, force: true });
    await run(process.execPath, ['build-scripts/snapshot/partition.ts', '--snapshot', inject('demoSnapshot'), '--out', out, '--by', 'radar'], { cwd: ROOT });
    expect(readdirSync(join(out, 'files')).every((e) => /^radar=[a-z]{3}$/.test(e))).toBe(true);
    await expect(validateSnapshot(out, conn)).resolves.toMatchObject({ tables: { files: { file: join(out, 'files') } } });
    const usage = await run(process.execPath, ['build-scripts/snapshot/partition.ts', '--snapshot', inject('demoSnapshot'), '--out', `${out}-2`, '--by', 'month'], { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(usage.code).toBe(2);
    // a bad option is one line naming it, with the hint to --help (lib/cli.ts)
    expect(usage.stderr).toMatch(/^npm run partition-snapshot: option '--by': .*'month'.*--help\)\n$/);
  }, 120_000);
});
