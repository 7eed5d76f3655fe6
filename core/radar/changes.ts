/**
 * The change API of the radar catalogue, `GET <prefix>/changes?since=…` (docs/changes.md): what the kept
 * snapshot history (build-scripts/lib/snapshot-history.ts) says was added, changed (which fields) or removed in
 * the snapshots after `since`. Pure: which snapshots a `since` selects, the SQL over the history's Parquet, and
 * the answer's bytes in JSON, CSV and the checksum report.
 */
import { badParameter, HttpError } from '../http/errors.ts';
import { parsePartialDatetime } from './partial-datetime.ts';
import type { RadarParams } from './params.ts';
import type { SqlFragment } from './filters.ts';
import { checksumRecordSql, CSV_QUOTE } from './record-sql.ts';

export const CHANGES_PATH = '/changes';

/** One snapshot of snapshots.json (the fields the change API reads). */
export interface HistorySnapshot {
  name: string;
  taken_at: string;
  base: string | null;
  baseTakenAt?: string | null;
  changes: unknown;
}

/** The oldest snapshot a `since` may name: changes from it on are all kept. */
export function oldestAnswerable(snapshots: HistorySnapshot[]): { name: string; taken_at: string } | undefined {
  const last = snapshots.at(-1);
  if (!last) return undefined;
  if (last.changes !== null && last.base !== null && last.baseTakenAt) return { name: last.base, taken_at: last.baseTakenAt };
  return { name: last.name, taken_at: last.taken_at };
}

/**
 * The instant after which snapshots' changes are answered, for a `since` that is a kept snapshot's name or an
 * ISO 8601 datetime (partial, UTC when it has no zone). Missing: 400. Older than the history: 410, the oldest
 * snapshot it can answer in the hints.
 */
export function sinceInstant(since: string | null, snapshots: HistorySnapshot[], prefix: string): number {
  const oldest = oldestAnswerable(snapshots);
  const example = `${prefix}${CHANGES_PATH}?since=${encodeURIComponent(oldest?.name ?? '2024-01-01T00:00:00Z')}`;
  if (since === null || since.trim() === '') throw badParameter('since', 'is required: a snapshot name (GET /snapshots.json lists them) or an ISO 8601 datetime', example);
  const gone = (what: string) =>
    new HttpError(410, `since=${since}: ${what}`, {
      hints: oldest
        ? [`The oldest snapshot whose changes are kept: ${oldest.name} (taken at ${oldest.taken_at}); since may name it or any later snapshot, or a datetime from ${oldest.taken_at} on`, `A valid example: ${example}`, 'GET /snapshots.json lists the kept snapshots']
        : ['This build keeps no snapshot history'],
    });
  if (!oldest) throw gone('this build keeps no snapshot history');
  const named = snapshots.find((s) => s.name === since) ?? (oldest.name === since ? oldest : undefined);
  if (named) return Date.parse(named.taken_at);
  const dt = parsePartialDatetime(since);
  if (!dt.ok) throw gone('no kept snapshot has that name, and it is no datetime (older snapshots\' changes are no longer kept)');
  if (dt.ms < Date.parse(oldest.taken_at)) throw gone(`changes before ${oldest.taken_at} are no longer kept`);
  return dt.ms;
}

export interface ChangesQuery {
  since: number;
  params: Pick<RadarParams, 'radarCode' | 'timespan' | 'expanded'>;
  /** The checksum report: added and changed files with a checksum, each file once (its latest snapshot's). */
  checksum: boolean;
}

/** The columns an entry has: the simple view's, then the expanded view's. */
export const CHANGE_FIELDS = ['snapshot', 'taken_at', 'resource', 'id', 'change', 'fields'] as const;
export const CHANGE_EXPANDED_FIELDS = ['radar_code', 'start_time', 'end_time', 'filename', 'file_path', 'checksum'] as const;

/**
 * The history as the endpoint holds it: `radar-changes.parquet` read once per served build into a table of an
 * in-memory database attached to the catalogue's DuckDB instance (shared by the pool's connections), sorted as
 * the answers list the entries, datetimes as epoch milliseconds. A request then scans a few thousand rows of
 * memory and renders its texts in DuckDB, instead of opening the Parquet file and building objects in JS.
 */
/** READ_WRITE: the catalogue's instance is read-only, and an attached database takes its mode unless told. */
export const HISTORY_DB = 'snapcat_history';
export const HISTORY_TABLE = `${HISTORY_DB}.radar_changes`;
export function historyTableSql(source: string): string[] {
  return [
    `ATTACH IF NOT EXISTS ':memory:' AS ${HISTORY_DB} (READ_WRITE)`,
    `CREATE OR REPLACE TABLE ${HISTORY_TABLE} AS SELECT snapshot, epoch_ms(taken_at) AS taken_at, res AS resource, id, change, fields, radar_code, epoch_ms(start_time) AS start_time, epoch_ms(end_time) AS end_time, filename, file_path, checksum FROM ${source} ORDER BY taken_at, snapshot, resource, id`,
  ];
}

/** Epoch milliseconds as `changeEntry` writes them (Date's toISOString). */
const ISO = (col: string) => `strftime(make_timestamp(${col} * 1000), '%Y-%m-%dT%H:%M:%S.%gZ')`;
const FIELDS_LIST = `coalesce(fields, []::VARCHAR[])`;

/** SQL: one entry as `changeEntry` then JSON.stringify write it (the same keys in the same order). */
function jsonEntrySql(expanded: boolean): string {
  const head = `'snapshot', snapshot, 'taken_at', ${ISO('taken_at')}, 'resource', resource, 'id', id, 'change', change`;
  const tail = expanded ? `, 'radar_code', radar_code, 'start_time', ${ISO('start_time')}, 'end_time', ${ISO('end_time')}, 'filename', filename, 'file_path', file_path, 'checksum', checksum` : '';
  return `CAST(CASE WHEN change = 'changed' THEN json_object(${head}, 'fields', ${FIELDS_LIST}${tail}) ELSE json_object(${head}${tail}) END AS VARCHAR)`;
}

/** SQL: one entry as a `changesCsv` line (without its line end), the delimiter bound as `$delimiter`. */
function csvEntrySql(expanded: boolean): string {
  const values = [
    'snapshot',
    ISO('taken_at'),
    'resource',
    'CAST(id AS VARCHAR)',
    'change',
    `CASE WHEN change = 'changed' THEN CAST(to_json(${FIELDS_LIST}) AS VARCHAR) END`,
    ...(expanded ? ['radar_code', ISO('start_time'), ISO('end_time'), 'filename', 'file_path', 'checksum'] : []),
  ];
  return `array_to_string(list_transform([${values.join(', ')}], ${CSV_QUOTE}), $delimiter)`;
}

export type ChangesRender = 'json' | 'csv' | 'checksum';

/**
 * SQL over the history table (`source`, HISTORY_TABLE) with bound parameters: `(k, t)` rows, `t` one entry's
 * text in the answer's format (lib/duckdb.ts joined bytes), in the answer's order.
 */
export function changesSql(source: string, q: ChangesQuery, render: ChangesRender = q.checksum ? 'checksum' : 'json', delimiter = ','): SqlFragment {
  const where = ['taken_at > $since'];
  const params: SqlFragment['params'] = { since: q.since };
  if (q.params.radarCode !== undefined) {
    where.push('radar_code = $radar');
    params['radar'] = q.params.radarCode;
  }
  if (q.params.timespan) {
    where.push('start_time <= $tend AND end_time >= $tstart');
    params['tstart'] = q.params.timespan.start;
    params['tend'] = q.params.timespan.end;
  }
  if (q.checksum) {
    where.push("resource = 'files'", "change <> 'removed'");
    return {
      sql: `SELECT id AS k, ${checksumRecordSql('checksum', 'filename')} AS t FROM ${source} WHERE ${where.join(' AND ')} QUALIFY row_number() OVER (PARTITION BY id ORDER BY taken_at DESC) = 1 AND checksum IS NOT NULL ORDER BY id`,
      params,
    };
  }
  if (render === 'csv') params['delimiter'] = delimiter;
  const text = render === 'csv' ? csvEntrySql(q.params.expanded) : jsonEntrySql(q.params.expanded);
  // the table is in this order already; ORDER BY keeps it so whatever the scan does
  return { sql: `SELECT id AS k, ${text} AS t FROM ${source} WHERE ${where.join(' AND ')} ORDER BY taken_at, snapshot, resource, id`, params };
}

export interface ChangeRow {
  snapshot: string;
  taken_at: number;
  resource: string;
  id: number | bigint;
  change: 'added' | 'changed' | 'removed';
  fields: string[] | null;
  radar_code: string | null;
  start_time: number | null;
  end_time: number | null;
  filename: string | null;
  file_path: string | null;
  checksum: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An entry as the JSON and CSV answers hold it (the form the SQL above renders, kept as its reference). */
export function changeEntry(r: ChangeRow, expanded: boolean): Record<string, unknown> {
  const e: Record<string, unknown> = { snapshot: r.snapshot, taken_at: iso(r.taken_at), resource: r.resource, id: Number(r.id), change: r.change };
  if (r.change === 'changed') e['fields'] = r.fields ?? [];
  if (expanded) {
    e['radar_code'] = r.radar_code;
    e['start_time'] = iso(r.start_time);
    e['end_time'] = iso(r.end_time);
    e['filename'] = r.filename;
    e['file_path'] = r.file_path;
    e['checksum'] = r.checksum;
  }
  return e;
}

export function changesJson(rows: ChangeRow[], expanded: boolean): string {
  return JSON.stringify(rows.map((r) => changeEntry(r, expanded)));
}

function csvValue(v: unknown, delimiter: string): string {
  if (v === null || v === undefined) return '';
  const s = Array.isArray(v) ? JSON.stringify(v) : String(v);
  return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** CSV as the catalogue writes it (RFC 4180, CRLF): `fields` as a JSON array, empty where the entry has none. */
export function changesCsv(rows: ChangeRow[], expanded: boolean, delimiter: string, header: boolean): string {
  const cols: string[] = [...CHANGE_FIELDS, ...(expanded ? CHANGE_EXPANDED_FIELDS : [])];
  const lines = rows.map((r) => {
    const e = changeEntry(r, expanded);
    return cols.map((c) => csvValue(e[c], delimiter)).join(delimiter);
  });
  if (header) lines.unshift(cols.map((c) => csvValue(c, delimiter)).join(delimiter));
  return lines.map((l) => `${l}\r\n`).join('');
}

/** A checksum line as GNU sha1sum writes it (core/radar/record-sql.ts checksumRecordSql, the same escapes). */
export function checksumLine(checksum: string, filename: string): string {
  if (!/[\\\n\r]/.test(filename)) return `${checksum}  ${filename}\n`;
  return `\\${checksum}  ${filename.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}\n`;
}

export function changesChecksumReport(rows: ChangeRow[]): string {
  return rows.map((r) => checksumLine(r.checksum!, r.filename!)).join('');
}
