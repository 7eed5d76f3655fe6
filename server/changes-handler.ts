/**
 * `GET <prefix>/changes?since=…` (core/radar/changes.ts, docs/changes.md): the radar catalogue's changes in the
 * snapshots after `since`, from the build's kept history (`history/radar-changes.parquet`), queried in DuckDB on
 * the catalogue's connection pool. A live answer only: it depends on `since`, so the tree has no file for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/http/errors.ts';
import { negotiate } from '../core/http/media-types.ts';
import { changesChecksumReport, changesCsv, changesJson, changesSql, sinceInstant, type ChangeRow, type HistorySnapshot } from '../core/radar/changes.ts';
import { MEDIA_TYPES, parseRadarParams, type Format } from '../core/radar/params.ts';
import type { RadarPrefix } from '../core/radar/routes.ts';
import { all, sqlString } from '../lib/duckdb.ts';
import { attachment } from '../core/http/download.ts';
import { sendText } from './respond.ts';
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
  const source = `read_parquet(${sqlString(join(build.folder, HISTORY_DIR, RADAR_CHANGES))})`;
  const q = changesSql(source, { since, params, checksum: format === 'checksum' });
  const rows = (await build.radar.pool.with((c) => all(c, q))) as unknown as ChangeRow[];
  const download: Record<string, string> = format === 'json' ? {} : { 'Content-Disposition': attachment(format === 'csv' ? 'changes.csv' : 'changes.sha1') };
  const body = format === 'json' ? changesJson(rows, params.expanded) : format === 'csv' ? changesCsv(rows, params.expanded, params.delimiter, params.includeHeaders) : changesChecksumReport(rows);
  sendText(req, res, 200, TYPES[format]!, body, download);
}
