/**
 * Checksum reports of records with awkward names (DECISIONS.md "Real clients"): the report the catalogue's SQL
 * writes is byte for byte the one GNU `sha1sum` writes for the same files, and the real `sha1sum -c` reads it as
 * one entry per record, with a backslash, LF or CR in a name (validation refuses CR and LF now; an older snapshot
 * may hold them).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { demoFileContent, fileChecksumSql } from '../../build-scripts/demo/radar/file-content.ts';
import { bodyFrame, joinBatch } from '../../core/radar/bodies.ts';
import { NO_SELECTION, recordQuery } from '../../core/radar/queries.ts';
import { checksumRecordSql } from '../../core/radar/record-sql.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { all, openDuckDB } from '../../lib/duckdb.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { mutate, writeRadarFixture } from '../helpers/radar-fixture.ts';
import { get, startTreeAndLive } from '../helpers/servers.ts';

const NAMES = [
  '20240301.0000.00.sas.a.rawacf.bz2',
  'back\\slash.rawacf.bz2',
  'two\\\\back\\slashes\\',
  'line\nbreak.fitacf.bz2',
  'carriage\rreturn.dat.bz2',
  '\\all\r\nof\\nthem\n',
  ' leading blank and  two blanks.dat',
  'no checksum\\.dat',
];

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

let instance: DuckDBInstance;
let conn: DuckDBConnection;
const dir = join(TEST_TMP, `checksum-names-${process.pid}`);

beforeAll(async () => {
  instance = await openDuckDB();
  conn = await instance.connect();
  await conn.run('CREATE TABLE files_x (id BIGINT, checksum VARCHAR, filename VARCHAR)');
  const insert = await conn.prepare('INSERT INTO files_x VALUES ($1, $2, $3)');
  for (const [i, name] of NAMES.entries()) {
    insert.bindBigInt(1, BigInt(i + 1));
    if (name.startsWith('no checksum')) insert.bindNull(2);
    else insert.bindVarchar(2, sha1(demoFileContent(name)));
    insert.bindVarchar(3, name);
    await insert.run();
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of NAMES) writeFileSync(join(dir, name), demoFileContent(name));
});
afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** The `/files` checksum report of the table, as the build and the endpoint make it (queries.ts, bodies.ts). */
async function report(): Promise<string> {
  const route = RADAR_ROUTES.find((r) => r.path === '/files')!;
  const q = recordQuery({ route, format: 'checksum', expanded: false, selection: NO_SELECTION }, { maxDurationMs: {} });
  const texts = (await all(conn, q)).map((r) => r['t'] as string | null);
  const frame = bodyFrame('checksum', 'collection', undefined);
  return frame.open + joinBatch(frame, texts, true) + frame.close;
}

describe('checksum report lines', () => {
  test.each([
    ['plain.dat', 'x  plain.dat'],
    ['a\\b', '\\x  a\\\\b'],
    ['a\nb', '\\x  a\\nb'],
    ['a\rb', '\\x  a\\rb'],
    ['\\\n\r', '\\x  \\\\\\n\\r'],
    ['a\\nb', '\\x  a\\\\nb'],
    ['with  blanks ', 'x  with  blanks '],
  ])('%j is written %j', async (name, line) => {
    const [row] = await all(conn, { sql: `SELECT ${checksumRecordSql('c', 'n')} AS t FROM (SELECT 'x' AS c, $name AS n)`, params: { name } });
    expect(row!['t']).toBe(line);
  });

  test('a null checksum or name gives no line', async () => {
    const rows = await all(conn, `SELECT ${checksumRecordSql('c', 'n')} AS t FROM (VALUES (NULL, 'a\\b'), ('x', NULL)) v(c, n)`);
    expect(rows.map((r) => r['t'])).toEqual([null, null]);
  });
});

describe('a report of awkward names and the real sha1sum', () => {
  test('is what sha1sum itself writes for the same files', async () => {
    const named = NAMES.filter((n) => !n.startsWith('no checksum'));
    const gnu = execFileSync('sha1sum', ['--', ...named], { cwd: dir, encoding: 'utf8' });
    expect(await report()).toBe(gnu);
  });

  test('sha1sum -c reads one entry per record, every one OK', async () => {
    const body = await report();
    expect(body.split('\n').filter(Boolean)).toHaveLength(NAMES.length - 1);
    writeFileSync(join(dir, 'report.sha1'), body);
    const r = spawnSync('sha1sum', ['-c', 'report.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(NAMES.length - 1);
    expect(r.stdout).not.toMatch(/FAILED|improperly/);
  });

  test('the same report unescaped would not be read (the check can fail)', async () => {
    const naive = (await all(conn, `SELECT checksum || '  ' || filename AS t FROM files_x WHERE checksum IS NOT NULL ORDER BY id`)).map((r) => `${r['t']}\n`).join('');
    writeFileSync(join(dir, 'naive.sha1'), naive);
    const r = spawnSync('sha1sum', ['-c', 'naive.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
  });
});

describe('a snapshot with a backslash in a file name, built and served', () => {
  const odd = '20240101.0200.00.sas.a\\odd.rawacf.bz2';

  test('the tree file, the live answer (under either prefix) and sha1sum agree', async () => {
    const snapshot = await writeRadarFixture(
      conn,
      `checksum-names-${process.pid}/snapshot`,
      mutate.all(
        mutate.setValue('files', 'filename', `'${odd}'`, 'id = 2'),
        mutate.setValue('files', 'file_path', `'/sddata/raw/2024/01/${odd}'`, 'id = 2'),
        // every file's checksum the sha1 of its demo content
        mutate.setValue('files', 'checksum', fileChecksumSql('filename'), 'true'),
      ),
    );
    const out = join(dir, 'dist');
    await build({ snapshot, out, quiet: true, site: false, charts: false });
    const servers = await startTreeAndLive(out);
    try {
      const tree = await get(servers.fromTree.url, `${RADAR_PREFIX}/files?contentType=checksumReport`);
      const lines = tree.text.split('\n').filter(Boolean);
      expect(lines).toHaveLength(3);
      expect(lines).toContain(`\\${sha1(demoFileContent(odd))}  ${odd.replace('\\', '\\\\')}`);
      for (const [server, prefix] of [[servers.live, RADAR_PREFIX], [servers.live, BAS_PREFIX], [servers.fromTree, BAS_PREFIX]] as const) {
        expect((await get(server.url, `${prefix}/files?contentType=checksumReport`)).body.equals(tree.body), prefix).toBe(true);
      }
      const one = await get(servers.fromTree.url, `${BAS_PREFIX}/files/2?contentType=checksumReport`);
      expect(one.text).toBe(`\\${sha1(demoFileContent(odd))}  ${odd.replace('\\', '\\\\')}\n`);
      expect(one.headers.get('content-disposition')).toBe('attachment; filename="files-2.sha1"');

      const files = join(dir, 'built');
      mkdirSync(files, { recursive: true });
      for (const name of ['20240101.0000.00.sas.a.rawacf.bz2', odd, '20240101.0000.00.hal.a.fitacf.bz2']) writeFileSync(join(files, name), demoFileContent(name));
      writeFileSync(join(files, 'report.sha1'), tree.body);
      const r = spawnSync('sha1sum', ['-c', 'report.sha1'], { cwd: files, encoding: 'utf8' });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout.trim().split('\n')).toHaveLength(3);
    } finally {
      await servers.close();
    }
  }, 120_000);
});
