/**
 * `build --partitioned`: the big radar tables as hive-partitioned Parquet beside the database, read through
 * views. The endpoint answers exactly as over a database-only build, and a one-day query opens only the files
 * of its year (and radar).
 */
import { execFile } from 'node:child_process';
import { realpathSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { RADAR_DB_FILE, readCatalogueFacts } from '../../lib/radar-catalogue.ts';
import { NO_SELECTION, recordQuery, type CatalogueFacts } from '../../core/radar/queries.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { all, openDuckDB } from '../../lib/duckdb.ts';
import { parquetFilesBelow } from '../../lib/hive.ts';
import { runTmp } from '../helpers/paths.ts';
import { partitionedDemoBuild } from '../helpers/partitioned.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

const run = promisify(execFile);
const P = RADAR_PREFIX;
const BIG = Object.values(RESOURCES).filter((r) => r.partitioned);
/** One day of the demo (2024-03-01 and 2024-03-02). */
const DAY = { start: Date.parse('2024-03-01T00:00:00Z'), end: Date.parse('2024-03-01T23:59:59Z') };
const DAY_PARAM = 'timespan=2024-03-01T00:00:00Z/2024-03-01T23:59:59Z';

let dbOnly: string;
let partitioned: string;
let plain: Served;
let parts: Served;

beforeAll(async () => {
  dbOnly = runTmp(inject('demoSnapshot'), 'pb-db-only');
  await build({ snapshot: inject('demoSnapshot'), out: dbOnly, quiet: true, dbOnly: true });
  partitioned = await partitionedDemoBuild(inject('demoSnapshot'), 'pb');
  [plain, parts] = await Promise.all([startEndpoint(dbOnly, { watchMs: 0 }), startEndpoint(partitioned, { watchMs: 0 })]);
}, 300_000);

afterAll(async () => {
  await Promise.all([plain?.close(), parts?.close()]);
});

/** A read-only connection to a build's radar database, opened as the endpoint opens it. */
async function openCatalogue(buildLink: string): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection; data: string; facts: CatalogueFacts }> {
  const data = join(realpathSync(buildLink), 'data');
  const instance = await openDuckDB({ path: join(data, RADAR_DB_FILE), readOnly: true, fileSearchPath: data });
  const conn = await instance.connect();
  return { instance, conn, data, facts: await readCatalogueFacts(conn) };
}

describe('the partitioned build', () => {
  test('holds the big tables as year=/radar= Parquet folders, each file in answer order, and views over them', async () => {
    const { instance, conn, data, facts } = await openCatalogue(partitioned);
    try {
      expect(facts.partitioned).toBe(true);
      const views = await all(conn, "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name");
      expect(views.map((v) => v['view_name'])).toEqual(BIG.map((r) => r.table).sort());
      for (const r of BIG) {
        const files = parquetFilesBelow(join(data, r.table));
        expect(files.length, r.table).toBeGreaterThan(1);
        for (const f of files) expect(f.slice(data.length), r.table).toMatch(new RegExp(`^/${r.table}/year=\\d{4}/radar=[a-z]{3}/data_0\\.parquet$`));
        const order = r.order ?? 'id';
        const [unsorted] = await all(
          conn,
          `SELECT count(*) AS n FROM (SELECT file_row_number, row_number() OVER (PARTITION BY file_index ORDER BY ${order}) - 1 AS pos
           FROM read_parquet('${r.table}/*/*/*.parquet', file_row_number = true)) WHERE pos <> file_row_number`,
        );
        expect(Number(unsorted?.['n']), r.table).toBe(0);
      }
      const [tables] = await all(conn, "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name IN ('files_x', 'transferred_x', 'transfers_x', 'coverage_x')");
      expect(Number(tables?.['n'])).toBe(0);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  test('a one-day query opens only the files of its year, and of its radar with radar_code', async () => {
    const { instance, conn, data, facts } = await openCatalogue(partitioned);
    /** The Parquet files DuckDB's profile says the query scanned, and of how many. */
    const scanned = async (q: { sql: string; params: Record<string, string | number | boolean> }) => {
      const [row] = await all(conn, { sql: `EXPLAIN (ANALYZE, FORMAT json) ${q.sql}`, params: q.params });
      const scans: Record<string, string>[] = [];
      const walk = (n: { operator_type?: string; extra_info?: Record<string, string>; children?: unknown[] }) => {
        if (n.operator_type === 'TABLE_SCAN' && n.extra_info) scans.push(n.extra_info);
        for (const c of n.children ?? []) walk(c as typeof n);
      };
      const plan = JSON.parse(String(row?.['explain_value'])) as unknown;
      for (const n of Array.isArray(plan) ? plan : [plan]) walk(n as Parameters<typeof walk>[0]);
      expect(scans).toHaveLength(1);
      // `Scanning Files: 1/43` when partition filters pruned files; else only `Total Files Read: 43`.
      const info = scans[0]!;
      const [read, of] = (info['Scanning Files'] ?? `${info['Total Files Read']}/${info['Total Files Read']}`).split('/').map(Number);
      return { read: read!, of: of! };
    };
    try {
      const route = RADAR_ROUTES.find((r) => r.path === '/files')!;
      const files = parquetFilesBelow(join(data, 'files_x'));
      const of2024 = files.filter((f) => f.includes('/year=2024/'));
      // The demo has files that start in 2023 too (late arrivals), so pruning by year is visible.
      expect(of2024.length).toBeLessThan(files.length);
      const day = recordQuery({ route, format: 'json', expanded: false, selection: { ...NO_SELECTION, timespan: DAY } }, facts);
      expect(day.params).toMatchObject({ year_from: 2024, year_to: 2024 });
      expect(await scanned(day)).toEqual({ read: of2024.length, of: files.length });

      const code = /radar=([a-z]{3})/.exec(of2024[0]!)![1]!;
      const oneRadar = recordQuery({ route, format: 'json', expanded: false, selection: { ...NO_SELECTION, timespan: DAY, radarCode: code } }, facts);
      expect(await scanned(oneRadar)).toEqual({ read: 1, of: files.length });

      // No timespan and no radar_code: every partition (bbox and id lookups are not pruned).
      const bbox = recordQuery({ route, format: 'json', expanded: false, selection: { ...NO_SELECTION, bbox: { minX: -180, minY: -90, maxX: 180, maxY: 90 } } }, facts);
      expect(await scanned(bbox)).toEqual({ read: files.length, of: files.length });
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});

describe('answers over HTTP are byte-identical to a database-only build', () => {
  /** Paths of every collection with the filters, and of every id route with an id of its collection. */
  async function paths(): Promise<string[]> {
    const radars = JSON.parse((await get(plain.url, `${P}/radars`)).text) as { id: number }[];
    const codes = (JSON.parse((await get(plain.url, `${P}/radars?expanded=true`)).text) as { radar_code: string }[]).map((r) => r.radar_code);
    expect(radars.length).toBeGreaterThan(2);
    const code = codes[1]!;
    const out: string[] = [];
    for (const route of RADAR_ROUTES.filter((r) => r.shape === 'collection')) {
      const path = `${P}${route.path}`;
      out.push(
        path,
        `${path}?${DAY_PARAM}`,
        `${path}?${DAY_PARAM}&radar_code=${code}&expanded=true`,
        `${path}?radar_code=${code}&distinct=true`,
        `${path}?timespan=2023-12-30/2024-03-01T06&contentType=csv&delimiter=;`,
        `${path}?bbox=-180,0,180,90&contentType=checksumReport`,
        `${path}?bbox=170,-90,-170,90&${DAY_PARAM}&contentType=csv&includeHeaders=false&expanded=true`,
      );
      const ids = (JSON.parse((await get(plain.url, path)).text) as { id: number }[]).map((r) => r.id);
      const idRoute = RADAR_ROUTES.find((r) => r.path === `${route.path}/:id`);
      if (idRoute && ids.length > 0) {
        const id = ids[Math.floor(ids.length / 2)]!;
        out.push(`${path}/${id}`, `${path}/${id}?expanded=true&contentType=csv`, `${path}/${ids.at(-1)! + 1000}`);
      }
    }
    return out;
  }

  test('every collection with timespan, radar_code, distinct, bbox and formats, and every id route', async () => {
    const list = await paths();
    expect(list.length).toBeGreaterThan(150);
    let nonEmpty = 0;
    for (const path of list) {
      const [a, b] = await Promise.all([get(plain.url, path), get(parts.url, path)]);
      expect(b.status, path).toBe(a.status);
      expect(b.type, path).toBe(a.type);
      expect(b.text, path).toBe(a.text);
      if (a.status === 200 && a.body.length > 100) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(list.length / 2);
  }, 120_000);

  test('the build folder can move: its Parquet is found relative to the database', async () => {
    const moved = runTmp(inject('demoSnapshot'), 'pb-moved');
    rmSync(moved, { recursive: true, force: true });
    await run('cp', ['-r', realpathSync(partitioned), moved]);
    // The original's Parquet out of the way: the copy must read its own.
    const original = join(realpathSync(partitioned), 'data', 'transferred_x');
    renameSync(original, `${original}.away`);
    const s = await startEndpoint(moved, { watchMs: 0 });
    try {
      const path = `${P}/transferred/files?${DAY_PARAM}&expanded=true`;
      const [a, b] = await Promise.all([get(plain.url, path), get(s.url, path)]);
      expect(b.status, b.text).toBe(200);
      expect(b.text).toBe(a.text);
    } finally {
      renameSync(`${original}.away`, original);
      await s.close();
    }
  });
});
