/**
 * The radar browse summary (core/radar/browse-summary-file.ts): what the site's browse pages show of the
 * `/files` and `/transferred/files` collections, computed from the catalogue database by three queries,
 * so that the site no longer reads those collections' files record by record (233 and 296 MB of JSON for a
 * year, some 4 s of every site build, growing with the catalogue). Every value is the one the site computed
 * from the records' JSON texts:
 * - datetimes are formatted as the records format them (record-sql.ts DATETIME). The earliest (latest) of the
 *   formatted texts is the text of the earliest (latest) timestamp, as the format keeps the order (fixed
 *   width, microseconds cut off);
 * - a radar's latest files are ordered by file start cut to the millisecond (what its text holds), then id;
 * - the days of transfer starts are the first 10 characters of the formatted timestamp of the start's day;
 * - each map lists its keys in the order they first appear in the collection file, which holds the table's
 *   rows in stored order (rowid; write-tree.ts writes a collection ordered by it).
 * Only for a build with a tree, never a partitioned one (whose big tables are views without a stored order).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { BROWSE_SUMMARY_FILE, RECENT, type BrowseSummary, type RecentFileEntry, type TypeCountEntry } from '../../core/radar/browse-summary-file.ts';
import { DATETIME } from '../../core/radar/record-sql.ts';
import { RADAR_ROUTES, routeTable } from '../../core/radar/routes.ts';
import { all } from '../../lib/duckdb.ts';

/** The table and condition (fixed SQL of the route table) of a collection route: the records its file lists. */
function collection(path: string): { table: string; where: string } {
  const route = RADAR_ROUTES.find((r) => r.path === path && r.shape === 'collection');
  if (!route) throw new Error(`no collection route ${path}`);
  return { table: routeTable(route), where: route.where ?? 'true' };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A status flag as the site reads it from JSON: anything but 0, null included, is flagged. */
function flagged(v: unknown): boolean {
  return v === null || Number(v) !== 0;
}

async function files(conn: DuckDBConnection): Promise<BrowseSummary['files']> {
  const { table, where } = collection('/files');
  const types = await all(conn, {
    sql: `SELECT radar_code, file_type, count(*) AS files, coalesce(sum(file_size), 0) AS bytes,
            count(*) FILTER (WHERE status_flag IS DISTINCT FROM 0) AS flagged,
            ${DATETIME('min(file_start_datetime)')} AS first_start, ${DATETIME('max(file_end_datetime)')} AS last_end, min(rowid) AS pos
          FROM ${table} WHERE ${where} GROUP BY radar_code, file_type ORDER BY pos`,
    params: {},
  });
  // max_by with n: a heap of n per radar, not a sort of the radar's files
  const recent = await all(conn, {
    sql: `WITH top AS (
            SELECT radar_code, max_by(id, {'start': date_trunc('millisecond', file_start_datetime), 'id': id}, $recent) AS ids
            FROM ${table} WHERE ${where} GROUP BY radar_code),
          ranked AS (SELECT radar_code, unnest(ids) AS id, unnest(range(len(ids))) AS rank FROM top)
          SELECT r.radar_code, f.id, f.file_path, f.file_type, ${DATETIME('f.file_start_datetime')} AS start_text,
            ${DATETIME('f.file_end_datetime')} AS end_text, f.file_size, f.status_flag
          FROM ranked r JOIN (SELECT * FROM ${table} WHERE ${where}) f ON f.id = r.id AND f.radar_code = r.radar_code
          ORDER BY r.radar_code, r.rank`,
    params: { recent: RECENT },
  });
  const out = new Map<string, { byType: TypeCountEntry[]; recent: RecentFileEntry[] }>();
  for (const r of types) {
    const code = r['radar_code'] as string;
    let radar = out.get(code);
    if (!radar) out.set(code, (radar = { byType: [], recent: [] }));
    radar.byType.push({
      fileType: r['file_type'] as string,
      files: Number(r['files']),
      bytes: Number(r['bytes']),
      flagged: Number(r['flagged']),
      first: r['first_start'] as string,
      last: r['last_end'] as string,
    });
  }
  for (const r of recent) {
    out.get(r['radar_code'] as string)!.recent.push({
      id: Number(r['id']),
      filename: baseName(r['file_path'] as string),
      fileType: r['file_type'] as string,
      start: r['start_text'] as string,
      end: r['end_text'] as string,
      bytes: Number(r['file_size']) || 0,
      flagged: flagged(r['status_flag']),
    });
  }
  return [...out];
}

async function transfers(conn: DuckDBConnection): Promise<BrowseSummary['transfers']> {
  const { table, where } = collection('/transferred/files');
  // one scan for both groupings: per category and day, per radar and category
  const rows = await all(conn, {
    sql: `SELECT per_radar, radar_code, category, left(${DATETIME('CAST(d AS TIMESTAMP)')}, 10) AS day, n FROM (
            SELECT GROUPING(radar_code) = 0 AS per_radar, radar_code, coalesce(transferred_file_status, 'ok') AS category,
              CAST(transfer_start_datetime AS DATE) AS d, count(*) AS n, min(rowid) AS pos
            FROM ${table} WHERE ${where} GROUP BY GROUPING SETS ((category, d), (radar_code, category)))
          ORDER BY pos, per_radar`,
    params: {},
  });
  const byCategoryDay = new Map<string, [string, number][]>();
  const byRadar = new Map<string, [string, number][]>();
  const totals = new Map<string, number>();
  const t: BrowseSummary['transfers'] = { byCategoryDay: [], byRadar: [], totals: [], instances: 0 };
  for (const r of rows) {
    const category = r['category'] as string;
    const n = Number(r['n']);
    if (r['per_radar']) {
      const code = r['radar_code'] as string;
      let cats = byRadar.get(code);
      if (!cats) byRadar.set(code, (cats = []));
      cats.push([category, n]);
      continue;
    }
    const day = r['day'] as string;
    let days = byCategoryDay.get(category);
    if (!days) byCategoryDay.set(category, (days = []));
    days.push([day, n]);
    totals.set(category, (totals.get(category) ?? 0) + n);
    if (t.firstDay === undefined || day < t.firstDay) t.firstDay = day;
    if (t.lastDay === undefined || day > t.lastDay) t.lastDay = day;
    t.instances += n;
  }
  t.byCategoryDay = [...byCategoryDay];
  t.byRadar = [...byRadar];
  t.totals = [...totals];
  return t;
}

/** The summary of the catalogue database of the connection's current database (`USE radar_catalogue`). */
export async function browseSummary(conn: DuckDBConnection): Promise<BrowseSummary> {
  return { files: await files(conn), transfers: await transfers(conn) };
}

/** Writes the summary into the build folder, beside build.json. */
export async function writeBrowseSummary(conn: DuckDBConnection, buildDir: string): Promise<void> {
  await writeFile(join(buildDir, BROWSE_SUMMARY_FILE), JSON.stringify(await browseSummary(conn)));
}
