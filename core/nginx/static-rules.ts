/**
 * Which requests a static host may answer from the tree, as rules an nginx configuration can hold (PCRE
 * patterns over `$args`, `$http_accept`, `$uri`, `$request_uri`). Everything here is derived from the tables
 * the endpoint itself decides by (route tables, parameter names, static-tree naming), so a new parameter or path
 * changes the configuration too.
 *
 * The rules are conservative: a request they map to a file is one the endpoint answers with that same file
 * (server/radar-handler.ts, server/timeseries-handler.ts, server/app.ts); a request they do not map is passed to
 * the endpoint, which answers it as always. So a request form left out here costs speed, never correctness.
 *
 * What is mapped:
 * - a request is a candidate only for GET or HEAD and a "clean" target: segments of `[A-Za-z0-9_.~-]` not
 *   starting with a dot, no `%`, no `//` (percent-decoding, dot segments and merged slashes are where nginx and
 *   the endpoint's URL parsing could read a path differently, so those go to the endpoint);
 * - its query is a `&`-list of the API's static parameters in a form the endpoint reads the same way
 *   (`expanded=true|false` in any case; on the radar API `contentType=` one of its names) and of parameters
 *   the API does not read at all (plain names only), which the endpoint ignores;
 * - `Accept` is absent, `*` `/` `*`, or exactly one media type the path produces (no q-values, no lists: the
 *   endpoint's negotiation of lists and weights is left to it);
 * - on the Timeseries API's collections and resources, whose labels `Accept-Language` localizes, that header is
 *   absent or names only English and `*` (which the endpoint answers with the default labels, the tree's);
 *   any other language goes to the endpoint, which knows which languages the labels have.
 */
import { CONTENT_TYPE_VALUES, FORMATS, MEDIA_TYPES, TREE_FILE_EXTENSIONS, type Format } from '../formats/radar.ts';
import { parseRadarParams, RADAR_PARAM_NAMES } from '../radar/params.ts';
import { answerPlan, STATIC_HOST } from '../radar/answer-plan.ts';
import { DOWNLOAD_EXTENSIONS } from '../radar/download-name.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES, routeFormats } from '../radar/routes.ts';
import { holdsPrefix, staticFile, VARIANTS } from '../radar/static-tree.ts';
import { COLLECTIONS } from '../timeseries/catalogue.ts';
import { DEFAULT_LOCALE_TAG } from '../timeseries/locale.ts';
import { attachmentTemplate } from '../http/download.ts';
import { TIMESERIES_FORMATS } from '../formats/timeseries.ts';
import { OPTION_KEYS } from '../timeseries/data-request.ts';
import { PARAM_NAMES } from '../timeseries/params.ts';
import { TIMESERIES_PREFIX, TIMESERIES_ROUTES } from '../timeseries/routes.ts';
import { staticFile as tsStaticFile } from '../timeseries/static-tree.ts';

/** Escapes text for use inside a PCRE (and JavaScript) regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A request target the rules may map: plain segments, no percent-encoding, no dot segments, no empty segments. */
export const CLEAN_REQUEST_URI = '^(?:/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)*/?(?:\\?|$)';

/** A parameter name that decodes to itself (no `%`, no `+`). */
const PLAIN_NAME = '[A-Za-z0-9_.~-]+';

/**
 * A regular expression matching a whole query string (`$args`) made only of `tokens` (patterns of one
 * `name=value` each) and of parameters whose names are not in `known` (ignored by the endpoint). Empty
 * pieces (`&&`, a trailing `&`) are allowed, as URLSearchParams skips them.
 */
export function queryOnlyOf(tokens: string[], known: readonly string[]): string {
  const unknown = `(?!(?:${known.map(escapeRegex).join('|')})(?:=|&|$))${PLAIN_NAME}(?:=[^&]*)?`;
  const token = `(?:${[...tokens, unknown].join('|')})`;
  return `^&*(?:${token}&+)*(?:${token})?$`;
}

/** A regular expression whose first group is the raw value of the first occurrence of `name` in `$args`. */
export function firstValueOf(name: string): string {
  return `(?:^|&)${escapeRegex(name)}=([^&]*)`;
}

/** A boolean as booleanParam reads it, limited to the forms that need no decoding. */
export const BOOLEAN_VALUE = { true: '(?i:true)', false: '(?i:false)' };

/** A media type written raw or with its slash percent-encoded (`text/csv`, `text%2Fcsv`), any case. */
function mediaTypeValue(type: string): string {
  const [t, s] = type.split('/');
  return `${escapeRegex(t!)}(?:/|%2[Ff])${escapeRegex(s!)}`;
}

/** An Accept header naming exactly `type` (any case, surrounding blanks), as a case-insensitive pattern. */
export function acceptExactly(type: string): string {
  return `^\\s*${escapeRegex(type)}\\s*$`;
}

/** An Accept header that negotiates to a path's default type: `*` `/` `*` alone. */
export const ACCEPT_ANY = '^\\s*\\*/\\*\\s*$';

// ---------------------------------------------------------------------------------------------------------
// Radar Data Mirror Catalogue API

export const RADAR = {
  prefix: RADAR_PREFIX,
  /**
   * Prefixes answered from the same tree (written under `prefix`), except files whose bytes hold the prefix
   * (the index, HTML pages): those go to the endpoint, which makes them with links under the alias.
   */
  aliases: [BAS_PREFIX] as readonly string[],
  /** Suffixes of variants whose files hold the prefix on every path (holdsPrefix). */
  linkSuffixes(): string[] {
    return VARIANTS.filter((v) => holdsPrefix({ path: '/x', variant: v })).map((v) => v.suffix);
  },
  /** The index's files by their names after the prefix (`/index.json`, ...): every one holds the prefix (holdsPrefix). */
  indexFiles(): string[] {
    return VARIANTS.filter((v) => holdsPrefix({ path: '/', variant: v })).map((v) => `/${staticFile('/', v)}`);
  },
  /** Every parameter parseRadarParams reads: any of them but contentType/expanded makes a request live. */
  knownParams: RADAR_PARAM_NAMES as readonly string[],
  /** `contentType` values (case-insensitive) by format. */
  contentTypeValues(): Record<Format, string> {
    const out = {} as Record<Format, string[]>;
    for (const [value, format] of Object.entries(CONTENT_TYPE_VALUES)) (out[format] ??= []).push(value.includes('/') ? mediaTypeValue(value) : escapeRegex(value));
    return Object.fromEntries(Object.entries(out).map(([f, vs]) => [f, `(?i:${vs.join('|')})`])) as Record<Format, string>;
  },
  /** The media type each format is negotiated by (`Accept`). */
  acceptTypes: MEDIA_TYPES,
  /**
   * The file suffix of each format and `expanded`: the tree file answerPlan (answer-plan.ts) plans for a
   * parameter-free request in that format on a path producing every format, as the endpoint does.
   */
  suffixes(): { format: Format; expanded: boolean; suffix: string }[] {
    const route = RADAR_ROUTES.find((r) => routeFormats(r).length === FORMATS.length)!;
    const base = staticFile(`${RADAR_PREFIX}${route.path}`, { format: 'json', expanded: false, suffix: '' });
    return FORMATS.flatMap((format) =>
      [false, true].map((expanded) => {
        const plan = answerPlan({ prefix: RADAR_PREFIX, route, id: undefined, format }, { ...parseRadarParams(new URLSearchParams()), contentType: format, expanded }, STATIC_HOST);
        const file = 'treeFile' in plan ? plan.treeFile : undefined;
        if (file === undefined || !file.startsWith(base)) throw new Error(`no tree file for ${route.path} in ${format}${expanded ? ', expanded' : ''}`);
        return { format, expanded, suffix: file.slice(base.length) };
      }),
    );
  },
  /** Files of the tree the endpoint serves by their own name under the prefix (radar-handler's sendTreeFile). */
  treeFileSuffixes: TREE_FILE_EXTENSIONS,
  /**
   * The Content-Disposition of each tree file that is a download (download-name.ts: a parameter-free download is
   * named by its file's path after the prefix, `/` as `-`), as [pattern over the file, header] with captures.
   */
  downloadRules(): [string, string][] {
    const depth = Math.max(...RADAR_ROUTES.map((r) => r.path.split('/').filter(Boolean).length));
    const ext = Object.values(DOWNLOAD_EXTENSIONS).map(escapeRegex).join('|');
    return Array.from({ length: depth }, (_, i) => {
      const groups = Array.from({ length: i + 1 }, (__, j) => `$${j + 1}`);
      return [`^${escapeRegex(RADAR_PREFIX)}${'/([A-Za-z0-9_.-]+)'.repeat(i)}/([A-Za-z0-9_.-]+(?:${ext}))$`, attachmentTemplate(groups.join('-'))];
    });
  },
  /** An API path that may have static variants: the prefix, then plain segments without dots. */
  apiPath: `${escapeRegex(RADAR_PREFIX)}(?:/[A-Za-z0-9_-]+)+`,
};

// ---------------------------------------------------------------------------------------------------------
// Timeseries Access API

const TS_KNOWN = [...new Set([...TIMESERIES_ROUTES.flatMap((r) => r.query), ...PARAM_NAMES, ...OPTION_KEYS, 'crs', 'bbox', 'near', 'style'])].sort();

export const TIMESERIES = {
  prefix: TIMESERIES_PREFIX,
  /** Every parameter any path of the API reads: any of them but expanded makes a request live (or an error). */
  knownParams: TS_KNOWN as readonly string[],
  collections: COLLECTIONS as readonly string[],
  /** Resource ids as the tree names files (no dots, so no other file of the tree can be reached). */
  id: '[A-Za-z0-9_-]+',
  /** The suffix of the bare and the expanded answer. */
  suffix(expanded: boolean): string {
    return tsStaticFile('/x', expanded).slice(1);
  },
  /** The name of a pre-rendered chart (`lastWeek`, `lastWeek_with_legend`) as routes.ts reads it. */
  chartName: '[A-Za-z]+(?:_[A-Za-z0-9_-]+)?',
  jsonType: TIMESERIES_FORMATS.json.media.type,
  /** Content-Disposition of a pre-rendered chart, from the id and chart name (nginx captures: `$1`, `$2`). */
  chartDisposition(id: string, chart: string): string {
    return attachmentTemplate(`${id}_${chart}.png`);
  },
  /** An `Accept-Language` header (case-insensitive pattern) that selects the default labels at any provider: only English and `*` ranges. */
  defaultLanguages: (() => {
    const range = `(?:${escapeRegex(DEFAULT_LOCALE_TAG)}(?:[-_][A-Za-z0-9]{1,8})*|\\*)(?:\\s*;\\s*q\\s*=\\s*[0-9.]{1,5})?`;
    return `^\\s*${range}(?:\\s*,\\s*${range})*\\s*$`;
  })(),
  /** The Content-Type of the API's JSON files (with its charset, as the endpoint sends them). */
  jsonContentType: TIMESERIES_FORMATS.json.contentType,
};
