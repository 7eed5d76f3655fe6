/**
 * Answers `/radarnet/mirror/v3/...` and the same API under `/superdarn/mirror/v3/...` (BAS_PREFIX): the static file
 * where one holds the answer, else a live DuckDB query. The tree is written under the spec's prefix; a request under
 * the alias reads the same files, but gets the index and HTML pages (whose links name a prefix) made for its prefix.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badParameter, HttpError, notFound } from '../core/http/errors.ts';
import { negotiate } from '../core/http/media-types.ts';
import { FILE_TYPES } from '../core/formats/files.ts';
import { contentTypeOf } from '../core/formats/media.ts';
import { bodyFrame } from '../core/radar/bodies.ts';
import { attachment } from '../core/http/download.ts';
import { downloadName } from '../core/radar/download-name.ts';
import { residentBody, residentCanAnswer, residentRows, residentVariant } from '../core/radar/resident.ts';
import { routeDocPage } from '../core/radar/html-doc.ts';
import { CONTENT_TYPES, MEDIA_TYPES, TREE_FILE_EXTENSIONS, type Format } from '../core/formats/radar.ts';
import { needsLiveQuery, parseRadarParams } from '../core/radar/params.ts';
import { isBulk, likelySmall, recordQuery, WHOLE_MAX_ROWS } from '../core/radar/queries.ts';
import { csvHeader, type RecordFormat } from '../core/radar/record-sql.ts';
import { RESOURCES, viewFields } from '../core/radar/resources.ts';
import { indexDocument, matchRadarRoute, RADAR_PREFIX, routeFormats, type RadarPrefix, type RadarRoute } from '../core/radar/routes.ts';
import { holdsPrefix, staticFile, treeFileRequest, variantFor } from '../core/radar/static-tree.ts';
import { materializedJoinedBytes, streamJoinedBytes } from '../lib/duckdb.ts';
import { API_HEADERS, redirect, sendBytes, sendText, treeFilePath, trySendFile, writePieces } from './respond.ts';
import type { ServedBuild } from './served-build.ts';

const FORMAT_OF_MEDIA = Object.fromEntries(Object.entries(MEDIA_TYPES).map(([f, m]) => [m, f as Format])) as Record<string, Format>;

const INT64_MAX = 9223372036854775807n;

/**
 * The `:id` segment: an integer, else 400. An integer written otherwise than in its plain decimal form (`0001`,
 * `-0`) names no record, as on a static host (no tree file has that name) and behind nginx: 404, whose hints name
 * the record's path (docs/radar-api-notes.md).
 */
function parseId(raw: string, prefix: RadarPrefix): bigint | { absent: true; canonical?: string } {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    text = raw;
  }
  if (!/^-?\d+$/.test(text)) throw badParameter(':id', `must be an integer, not '${text}'`, `${prefix}/files/1`);
  const id = BigInt(text);
  if (id < 0n || id > INT64_MAX) return { absent: true };
  if (id.toString() !== text) return { absent: true, canonical: id.toString() };
  return id;
}

function chooseFormat(req: IncomingMessage, route: RadarRoute, contentType: Format | undefined): Format {
  const formats = routeFormats(route);
  if (contentType !== undefined) {
    if (!formats.includes(contentType)) {
      throw new HttpError(406, `This path cannot produce ${MEDIA_TYPES[contentType]}`, {
        hints: [`This path produces: ${formats.map((f) => MEDIA_TYPES[f]).join(', ')}`, 'A valid example: contentType=json'],
      });
    }
    return contentType;
  }
  return FORMAT_OF_MEDIA[negotiate(req.headers.accept, formats.map((f) => MEDIA_TYPES[f]))]!;
}

function notFoundFor(route: RadarRoute, apiPath: string, prefix: RadarPrefix): HttpError {
  return notFound(`No record at ${apiPath}`, [`The collection ${prefix}${route.path.slice(0, -'/:id'.length)} lists the ids there are`]);
}

const TREE_FILE = new RegExp(`\\.(${TREE_FILE_EXTENSIONS.join('|')})$`);

/**
 * A request naming a file of the static tree itself (`/radarnet/mirror/v3/radars/6.json`, as a static host
 * serves it, whatever the query, and the docs site links it): that file. No API path ends in these suffixes.
 * Under BAS_PREFIX the file of the same name under the spec's prefix, but a file holding links (the index, an
 * HTML page) is made again with links under BAS_PREFIX.
 */
async function sendTreeFile(req: IncomingMessage, res: ServerResponse, rest: string, build: ServedBuild, prefix: RadarPrefix): Promise<boolean> {
  const m = TREE_FILE.exec(rest);
  const file = m && treeFilePath(build.site, `${RADAR_PREFIX}${rest}`);
  if (!m || !file) return false;
  // the name as decoded (`%36.csv` is `6.csv`), after the prefix
  const root = join(build.site, RADAR_PREFIX);
  const named = file.startsWith(`${root}/`) ? treeFileRequest(file.slice(root.length)) : undefined;
  if (prefix !== RADAR_PREFIX && named && holdsPrefix(named)) {
    const route = matchRadarRoute(named.path)?.route;
    if (!route || !(await stat(file).then((st) => st.isFile(), () => false))) return false;
    const html = named.variant.format === 'html';
    sendText(req, res, 200, CONTENT_TYPES[named.variant.format], html ? routeDocPage(route, prefix) : JSON.stringify(indexDocument(prefix)));
    return true;
  }
  const name = named && downloadName(named.path, named.variant);
  return trySendFile(req, res, file, contentTypeOf(FILE_TYPES[m[1]!]!), downloadHeaders(name));
}

/** Content-Disposition of a download (CSV, checksum report; download-name.ts), none for other answers. */
function downloadHeaders(name: string | undefined): Record<string, string> {
  return name === undefined ? {} : { 'Content-Disposition': attachment(name) };
}

/** `prefix`: the one the request came in on (radarPrefixOf); links the answer writes follow it. */
export async function handleRadar(req: IncomingMessage, res: ServerResponse, url: URL, build: ServedBuild, liveOnly = false, prefix: RadarPrefix = RADAR_PREFIX): Promise<void> {
  const rest = url.pathname.slice(prefix.length);
  if (rest === '') return redirect(req, res, `${prefix}/${url.search}`);
  if (!liveOnly && (await sendTreeFile(req, res, rest, build, prefix))) return;
  const match = matchRadarRoute(rest);
  if (!match) {
    throw notFound(`No such path: ${url.pathname}`, [`The index ${prefix}/ lists every path`, ...(rest.endsWith('/') && matchRadarRoute(rest.slice(0, -1)) ? [`Without the trailing slash: ${prefix}${rest.slice(0, -1)}`] : [])]);
  }
  const { route } = match;
  const params = parseRadarParams(url.searchParams);
  const format = chooseFormat(req, route, params.contentType);
  const id = match.id === undefined ? undefined : parseId(match.id, prefix);
  const apiPath = `${prefix}${rest}`;
  if (typeof id === 'object') {
    const e = notFoundFor(route, apiPath, prefix);
    if (id.canonical !== undefined) e.hints.unshift(`Ids are written in plain decimal: ${prefix}${route.path.slice(0, -':id'.length)}${id.canonical}`);
    throw e;
  }
  if (format === 'html') return sendText(req, res, 200, CONTENT_TYPES.html, routeDocPage(route, prefix));
  if (route.shape === 'index') return sendText(req, res, 200, CONTENT_TYPES.json, JSON.stringify(indexDocument(prefix)));
  const variant = variantFor(format, params.expanded);
  const download = downloadHeaders(downloadName(id === undefined ? rest : `${route.path.slice(0, -':id'.length)}${id}`, variant, params));

  if (!liveOnly && !needsLiveQuery(params)) {
    // the tree is written under the spec's prefix, whichever the request came in on
    const file = join(build.site, staticFile(`${RADAR_PREFIX}${rest}`, variant));
    if (await trySendFile(req, res, file, CONTENT_TYPES[format], download)) return;
  }
  if (!build.radar) throw new HttpError(503, 'This build has no radar catalogue database', { hints: ['Build a snapshot that declares radarnet-mirror-v3'] });
  const radar = build.radar;
  const resource = RESOURCES[route.resource!];
  const recordFormat = format as RecordFormat;
  const header = recordFormat === 'csv' && params.includeHeaders ? csvHeader(viewFields(resource, params.expanded), params.delimiter) : undefined;
  const frame = bodyFrame(recordFormat, route.shape, header);

  const resident = radar.resident[resource.name];
  if (residentCanAnswer(resident, route, recordFormat, params.expanded, params)) {
    const rows = residentRows(resident, params, id, radar.facts.maxDurationMs[resource.name] ?? 0);
    if (id !== undefined && rows.length === 0) throw notFoundFor(route, apiPath, prefix);
    return sendBytes(req, res, CONTENT_TYPES[format], residentBody(resident.texts[residentVariant(recordFormat, params.expanded)]!, rows, frame), 200, download);
  }

  const q = recordQuery({ route, format: recordFormat, expanded: params.expanded, selection: params, ...(id === undefined ? {} : { id }) }, radar.facts);
  await radar.pool.with(async (conn, answering, leaveLane) => {
    const whole = likelySmall(params, id) ? await materializedJoinedBytes(conn, q, WHOLE_MAX_ROWS, frame.separator, frame.terminator) : undefined;
    const batches = (whole ? (async function* () { yield* whole; })() : streamJoinedBytes(conn, q, frame.separator, frame.terminator))[Symbol.asyncIterator]();
    const first = await batches.next();
    if (id !== undefined && (first.done || first.value.rows === 0)) throw notFoundFor(route, apiPath, prefix);
    // The answer begins: from here the client's pace, not the query's, sets the time (writePieces drops a stalled client).
    answering();
    res.writeHead(200, { ...API_HEADERS, 'Content-Type': CONTENT_TYPES[format], ...download });
    if (req.method === 'HEAD') {
      res.end();
      await batches.return?.(undefined);
      return;
    }
    async function* pieces(): AsyncGenerator<string | Buffer> {
      yield frame.open;
      let wrote = false;
      for (let next = first; !next.done; next = await batches.next()) {
        const { bytes } = next.value;
        if (bytes.length === 0) continue;
        if (wrote) yield frame.separator;
        wrote = true;
        yield bytes;
      }
      yield frame.close;
    }
    // A client slower than DuckDB (kept waiting a second) holds its scan and a chunk, but not the CPU: it gives up its
    // bulk turn, so one slow download does not hold up every other large answer.
    await writePieces(res, pieces(), { onSlowClient: leaveLane });
    if (res.destroyed) await batches.return?.(undefined);
  }, { bulk: isBulk(params, id) });
}
