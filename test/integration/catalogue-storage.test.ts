/**
 * The catalogue database's storage. It is written without FSST string compression, which decompresses a whole vector to read
 * any one string of it (an answer for one radar reads one row in 43 of every vector of the big tables).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { RADAR_DB_FILE, readCatalogueFacts } from '../../lib/radar-catalogue.ts';
import { all, openDuckDB } from '../../lib/duckdb.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { RADAR_ROUTES, SUBSET_TABLES } from '../../core/radar/routes.ts';
import { NO_SELECTION, recordQuery } from '../../core/radar/queries.ts';

test('the big tables have no FSST-compressed column', async () => {
  const instance = await openDuckDB({ path: join(inject('demoBuild'), 'data', RADAR_DB_FILE), readOnly: true, threads: 1 });
  const conn = await instance.connect();
  try {
    const big = Object.values(RESOURCES).filter((r) => r.partitioned).map((r) => r.table);
    expect(big).toEqual(expect.arrayContaining(['files_x', 'transferred_x']));
    for (const table of big) {
      const methods = (await all(conn, `SELECT DISTINCT compression FROM pragma_storage_info('${table}')`)).map((r) => String(r['compression']));
      expect(methods.length).toBeGreaterThan(0);
      expect(methods, table).not.toContain('FSST');
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});

/**
 * The routes of alarms and the blacklist read small tables of those rows (routes.ts SUBSET_TABLES) instead of
 * scanning the whole big table: each must hold exactly its condition's rows of the big table, in its order, and
 * every route on it must find there all of its rows.
 */
test('a subset table holds its rows of the big table, in order, and every route on it all of its rows', async () => {
  const instance = await openDuckDB({ path: join(inject('demoBuild'), 'data', RADAR_DB_FILE), readOnly: true, threads: 1 });
  const conn = await instance.connect();
  const count = async (sql: string) => Number((await all(conn, `SELECT count(*) AS n FROM (${sql})`))[0]!['n']);
  try {
    for (const s of SUBSET_TABLES) {
      const big = RESOURCES[s.of].table;
      const whole = `SELECT * FROM ${big} WHERE ${s.where}`;
      const rows = await count(whole);
      expect(rows, s.table).toBeGreaterThan(0);
      expect(rows, s.table).toBeLessThan(await count(`SELECT * FROM ${big}`));
      expect(await count(`SELECT * FROM ${s.table}`), s.table).toBe(rows);
      expect(await count(`(${whole}) EXCEPT ALL (SELECT * FROM ${s.table})`), s.table).toBe(0);
      // the same order: row by row, the subset's n-th row is the big table's n-th row of the condition
      const order = RESOURCES[s.of].order ?? 'id';
      expect(await count(`SELECT a.n FROM (SELECT row_number() OVER () AS n, ${order} FROM (${whole})) a ANTI JOIN (SELECT row_number() OVER () AS n, ${order} FROM ${s.table}) b USING (n, ${order})`), s.table).toBe(0);
    }
    const onSubsets = RADAR_ROUTES.filter((r) => r.table !== undefined);
    expect(onSubsets.map((r) => r.path)).toEqual(expect.arrayContaining(['/files/blacklisted', '/transferred/files/alarm/:id', '/transfers/alarm']));
    for (const route of onSubsets) {
      const s = SUBSET_TABLES.find((x) => x.table === route.table)!;
      expect(s.of, route.path).toBe(route.resource);
      const big = RESOURCES[s.of].table;
      expect(await count(`SELECT * FROM ${route.table} WHERE ${route.where}`), route.path).toBe(await count(`SELECT * FROM ${big} WHERE ${route.where}`));
      const q = recordQuery({ route, format: 'json', expanded: false, selection: NO_SELECTION }, { maxDurationMs: {} });
      expect(q.sql, route.path).toContain(`FROM ${route.table} WHERE`);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});

test('a database without a subset table (built by an earlier snapcat) is refused, naming the table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapcat-subset-'));
  const copy = join(dir, RADAR_DB_FILE);
  copyFileSync(join(inject('demoBuild'), 'data', RADAR_DB_FILE), copy);
  const instance = await openDuckDB({ path: copy, threads: 1 });
  const conn = await instance.connect();
  try {
    await expect(readCatalogueFacts(conn)).resolves.toMatchObject({ partitioned: false });
    await conn.run('DROP TABLE transferred_alarm_x');
    await expect(readCatalogueFacts(conn)).rejects.toThrow(/lacks the table transferred_alarm_x: it was built by an earlier version of snapcat; build the snapshot again/);
  } finally {
    conn.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});
