/**
 * Writes the radar catalogue's static tree: every collection path and every id path of the route table,
 * in every variant (core/radar/static-tree.ts), from the catalogue database, streamed chunk by chunk.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { bodyFrame, joinBatch } from '../../core/radar/bodies.ts';
import { routeDocPage } from '../../core/radar/html-doc.ts';
import { NO_SELECTION, recordQuery, type CatalogueFacts } from '../../core/radar/queries.ts';
import { csvHeader, type RecordFormat } from '../../core/radar/record-sql.ts';
import { RESOURCES, viewFields } from '../../core/radar/resources.ts';
import { indexDocument, RADAR_PREFIX, RADAR_ROUTES, type RadarRoute } from '../../core/radar/routes.ts';
import { routeVariants, staticFile, VARIANTS, type Variant } from '../../core/radar/static-tree.ts';
import { all, streamKeyedText } from '../../lib/duckdb.ts';
import type { Progress } from '../lib/progress.ts';
import type { TreeWriter } from '../lib/tree-writer.ts';

export interface RadarTreeContext {
  conn: DuckDBConnection;
  facts: CatalogueFacts;
  writer: TreeWriter;
  progress: Progress;
}

/** How many files the tree will have, for the progress line. */
export async function countRadarTreeFiles(conn: DuckDBConnection): Promise<number> {
  let n = 0;
  for (const route of RADAR_ROUTES) {
    const variants = routeVariants(route).length;
    if (!route.path.endsWith('/:id')) {
      n += variants;
      continue;
    }
    const r = RESOURCES[route.resource!];
    const [row] = await all(conn, `SELECT count(DISTINCT id) AS n FROM ${r.table} WHERE ${route.where ?? 'true'}`);
    n += Number(row!['n']) * variants;
  }
  return n;
}

function idPath(route: RadarRoute, id: bigint): string {
  return `${RADAR_PREFIX}${route.path.slice(0, -':id'.length)}${id}`;
}

async function writeRecords(ctx: RadarTreeContext, route: RadarRoute, v: Variant): Promise<void> {
  const r = RESOURCES[route.resource!];
  const format = v.format as RecordFormat;
  const header = format === 'csv' ? csvHeader(viewFields(r, v.expanded), ',') : undefined;
  const q = recordQuery({ route, format, expanded: v.expanded, selection: NO_SELECTION }, ctx.facts);
  if (!route.path.endsWith('/:id')) {
    const frame = bodyFrame(format, route.shape, header);
    const file = ctx.writer.open(staticFile(`${RADAR_PREFIX}${route.path}`, v));
    file.append(frame.open);
    let first = true;
    for await (const batch of streamKeyedText(ctx.conn, q)) {
      const piece = joinBatch(frame, batch.texts, first);
      if (piece.length > 0) first = false;
      file.append(piece);
    }
    file.append(frame.close);
    file.close();
    return;
  }
  // Id paths: rows come ordered by id; every run of one id is one file.
  const frame = bodyFrame(format, route.shape, header);
  let current: bigint | undefined;
  let texts: (string | null)[] = [];
  const flush = () => {
    if (current === undefined) return;
    ctx.writer.write(staticFile(idPath(route, current), v), frame.open + joinBatch(frame, texts, true) + frame.close);
  };
  for await (const batch of streamKeyedText(ctx.conn, q)) {
    for (let i = 0; i < batch.keys.length; i++) {
      const k = batch.keys[i]!;
      if (k !== current) {
        flush();
        current = k;
        texts = [];
      }
      texts.push(batch.texts[i]!);
    }
  }
  flush();
}

/** Resources with one view answer `expanded=true` with the same bytes: a hard link, not a second write. */
async function linkSingleView(ctx: RadarTreeContext, route: RadarRoute, v: Variant): Promise<void> {
  const simple = VARIANTS.find((x) => x.format === v.format && !x.expanded)!;
  if (!route.path.endsWith('/:id')) {
    ctx.writer.link(staticFile(`${RADAR_PREFIX}${route.path}`, simple), staticFile(`${RADAR_PREFIX}${route.path}`, v));
    return;
  }
  const r = RESOURCES[route.resource!];
  const q = { sql: `SELECT DISTINCT id AS k, '' AS t FROM ${r.table} WHERE ${route.where ?? 'true'} ORDER BY id`, params: {} };
  for await (const batch of streamKeyedText(ctx.conn, q)) {
    for (const id of batch.keys) ctx.writer.link(staticFile(idPath(route, id), simple), staticFile(idPath(route, id), v));
  }
}

export async function writeRadarTree(ctx: RadarTreeContext): Promise<void> {
  for (const route of RADAR_ROUTES) {
    ctx.progress.begin(`radar tree: ${route.path}`);
    for (const v of routeVariants(route)) {
      if (v.format === 'html') {
        ctx.writer.write(staticFile(`${RADAR_PREFIX}${route.path}`, v), routeDocPage(route));
      } else if (route.shape === 'index') {
        ctx.writer.write(staticFile(`${RADAR_PREFIX}${route.path}`, v), JSON.stringify(indexDocument()));
      } else if (v.expanded && RESOURCES[route.resource!].expanded.length === 0) {
        await linkSingleView(ctx, route, v);
      } else {
        await writeRecords(ctx, route, v);
      }
    }
  }
}
