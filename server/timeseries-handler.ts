/**
 * Answers `/api/v1/...`, the Timeseries API: the static file where one holds the answer (a request whose
 * only parameters are those of a static variant), else a live answer from the in-memory catalogue and, for
 * data, the timeseries database. Both are computed by the same core functions, so they are the same bytes.
 */
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { READ_METHODS } from '../core/http/cors.ts';
import { badParameter, HttpError, notFound } from '../core/http/errors.ts';
import { collectionParts, indexAnswer, itemAnswer, searchAnswer } from '../core/timeseries/answer.ts';
import type { Catalogue, CollectionName } from '../core/timeseries/catalogue.ts';
import { chooseRepresentation, JSON_TYPE } from '../core/timeseries/charts.ts';
import { dataAnswer } from '../core/formats/timeseries.ts';
import { answerData } from '../core/timeseries/data.ts';
import { extrasOf } from '../core/timeseries/extras.ts';
import { localeFromAcceptLanguage } from '../core/timeseries/locale.ts';
import { readGetData } from '../core/timeseries/data-request.ts';
import { collectionIsStatic, itemIsStatic, readCollectionParams, readItemParams, readParam } from '../core/timeseries/params.ts';
import { allowedMethods, matchTimeseriesPath, TIMESERIES_PREFIX } from '../core/timeseries/routes.ts';
import { staticFile } from '../core/timeseries/static-tree.ts';
import { redirect, sendPieces, sendText, treeFilePath, trySendFile } from './respond.ts';
import type { ServedBuild } from './served-build.ts';
import { handlePostData, sendJsonBytes, type Timeseries } from './timeseries-data.ts';
import { handleGetChart, handlePostChart, handlePrerendered } from './timeseries-charts.ts';
import { handleGetDownload, handlePostDownload } from './timeseries-downloads.ts';
import type { ChartRenderer } from '../lib/chart-renderer.ts';

/** Sends the static file of an API path's variant; false when the tree has none. */
async function sendStatic(req: IncomingMessage, res: ServerResponse, build: ServedBuild, apiPath: string, expanded: boolean): Promise<boolean> {
  return trySendFile(req, res, join(build.site, staticFile(apiPath, expanded)), JSON_TYPE);
}

function idOf(cat: Catalogue, collection: CollectionName, id: string): number {
  const i = cat.ids[collection].get(id);
  if (i === undefined) throw notFound(`No ${collection} resource '${id}'`, [`The collection ${TIMESERIES_PREFIX}/${collection} lists the ids there are`]);
  return i;
}

/** The methods a path of the API answers (OPTIONS included); a path that is none of the API's: GET, HEAD, OPTIONS. */
export function timeseriesMethods(pathname: string): string[] {
  const match = matchTimeseriesPath(pathname);
  return match ? allowedMethods(match.route) : READ_METHODS;
}

export interface TimeseriesOptions {
  /** Answer by a query, never from the static tree. */
  liveOnly: boolean;
  /** The process's chart renderer (PNG and PDF). */
  renderer: ChartRenderer;
}

export async function handleTimeseries(req: IncomingMessage, res: ServerResponse, url: URL, build: ServedBuild, options: TimeseriesOptions): Promise<void> {
  const method = req.method ?? 'GET';
  if (url.pathname === TIMESERIES_PREFIX && (method === 'GET' || method === 'HEAD')) return redirect(req, res, `${TIMESERIES_PREFIX}/${url.search}`);
  const match = matchTimeseriesPath(url.pathname);
  // Accept-Language picks the labels' locale when the query names none (core/timeseries/locale.ts)
  const headerLocale = () => build.timeseries && localeFromAcceptLanguage(req.headers['accept-language'], build.timeseries.catalogue.locales);
  // A file of the static tree by its own name, without a query (`/api/v1/index.json`, `stations.expanded.json`),
  // as a static host serves it and the docs site links it; but not a collection or resource (`stations.json`)
  // asked for in a language the labels have.
  const labelled = match?.route.kind === 'collection' || match?.route.kind === 'item';
  if (!options.liveOnly && url.search === '' && (method === 'GET' || method === 'HEAD') && /\.json$/.test(url.pathname) && !(labelled && headerLocale())) {
    const file = treeFilePath(build.site, url.pathname);
    if (file && (await trySendFile(req, res, file, JSON_TYPE))) return;
  }
  if (!match) throw notFound(`No such path: ${url.pathname}`, [`The index ${TIMESERIES_PREFIX}/ lists the collections`]);
  const { route, apiPath } = match;
  const methods = allowedMethods(route);
  if (!methods.includes(method)) {
    const allow = methods.join(', ');
    throw new HttpError(405, `Method ${method} is not allowed on ${url.pathname}`, { hints: [`Allowed: ${allow}`], headers: { Allow: allow } });
  }
  const ts: Timeseries | undefined = build.timeseries;
  if (!ts) throw new HttpError(503, 'This build has no timeseries database', { hints: ['Build a snapshot that declares timeseries-v1'] });
  const cat = ts.catalogue;
  if (route.kind === 'chart') {
    // an image path (`lastDay`, `lastDay.png`): no JSON to negotiate
    idOf(cat, 'timeseries', route.id);
    return handlePrerendered(req, res, build, route, match.extension);
  }
  const charts = route.kind === 'getData' || route.kind === 'postData';
  const representation = chooseRepresentation(req.headers.accept, match.extension, charts);
  const q = url.searchParams;
  const fromTree = (expanded: boolean) => !options.liveOnly && sendStatic(req, res, build, apiPath, expanded);

  switch (route.kind) {
    case 'index': {
      const expanded = readParam(q, 'expanded') ?? false;
      if (await fromTree(expanded)) return;
      return sendText(req, res, 200, JSON_TYPE, indexAnswer(cat, expanded, ts.profile));
    }
    case 'search': {
      const text = readParam(q, 'q');
      if (text === undefined) throw badParameter('q', 'is missing: search needs a text to look for', 'q=rhein');
      return sendText(req, res, 200, JSON_TYPE, searchAnswer(cat, text, readParam(q, 'locale') ?? headerLocale()));
    }
    case 'collection': {
      const p = readCollectionParams(q, route.collection);
      p.locale ??= headerLocale();
      if (collectionIsStatic(p) && (await fromTree(p.expanded))) return;
      const a = collectionParts(cat, route.collection, p, url.pathname, q);
      return sendPieces(req, res, JSON_TYPE, a.pieces(), a.links.length ? { Link: a.links.join(', ') } : {});
    }
    case 'item': {
      const i = idOf(cat, route.collection, route.id);
      const p = readItemParams(q, route.collection);
      p.locale ??= headerLocale();
      if (itemIsStatic(p) && (await fromTree(false))) return;
      return sendText(req, res, 200, JSON_TYPE, itemAnswer(cat, route.collection, i, p));
    }
    case 'getData': {
      const k = idOf(cat, 'timeseries', route.id);
      const answer = dataAnswer(representation);
      switch (answer.kind) {
        case 'download':
          return handleGetDownload(req, res, ts, answer.representation, k, q);
        case 'chart':
          return handleGetChart(req, res, ts, options.renderer, answer.representation, k, q);
        case 'document': {
          const { request, isStatic } = readGetData(q, cat, k);
          if (isStatic && (await fromTree(request.expanded))) return;
          const body = await answerData(cat, ts.series.source, request);
          return sendJsonBytes(req, res, body);
        }
      }
    }
    case 'extras': {
      const k = idOf(cat, 'timeseries', route.id);
      return sendText(req, res, 200, JSON_TYPE, JSON.stringify(extrasOf(cat, cat.timeseries[k]!, readParam(q, 'fields'))));
    }
    case 'postData': {
      const answer = dataAnswer(representation);
      switch (answer.kind) {
        case 'download':
          return handlePostDownload(req, res, ts, answer.representation, q);
        case 'chart':
          return handlePostChart(req, res, ts, options.renderer, answer.representation, q);
        case 'document':
          return handlePostData(req, res, ts, q);
      }
    }
  }
}
