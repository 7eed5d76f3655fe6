/** The radar catalogue part of a build: its database, then its static tree and the site's summary of it (browse-summary.ts). */
import { join } from 'node:path';
import { ROW_GROUP_SIZE, run, sqlString } from '../../lib/duckdb.ts';
import type { ApiBuildContext } from '../lib/api-build.ts';
import { writeBrowseSummary } from './browse-summary.ts';
import { buildCatalogueDb } from './catalogue-db.ts';
import { RADAR_DB_FILE, readCatalogueFacts } from '../../lib/radar-catalogue.ts';
import { writeRadarTree } from './write-tree.ts';

export async function buildRadar(ctx: ApiBuildContext): Promise<void> {
  const { conn, progress } = ctx;
  await run(conn, `ATTACH ${sqlString(join(ctx.dataDir, RADAR_DB_FILE))} AS radar_catalogue (ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
  await run(conn, 'USE radar_catalogue');
  // No FSST string compression, up to the last checkpoint (which compresses what was not written yet). FSST
  // decompresses a whole vector to read any string of it, and an answer for one radar takes one row in 43 from
  // every vector: one radar's transferred files (8,598 of 384,537) cost 23 ms of CPU with FSST and 12 ms
  // without. The database is about twice the size (175 against 85 MB for a year); a timespan's answer, reading
  // whole vectors, costs the same either way.
  await run(conn, "SET disabled_compression_methods = 'fsst'");
  try {
    await buildCatalogueDb(conn, ctx.tableSql, (name) => progress.begin(`radar database: ${name}`), ctx.partitioned ? ctx.dataDir : undefined);
    const facts = await readCatalogueFacts(conn);
    if (ctx.writeTree) {
      await writeRadarTree({ conn, facts, writer: ctx.writer, progress, state: ctx.state });
      progress.begin('radar browse summary');
      await writeBrowseSummary(conn, ctx.buildDir);
    }
    await run(conn, 'CHECKPOINT');
  } finally {
    await run(conn, 'RESET disabled_compression_methods');
    await run(conn, 'USE memory');
    await run(conn, 'DETACH radar_catalogue');
  }
}
