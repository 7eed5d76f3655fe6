/**
 * Raw data as downloads (core/timeseries/data-csv.ts): `GET /timeseries/{id}/getData.csv` (or `Accept:
 * text/csv`), `getData.zip` (or `Accept: application/zip`, or `zip=true`) as Helgoland's export asks for it,
 * and the same on `POST /timeseries/getData`. Each answer is an attachment named by the series and timespan.
 * The ZIP's entries carry the snapshot's instant as their time, so one request always gives the same bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MEDIA_TYPE } from '../core/timeseries/charts.ts';
import { dataOf, type DataRequest } from '../core/timeseries/data.ts';
import { asciiFileName, attachment } from '../core/http/download.ts';
import { csvText, downloadName, DOWNLOAD_KEYS, readDownload, type Download } from '../core/timeseries/data-csv.ts';
import { MAX_POST_BYTES, POST_EXAMPLE, readGetData, readPostData, withBodyOptions } from '../core/timeseries/data-request.ts';
import { zipArchive } from '../lib/zip.ts';
import { sendBytes } from './respond.ts';
import { parseJsonBody, readBody, type Timeseries } from './timeseries-data.ts';

async function sendDownload(req: IncomingMessage, res: ServerResponse, ts: Timeseries, request: DataRequest, download: Download, withId: boolean): Promise<void> {
  // a download holds the values only: reference values (expanded) are not asked of the source
  const series = await dataOf(ts.catalogue, ts.series.source, { ...request, expanded: false });
  const ids = series.map((s) => s.id);
  let body: Buffer;
  let type: string;
  if (download.kind === 'zip') {
    const entries = series.map((s) => ({ name: asciiFileName(`${s.id}.csv`), data: Buffer.from(csvText([s], { dialect: download.dialect, bom: download.bom, withId: false }), 'utf8') }));
    body = zipArchive(entries, ts.catalogue.takenAt);
    type = MEDIA_TYPE.zip;
  } else {
    body = Buffer.from(csvText(series, { dialect: download.dialect, bom: download.bom, withId }), 'utf8');
    type = MEDIA_TYPE.csv;
  }
  // sendBytes: HEAD gets the length of what GET sends, compressed or not (compression.ts)
  sendBytes(req, res, type, body, 200, { 'Content-Disposition': attachment(downloadName(ids.length ? ids : ['timeseries'], request.span, download.kind)) });
}

/** `GET /timeseries/{id}/getData` as CSV or ZIP; `k` is the series' position. */
export function handleGetDownload(req: IncomingMessage, res: ServerResponse, ts: Timeseries, kind: 'csv' | 'zip', k: number, query: URLSearchParams): Promise<void> {
  const { request } = readGetData(query, ts.catalogue, k);
  return sendDownload(req, res, ts, request, readDownload(query, kind), false);
}

/** `POST /timeseries/getData` as one CSV of all the series (with a `timeseries` column) or a ZIP of one CSV each. */
export async function handlePostDownload(req: IncomingMessage, res: ServerResponse, ts: Timeseries, kind: 'csv' | 'zip', query: URLSearchParams): Promise<void> {
  const body = parseJsonBody(await readBody(req, MAX_POST_BYTES));
  const request = readPostData(body, query, ts.catalogue, ts.profile);
  const fields = (body ?? {}) as Record<string, unknown>;
  return sendDownload(req, res, ts, request, readDownload(withBodyOptions(query, fields, DOWNLOAD_KEYS, POST_EXAMPLE), kind), true);
}
