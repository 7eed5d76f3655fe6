import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { typeFitsKind } from '../../build-scripts/snapshot/columns.ts';
import { SnapshotInvalid, validateSnapshot } from '../../build-scripts/snapshot/validate.ts';
import { RADAR_TABLES } from '../../core/snapshot/radar-tables.ts';
import type { TableSpec } from '../../core/snapshot/table-schema.ts';
import { RADAR_FIXTURE_MANIFEST, TMP_ROOT, mutate, writeRadarFixture, type FixtureMutation } from '../helpers/radar-fixture.ts';

/** Fixture folders live under a name with both kinds of quotes, to prove paths are bound, not spliced into SQL. */
const ROOT = `validate-snapshot it's "quoted"`;
const fixtureDir = (name: string) => path.join(TMP_ROOT, ROOT, name);

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  await rm(path.join(TMP_ROOT, ROOT), { recursive: true, force: true });
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

async function problemsOf(dir: string, tables?: Record<'radarnet-mirror-v3' | 'timeseries-v1', TableSpec[]>): Promise<SnapshotInvalid> {
  const error = await validateSnapshot(dir, conn, tables ? { tables } : {}).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SnapshotInvalid);
  const invalid = error as SnapshotInvalid;
  expect(invalid.problems.length).toBeGreaterThan(0);
  expect(invalid.message.split('\n')[0]).toBe(invalid.problems[0]);
  expect(invalid.message).toBe(invalid.problems.join('\n'));
  for (const problem of invalid.problems) expect(problem).not.toMatch(/\n|\s+at \S+:\d+/);
  return invalid;
}

describe('validateSnapshot on the radar fixture', () => {
  test('the valid fixture passes', async () => {
    const dir = await writeRadarFixture(conn, `${ROOT}/valid`);
    const snapshot = await validateSnapshot(path.relative(process.cwd(), dir), conn);
    expect(snapshot.dir).toBe(dir);
    expect(path.isAbsolute(snapshot.dir)).toBe(true);
    expect(snapshot.manifest).toEqual(RADAR_FIXTURE_MANIFEST);
    expect(Object.keys(snapshot.tables).sort()).toEqual(RADAR_TABLES.map((t) => t.name).sort());
    expect(snapshot.tables.files).toEqual({ file: path.join(dir, 'files.parquet'), rows: 3 });
    expect(snapshot.tables.countries?.rows).toBe(2);
  });

  test('a backslash (no control character) in a file name and path is accepted', async () => {
    const name = "'20240101.0200.00.sas.a\\odd.rawacf.bz2'";
    const dir = await writeRadarFixture(
      conn,
      `${ROOT}/backslash`,
      mutate.all(mutate.setValue('files', 'filename', name, 'id = 2'), mutate.setValue('files', 'file_path', `'/sddata/raw/2024/01/' || ${name}`, 'id = 2')),
    );
    await expect(validateSnapshot(dir, conn)).resolves.toMatchObject({ tables: { files: { rows: 3 } } });
  });

  test('paths are taken literally: no hive partition columns, no globbing', async () => {
    const dir = await writeRadarFixture(conn, `${ROOT}/id=7 [ab]*?`);
    await expect(validateSnapshot(dir, conn)).resolves.toMatchObject({ tables: { files: { rows: 3 } } });
  });

  test('every compatible physical type is accepted', async () => {
    const dir = await writeRadarFixture(
      conn,
      `${ROOT}/compatible-types`,
      mutate.all(
        mutate.changeType('files', 'id', 'UBIGINT'),
        mutate.changeType('files', 'file_size', 'UINTEGER'),
        mutate.changeType('files', 'status_flag', 'TINYINT'),
        mutate.changeType('files', 'file_start_datetime', 'TIMESTAMP_MS'),
        mutate.changeType('files', 'file_end_datetime', 'TIMESTAMP_NS'),
        mutate.changeType('files', 'last_mod', 'TIMESTAMP_S'),
        mutate.changeType('files', 'last_updated', 'TIMESTAMPTZ'),
        mutate.changeType('radars', 'latitude', 'DECIMAL(9,4)'),
        mutate.changeType('radars', 'longitude', 'FLOAT'),
        mutate.changeType('radars', 'field_of_view', 'JSON'),
        mutate.changeType('transfer_instances', 'file_id', 'SMALLINT'),
        // Extra columns are ignored.
        { tables: { countries: (s) => `SELECT *, 42 AS extra FROM (${s})` } },
      ),
    );
    await expect(validateSnapshot(dir, conn)).resolves.toMatchObject({ tables: { files: { rows: 3 } } });
  });

  const cases: { name: string; mutation: FixtureMutation; first: string | RegExp }[] = [
    // Stage 1: snapshot.json.
    { name: 'snapshot.json not JSON', mutation: mutate.manifest('{"format_version": 1,'), first: /[/\\]snapshot\.json: not valid JSON \(/ },
    { name: 'snapshot.json an array', mutation: mutate.manifest([]), first: /snapshot\.json: expected a JSON object, got \[\]$/ },
    {
      name: 'format_version 2',
      mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, format_version: 2 }),
      first: /snapshot\.json: field `format_version`: expected 1, got 2/,
    },
    { name: 'name empty', mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, name: ' ' }), first: /snapshot\.json: field `name`: must not be empty$/ },
    {
      name: 'taken_at not UTC',
      mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, taken_at: '2024-01-02T00:00:00+01:00' }),
      first: /snapshot\.json: field `taken_at`: expected an ISO 8601 UTC instant .*, got "2024-01-02T00:00:00\+01:00"$/,
    },
    {
      name: 'taken_at missing',
      mutation: mutate.manifest({ format_version: 1, name: 'x', apis: ['radarnet-mirror-v3'] }),
      first: /snapshot\.json: field `taken_at`: missing$/,
    },
    { name: 'apis empty', mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, apis: [] }), first: /snapshot\.json: field `apis`: must name at least one API/ },
    {
      name: 'apis unknown',
      mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, apis: ['radarnet-mirror-v2'] }),
      first: /snapshot\.json: field `apis\[0\]`: unknown API "radarnet-mirror-v2"/,
    },
    {
      name: 'apis duplicated',
      mutation: mutate.manifest({ ...RADAR_FIXTURE_MANIFEST, apis: ['radarnet-mirror-v3', 'radarnet-mirror-v3'] }),
      first: /snapshot\.json: field `apis\[1\]`: "radarnet-mirror-v3" is listed twice$/,
    },
    {
      name: 'snapshot.json missing',
      mutation: { after: (dir) => rm(path.join(dir, 'snapshot.json')) },
      first: `snapshot ${fixtureDir('snapshot.json missing')}: missing snapshot.json`,
    },
    // Stage 2: files.
    {
      name: 'table dropped',
      mutation: mutate.dropTable('files'),
      first: `snapshot ${fixtureDir('table dropped')}: missing table file files.parquet (table \`files\`, needed by radarnet-mirror-v3)`,
    },
    { name: 'file truncated', mutation: mutate.truncateFile('files'), first: /^files\.parquet: cannot be read as Parquet: .*magic bytes.*'files\.parquet'$/ },
    { name: 'file garbage', mutation: mutate.garbageFile('radars'), first: /^radars\.parquet: cannot be read as Parquet: \S.*$/ },
    // Stage 4, but the file is broken: a readable footer over unreadable pages.
    { name: 'data pages corrupt', mutation: mutate.corruptPages('files'), first: /^files\.parquet: cannot be read: \S.*$/ },
    // Stage 3: columns.
    { name: 'column renamed', mutation: mutate.renameColumn('files', 'checksum', 'chksum'), first: 'files.parquet: missing column `checksum` (text)' },
    {
      name: 'column type changed',
      mutation: mutate.changeType('files', 'file_size', 'VARCHAR'),
      first: 'files.parquet: column `file_size` has type VARCHAR, expected integer (any integer type)',
    },
    {
      name: 'timestamp as date',
      mutation: mutate.changeType('transfers', 'start_datetime', 'DATE'),
      first: /^transfers\.parquet: column `start_datetime` has type DATE, expected timestamp \(/,
    },
    // Stage 4: rows.
    { name: 'duplicate id', mutation: mutate.setValue('files', 'id', '1', 'id = 2'), first: 'files.parquet: duplicate id 1 (rows 1 and 2)' },
    {
      name: 'duplicate composite key',
      mutation: mutate.setValue('transfer_instances', 'file_id', '1', 'file_id = 2'),
      first: 'transfer_instances.parquet: duplicate key (file_id=1, transfer_id=1) (rows 1 and 2)',
    },
    {
      name: 'duplicate unique text',
      mutation: mutate.setValue('countries', 'country_name', "'Canada'", 'id = 1'),
      first: 'countries.parquet: duplicate country_name "Canada" (rows 1 and 2)',
    },
    {
      name: 'dangling reference',
      mutation: mutate.setValue('transfer_instances', 'file_id', '99999', 'file_id = 3'),
      first: 'transfer_instances.parquet: column `file_id` row 3 (file_id=99999, transfer_id=2): 99999 is not an id in files.parquet',
    },
    {
      name: 'null in non-nullable',
      mutation: mutate.setValue('files', 'file_path', 'NULL', 'id = 2'),
      first: 'files.parquet: column `file_path` row 2 (id=2): null in a non-nullable column',
    },
    { name: 'null key', mutation: mutate.setValue('countries', 'id', 'NULL', 'id = 2'), first: 'countries.parquet: column `id` row 2 (id=NULL): null in a key column' },
    {
      name: 'pattern broken',
      mutation: mutate.setValue('files', 'checksum', "'ABC'", 'id = 3'),
      first: 'files.parquet: column `checksum` row 3 (id=3): "ABC" does not match ^[0-9a-f]{40}$',
    },
    {
      name: 'json broken',
      mutation: mutate.setValue('radars', 'field_of_view', `'{"type": "Polygon", ' || repeat('x', 200)`, 'id = 1'),
      first: /^radars\.parquet: column `field_of_view` row 1 \(id=1\): "\{\\"type\\": \\"Polygon\\", x+…" is not valid JSON$/,
    },
    // NUL in any text, control characters in names, paths, codes and labels
    {
      name: 'NUL in a description',
      mutation: mutate.setValue('file_status', 'description', "'Blacklisted' || chr(0) || 'x'", 'id = 1'),
      first: 'file_status.parquet: column `description` row 2 (id=1): "Blacklisted\\u0000x" holds a NUL character',
    },
    {
      name: 'LF in a file name',
      mutation: mutate.setValue('files', 'filename', "'20240101.0200.00.sas.a' || chr(10) || '.rawacf.bz2'", 'id = 2'),
      first: 'files.parquet: column `filename` row 2 (id=2): "20240101.0200.00.sas.a\\n.rawacf.bz2" holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label',
    },
    {
      name: 'CR in a path',
      mutation: mutate.setValue('transfer_logs', 'file_path', "'/sddata/logs/2.log' || chr(13)", 'id = 2'),
      first: 'transfer_logs.parquet: column `file_path` row 2 (id=2): "/sddata/logs/2.log\\r" holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label',
    },
    {
      name: 'NUL in a code',
      mutation: mutate.setValue('file_types', 'file_type', "'fit' || chr(0) || 'acf'", 'id = 2'),
      first: 'file_types.parquet: column `file_type` row 2 (id=2): "fit\\u0000acf" holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label',
    },
    {
      name: 'tab in a label, on two rows',
      mutation: mutate.setValue('radars', 'radar_name', "radar_name || chr(9)", 'true'),
      first: 'radars.parquet: column `radar_name` row 1 (id=1): "Saskatoon\\t" holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label (and 1 more row)',
    },
    {
      name: 'DEL in a name',
      mutation: mutate.setValue('institutes', 'institute_name', "'British Antarctic Survey' || chr(127)", 'id = 1'),
      first: 'institutes.parquet: column `institute_name` row 1 (id=1): "British Antarctic Survey\\u007f" holds a control character (U+0000-U+001F, U+007F), not allowed in a name, path, code or label',
    },
    {
      name: 'rule broken',
      mutation: mutate.setValue('files', 'file_end_datetime', "TIMESTAMP '2023-12-31 00:00:00'", 'id = 2'),
      first: 'files.parquet row 2 (id=2): rule failed: a file ends no earlier than it starts (file_end_datetime >= file_start_datetime)',
    },
    {
      name: 'rule broken on two rows',
      mutation: mutate.setValue('radars', 'latitude', '91.0::DOUBLE', 'true'),
      first: 'radars.parquet row 1 (id=1): rule failed: the position is a valid latitude and longitude (latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180) (and 1 more row)',
    },
  ];

  test.each(cases)('$name', async ({ name, mutation, first }) => {
    const dir = await writeRadarFixture(conn, `${ROOT}/${name}`, mutation);
    const invalid = await problemsOf(dir);
    if (typeof first === 'string') expect(invalid.problems[0]).toBe(first);
    else expect(invalid.problems[0]).toMatch(first);
  });

  test('collects every problem of a stage and stops at that stage', async () => {
    const dir = await writeRadarFixture(
      conn,
      `${ROOT}/several`,
      mutate.all(mutate.dropTable('files'), mutate.dropTable('radars'), mutate.changeType('countries', 'id', 'VARCHAR')),
    );
    const invalid = await problemsOf(dir);
    expect(invalid.problems).toEqual([
      `snapshot ${dir}: missing table file radars.parquet (table \`radars\`, needed by radarnet-mirror-v3)`,
      `snapshot ${dir}: missing table file files.parquet (table \`files\`, needed by radarnet-mirror-v3)`,
    ]);
  });

  test('a missing folder is reported', async () => {
    const dir = fixtureDir('no such folder');
    expect((await problemsOf(dir)).problems).toEqual([`snapshot ${dir}: no such folder`]);
  });
});

describe('validateSnapshot with other table descriptions', () => {
  const SPECS: TableSpec[] = [
    {
      name: 'readings',
      meaning: 'Test table.',
      columns: [
        { name: 'sensor', kind: 'integer', key: true, references: 'sensors.id', meaning: '' },
        { name: 'at', kind: 'timestamp', key: true, meaning: '' },
        { name: 'value', kind: 'double', nullable: true, meaning: '' },
        { name: 'tag', kind: 'text', nullable: true, unique: true, meaning: '' },
        { name: 'extra', kind: 'json', nullable: true, meaning: '' },
      ],
      rules: [{ holds: 'value IS NULL OR value >= 0', meaning: 'value is not negative' }],
    },
    { name: 'sensors', meaning: 'Test table.', columns: [{ name: 'id', kind: 'integer', key: true, meaning: '' }] },
  ];

  async function writeGeneric(name: string, readings: string): Promise<string> {
    const dir = await writeRadarFixture(conn, `${ROOT}/${name}`, {
      manifest: { ...RADAR_FIXTURE_MANIFEST, apis: ['timeseries-v1'] },
      after: async (d) => {
        const lit = (file: string) => `'${path.join(d, file).replaceAll("'", "''")}'`;
        await conn.run(`COPY (SELECT range AS id FROM range(10)) TO ${lit('sensors.parquet')}`);
        await conn.run(`COPY (${readings}) TO ${lit('readings.parquet')}`);
      },
    });
    return dir;
  }
  const READINGS = `SELECT range % 10 AS sensor, TIMESTAMP '2024-01-01' + to_seconds(range) AS at, range * 0.5 AS value,
    CASE WHEN range % 2 = 0 THEN NULL ELSE 'tag' || range END AS tag, '{"n":' || range || '}' AS extra FROM range(10000)`;

  test('a valid table set passes, nulls in a unique column are allowed', async () => {
    const dir = await writeGeneric('generic-valid', READINGS);
    const snapshot = await validateSnapshot(dir, conn, { tables: { 'radarnet-mirror-v3': [], 'timeseries-v1': SPECS } });
    expect(snapshot.tables).toEqual({
      readings: { file: path.join(dir, 'readings.parquet'), rows: 10000 },
      sensors: { file: path.join(dir, 'sensors.parquet'), rows: 10 },
    });
  });

  test('all row problems are collected, with counts and first rows', async () => {
    const bad = `SELECT * REPLACE (
        CASE WHEN sensor = 3 AND "at" > TIMESTAMP '2024-01-01 00:10:00' THEN sensor + 100 ELSE sensor END AS sensor,
        CASE WHEN value > 4000 THEN -value ELSE value END AS value,
        CASE WHEN tag = 'tag7' THEN 'tag5' ELSE tag END AS tag,
        CASE WHEN "at" = TIMESTAMP '2024-01-01 00:00:42' THEN 'not json' ELSE extra END AS extra
      ) FROM (${READINGS})`;
    const dir = await writeGeneric('generic-invalid', bad);
    const { problems } = await problemsOf(dir, { 'radarnet-mirror-v3': [], 'timeseries-v1': SPECS });
    expect(problems).toEqual([
      'readings.parquet: column `extra` row 43 (sensor=2, at=2024-01-01 00:00:42): "not json" is not valid JSON',
      'readings.parquet row 8002 (sensor=1, at=2024-01-01 02:13:21): rule failed: value is not negative (value IS NULL OR value >= 0) (and 1998 more rows)',
      'readings.parquet: duplicate tag "tag5" (rows 6 and 8)',
      'readings.parquet: column `sensor` row 604 (sensor=103, at=2024-01-01 00:10:03): 103 is not an id in sensors.parquet (and 939 more rows)',
    ]);
  });

  test('a rule that does not evaluate is reported, other checks still run', async () => {
    const broken: TableSpec[] = [
      { ...SPECS[0]!, rules: [{ holds: 'no_such_column > 0', meaning: 'broken' }] },
      SPECS[1]!,
    ];
    const dir = await writeGeneric('generic-broken-rule', READINGS);
    const { problems } = await problemsOf(dir, { 'radarnet-mirror-v3': [], 'timeseries-v1': broken });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^readings\.parquet: cannot check rule "broken" \(no_such_column > 0\): .*no_such_column/);
  });
});

describe('column kinds', () => {
  test.each([
    ['INTEGER', 'integer', true],
    ['UHUGEINT', 'integer', true],
    ['DOUBLE', 'integer', false],
    ['DECIMAL(18,3)', 'double', true],
    ['BIGINT', 'double', true],
    ['VARCHAR', 'double', false],
    ['VARCHAR', 'json', true],
    ['BLOB', 'text', false],
    ['TIMESTAMP WITH TIME ZONE', 'timestamp', true],
    ['TIMESTAMP_NS', 'timestamp', true],
    ['DATE', 'timestamp', false],
    ['BOOLEAN', 'boolean', true],
    ['INTEGER', 'boolean', false],
  ] as const)('%s holds %s: %s', (type, kind, fits) => {
    expect(typeFitsKind(type, kind)).toBe(fits);
  });
});

describe('validate-cli', () => {
  const cli = path.resolve('build-scripts/snapshot/validate-cli.ts');
  const run = promisify(execFile);

  test('prints a summary for a valid snapshot', async () => {
    const dir = await writeRadarFixture(conn, `${ROOT}/cli-valid`);
    const { stdout } = await run(process.execPath, [cli, dir]);
    expect(stdout).toMatch(/^snapshot radar-fixture \(taken_at 2024-01-02T00:00:00Z\): valid, 14 tables, 30 rows/);
  });

  test('prints the problems and exits 1 for an invalid snapshot', async () => {
    const dir = await writeRadarFixture(conn, `${ROOT}/cli-invalid`, mutate.setValue('files', 'id', '1', 'id = 2'));
    const failed = await run(process.execPath, [cli, dir]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('files.parquet: duplicate id 1 (rows 1 and 2)');
  });
});
