/**
 * Reads the catalogue's small tables into memory once per served build (core/radar/resident.ts): the filter
 * columns and each record's text in every format, made by the same record query a live answer runs.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, streamKeyedText } from '../lib/duckdb.ts';
import { NO_SELECTION, recordQuery, type CatalogueFacts, type RadarRows } from '../core/radar/queries.ts';
import { RESIDENT_MAX_ROWS, residentVariant, type ResidentColumns, type ResidentTable } from '../core/radar/resident.ts';
import { RESOURCES, type Resource, type ResourceName } from '../core/radar/resources.ts';
import { RADAR_ROUTES, routeTable, type RadarRoute } from '../core/radar/routes.ts';
import { routeVariants } from '../core/radar/static-tree.ts';
import type { RecordFormat } from '../core/radar/record-sql.ts';

/** Every row's text of one variant, in answer order (rowid). */
async function textsOf(conn: DuckDBConnection, route: RadarRoute, format: RecordFormat, expanded: boolean, facts: CatalogueFacts): Promise<(Buffer | null)[]> {
  const q = recordQuery({ route, format, expanded, selection: NO_SELECTION, ordinal: true }, facts);
  const texts: (Buffer | null)[] = [];
  for await (const batch of streamKeyedText(conn, { sql: `SELECT k, t FROM (${q.sql}) ORDER BY rn`, params: q.params })) {
    for (const t of batch.texts) texts.push(t === null ? null : Buffer.from(t));
  }
  return texts;
}

async function columnsOf(conn: DuckDBConnection, r: Resource): Promise<ResidentColumns> {
  const time = !r.time ? [] : r.time.kind === 'instant' ? [`epoch_us(${r.time.column}) AS ts`] : [`epoch_us(${r.time.start}) AS ts`, `epoch_us(${r.time.end}) AS te`];
  const radar = r.radar ? ['latitude', 'longitude', 'radar_code'] : [];
  const rows = await all(conn, `SELECT ${['id', ...radar, ...time].join(', ')} FROM ${r.table} ORDER BY rowid`);
  const col = <T>(name: string, as: (v: unknown) => T) => rows.map((row) => (row[name] === null ? null : as(row[name])));
  return {
    id: rows.map((row) => BigInt(row['id'] as number | bigint)),
    ...(r.radar ? { latitude: col('latitude', Number), longitude: col('longitude', Number), radarCode: col('radar_code', String) } : {}),
    ...(r.time ? { timeStart: col('ts', Number) } : {}),
    ...(r.time?.kind === 'overlap' ? { timeEnd: col('te', Number) } : {}),
  };
}

/** The resident tables of a catalogue: every resource but the big ones (those a partitioned build partitions) whose table has at most RESIDENT_MAX_ROWS rows. */
export async function loadResidentTables(conn: DuckDBConnection, facts: CatalogueFacts): Promise<Partial<Record<ResourceName, ResidentTable>>> {
  const tables: Partial<Record<ResourceName, ResidentTable>> = {};
  for (const r of Object.values(RESOURCES)) {
    const route = RADAR_ROUTES.find((rt) => rt.resource === r.name && rt.shape === 'collection' && rt.where === undefined && rt.latestFlag === undefined);
    if (!route || r.partitioned) continue;
    const [count] = await all(conn, `SELECT count(*) AS n FROM ${r.table}`);
    if (Number(count!['n']) > RESIDENT_MAX_ROWS) continue;
    const table: ResidentTable = { resource: r, columns: await columnsOf(conn, r), texts: {} };
    for (const v of routeVariants(route)) {
      if (v.format === 'html') continue;
      table.texts[residentVariant(v.format, v.expanded)] = await textsOf(conn, route, v.format, v.expanded, facts);
    }
    tables[r.name] = table;
  }
  return tables;
}

/**
 * Rows per radar of every table a route reads by radar (CatalogueFacts.radarRows: how a radar's answer is read,
 * queries.ts radarPieces), one GROUP BY each; none for a partitioned catalogue (no stored order to cut in pieces).
 * Reading the radar_code column also brings its blocks into DuckDB's buffers before the first request.
 */
export async function loadRadarRows(conn: DuckDBConnection, facts: CatalogueFacts): Promise<Partial<Record<string, RadarRows>>> {
  if (facts.partitioned) return {};
  const tables = new Set(RADAR_ROUTES.filter((rt) => rt.resource !== undefined && RESOURCES[rt.resource].radar).map(routeTable));
  const out: Partial<Record<string, RadarRows>> = {};
  for (const table of tables) {
    const rows = await all(conn, `SELECT radar_code, count(*) AS n FROM ${table} GROUP BY radar_code`);
    const byRadar = new Map<string, number>();
    let total = 0;
    for (const r of rows) {
      total += Number(r['n']);
      if (r['radar_code'] !== null) byRadar.set(String(r['radar_code']), Number(r['n']));
    }
    out[table] = { rows: total, byRadar };
  }
  return out;
}
