/**
 * The paths of the Timeseries API under `/api/v1`, once: the endpoint matches requests against them, the
 * build walks them for the static tree, the docs list them.
 *
 * A path may end in `/` (52°North's examples write `/api/v1/stations/`) and its last segment in `.json`,
 * `.png` or `.pdf`, which select the media type like `Accept` (DECISIONS.md).
 */
import { COLLECTIONS, type CollectionName } from './catalogue.ts';
import { PRERENDER_INTERVALS, type PrerenderInterval } from '../snapshot/timeseries-config.ts';
import { OPTION_KEYS } from './data-request.ts';
import { FILTERS } from './params.ts';
import { REPRESENTATIONS, TIMESERIES_FORMATS, type Representation } from '../formats/timeseries.ts';

export const TIMESERIES_PREFIX = '/api/v1';

export type TimeseriesRoute =
  | { kind: 'index' }
  | { kind: 'collection'; collection: CollectionName }
  | { kind: 'item'; collection: CollectionName; id: string }
  | { kind: 'search' }
  | { kind: 'getData'; id: string }
  /** `/timeseries/{id}/extras`: 52°North's extra metadata (license, status intervals, rendering hints). */
  | { kind: 'extras'; id: string }
  | { kind: 'postData' }
  /** `/timeseries/{id}/{name}`: a pre-rendered chart; `interval` undefined when `name` is none of them. */
  | { kind: 'chart'; id: string; name: string; interval: PrerenderInterval | undefined; qualifier: string | undefined };

/** `.csv` and `.zip` only on `getData` (the data downloads). */
export type PathExtension = Representation;

/** `.json`, `.png`, `.pdf` on any path (any case); `getData.csv`, `getData.zip` (lower or upper case) on the data paths (TIMESERIES_FORMATS). */
const ANY_EXTENSION = new RegExp(`\\.(${REPRESENTATIONS.filter((r) => TIMESERIES_FORMATS[r].pathExtension === 'any').join('|')})$`, 'i');
const GETDATA_EXTENSION = new RegExp(`^getData\\.(${REPRESENTATIONS.filter((r) => TIMESERIES_FORMATS[r].pathExtension === 'getData').flatMap((r) => [r, r.toUpperCase()]).join('|')})$`);

export interface PathMatch {
  route: TimeseriesRoute;
  extension: PathExtension | undefined;
  /** The API path without trailing slash and extension (`/api/v1/stations/sta_x`; the index: `/api/v1/`). */
  apiPath: string;
}

/** The API as a whole, for the docs. */
export const TIMESERIES_API = {
  title: 'Timeseries Access API',
  version: 'v1',
  description:
    'Read access to near-real-time sensor timeseries: stations, timeseries and the collections that organise them, raw data as JSON, ' +
    `charts as PNG and reports as PDF. Every path starts with ${TIMESERIES_PREFIX}; ${TIMESERIES_PREFIX} itself redirects (301) to ${TIMESERIES_PREFIX}/, ` +
    'and a path may end in / (same resource). A path ending in .json, .png or .pdf selects the media type like Accept and wins over it. ' +
    'GET and HEAD on every path but /timeseries/getData, which answers POST; OPTIONS (the CORS preflight, 204) on every path; any other method is 405. ' +
    'Unknown query parameters are ignored; of a repeated one the first value counts. Every "now" is the instant the snapshot was taken.',
};

/** The id prefix and an example id of each collection's resources. */
export const COLLECTION_IDS: Record<CollectionName, { prefix: string; example: string }> = {
  services: { prefix: 'srv', example: 'srv_rivers' },
  categories: { prefix: 'cat', example: 'cat_hydrology' },
  offerings: { prefix: 'off', example: 'off_water_level_raw' },
  features: { prefix: 'foi', example: 'foi_koeln_rhein' },
  procedures: { prefix: 'pro', example: 'pro_radar_gauge' },
  phenomena: { prefix: 'phe', example: 'phe_water_level' },
  stations: { prefix: 'sta', example: 'sta_koeln_rhein' },
  timeseries: { prefix: 'ts', example: 'ts_koeln_rhein_water_level' },
};

/** The path parameters (`{id}`, `{interval}`), with an example and their meaning (for the docs). */
export const PATH_PARAM_DOCS: { name: 'id' | 'interval'; example: string; meaning: string }[] = [
  { name: 'id', example: COLLECTION_IDS.timeseries.example, meaning: "The resource's id: its collection's prefix, an underscore and a name. No such resource: 404." },
  {
    name: 'interval',
    example: 'lastWeek',
    meaning: `A pre-rendered chart: ${PRERENDER_INTERVALS.join(', ')} (ending at the snapshot instant), optionally followed by _<chartQualifier> as configured, and by .png. Any other name, or none rendered: 404; .pdf: 406.`,
  },
];

/** The data options: read by GET getData and, from the query or the body, by POST getData. */
const DATA_PARAMS = OPTION_KEYS;
/** Chart options besides the data options (`style` on GET only: a POST names styles in styleOptions). */
const CHART_PARAMS = ['legend', 'grid', 'width', 'height', 'locale', 'language', 'fitReferenceValues', 'base64'];
/** CSV download options besides `locale` (data-csv.ts). */
const DOWNLOAD_PARAMS = ['bom', 'zip'];

/** Every path of the API with the query parameters it reads. */
export const TIMESERIES_ROUTES: { method: 'GET' | 'POST'; path: string; description: string; query: string[] }[] = [
  { method: 'GET', path: '/', description: 'Collection index: services, categories, offerings, features, procedures, phenomena, stations, timeseries.', query: ['expanded'] },
  { method: 'GET', path: '/search', description: 'Resources whose label contains q (case-insensitive, in the requested locale).', query: ['q', 'locale'] },
  ...COLLECTIONS.flatMap((c) => [
    {
      method: 'GET' as const,
      path: `/${c}`,
      description: `The ${c} collection (filters, paging${c === 'stations' ? ', crs, bbox, near' : ''}${c === 'timeseries' ? ', status_intervals, rendering_hints, force_latest_values' : ''}).`,
      query: ['expanded', 'locale', ...FILTERS, 'offset', 'limit', ...(c === 'stations' ? ['crs', 'bbox', 'near'] : []), ...(c === 'timeseries' ? ['status_intervals', 'rendering_hints', 'force_latest_values'] : [])],
    },
    {
      method: 'GET' as const,
      path: `/${c}/{id}`,
      description: `One of the ${c}.`,
      query: ['expanded', 'locale', ...(c === 'stations' ? ['crs'] : []), ...(c === 'timeseries' ? ['status_intervals', 'rendering_hints'] : [])],
    },
  ]),
  {
    method: 'GET',
    path: '/timeseries/{id}/getData',
    description:
      'Raw data of one timeseries (tvp, highchart or flot); with Accept image/png or application/pdf (or .png, .pdf), a chart or report (style, legend, grid, width, height, locale, base64); ' +
      'with Accept text/csv (or getData.csv) a CSV download, with application/zip (or getData.zip) the CSV in a ZIP (locale, bom, zip).',
    query: [...DATA_PARAMS, 'style', ...CHART_PARAMS, ...DOWNLOAD_PARAMS],
  },
  {
    method: 'GET',
    path: '/timeseries/{id}/extras',
    description: 'Extra metadata of one timeseries, as 52°North v1.10.8: {license, statusIntervals, renderingHints}, each present when the series has it; fields selects some.',
    query: ['fields'],
  },
  { method: 'GET', path: '/timeseries/{id}/{interval}', description: 'Pre-rendered chart PNG (lastDay, lastWeek, lastMonth; with a configured chartQualifier: lastWeek_<qualifier>).', query: [] },
  {
    method: 'POST',
    path: '/timeseries/getData',
    description:
      'Raw data of several timeseries ({"timespan", "timeseries": [ids]}); with Accept image/png or application/pdf, a chart or report ({"timespan", "styleOptions": {id: style}, "width", "height", "legend", "grid", "language"}); ' +
      'with Accept text/csv (or getData.csv) one CSV of all, with application/zip (or getData.zip) a ZIP of one CSV per series. The body\'s fields win over the query\'s.',
    query: [...DATA_PARAMS, ...CHART_PARAMS, ...DOWNLOAD_PARAMS],
  },
];

/** Whether a request target (`/api/v1/stations?x=1`) is on the API's paths. */
export function isTimeseriesTarget(target: string | undefined): boolean {
  // the path (before any `?`) is the prefix or under it; read in place, as every request asks it (no split)
  if (target === undefined || !target.startsWith(TIMESERIES_PREFIX)) return false;
  const next = target.charCodeAt(TIMESERIES_PREFIX.length);
  return Number.isNaN(next) || next === 0x2f /* / */ || next === 0x3f /* ? */;
}

function segment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Matches a request path; undefined when it is no path of the API. */
export function matchTimeseriesPath(pathname: string): PathMatch | undefined {
  if (!pathname.startsWith(`${TIMESERIES_PREFIX}/`)) return undefined;
  let rest = pathname.slice(TIMESERIES_PREFIX.length + 1);
  if (rest === '') return { route: { kind: 'index' }, extension: undefined, apiPath: `${TIMESERIES_PREFIX}/` };
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const raw = rest.split('/');
  const parts = raw.map(segment);
  if (parts.some((p) => p === undefined || p === '')) return undefined;
  const segs = parts as string[];
  let extension: PathExtension | undefined;
  const ext = ANY_EXTENSION.exec(segs.at(-1)!) ?? GETDATA_EXTENSION.exec(segs.at(-1)!);
  if (ext) {
    extension = ext[1]!.toLowerCase() as PathExtension;
    segs[segs.length - 1] = segs.at(-1)!.slice(0, -(ext[1]!.length + 1));
    if (segs.at(-1) === '') return undefined;
  }
  const apiPath = `${TIMESERIES_PREFIX}/${segs.map(encodeURIComponent).join('/')}`;
  const route = routeOf(segs);
  if ((extension === 'csv' || extension === 'zip') && route?.kind !== 'getData' && route?.kind !== 'postData') return undefined;
  return route && { route, extension, apiPath };
}

/** `lastWeek` or `lastWeek_with_legend`: an interval and 52°North's optional chart qualifier. */
const CHART_NAME = /^([A-Za-z]+)(?:_([A-Za-z0-9_-]+))?$/;

function routeOf(segs: string[]): TimeseriesRoute | undefined {
  const [a, b, c] = segs;
  const collection = (COLLECTIONS as readonly string[]).includes(a!) ? (a as CollectionName) : undefined;
  if (segs.length === 1) {
    if (a === 'search') return { kind: 'search' };
    return collection && { kind: 'collection', collection };
  }
  if (!collection) return undefined;
  if (segs.length === 2) {
    if (collection === 'timeseries' && b === 'getData') return { kind: 'postData' };
    return { kind: 'item', collection, id: b! };
  }
  if (segs.length === 3 && collection === 'timeseries') {
    if (c === 'getData') return { kind: 'getData', id: b! };
    if (c === 'extras') return { kind: 'extras', id: b! };
    const m = CHART_NAME.exec(c!);
    const interval = m && (PRERENDER_INTERVALS as readonly string[]).includes(m[1]!) ? (m[1] as PrerenderInterval) : undefined;
    return { kind: 'chart', id: b!, name: c!, interval, qualifier: interval ? m![2] : undefined };
  }
  return undefined;
}

/** The methods a route answers (HEAD with GET; OPTIONS, the CORS preflight, everywhere). */
export function allowedMethods(route: TimeseriesRoute): string[] {
  return route.kind === 'postData' ? ['POST', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
}
