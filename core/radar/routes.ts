/**
 * The route table of the radar catalogue: every path of the spec, once. The static build walks it to write
 * the tree, the endpoint matches requests against it, the docs list it.
 */
import type { ResourceName } from './resources.ts';
import { RESOURCES } from './resources.ts';
import { FORMATS, RADAR_FORMATS, type Format } from '../formats/radar.ts';

export const RADAR_PREFIX = '/radarnet/mirror/v3';

/**
 * The real catalogue's path (api.bas.ac.uk), which every known client script calls: the same API answers there
 * (DECISIONS.md "Real clients"). The static tree is written once, under RADAR_PREFIX; a request under this alias is
 * answered from the same files, except where a file holds links (the index, HTML pages): those follow the prefix
 * the request came in on.
 */
export const BAS_PREFIX = '/superdarn/mirror/v3';

/** Every prefix the catalogue answers under, the spec's first. */
export const RADAR_PREFIXES = [RADAR_PREFIX, BAS_PREFIX] as const;
export type RadarPrefix = (typeof RADAR_PREFIXES)[number];

/** The prefix a request path is under (the bare prefix included), or undefined for a path of neither. */
export function radarPrefixOf(pathname: string): RadarPrefix | undefined {
  return RADAR_PREFIXES.find((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** The API as a whole, for the docs. */
export const RADAR_API = {
  title: 'Radar Data Mirror Catalogue API',
  version: 'v3',
  description:
    'Read-only catalogue of the data files of a radar network, their transfers to the mirror, the radars, their temporal coverage and supporting metadata. ' +
    `Every path starts with ${RADAR_PREFIX}; ${RADAR_PREFIX} itself redirects (301) to ${RADAR_PREFIX}/. ` +
    `The same API answers under ${BAS_PREFIX} (the path of the real catalogue, which client scripts call), with links that follow that prefix. ` +
    'GET and HEAD only: any other method is 405. A path with a trailing slash (other than the index) is 404. ' +
    'The representation is chosen by the contentType parameter, else the Accept header; JSON by default. ' +
    'Collections are in ascending id order. Unknown query parameters are ignored; of a repeated one the first value counts. ' +
    'Every "now" (the two-month "old" threshold) is the instant the snapshot was taken.',
};

/** The `:id` path segment (`{id}` in OpenAPI terms). */
export const ID_PARAM_DOC = {
  name: 'id',
  example: '1',
  meaning: 'Integer id of the record (the database id). Not an integer: 400; an integer no record has (or outside 0..2^63-1): 404.',
};

/**
 * index: the resource-collection index. collection: an array of records. one: the record with that id.
 * instances: the array of every record with that id (transfer instances of one file).
 */
export type Shape = 'index' | 'collection' | 'one' | 'instances';

export interface RadarRoute {
  /** Path after the prefix, `:id` for the integer segment. */
  path: string;
  shape: Shape;
  resource: ResourceName | undefined;
  /** A fixed SQL condition over the resource's table that selects the route's records (no user input). */
  where?: string;
  /**
   * The table holding a subset of the resource's records that includes all of the route's (SUBSET_TABLES):
   * the route reads it instead of scanning the whole table for a few rows.
   */
  table?: string;
  /** For transfer instances on a `one` route: answer the most recent instance. */
  latest?: boolean;
  /**
   * For transfer instances: the column flagging each file's most recent instance among this route's records
   * (used by `latest` and by `distinct=true`).
   */
  latestFlag?: 'latest' | 'latest_of_status' | 'latest_alarm';
  description: string;
}

const TRANSFERRED_CATEGORIES: { path: string; status: string; meaning: string }[] = [
  { path: 'blacklisted', status: 'blacklisted', meaning: 'matched the blacklist' },
  { path: 'old', status: 'old', meaning: 'were older than the two-month threshold when they arrived' },
  { path: 'small', status: 'small', meaning: 'are under 55 bytes' },
  { path: 'compression/failure', status: 'compression_failure', meaning: 'failed the bzip2 integrity check' },
  { path: 'compression/exception', status: 'compression_exception', meaning: 'caused an unexpected bzip2 exception' },
  { path: 'notregular', status: 'notregular', meaning: 'failed the regular-file test' },
  { path: 'nomatch', status: 'nomatch', meaning: 'have a hash that did not match a previous copy' },
];

const METADATA: { path: string; resource: ResourceName; what: string }[] = [
  { path: 'institutes', resource: 'institutes', what: 'Institutes' },
  { path: 'countries', resource: 'countries', what: 'Countries' },
  { path: 'file/types', resource: 'file_types', what: 'File types' },
  { path: 'coverage/temporal/types', resource: 'coverage_types', what: 'Temporal coverage types' },
  { path: 'file/status', resource: 'file_status', what: 'File status objects' },
  { path: 'transferred/file/status', resource: 'transferred_file_status', what: 'Transferred file status objects' },
  { path: 'radar/status', resource: 'radar_status', what: 'Radar status objects' },
  { path: 'transfer/logs', resource: 'transfer_logs', what: 'Transfer logs' },
  { path: 'transfer/methods', resource: 'transfer_methods', what: 'Transfer methods' },
];

/**
 * Tables of the catalogue database holding the rare records of a big table: the rows of `of` for which `where`
 * holds, with the same columns, in the same (answer) order. The routes of rare conditions (alarms, the
 * blacklist: 0.4-7% of the rows) read these. A scan of the whole table for them read every row group of a
 * 30-year catalogue, and the endpoint's resident set grew by 80-90 MB with each.
 */
export interface SubsetTable {
  table: string;
  of: ResourceName;
  where: string;
}
const BLACKLISTED_FILES: SubsetTable = { table: 'files_blacklisted_x', of: 'files', where: "file_status = 'blacklisted'" };
const ALARM_INSTANCES: SubsetTable = { table: 'transferred_alarm_x', of: 'transferred', where: 'transferred_file_status IS NOT NULL' };
const ALARM_TRANSFERS: SubsetTable = { table: 'transfers_alarm_x', of: 'transfers', where: 'has_alarm' };
export const SUBSET_TABLES: SubsetTable[] = [BLACKLISTED_FILES, ALARM_INSTANCES, ALARM_TRANSFERS];

/** The table a route reads: its subset table, or its resource's. */
export function routeTable(route: RadarRoute): string {
  return route.table ?? RESOURCES[route.resource!].table;
}

/** What selects a route's records: a condition, the flag of the most recent instance, a subset table. */
type RouteSelection = Pick<RadarRoute, 'where' | 'latestFlag' | 'table'>;

/** The routes of a subset table's rows: its condition, read from it. */
function onSubset(s: SubsetTable): RouteSelection {
  return { where: s.where, table: s.table };
}

function pair(path: string, resource: ResourceName, what: string, sel: RouteSelection = {}): RadarRoute[] {
  return [
    { path, shape: 'collection', resource, ...sel, description: what },
    { path: `${path}/:id`, shape: 'one', resource, ...sel, ...(sel.latestFlag ? { latest: true } : {}), description: `One of: ${what.charAt(0).toLowerCase()}${what.slice(1)}` },
  ];
}

export const RADAR_ROUTES: RadarRoute[] = [
  { path: '/', shape: 'index', resource: undefined, description: 'Resource-collection index: every endpoint of the API.' },
  ...pair('/files', 'files', 'All files.'),
  ...pair('/files/blacklisted', 'files', 'Blacklisted files.', onSubset(BLACKLISTED_FILES)),
  ...pair('/transferred/files', 'transferred', 'All transferred files, with or without alarm: every transfer instance (distinct=true: one per file id). /:id answers the most recent instance.', { latestFlag: 'latest' }),
  ...pair('/transferred/files/ok', 'transferred', 'Transferred files without alarm (/:id answers the most recent such instance).', { where: 'transferred_file_status IS NULL', latestFlag: 'latest_of_status' }),
  ...[...TRANSFERRED_CATEGORIES, { path: 'alarm', status: '', meaning: 'have any alarm condition' }].flatMap((c): RadarRoute[] => {
    const where = c.status === '' ? 'transferred_file_status IS NOT NULL' : `transferred_file_status = '${c.status}'`;
    const latestFlag = c.status === '' ? 'latest_alarm' : 'latest_of_status';
    return [
      { path: `/transferred/files/${c.path}`, shape: 'collection', resource: 'transferred', where, latestFlag, table: ALARM_INSTANCES.table, description: `Transferred files that ${c.meaning}.` },
      { path: `/transferred/files/${c.path}/:id`, shape: 'instances', resource: 'transferred', where, latestFlag, table: ALARM_INSTANCES.table, description: `Every instance of the transferred file with that id among transferred files that ${c.meaning}.` },
    ];
  }),
  ...pair('/transfers', 'transfers', 'All transfers.'),
  ...pair('/transfers/ok', 'transfers', 'Transfers completed without alarm.', { where: 'NOT has_alarm' }),
  ...pair('/transfers/alarm', 'transfers', 'Transfers with any alarm (the tool reported an error, or a file it brought has an alarm).', onSubset(ALARM_TRANSFERS)),
  ...pair('/radars', 'radars', 'All radars.'),
  ...pair('/coverage/temporal', 'coverage', 'All temporal coverage objects.'),
  ...METADATA.flatMap((m) => pair(`/metadata/${m.path}`, m.resource, `${m.what}.`)),
];

/** The media formats a route produces, the default first: those of RADAR_FORMATS whose `produces` holds for its resource. */
export function routeFormats(route: RadarRoute): Format[] {
  const r = route.shape === 'index' ? undefined : RESOURCES[route.resource!];
  return FORMATS.filter((f) => RADAR_FORMATS[f].produces(r));
}

export interface RouteMatch {
  route: RadarRoute;
  /** The raw `:id` segment, when the route has one. */
  id?: string;
}

const EXACT = new Map(RADAR_ROUTES.filter((r) => !r.path.endsWith('/:id')).map((r) => [r.path, r]));
const WITH_ID = new Map(RADAR_ROUTES.filter((r) => r.path.endsWith('/:id')).map((r) => [r.path.slice(0, -4), r]));

/** Matches a path after the prefix (`/files/12`). Literal paths win over `:id`. */
export function matchRadarRoute(path: string): RouteMatch | undefined {
  const exact = EXACT.get(path);
  if (exact) return { route: exact };
  const slash = path.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const parent = WITH_ID.get(path.slice(0, slash));
  const id = path.slice(slash + 1);
  if (parent && id !== '') return { route: parent, id };
  return undefined;
}

/**
 * Paths the endpoint answers that are no record route (no resource, no file of the tree): the change API
 * (core/radar/changes.ts), answered live from the build's snapshot history.
 */
export const LIVE_ROUTES: { path: string; description: string }[] = [
  { path: '/changes', description: 'What was added, changed (which fields) or removed in the snapshots after since (a snapshot name or an ISO 8601 datetime): JSON, CSV or the added and changed files as a checksum report.' },
];

/** Every path the index lists, after the prefix: the record routes, then the live ones. */
export const INDEX_PATHS: string[] = [...RADAR_ROUTES.map((r) => r.path), ...LIVE_ROUTES.map((r) => r.path)];

/** The index document: every endpoint, `/` included, under the prefix the request came in on. */
export function indexDocument(prefix: RadarPrefix = RADAR_PREFIX): { api_routes: { method: string; path: string }[] } {
  return { api_routes: INDEX_PATHS.map((p) => ({ method: 'GET', path: `${prefix}${p}` })) };
}
