/**
 * The catalogue database is written without FSST string compression, which decompresses a whole vector to read
 * any one string of it (an answer for one radar reads one row in 43 of every vector of the big tables).
 */
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { RADAR_DB_FILE } from '../../build-scripts/radar/build-radar.ts';
import { all, openDuckDB } from '../../lib/duckdb.ts';
import { RESOURCES } from '../../core/radar/resources.ts';

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
