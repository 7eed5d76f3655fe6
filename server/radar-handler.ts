/**
 * Answers `/radarnet/mirror/v3/...` and the same API under `/superdarn/mirror/v3/...` (BAS_PREFIX): reads the
 * request (route, parameters, format, id), asks core/radar/answer-plan.ts what answers it (the static file where
 * one holds the answer, memory, a live DuckDB query), and carries the plan out. The tree is written under the spec's prefix; a request under
 * the alias reads the same files, but gets the index and HTML pages (whose links name a prefix) made for its prefix.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badParameter, HttpError, notFound } from '../core/http/errors.ts';
import { FILE_TYPES } from '../core/formats/files.ts';
import { contentTypeOf } from '../core/formats/media.ts';
import { CONTENT_TYPES, TREE_FILE_EXTENSIONS } from '../core/formats/radar.ts';
import type { BodyFrame } from '../core/radar/bodies.ts';
import { attachment } from '../core/http/download.ts';
import { answerPlan, chooseFormat, type AnswerPlan } from '../core/radar/answer-plan.ts';
import { downloadName } from '../core/radar/download-name.ts';
import { residentBody } from '../core/radar/resident.ts';
import { routeDocPage } from '../core/radar/html-doc.ts';
import { parseRadarParams } from '../core/radar/params.ts';
import { WHOLE_MAX_ROWS } from '../core/radar/queries.ts';
import { indexDocument, matchRadarRoute, RADAR_PREFIX, type RadarPrefix, type RadarRoute } from '../core/radar/routes.ts';
import { holdsPrefix, treeFileRequest } from '../core/radar/static-tree.ts';
import type { SqlFragment } from '../core/sql.ts';
import { materializedJoinedBytes, streamJoinedBytes, type JoinedBatch } from '../lib/duckdb.ts';
import type { ConnectionPool } from '../lib/duckdb-pool.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { Spooler, type Spool } from '../lib/spool.ts';
import { API_HEADERS, redirect, sendBytes, sendText, treeFilePath, trySendFile, writePieces } from './respond.ts';
import type { ServedBuild } from './served-build.ts';
import { handleChanges } from './changes-handler.ts';
import { CHANGES_PATH } from '../core/radar/changes.ts';

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
/** The spooler of an endpoint that names none (createApp gives its own). */
const SPOOLER = new Spooler();

export async function handleRadar(req: IncomingMessage, res: ServerResponse, url: URL, build: ServedBuild, liveOnly = false, prefix: RadarPrefix = RADAR_PREFIX, spooler: Spooler = SPOOLER): Promise<void> {
  const rest = url.pathname.slice(prefix.length);
  if (rest === '') return redirect(req, res, `${prefix}/${url.search}`);
  if (rest === CHANGES_PATH) return handleChanges(req, res, url, build, prefix);
  if (!liveOnly && (await sendTreeFile(req, res, rest, build, prefix))) return;
  const match = matchRadarRoute(rest);
  if (!match) {
    throw notFound(`No such path: ${url.pathname}`, [`The index ${prefix}/ lists every path`, ...(rest.endsWith('/') && matchRadarRoute(rest.slice(0, -1)) ? [`Without the trailing slash: ${prefix}${rest.slice(0, -1)}`] : [])]);
  }
  const { route } = match;
  const params = parseRadarParams(url.searchParams);
  const format = chooseFormat(req.headers.accept, route, params.contentType);
  const id = match.id === undefined ? undefined : parseId(match.id, prefix);
  const apiPath = `${prefix}${rest}`;
  if (typeof id === 'object') {
    const e = notFoundFor(route, apiPath, prefix);
    if (id.canonical !== undefined) e.hints.unshift(`Ids are written in plain decimal: ${prefix}${route.path.slice(0, -':id'.length)}${id.canonical}`);
    throw e;
  }
  const radar = build.radar;
  const plan = answerPlan({ prefix, route, id, format }, params, { tree: !liveOnly, catalogue: radar?.facts, resident: radar?.resident ?? {} });
  await carryOut(req, res, plan, () => notFoundFor(route, apiPath, prefix), build, spooler);
}

/** Carries out an answer plan (core/radar/answer-plan.ts); `absent` is the 404 of an id without records. */
async function carryOut(req: IncomingMessage, res: ServerResponse, plan: AnswerPlan, absent: () => HttpError, build: ServedBuild, spooler: Spooler): Promise<void> {
  const download = downloadHeaders(plan.download);
  switch (plan.kind) {
    case 'page':
      return sendText(req, res, 200, plan.contentType, routeDocPage(plan.route, plan.prefix));
    case 'index':
      return sendText(req, res, 200, plan.contentType, JSON.stringify(indexDocument(plan.prefix)));
    case 'tree-file':
      if (await trySendFile(req, res, join(build.site, plan.treeFile), plan.contentType, download)) return;
      return carryOut(req, res, { ...plan.otherwise(), contentType: plan.contentType, download: plan.download }, absent, build, spooler);
    case 'unavailable':
      throw new HttpError(503, 'This build has no radar catalogue database', { hints: ['Build a snapshot that declares radarnet-mirror-v3'] });
    case 'resident':
      if (plan.one && plan.rows.length === 0) throw absent();
      return sendBytes(req, res, plan.contentType, residentBody(plan.texts, plan.rows, plan.frame), 200, download);
    case 'query':
      return streamQuery(req, res, plan, absent, build, download, spooler);
    case 'pieces':
      return sendQueryAnswer(req, res, build.radar!.pool, plan.query, {
        bulk: false,
        small: false,
        pieces: plan.pieces,
        frame: plan.frame,
        spooler,
        headers: { ...API_HEADERS, 'Content-Type': plan.contentType, ...download },
        notFound: undefined,
      });
  }
}

/** Carries out a query plan: sendQueryAnswer, with the plan's frame, lane and size. */
async function streamQuery(req: IncomingMessage, res: ServerResponse, plan: Extract<AnswerPlan, { kind: 'query' }>, absent: () => HttpError, build: ServedBuild, download: Record<string, string>, spooler: Spooler): Promise<void> {
  await sendQueryAnswer(req, res, build.radar!.pool, plan.query, {
    bulk: plan.bulk,
    small: plan.mode === 'whole',
    frame: plan.frame,
    spooler,
    headers: { ...API_HEADERS, 'Content-Type': plan.contentType, ...download },
    notFound: plan.one ? absent : undefined,
  });
}

interface QueryAnswer {
  /** A bulk answer (queries.ts isBulk): it waits for a turn of the bulk lane. */
  bulk: boolean;
  /** Likely small (queries.ts likelySmall): read whole if it has at most WHOLE_MAX_ROWS rows. */
  small: boolean;
  /** The answer in pieces, each read whole in turn (queries.ts radarPieces), instead of `q` streamed. */
  pieces?: SqlFragment[];
  frame: BodyFrame;
  spooler: Spooler;
  headers: Record<string, string | number>;
  /** For a record's path: the 404 of an answer without rows. */
  notFound: (() => HttpError) | undefined;
}

/**
 * Answers a query. The connection is held only while DuckDB makes the rows, never while a client reads them:
 * - an answer read whole (a small one) is sent once the connection is back;
 * - a streamed answer's rows go, at DuckDB's pace, into a spool (lib/spool.ts: memory up to a bound, then a
 *   temporary file), which the client reads at its own pace, from the first chunk on; the connection goes back
 *   once the last row is spooled. A client that goes away closes the spool, which stops the query.
 * The time limit (lib/duckdb-pool.ts) runs until the first chunk is there, admission included.
 */
async function sendQueryAnswer(req: IncomingMessage, res: ServerResponse, pool: ConnectionPool, q: SqlFragment, a: QueryAnswer): Promise<void> {
  const { frame } = a;
  // opened once the answer streams (an answer read whole needs none)
  let spool: Spool | undefined;
  let sending: Promise<void> | undefined;
  let whole: JoinedBatch[] | undefined;
  try {
    await pool.with(
      async (conn, answering) => {
        whole = a.small ? await materializedJoinedBytes(conn, q, WHOLE_MAX_ROWS, frame.separator, frame.terminator) : undefined;
        if (whole) {
          if (a.notFound && !whole.some((b) => b.rows > 0)) throw a.notFound();
          return;
        }
        const batches = (a.pieces ? piecesJoinedBytes(conn, a.pieces, frame) : streamJoinedBytes(conn, q, frame.separator, frame.terminator))[Symbol.asyncIterator]();
        const first = await batches.next();
        if (a.notFound && (first.done || first.value.rows === 0)) throw a.notFound();
        // Slow clients' answers hold the spool's disk budget: an answer of more than one batch (DuckDB's chunk of
        // 2,048 rows) is refused before it begins; one of a single batch is small and goes on (a generator that is
        // done stays done, so the loop below ends after it).
        if (a.spooler.full && !first.done && !(await batches.next()).done) {
          await batches.return?.(undefined);
          throw spoolFull();
        }
        // The answer begins: from here DuckDB's pace sets the time, and the client's only that of the spool's reader.
        answering();
        res.writeHead(200, a.headers);
        if (req.method === 'HEAD') {
          res.end();
          await batches.return?.(undefined);
          return;
        }
        const opened = (spool = a.spooler.open());
        // a client gone already (while the query ran) closes it at once: the query stops at the first write
        if (res.destroyed) void opened.close();
        else res.once('close', () => void opened.close());
        sending = writePieces(res, spool.reader());
        const separator = Buffer.from(frame.separator);
        let wrote = false;
        let open = await spool.write(Buffer.from(frame.open));
        for (let next = first; open && !next.done; next = await batches.next()) {
          const { bytes } = next.value;
          if (bytes.length === 0) continue;
          if (wrote) open = await spool.write(separator);
          wrote = true;
          if (open) open = await spool.write(bytes);
        }
        // a client gone: the query stops here (its stream is dropped), and the connection goes back
        if (!open) return void (await batches.return?.(undefined));
        await spool.write(Buffer.from(frame.close));
        spool.end();
      },
      { bulk: a.bulk },
    );
  } catch (e) {
    // failed after its answer began: the reader ends with the error, and the client is disconnected (sendError)
    spool?.fail(e);
    await sending?.catch(() => undefined);
    await spool?.close();
    throw e;
  }
  if (whole) {
    res.writeHead(200, a.headers);
    if (req.method === 'HEAD') return void res.end();
    return writePieces(res, wholePieces(frame, whole));
  }
  try {
    await sending;
  } finally {
    await spool?.close();
  }
}

/**
 * An answer's pieces (queries.ts radarPieces), in order, each read whole (full chunks of 2,048 rows: a few trips
 * through node's thread pool instead of one per 46 rows); a piece holding more than WHOLE_MAX_ROWS after all (its
 * radar's rows crowd in it) is streamed instead. One piece's rows are held at a time.
 */
async function* piecesJoinedBytes(conn: DuckDBConnection, pieces: SqlFragment[], frame: BodyFrame): AsyncGenerator<JoinedBatch> {
  for (const piece of pieces) {
    const whole = await materializedJoinedBytes(conn, piece, WHOLE_MAX_ROWS, frame.separator, frame.terminator);
    if (whole) yield* whole;
    else yield* streamJoinedBytes(conn, piece, frame.separator, frame.terminator);
  }
}

/** A streamed answer refused because answers waiting for slow clients hold the spool's disk budget. */
function spoolFull(): HttpError {
  return new HttpError(503, 'Too many large answers are waiting for slow clients just now', {
    hints: ['Try again after the seconds in Retry-After', 'A narrower timespan or a radar_code gives a smaller answer, which does not wait on disk'],
    headers: { 'Retry-After': '10' },
  });
}

/** An answer read whole, framed. */
async function* wholePieces(frame: BodyFrame, batches: JoinedBatch[]): AsyncGenerator<string | Buffer> {
  yield frame.open;
  let wrote = false;
  for (const { bytes } of batches) {
    if (bytes.length === 0) continue;
    if (wrote) yield frame.separator;
    wrote = true;
    yield bytes;
  }
  yield frame.close;
}
