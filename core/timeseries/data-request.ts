/**
 * Reading data requests: `GET /timeseries/{id}/getData?...` and `POST /timeseries/getData` with a JSON body
 * `{"timespan": "...", "timeseries": ["ts_...", ...]}` (52°North's request schema). The POST body may also
 * carry the data options by their query names (`format`, `expanded`, `generalize`, `generalizing_algorithm`,
 * `threshold`, `tolerance_value`, `force_latest_values`, and the filters), which win over the query string;
 * both are read by the same schemas. Unknown body fields (the render request's `legend`, `width`, ...) are
 * ignored, as unknown query parameters are.
 *
 * - `timespan` absent: the week ending at the snapshot's `taken_at`; longer than the configured maximum
 *   (`requestIntervalRestriction`, default P1Y1D): 400 "Requested timespan is too long".
 * - `generalize=true` without `generalizing_algorithm`: the configured default generalizer.
 * - Filters (`service`, `category`, `phenomenon`, ...) select among the named series: a POST answers only
 *   the matching ones; a GET of a series that does not match is 404.
 * - A POST names 1 to MAX_POST_SERIES distinct ids (repeats are answered once, in first-named order).
 */
import { z } from 'zod';
import { badParameter, HttpError, notFound } from '../http/errors.ts';
import type { Catalogue } from './catalogue.ts';
import type { DataRequest } from './data.ts';
import { seriesMatches, hasFilters } from './filters.ts';
import { parseGeneralizeOptions } from './generalize.ts';
import { FILTERS, readFilters, readParam, type Filters, type ParamDoc } from './params.ts';
import type { TimeseriesProfile } from './profile.ts';
import { checkMaxTimespan, defaultTimespan, parseTimespan } from './timespan.ts';

export const MAX_POST_SERIES = 100;
/** The largest POST body read, bytes; more is 413. */
export const MAX_POST_BYTES = 64 * 1024;

/** The data options a POST body may carry by their query names (they win over the query string). */
export const OPTION_KEYS = ['timespan', 'format', 'expanded', 'generalize', 'generalizing_algorithm', 'threshold', 'tolerance_value', 'force_latest_values', ...FILTERS];

export const POST_EXAMPLE = '{"timespan":"PT6H/2024-01-08TZ","timeseries":["ts_koeln_rhein_water_level"]}';

/**
 * The POST body's own field, with an example value as JSON text (the body's other fields are the data
 * parameters by their query names).
 */
export const POST_BODY_DOCS: ParamDoc[] = [
  {
    name: 'timeseries',
    example: JSON.stringify(JSON.parse(POST_EXAMPLE).timeseries),
    meaning: `The timeseries ids to answer, 1 to ${MAX_POST_SERIES}; repeats are answered once, in first-named order. An unknown id: 404.`,
  },
];

export type DataOptions = Omit<DataRequest, 'series' | 'mode'> & { filters: Filters; timespanGiven: boolean };

/** The data options of a query (or of a POST body merged into one): timespan, format, generalizer, filters. */
export function readDataOptions(query: URLSearchParams, cat: Catalogue): DataOptions {
  const timespan = query.get('timespan');
  const span = checkMaxTimespan(timespan === null ? defaultTimespan(cat.takenAt) : parseTimespan(timespan), cat.config.maxTimespan);
  let generalize: DataRequest['generalize'];
  if (readParam(query, 'generalize')) {
    const q = query.has('generalizing_algorithm') ? query : new URLSearchParams([...query, ['generalizing_algorithm', cat.config.defaultGeneralizer]]);
    generalize = parseGeneralizeOptions(q);
  }
  return {
    format: readParam(query, 'format') ?? 'tvp',
    expanded: readParam(query, 'expanded') ?? false,
    span,
    generalize,
    forceLatestValues: readParam(query, 'force_latest_values') ?? false,
    filters: readFilters(query),
    timespanGiven: timespan !== null,
  };
}

export interface GetDataRequest {
  request: DataRequest;
  /** The static tree holds this answer (`getData.json` or `getData.expanded.json`). */
  isStatic: boolean;
}

/** `GET /timeseries/{id}/getData`; `k` is the series' position. */
export function readGetData(query: URLSearchParams, cat: Catalogue, k: number): GetDataRequest {
  const o = readDataOptions(query, cat);
  const s = cat.timeseries[k]!;
  if (hasFilters(o.filters) && !seriesMatches(cat, s, o.filters)) {
    throw notFound(`Timeseries '${s.id}' does not match the filters given`, [`Without filters: /api/v1/timeseries/${s.id}/getData`]);
  }
  const { filters, timespanGiven, ...rest } = o;
  const isStatic = rest.format === 'tvp' && !timespanGiven && rest.generalize === undefined && !rest.forceLatestValues && !hasFilters(filters);
  return { request: { ...rest, series: [k], mode: 'single' }, isStatic };
}

/**
 * The query with the body's fields of those names set over it (a POST body's options win over the query
 * string), so one set of schemas reads both. A field that is not a string, number or boolean is 400.
 */
export function withBodyOptions(query: URLSearchParams, fields: Record<string, unknown>, keys: readonly string[], example: string): URLSearchParams {
  const merged = new URLSearchParams(query);
  for (const key of keys) {
    const v = fields[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw badParameter(key, 'must be a string, number or boolean in the body', example);
    merged.set(key, String(v));
  }
  return merged;
}

const timeseriesIds = z
  .array(z.string().regex(/^ts_[A-Za-z0-9][A-Za-z0-9_-]*$/, { error: 'must hold timeseries ids (ts_...)' }), { error: 'must be an array of timeseries ids' })
  .min(1, { error: 'must name at least one timeseries' })
  .max(MAX_POST_SERIES, { error: `may name at most ${MAX_POST_SERIES} timeseries` });

/** `POST /timeseries/getData` with the parsed JSON body; `profile` is the build's (it shapes the tvp answer). */
export function readPostData(body: unknown, query: URLSearchParams, cat: Catalogue, profile: TimeseriesProfile = 'spec'): DataRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object with timespan and timeseries', { hints: [`A valid example: ${POST_EXAMPLE}`] });
  }
  const fields = body as Record<string, unknown>;
  const merged = withBodyOptions(query, fields, OPTION_KEYS, POST_EXAMPLE);
  const ids = timeseriesIds.safeParse(fields['timeseries']);
  if (!ids.success) throw badParameter('timeseries', ids.error.issues[0]?.message ?? 'cannot be read', POST_EXAMPLE);
  const o = readDataOptions(merged, cat);
  const series: number[] = [];
  for (const id of new Set(ids.data)) {
    const k = cat.ids.timeseries.get(id);
    if (k === undefined) throw notFound(`No timeseries '${id}'`, ['The collection /api/v1/timeseries lists the ids there are']);
    if (!hasFilters(o.filters) || seriesMatches(cat, cat.timeseries[k]!, o.filters)) series.push(k);
  }
  return { format: o.format, expanded: o.expanded, span: o.span, generalize: o.generalize, forceLatestValues: o.forceLatestValues, series, mode: 'multiple', profile };
}
