/**
 * `GET <prefix>/changes?since=…` (core/radar/changes.ts, docs/changes.md): the radar catalogue's changes in the
 * snapshots after `since`, from the build's kept history (`history/radar-changes.parquet`), queried in DuckDB on
 * the catalogue's connection pool. A live answer only: it depends on `since`, so the tree has no file for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/http/errors.ts';
import { negotiate } from '../core/http/media-types.ts';
import { CHANGE_EXPANDED_FIELDS, CHANGE_FIELDS, changesSql, HISTORY_TABLE, historyTableSql, sinceInstant, type ChangesRender, type HistorySnapshot } from '../core/radar/changes.ts';
import { csvHeader } from '../core/radar/record-sql.ts';
import { MEDIA_TYPES, parseRadarParams, type Format } from '../core/radar/params.ts';
import type { RadarPrefix } from '../core/radar/routes.ts';
import { materializedJoinedBytes, run, sqlString } from '../lib/duckdb.ts';
import type { ConnectionPool } from '../lib/duckdb-pool.ts';
import { attachment } from '../core/http/download.ts';
import { sendBytes } from './respond.ts';
import type { ServedBuild } from './served-build.ts';

export const HISTORY_DIR = 'history';
const SNAPSHOTS = 'snapshots.json';
const RADAR_CHANGES = 'radar-changes.parquet';

const TYPES: Partial<Record<Format, string>> = { json: 'application/json', csv: 'text/csv; charset=utf-8', checksum: 'text/plain; charset=utf-8' };
const FORMATS: Format[] = ['json', 'csv', 'checksum'];

/** A build's snapshots.json, read once per build. */
const histories = new WeakMap<ServedBuild, { bytes: Buffer; snapshots: HistorySnapshot[] } | null>();
export function buildHistory(build: ServedBuild): { bytes: Buffer; snapshots: HistorySnapshot[] } | null {
  let h = histories.get(build);
  if (h === undefined) {
    try {
      const bytes = readFileSync(join(build.folder, HISTORY_DIR, SNAPSHOTS));
      h = { bytes, snapshots: (JSON.parse(bytes.toString('utf8')) as { snapshots: HistorySnapshot[] }).snapshots };
    } catch {
      h = null;
    }
    histories.set(build, h);
  }
  return h;
}

/**
 * Loads the build's `history/radar-changes.parquet` into HISTORY_TABLE of its catalogue's DuckDB instance, when
 * the build is opened (server/served-build.ts): false if the build keeps no history. At the default 30 kept
 * snapshots of a busy day each (2,885 entries) that is about 90,000 rows, a few MB.
 */
export async function loadChangeHistory(pool: ConnectionPool, folder: string): Promise<boolean> {
  const file = join(folder, HISTORY_DIR, RADAR_CHANGES);
  if (!existsSync(file)) return false;
  await pool.withoutLimit(async (c) => {
    for (const sql of historyTableSql(`read_parquet(${sqlString(file)})`)) await run(c, sql);
  });
  return true;
}

/** Entries one answer may hold, read whole: the kept history bounds them anyway (as the rows it held in JS did). */
const MAX_ENTRIES = 10_000_000;

export async function handleChanges(req: IncomingMessage, res: ServerResponse, url: URL, build: ServedBuild, prefix: RadarPrefix): Promise<void> {
  const params = parseRadarParams(url.searchParams);
  let format: Format;
  if (params.contentType !== undefined) {
    if (!FORMATS.includes(params.contentType)) {
      throw new HttpError(406, `This path cannot produce ${MEDIA_TYPES[params.contentType]}`, {
        hints: [`This path produces: ${FORMATS.map((f) => MEDIA_TYPES[f]).join(', ')}`, 'A valid example: contentType=json'],
      });
    }
    format = params.contentType;
  } else {
    const type = negotiate(req.headers.accept, FORMATS.map((f) => MEDIA_TYPES[f]));
    format = FORMATS.find((f) => MEDIA_TYPES[f] === type)!;
  }
  const history = buildHistory(build);
  const since = sinceInstant(url.searchParams.get('since'), history?.snapshots ?? [], prefix);
  if (!build.radar) throw new HttpError(503, 'This build has no radar catalogue database', { hints: ['Build a snapshot that declares radarnet-mirror-v3'] });
  if (!build.radar.history) throw new HttpError(503, 'This build keeps no radar change history', { hints: ['GET /snapshots.json lists the kept snapshots'] });
  const q = changesSql(HISTORY_TABLE, { since, params, checksum: format === 'checksum' }, format as ChangesRender, params.delimiter);
  // JSON: the entries joined by commas inside brackets; CSV and the checksum report: each line with its end
  const [separator, terminator] = format === 'json' ? [',', ''] : ['', format === 'csv' ? '\r\n' : '\n'];
  const batches = (await build.radar.pool.with((c) => materializedJoinedBytes(c, q, MAX_ENTRIES, separator, terminator)))!;
  const download: Record<string, string> = format === 'json' ? {} : { 'Content-Disposition': attachment(format === 'csv' ? 'changes.csv' : 'changes.sha1') };
  const pieces: Buffer[] = [];
  if (format === 'json') pieces.push(Buffer.from('['));
  if (format === 'csv' && params.includeHeaders) {
    const names = [...CHANGE_FIELDS, ...(params.expanded ? CHANGE_EXPANDED_FIELDS : [])];
    pieces.push(Buffer.from(`${csvHeader(names.map((name) => ({ name, column: name, kind: 'text' })), params.delimiter)}\r\n`));
  }
  // a batch is one chunk's texts joined: the separator goes between two batches too
  batches.forEach((b, i) => pieces.push(...(i > 0 && separator ? [Buffer.from(separator)] : []), b.bytes));
  if (format === 'json') pieces.push(Buffer.from(']'));
  sendBytes(req, res, TYPES[format]!, Buffer.concat(pieces), 200, download);
}
