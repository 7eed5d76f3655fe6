/**
 * What answers a radar request, decided once, with no I/O: `answerPlan(request, params, facts)`. The endpoint
 * (server/radar-handler.ts) carries the plan out; the nginx rules (core/nginx/static-rules.ts) and the tests
 * ask it which requests the static tree holds, so "served from the tree" is decided here only.
 *
 * - `page`, `index`: made from the route alone (the HTML docs page, the index document). Under the spec's
 *   prefix a tree file holds the same bytes (`treeFile`), so a static host may serve it; under an alias it holds
 *   the wrong links, so it is made again.
 * - `tree-file`: a parameter-free request (no filter, default CSV header) in a variant the tree holds: its file;
 *   where there is none (an id the catalogue lacks), `otherwise()`, the live answer (planned only then).
 * - `resident`: a small table answered from memory (resident.ts), rows picked by the filters' JS tests.
 * - `query`: the record query, read `whole` first (likely small: one id, one radar) or `streamed`, in the
 *   bulk lane when it reads much of its table.
 * - `pieces`: one radar's answer known to be too large to read whole (queries.ts radarPieces): the record query
 *   over ranges of rowids, each read whole in turn.
 * - `unavailable`: the build has no radar catalogue database.
 */
import type { SqlFragment } from '../sql.ts';
import { HttpError } from '../http/errors.ts';
import { negotiate } from '../http/media-types.ts';
import { CONTENT_TYPES, MEDIA_TYPES, RADAR_FORMATS, type Format, type RecordFormat } from '../formats/radar.ts';
import { bodyFrame, type BodyFrame } from './bodies.ts';
import { downloadName } from './download-name.ts';
import type { RadarParams } from './params.ts';
import { needsLiveQuery } from './params.ts';
import { isBulk, likelySmall, radarPieces, recordQuery, type CatalogueFacts } from './queries.ts';
import { residentCanAnswer, residentRows, residentVariant, type ResidentTable } from './resident.ts';
import { RESOURCES, viewFields, type ResourceName } from './resources.ts';
import { RADAR_PREFIX, routeFormats, routeTable, type RadarPrefix, type RadarRoute } from './routes.ts';
import { holdsPrefix, routeVariants, staticFile, variantFor, type Variant } from './static-tree.ts';

/** A request matched to a route: its prefix, the path after it, and its id (already read: plain decimal, in range). */
export interface PlanRequest {
  prefix: RadarPrefix;
  route: RadarRoute;
  id: bigint | undefined;
  format: Format;
}

/** What the endpoint knows of its build. */
export interface PlanFacts {
  /** The static tree may answer (false: a live-only endpoint, as the static==live tests run one). */
  tree: boolean;
  /** The catalogue database's facts; undefined when the build has none. */
  catalogue: CatalogueFacts | undefined;
  /** The resident tables (resident.ts). */
  resident: Partial<Record<ResourceName, ResidentTable>>;
}

/** Facts of a static host: the tree, and nothing live. */
export const STATIC_HOST: PlanFacts = { tree: true, catalogue: undefined, resident: {} };

export interface RecordAnswer {
  format: RecordFormat;
  frame: BodyFrame;
  /** A request for one id: no record is a 404. */
  one: boolean;
}

export type LivePlan =
  | ({ kind: 'resident'; texts: (Buffer | null)[]; rows: number[] } & RecordAnswer)
  | ({ kind: 'query'; query: SqlFragment; mode: 'whole' | 'streamed'; bulk: boolean } & RecordAnswer)
  /** One radar's answer too large to read whole: read whole piece by piece (queries.ts radarPieces), in order. */
  | ({ kind: 'pieces'; query: SqlFragment; pieces: SqlFragment[] } & RecordAnswer)
  | { kind: 'unavailable' };

export type AnswerPlan = Common &
  (
    | { kind: 'page'; route: RadarRoute; prefix: RadarPrefix; treeFile: string | undefined }
    | { kind: 'index'; prefix: RadarPrefix; treeFile: string | undefined }
    | { kind: 'tree-file'; treeFile: string; otherwise: () => LivePlan }
    | LivePlan
  );

interface Common {
  contentType: string;
  /** The Content-Disposition file name of a download (download-name.ts), else undefined. */
  download: string | undefined;
}

/** The path after the prefix that names the answer: the route's, with the id in plain decimal. */
function namedPath(route: RadarRoute, id: bigint | undefined): string {
  return id === undefined ? route.path : `${route.path.slice(0, -':id'.length)}${id}`;
}

/** The tree file of a request in a variant (relative to the site), the tree being written under the spec's prefix. */
function treeFileOf(req: PlanRequest, v: Variant): string {
  return staticFile(`${RADAR_PREFIX}${namedPath(req.route, req.id)}`, v);
}

function livePlan(req: PlanRequest, p: RadarParams, facts: PlanFacts): LivePlan {
  if (!facts.catalogue) return { kind: 'unavailable' };
  const format = req.format as RecordFormat;
  const resource = RESOURCES[req.route.resource!];
  const header = p.includeHeaders ? RADAR_FORMATS[format].header(viewFields(resource, p.expanded), p.delimiter) : undefined;
  const answer: RecordAnswer = { format, frame: bodyFrame(format, req.route.shape, header), one: req.id !== undefined };
  const table = facts.resident[resource.name];
  if (residentCanAnswer(table, req.route, format, p.expanded, p)) {
    const rows = residentRows(table, p, req.id, facts.catalogue.maxDurationMs[resource.name] ?? 0);
    return { kind: 'resident', texts: table.texts[residentVariant(format, p.expanded)]!, rows, ...answer };
  }
  const catalogue = facts.catalogue;
  const base = { route: req.route, format, expanded: p.expanded, selection: p, ...(req.id === undefined ? {} : { id: req.id }) };
  const query = recordQuery(base, catalogue);
  const pieces = radarPieces(routeTable(req.route), p, req.id, catalogue);
  if (Array.isArray(pieces)) return { kind: 'pieces', query, pieces: pieces.map((rowids) => recordQuery({ ...base, rowids }, catalogue)), ...answer };
  return { kind: 'query', query, mode: pieces === 'whole' || likelySmall(p, req.id) ? 'whole' : 'streamed', bulk: isBulk(p, req.id), ...answer };
}

/** What answers a request for a route in a format with these parameters. */
export function answerPlan(req: PlanRequest, p: RadarParams, facts: PlanFacts): AnswerPlan {
  const contentType = CONTENT_TYPES[req.format];
  const variant = variantFor(req.format, p.expanded);
  // the variants the tree holds of this route (static-tree.ts routeVariants: no HTML file of an id path)
  const held = facts.tree && routeVariants(req.route).includes(variant);
  // a file holding links (static-tree.ts holdsPrefix: the index, pages) answers only under the spec's prefix
  const linked = holdsPrefix({ path: namedPath(req.route, req.id), variant });
  const pageFile = held && (req.prefix === RADAR_PREFIX || !linked) ? treeFileOf(req, variant) : undefined;
  if (req.format === 'html') return { kind: 'page', route: req.route, prefix: req.prefix, treeFile: pageFile, contentType, download: undefined };
  if (req.route.shape === 'index') return { kind: 'index', prefix: req.prefix, treeFile: pageFile, contentType, download: undefined };
  const download = downloadName(namedPath(req.route, req.id), variant, p);
  if (held && !needsLiveQuery(p)) return { kind: 'tree-file', treeFile: treeFileOf(req, variant), otherwise: () => livePlan(req, p, facts), contentType, download };
  return { ...livePlan(req, p, facts), contentType, download };
}

/**
 * The format of a request: `contentType` if the path produces it (else 406), else the `Accept` header negotiated
 * over the path's formats (core/http/media-types.ts), JSON by default.
 */
export function chooseFormat(accept: string | undefined, route: RadarRoute, contentType: Format | undefined): Format {
  const formats = routeFormats(route);
  if (contentType !== undefined) {
    if (!formats.includes(contentType)) {
      throw new HttpError(406, `This path cannot produce ${MEDIA_TYPES[contentType]}`, {
        hints: [`This path produces: ${formats.map((f) => MEDIA_TYPES[f]).join(', ')}`, 'A valid example: contentType=json'],
      });
    }
    return contentType;
  }
  const type = negotiate(accept, formats.map((f) => MEDIA_TYPES[f]));
  return formats.find((f) => MEDIA_TYPES[f] === type)!;
}
