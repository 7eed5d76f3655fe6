/**
 * The query parameters of the Timeseries API: one zod schema each (URL-decoded text in, typed value out),
 * validated once at the edge and documented by the same table. Each route reads the parameters it has;
 * others are ignored (DECISIONS.md), as is every value of a repeated parameter but the first.
 * A value that cannot be read is 400 naming the parameter, with a valid example.
 *
 * `crs`, `bbox` and `near` are geo/params.ts's; `timespan` is timespan.ts's; the generalizer's options are
 * generalize.ts's.
 */
import { z } from 'zod';
import { booleanParam } from '../http/param-schemas.ts';
import { badParameter } from '../http/errors.ts';
import { parseCrs, parseGeoQuery, type GeoQuery } from './geo/params.ts';
import type { Crs } from './geo/crs.ts';
import { normaliseLocale, type Locale } from './locale.ts';
import { EXTRAS_FIELDS, type ExtrasField } from './extras.ts';

export const FILTERS = ['service', 'category', 'station', 'phenomenon', 'offering', 'feature', 'procedure'] as const;
export type FilterName = (typeof FILTERS)[number];
export type Filters = Partial<Record<FilterName, string>>;

export const FILTER_PREFIX: Record<FilterName, string> = {
  service: 'srv',
  category: 'cat',
  station: 'sta',
  phenomenon: 'phe',
  offering: 'off',
  feature: 'foi',
  procedure: 'pro',
};

/** Paging bounds: `limit` from 1 to MAX_LIMIT (default MAX_LIMIT when only `offset` is given). */
export const MAX_LIMIT = 10_000;
export const MAX_OFFSET = 2_147_483_647;

const boolean = booleanParam;

const locale = z.string().transform((v, ctx) => {
  const l = normaliseLocale(v);
  if (l !== undefined) return l;
  ctx.addIssue({ code: 'custom', message: `must be an ISO 639 language code, optionally with a region (de, en, de_AT), not '${v}'` });
  return z.NEVER;
});

/** The ids of a type prefix: `sta_koeln_rhein`. */
export function idPattern(prefix: string): string {
  return `^${prefix}_[A-Za-z0-9][A-Za-z0-9_-]*$`;
}

function resourceId(prefix: string) {
  return z.string().transform((v, ctx) => {
    const s = v.trim();
    if (new RegExp(idPattern(prefix)).test(s)) return s;
    ctx.addIssue({ code: 'custom', message: `must be an id starting with ${prefix}_, not '${v}'` });
    return z.NEVER;
  });
}

function wholeNumber(min: number, max: number) {
  return z.string().transform((v, ctx) => {
    const s = v.trim();
    if (/^\d{1,10}$/.test(s) && Number(s) >= min && Number(s) <= max) return Number(s);
    ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}, not '${v}'` });
    return z.NEVER;
  });
}

const q = z.string().transform((v, ctx) => {
  if (v.trim() !== '') return v.trim();
  ctx.addIssue({ code: 'custom', message: 'must not be empty' });
  return z.NEVER;
});

export const DATA_FORMATS = ['tvp', 'highchart', 'flot'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

const format = z.string().transform((v, ctx): DataFormat => {
  const s = v.trim().toLowerCase();
  if (s === 'tvp') return 'tvp';
  if (s === 'highchart' || s === 'highcharts') return 'highchart';
  if (s === 'flot') return 'flot';
  ctx.addIssue({ code: 'custom', message: `must be tvp, highchart or flot, not '${v}'` });
  return z.NEVER;
});

/** `fields=license,statusIntervals` of the extras path: names of EXTRAS_FIELDS, any case, comma-separated. */
const fields = z.string().transform((v, ctx): ExtrasField[] => {
  const names = v.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const out: ExtrasField[] = [];
  for (const n of names) {
    const f = EXTRAS_FIELDS.find((e) => e.toLowerCase() === n.toLowerCase());
    if (f === undefined) {
      ctx.addIssue({ code: 'custom', message: `names an extra there is not: '${n}' (there are ${EXTRAS_FIELDS.join(', ')})` });
      return z.NEVER;
    }
    if (!out.includes(f)) out.push(f);
  }
  if (out.length === 0) {
    ctx.addIssue({ code: 'custom', message: `must name at least one of ${EXTRAS_FIELDS.join(', ')}` });
    return z.NEVER;
  }
  return out;
});

const SCHEMAS = {
  expanded: boolean,
  locale,
  ...(Object.fromEntries(FILTERS.map((f) => [f, resourceId(FILTER_PREFIX[f])])) as Record<FilterName, ReturnType<typeof resourceId>>),
  offset: wholeNumber(0, MAX_OFFSET),
  limit: wholeNumber(1, MAX_LIMIT),
  q,
  format,
  status_intervals: boolean,
  rendering_hints: boolean,
  force_latest_values: boolean,
  generalize: boolean,
  bom: boolean,
  zip: boolean,
  fields,
};
export type ParamName = keyof typeof SCHEMAS;
/** The parameters read by the schemas of this table (the others: see the module comment). */
export const PARAM_NAMES = Object.keys(SCHEMAS) as ParamName[];

export interface ParamDoc {
  name: string;
  example: string;
  meaning: string;
}

/** Every parameter with a valid example (used in error hints) and its meaning (for the docs). */
export const PARAM_DOCS: ParamDoc[] = [
  { name: 'expanded', example: 'expanded=true', meaning: 'Detailed view of collection members; on getData, adds reference values.' },
  { name: 'locale', example: 'locale=de', meaning: 'Language of labels (ISO 639, optionally _REGION); default: the English labels.' },
  ...FILTERS.map((f) => ({ name: f, example: `${f}=${FILTER_PREFIX[f]}_example`, meaning: `Only resources with a timeseries of that ${f} (filters combine with AND).` })),
  { name: 'offset', example: 'offset=0&limit=100', meaning: 'Paging: the position of the first member (0 = the first); with limit, Link headers are sent.' },
  { name: 'limit', example: 'offset=0&limit=100', meaning: `Paging: members per page, 1 to ${MAX_LIMIT} (default ${MAX_LIMIT}).` },
  { name: 'q', example: 'q=rhein', meaning: 'Search text: case-insensitive substring of labels in the requested locale.' },
  { name: 'format', example: 'format=highchart', meaning: 'Raw data shape: tvp (default), highchart (also highcharts) or flot ([t, v] pairs with referenceValues; expanded adds valueBeforeTimespan and valueAfterTimespan).' },
  { name: 'status_intervals', example: 'status_intervals=true', meaning: 'Adds firstValue, lastValue, referenceValues and statusIntervals to timeseries metadata.' },
  { name: 'rendering_hints', example: 'rendering_hints=true', meaning: 'Adds renderingHints to timeseries metadata.' },
  { name: 'force_latest_values', example: 'force_latest_values=true', meaning: 'Timeseries lists: adds lastValue to every member. getData: a series with no value in the timespan answers its last value before it.' },
  { name: 'fields', example: 'fields=license,statusIntervals', meaning: `The extras to answer, comma-separated: ${EXTRAS_FIELDS.join(', ')}; default: all the series has.` },
  { name: 'generalize', example: 'generalize=true', meaning: 'Simplify data: LTTB (threshold, default 200) or generalizing_algorithm=DP (tolerance_value, default 0.1).' },
  { name: 'bom', example: 'bom=true', meaning: 'CSV downloads (getData.csv, getData.zip): a UTF-8 byte order mark first, so spreadsheets read the file as UTF-8.' },
  { name: 'zip', example: 'zip=true', meaning: 'CSV downloads: the CSV in a ZIP archive (as getData.zip answers).' },
  { name: 'timespan', example: 'timespan=PT6H/2013-08-16TZ', meaning: 'ISO 8601 interval start/end, period/end or start/period; default: the week ending at the snapshot instant.' },
  { name: 'crs', example: 'crs=EPSG:25832', meaning: 'Reference system of bbox, near and output geometries; default CRS84 (lon/lat).' },
  { name: 'bbox', example: 'bbox={"ll":{"type":"Point","coordinates":[6.8,50.6]},"ur":{"type":"Point","coordinates":[7.3,50.9]}}', meaning: 'Stations inside the box.' },
  { name: 'near', example: 'near={"center":{"type":"Point","coordinates":[7.1,50.7]},"radius":50}', meaning: 'Stations within radius km of the center.' },
];

const EXAMPLES = new Map(PARAM_DOCS.map((d) => [d.name, d.example]));

/** Reads one parameter (its first value); undefined when absent. Throws HttpError 400 naming it. */
export function readParam<N extends ParamName>(query: URLSearchParams, name: N): z.output<(typeof SCHEMAS)[N]> | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const r = (SCHEMAS[name] as z.ZodType<unknown, string>).safeParse(raw);
  if (r.success) return r.data as z.output<(typeof SCHEMAS)[N]>;
  throw badParameter(name, r.error.issues[0]?.message ?? 'cannot be read', EXAMPLES.get(name) ?? `${name}=…`);
}

export interface Paging {
  offset: number;
  limit: number;
}

export interface CollectionParams {
  expanded: boolean;
  locale: Locale;
  filters: Filters;
  /** Present when `offset` or `limit` is given. */
  paging: Paging | undefined;
  /** Stations only. */
  geo: GeoQuery | undefined;
  /** Timeseries only. */
  statusIntervals: boolean;
  renderingHints: boolean;
  forceLatestValues: boolean;
}

export function readFilters(query: URLSearchParams): Filters {
  const out: Filters = {};
  for (const f of FILTERS) {
    const v = readParam(query, f);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

function readPaging(query: URLSearchParams): Paging | undefined {
  const offset = readParam(query, 'offset');
  const limit = readParam(query, 'limit');
  if (offset === undefined && limit === undefined) return undefined;
  return { offset: offset ?? 0, limit: limit ?? MAX_LIMIT };
}

export function readCollectionParams(query: URLSearchParams, collection: string): CollectionParams {
  const ts = collection === 'timeseries';
  return {
    expanded: readParam(query, 'expanded') ?? false,
    locale: readParam(query, 'locale'),
    filters: readFilters(query),
    paging: readPaging(query),
    geo: collection === 'stations' ? parseGeoQuery(query) : undefined,
    statusIntervals: (ts && readParam(query, 'status_intervals')) || false,
    renderingHints: (ts && readParam(query, 'rendering_hints')) || false,
    forceLatestValues: (ts && readParam(query, 'force_latest_values')) || false,
  };
}

export interface ItemParams {
  locale: Locale;
  /** Stations: the CRS of the output geometry (undefined: CRS84). */
  crs: Crs | undefined;
  statusIntervals: boolean;
  renderingHints: boolean;
}

export function readItemParams(query: URLSearchParams, collection: string): ItemParams {
  const ts = collection === 'timeseries';
  readParam(query, 'expanded'); // read (and checked) for symmetry with collections; a single resource is always detailed
  return {
    locale: readParam(query, 'locale'),
    crs: collection === 'stations' && query.get('crs') !== null ? parseCrs(query.get('crs')) : undefined,
    statusIntervals: (ts && readParam(query, 'status_intervals')) || false,
    renderingHints: (ts && readParam(query, 'rendering_hints')) || false,
  };
}

/** True when the static tree holds the answer (only `expanded`, or nothing that changes the bytes, was given). */
export function collectionIsStatic(p: CollectionParams): boolean {
  const geo = p.geo !== undefined && (p.geo.bbox !== undefined || p.geo.near !== undefined || p.geo.crs.code !== 'CRS84');
  return p.locale === undefined && Object.keys(p.filters).length === 0 && p.paging === undefined && !geo && !p.statusIntervals && !p.renderingHints && !p.forceLatestValues;
}

export function itemIsStatic(p: ItemParams): boolean {
  return p.locale === undefined && p.crs === undefined && !p.statusIntervals && !p.renderingHints;
}
