/**
 * The catalogue's tables as Parquet under /downloads/ (build-scripts/downloads.ts): every file the index lists is
 * in the tree with its size, rows and SHA-256, and in the manifest; the files hold exactly the database's rows,
 * partitioned by year, sorted, in small row groups; a build over a build with the same rows writes none again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { DOWNLOAD_ROW_GROUP, DOWNLOAD_TABLES, type DownloadIndex } from '../../build-scripts/downloads.ts';
import { RADAR_DB_FILE } from '../../lib/radar-catalogue.ts';
import { TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';
import { startEndpoint } from '../helpers/servers.ts';

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  instance = await openDuckDB();
  conn = await instance.connect();
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

function readIndex(buildDir: string): DownloadIndex {
  return JSON.parse(readFileSync(join(buildDir, 'site', 'downloads', 'index.json'), 'utf8')) as DownloadIndex;
}

describe.each([
  ['radar', () => inject('demoBuild'), RADAR_DB_FILE, 'radarnet-mirror-v3'],
  ['timeseries', () => inject('tsBuild'), TIMESERIES_DB_FILE, 'timeseries-v1'],
] as const)('the %s downloads', (_name, buildOf, dbFile, api) => {
  test('the index lists every file of /downloads/ with its size, rows and SHA-256, and the manifest lists them too', async () => {
    const site = join(buildOf(), 'site');
    const index = readIndex(buildOf());
    const listed = index.tables.flatMap((t) => t.files.map((f) => f.path));
    const inTree = walkFiles(join(site, 'downloads')).map((f) => `/${relative(site, f)}`).filter((p) => p.endsWith('.parquet'));
    expect(listed.sort()).toEqual(inTree.sort());
    expect(index.tables.map((t) => t.name)).toEqual(DOWNLOAD_TABLES.filter((t) => t.api === api).map((t) => t.name));
    const manifest = new Map(
      readFileSync(join(site, 'manifest.sha256'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => [l.slice(66), l.slice(0, 64)] as const),
    );
    expect(manifest.has('downloads/index.json')).toBe(true);
    for (const t of index.tables) {
      for (const f of t.files) {
        const abs = join(site, f.path);
        const bytes = readFileSync(abs);
        expect(bytes.length).toBe(f.bytes);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
        expect(manifest.get(f.path.slice(1))).toBe(f.sha256);
        const [n] = await all(conn, `SELECT count(*) AS n FROM read_parquet(${sqlString(abs)})`);
        expect(Number(n!['n'])).toBe(f.rows);
      }
      expect(t.rows).toBe(t.files.reduce((n, f) => n + f.rows, 0));
    }
  });

  test('the files hold exactly the rows of the database, each in the year of its partition, sorted, in small row groups', async () => {
    const site = join(buildOf(), 'site');
    const index = readIndex(buildOf());
    await run(conn, `ATTACH ${sqlString(join(buildOf(), 'data', dbFile))} AS db (READ_ONLY)`);
    try {
      for (const spec of DOWNLOAD_TABLES.filter((t) => t.api === api)) {
        const t = index.tables.find((x) => x.name === spec.name)!;
        const files = `[${t.files.map((f) => sqlString(join(site, f.path))).join(', ')}]`;
        const read = `read_parquet(${files}, hive_partitioning = ${spec.yearOf ? 'true' : 'false'})`;
        const cols = t.columns.map((c) => `"${c.name}"`).join(', ');
        // the same multiset of rows both ways
        const [diff] = await all(
          conn,
          `SELECT (SELECT count(*) FROM (SELECT ${cols} FROM ${read} EXCEPT ALL SELECT ${cols} FROM (${spec.sql('db')}))) AS extra,
                  (SELECT count(*) FROM (SELECT ${cols} FROM (${spec.sql('db')}) EXCEPT ALL SELECT ${cols} FROM ${read})) AS missing,
                  (SELECT count(*) FROM (${spec.sql('db')})) AS n`,
        );
        expect({ table: t.name, extra: Number(diff!['extra']), missing: Number(diff!['missing']) }).toEqual({ table: t.name, extra: 0, missing: 0 });
        expect(t.rows).toBe(Number(diff!['n']));
        expect(t.rows).toBeGreaterThan(0);
        for (const f of t.files) {
          const one = `read_parquet(${sqlString(join(site, f.path))})`;
          // sorted as the index says: a row's place in the file is its rank in that order
          const [unsorted] = await all(
            conn,
            `SELECT count(*) AS n FROM (SELECT file_row_number AS pos, row_number() OVER (ORDER BY ${spec.orderBy}) - 1 AS want
             FROM read_parquet(${sqlString(join(site, f.path))}, file_row_number = true)) WHERE pos <> want`,
          );
          expect(Number(unsorted!['n'])).toBe(0);
          const groups = await all(conn, `SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(${sqlString(join(site, f.path))})`);
          for (const g of groups) expect(Number(g['row_group_num_rows'])).toBeLessThanOrEqual(DOWNLOAD_ROW_GROUP);
          if (spec.yearOf && spec.monthly) {
            expect(f.path).toMatch(new RegExp(`/${spec.name}/year=${f.year}/month=${f.month}/${spec.name}-${f.year}-${String(f.month).padStart(2, '0')}\\.parquet$`));
            const [other] = await all(conn, `SELECT count(*) AS n FROM ${one} WHERE year(${spec.yearOf}) <> ${f.year} OR month(${spec.yearOf}) <> ${f.month}`);
            expect(Number(other!['n'])).toBe(0);
          } else if (spec.yearOf) {
            expect(f.month).toBeUndefined();
            expect(f.path).toMatch(new RegExp(`/${spec.name}/year=${f.year}/${spec.name}-${f.year}\\.parquet$`));
            const [other] = await all(conn, `SELECT count(*) AS n FROM ${one} WHERE year(${spec.yearOf}) <> ${f.year}`);
            expect(Number(other!['n'])).toBe(0);
          }
        }
      }
    } finally {
      await run(conn, 'DETACH db');
    }
  });
});

describe('downloads over a base build', () => {
  let work = '';
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test('a build over a build of the same rows writes no download again: it keeps the same files', async () => {
    work = runTmp(inject('demoSnapshot'), 'downloads-rebuild');
    rmSync(work, { recursive: true, force: true });
    const out = join(work, 'dist');
    const first = await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
    const files = readIndex(first.folder).tables.flatMap((t) => t.files.map((f) => f.path));
    expect(first.stats['downloads written']).toBe(files.length);
    const inode = (folder: string, p: string) => statSync(join(folder, 'site', p)).ino;
    const before = files.map((p) => inode(first.folder, p));
    const second = await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
    expect(realpathSync(second.folder)).not.toBe(realpathSync(first.folder));
    expect(second.stats['downloads written']).toBe(0);
    expect(second.stats['downloads kept']).toBe(files.length);
    expect(files.map((p) => inode(second.folder, p))).toEqual(before);
    expect(readFileSync(join(second.folder, 'site', 'downloads', 'index.json'), 'utf8')).toBe(readFileSync(join(first.folder, 'site', 'downloads', 'index.json'), 'utf8'));
  }, 300_000);
});

describe('observations across a year boundary', () => {
  let work = '';
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // each month is written by its own statement, its rows read by a timestamp range (rangeWhere): the files of two
  // months of two years hold every observation once, each in its own month, sorted by series then time
  test('one file a month, every observation in the file of its month, sorted by series then time', async () => {
    work = runTmp(inject('demoSnapshot'), 'downloads-years');
    rmSync(work, { recursive: true, force: true });
    const snapshot = join(work, 'snapshot');
    await writeDemoSnapshot({ from: '2023-12-28', days: 8, seed: 3, out: snapshot, apis: ['timeseries-v1'], log: () => {} });
    const result = await build({ snapshot, out: join(work, 'dist'), quiet: true, charts: false, site: false, history: false });
    const t = readIndex(result.folder).tables.find((x) => x.name === 'observations')!;
    expect(t.partitionedBy).toEqual(['year', 'month']);
    expect(t.files.map((f) => [f.year, f.month])).toEqual([
      [2023, 12],
      [2024, 1],
    ]);
    const site = join(result.folder, 'site');
    const obs = `read_parquet(${sqlString(join(snapshot, 'observations.parquet'))})`;
    for (const f of t.files) {
      const one = `read_parquet(${sqlString(join(site, f.path))}, file_row_number = true)`;
      const [c] = await all(
        conn,
        `SELECT (SELECT count(*) FROM ${one}) AS n,
                (SELECT count(*) FROM ${obs} WHERE year(make_timestamp("timestamp" * 1000)) = ${f.year} AND month(make_timestamp("timestamp" * 1000)) = ${f.month}) AS want,
                (SELECT count(*) FROM ${one} WHERE year("timestamp") <> ${f.year} OR month("timestamp") <> ${f.month}) AS other,
                (SELECT count(*) FROM (SELECT file_row_number AS pos, row_number() OVER (ORDER BY timeseries_id, "timestamp") - 1 AS rank FROM ${one}) WHERE pos <> rank) AS unsorted`,
      );
      expect({ year: f.year, n: Number(c!['n']), other: Number(c!['other']), unsorted: Number(c!['unsorted']) }).toEqual({ year: f.year, n: Number(c!['want']), other: 0, unsorted: 0 });
      expect(Number(c!['n'])).toBeGreaterThan(0);
    }
  }, 300_000);
});

describe('the downloads read over HTTP answer what the API answers', () => {
  test('a one-day query of a radar\'s files, on the files the endpoint serves, is the API\'s /files answer', async () => {
    // DuckDB's httpfs extension is not installed here (and the tests download nothing), so the files are fetched
    // from the endpoint over HTTP, byte for byte the tree's, and read from a local folder of the same layout;
    // the browser test (test/browser/query.test.ts) reads them by range over HTTP with DuckDB-WASM.
    const s = await startEndpoint(inject('demoBuild'));
    const local = join(runTmp(inject('demoSnapshot'), 'downloads-http'), 'downloads');
    rmSync(local, { recursive: true, force: true });
    try {
      const index = (await (await fetch(`${s.url}/downloads/index.json`)).json()) as DownloadIndex;
      const files = index.tables.find((t) => t.name === 'files')!;
      for (const f of files.files) {
        const r = await fetch(`${s.url}${f.path}`);
        expect(r.status).toBe(200);
        const bytes = Buffer.from(await r.arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
        const to = join(local, f.path);
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, bytes);
      }
      const radars = (await (await fetch(`${s.url}/radarnet/mirror/v3/radars?expanded=true`)).json()) as { radar_code: string }[];
      let compared = 0;
      for (const code of radars.map((r) => r.radar_code).slice(0, 6)) {
        const [from, to] = ['2024-03-01T00:00:00Z', '2024-03-01T23:59:59Z'];
        const api = (await (await fetch(`${s.url}/radarnet/mirror/v3/files?radar_code=${code}&timespan=${from}/${to}`)).json()) as { id: number; filename: string; checksum: string | null }[];
        const rows = await all(
          conn,
          `SELECT id, filename, checksum FROM read_parquet([${files.files.map((f) => sqlString(join(local, f.path))).join(', ')}], hive_partitioning = true)
           WHERE radar_code = ${sqlString(code)} AND file_end_datetime >= TIMESTAMP '2024-03-01 00:00:00' AND file_start_datetime <= TIMESTAMP '2024-03-01 23:59:59'
           ORDER BY id`,
        );
        expect(rows.map((r) => ({ id: Number(r['id']), filename: r['filename'], checksum: r['checksum'] })), code).toEqual(api.map((r) => ({ id: r.id, filename: r.filename, checksum: r.checksum })));
        compared += api.length;
      }
      expect(compared).toBeGreaterThan(0);
    } finally {
      await s.close();
      rmSync(local, { recursive: true, force: true });
    }
  });
});
