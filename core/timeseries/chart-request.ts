/**
 * Reading chart requests (DECISIONS.md, timeseries: charts):
 * - `GET /timeseries/{id}/getData` asking for `image/png` or `application/pdf`: the data options (`timespan`,
 *   `generalize`, `expanded`, filters) plus `style` (a style object as URL-encoded JSON), `legend`, `grid`,
 *   `width`, `height`, `locale`/`language` and `base64`;
 * - `POST /timeseries/getData` with the render request body: `timespan`, `legend`, `grid`, `width`, `height`,
 *   `language`, `styleOptions` (style objects keyed by timeseries id), and optionally `timeseries` (ids to
 *   render with their default style) and the data options and filters by their query names. The series
 *   rendered are the keys of `styleOptions`, then the `timeseries` not among them, less those the filters
 *   exclude (none left: 404).
 *
 * A series without a style gets its rendering hints' style (DECISIONS.md: rendering hints), else the
 * defaults (a solid line of width 2 in the palette's colour for its position). A style is validated as
 * strictly as the configuration files' styles: an unknown `lineType` or a colour like `red` is 400 naming
 * the parameter, with a valid example.
 */
import { z } from 'zod';
import { booleanParam } from '../http/param-schemas.ts';
import { badParameter, HttpError, notFound } from '../http/errors.ts';
import { isLanguage, type Language } from '../charts/locale.ts';
import { paperFor } from '../charts/report.ts';
import { normaliseStyle, styleSchema, type ChartStyle } from '../snapshot/timeseries-config.ts';
import type { Catalogue } from './catalogue.ts';
import { readDataOptions, MAX_POST_SERIES, withBodyOptions } from './data-request.ts';
import type { GeneralizeOptions } from './generalize.ts';
import { hasFilters, seriesMatches } from './filters.ts';
import { FILTERS, type ParamDoc } from './params.ts';
import { normaliseLocale, type Locale } from './locale.ts';
import type { Timespan } from './timespan.ts';

export type ChartKind = 'png' | 'pdf';

export interface ChartRequest {
  kind: ChartKind;
  /** Positions of the series in the catalogue, in drawing order, each with its style (undefined: default). */
  series: { k: number; style: ChartStyle | undefined }[];
  span: Timespan;
  width: number;
  height: number;
  grid: boolean;
  legend: boolean;
  /** Labels of stations, phenomena, ... */
  locale: Locale;
  /** Words and number and date formats of the chart. */
  language: Language;
  paper: 'A4' | 'Letter';
  generalize: GeneralizeOptions | undefined;
  /** Draw every reference value of the series, not only those the style names. */
  expanded: boolean;
  /** Stretch the y range to every reference value drawn (default: fit the data, mark levels beyond it at the edge). */
  fitReferenceValues: boolean;
  base64: boolean;
  /** A title for the report or chart (pre-rendering configuration). */
  title?: string;
}

export const CHART_DEFAULTS = { width: 800, height: 500, grid: true, legend: false, fitReferenceValues: false } as const;
export const MIN_SIZE = 50;
export const MAX_SIZE = 4000;

export const STYLE_EXAMPLE = '{"chartType":"line","properties":{"color":"#0000ff","lineType":"dashed","width":2}}';
export const RENDER_EXAMPLE =
  '{"timespan":"P1D/2024-01-08TZ","width":800,"height":500,"legend":true,"language":"de","styleOptions":{"ts_koeln_rhein_water_level":{"chartType":"line","properties":{"color":"#0000ff"}}}}';

const pixels = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : /^\s*\d{1,5}\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n >= MIN_SIZE && n <= MAX_SIZE) return n;
  ctx.addIssue({ code: 'custom', message: `must be a whole number of pixels from ${MIN_SIZE} to ${MAX_SIZE}, not '${v}'` });
  return z.NEVER;
});
const flag = z.union([z.boolean(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'boolean') return v;
  const r = booleanParam.safeParse(v);
  if (r.success) return r.data;
  ctx.addIssue({ code: 'custom', message: `must be true or false, not '${v}'` });
  return z.NEVER;
});
const language = z.string().transform((v, ctx) => {
  const l = normaliseLocale(v);
  if (l !== undefined) return l;
  ctx.addIssue({ code: 'custom', message: `must be a language code like en, de, nl or en_US, not '${v}'` });
  return z.NEVER;
});

function styleIssue(e: z.ZodError): string {
  const i = e.issues[0];
  if (!i) return 'is not a valid style';
  const where = i.path.length ? ` at ${i.path.join('.')}` : '';
  return `is not a valid style${where}: ${i.message}`;
}

const STYLE_HINT = 'chartType is line (lineType solid, dashed, dotted, solidWithDots; width; color #rrggbb) or bar (interval byHour, byDay, byWeek, byMonth; width 0 to 1; color)';

type ChartParam = 'style' | 'legend' | 'grid' | 'width' | 'height' | 'language' | 'base64' | 'fitReferenceValues';

/**
 * The chart parameters with a valid example (used in error hints) and their meaning (for the docs). Read by
 * `GET /timeseries/{id}/getData` asking for a PNG or PDF; all but `style` also from a render request body
 * (or its query string).
 */
export const CHART_PARAM_DOCS: (ParamDoc & { name: ChartParam })[] = [
  { name: 'style', example: `style=${STYLE_EXAMPLE}`, meaning: `Charts of GET getData: the style of the series, a URL-encoded JSON style object: ${STYLE_HINT}. Default: its rendering hints, else a solid line.` },
  { name: 'legend', example: 'legend=true', meaning: `Charts: draw a legend (default ${CHART_DEFAULTS.legend}).` },
  { name: 'grid', example: 'grid=true', meaning: `Charts: draw grid lines (default ${CHART_DEFAULTS.grid}).` },
  { name: 'width', example: 'width=800', meaning: `Charts: width in pixels, ${MIN_SIZE} to ${MAX_SIZE} (default ${CHART_DEFAULTS.width}).` },
  { name: 'height', example: 'height=500', meaning: `Charts: height in pixels, ${MIN_SIZE} to ${MAX_SIZE} (default ${CHART_DEFAULTS.height}).` },
  {
    name: 'language',
    example: 'language=de',
    meaning: 'Charts: language of labels and of the chart\'s words, numbers and dates (en, de, nl; others English), like locale and winning over it. Reports for US, CA, MX, PH, CL, CO, VE regions (en_US) are US Letter, others A4.',
  },
  {
    name: 'fitReferenceValues',
    example: 'fitReferenceValues=true',
    meaning: `Charts: stretch the y axis to every reference value drawn (default ${CHART_DEFAULTS.fitReferenceValues}: the axis fits the data, and a level beyond it is marked at the plot's edge with its label).`,
  },
  { name: 'base64', example: 'base64=true', meaning: 'Charts: the PNG or PDF base64-encoded, with the same Content-Type.' },
];

/**
 * The render request's own fields, each with an example value as JSON text (the body's other fields are the
 * chart and data parameters by their query names).
 */
export const RENDER_BODY_DOCS: ParamDoc[] = [
  {
    name: 'styleOptions',
    example: JSON.stringify(JSON.parse(RENDER_EXAMPLE).styleOptions),
    meaning: `Style objects keyed by timeseries id: the series drawn, in this order, each in its style (at most ${MAX_POST_SERIES} series in all).`,
  },
  { name: 'timeseries', example: '["ts_koeln_rhein_water_level"]', meaning: 'Timeseries ids drawn with their default style, after the styleOptions keys (those not among them).' },
];

const CHART_EXAMPLES = Object.fromEntries(CHART_PARAM_DOCS.map((d) => [d.name, d.example])) as Record<ChartParam, string>;

/** The GET parameter `style`: a style object as JSON text. */
function readStyleParam(text: string): ChartStyle {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw badParameter('style', `is not JSON: ${(e as Error).message}`, CHART_EXAMPLES.style);
  }
  return readStyle('style', v, CHART_EXAMPLES.style);
}

/** A style object. */
function readStyle(name: string, value: unknown, example: string): ChartStyle {
  const r = styleSchema.safeParse(value);
  if (!r.success) throw badParameter(name, styleIssue(r.error), example, [STYLE_HINT]);
  return normaliseStyle(r.data);
}

function read<S extends z.ZodType>(schema: S, name: string, value: unknown, example: string): z.output<S> | undefined {
  if (value === undefined || value === null) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw badParameter(name, r.error.issues[0]?.message ?? 'cannot be read', example);
}

/** Language of the chart's words: the locale's language when the chart knows it, else English. */
export function chartLanguage(locale: Locale): Language {
  const lang = locale?.slice(0, 2);
  return isLanguage(lang) ? lang : 'en';
}

interface Look {
  width: number;
  height: number;
  grid: boolean;
  legend: boolean;
  locale: Locale;
  base64: boolean;
  fitReferenceValues: boolean;
}

/** Size, grid, legend, language and base64 from a query or a body's fields (same names). */
function readLook(get: (name: string) => unknown, example: (name: string) => string): Look {
  const locale = read(language, 'language', get('language'), example(CHART_EXAMPLES.language)) ?? read(language, 'locale', get('locale'), example('locale=de'));
  return {
    width: read(pixels, 'width', get('width'), example(CHART_EXAMPLES.width)) ?? CHART_DEFAULTS.width,
    height: read(pixels, 'height', get('height'), example(CHART_EXAMPLES.height)) ?? CHART_DEFAULTS.height,
    grid: read(flag, 'grid', get('grid'), example(CHART_EXAMPLES.grid)) ?? CHART_DEFAULTS.grid,
    legend: read(flag, 'legend', get('legend'), example(CHART_EXAMPLES.legend)) ?? CHART_DEFAULTS.legend,
    locale,
    base64: read(flag, 'base64', get('base64'), example(CHART_EXAMPLES.base64)) ?? false,
    fitReferenceValues: read(flag, 'fitReferenceValues', get('fitReferenceValues'), example(CHART_EXAMPLES.fitReferenceValues)) ?? CHART_DEFAULTS.fitReferenceValues,
  };
}

function request(kind: ChartKind, look: Look, rest: Omit<ChartRequest, 'kind' | keyof Look | 'language' | 'paper'>): ChartRequest {
  return { kind, ...look, language: chartLanguage(look.locale), paper: paperFor(look.locale), ...rest };
}

/** `GET /timeseries/{id}/getData` for an image or report; `k` is the series' position. */
export function readChartQuery(kind: ChartKind, query: URLSearchParams, cat: Catalogue, k: number): ChartRequest {
  const o = readDataOptions(query, cat);
  const s = cat.timeseries[k]!;
  if (hasFilters(o.filters) && !seriesMatches(cat, s, o.filters)) {
    throw notFound(`Timeseries '${s.id}' does not match the filters given`, [`Without filters: /api/v1/timeseries/${s.id}/getData.${kind}`]);
  }
  const styleText = query.get('style');
  const style = styleText === null ? undefined : readStyleParam(styleText);
  const look = readLook((n) => query.get(n) ?? undefined, (e) => e);
  return request(kind, look, { series: [{ k, style }], span: o.span, generalize: o.generalize, expanded: o.expanded });
}

/** The data options a render request body may carry by their query names (they win over the query string). */
export const DATA_KEYS = ['timespan', 'expanded', 'generalize', 'generalizing_algorithm', 'threshold', 'tolerance_value', ...FILTERS];

/**
 * More than MAX_POST_SERIES series named: 400 naming the field that named them (`styleOptions`, `timeseries`, or
 * both when neither alone is too many).
 */
function tooManySeries(styled: number, listed: number, all: number): HttpError {
  if (styled > MAX_POST_SERIES) return badParameter('styleOptions', `may name at most ${MAX_POST_SERIES} timeseries, not ${styled}`, RENDER_EXAMPLE);
  if (listed > MAX_POST_SERIES) return badParameter('timeseries', `may name at most ${MAX_POST_SERIES} timeseries, not ${listed}`, RENDER_EXAMPLE);
  return new HttpError(400, `Parameters 'styleOptions' and 'timeseries' together may name at most ${MAX_POST_SERIES} timeseries, not ${all}`, {
    hints: [`A valid example: ${RENDER_EXAMPLE}`, 'Ask for the others in a second request'],
  });
}

/** `POST /timeseries/getData` with a render request body (already parsed JSON). */
export function readRenderRequest(kind: ChartKind, body: unknown, query: URLSearchParams, cat: Catalogue): ChartRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object with timespan and styleOptions', { hints: [`A valid example: ${RENDER_EXAMPLE}`] });
  }
  const fields = body as Record<string, unknown>;
  const o = readDataOptions(withBodyOptions(query, fields, DATA_KEYS, RENDER_EXAMPLE), cat);
  const look = readLook((n) => fields[n] ?? query.get(n) ?? undefined, () => RENDER_EXAMPLE);

  const options = fields['styleOptions'] ?? {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw badParameter('styleOptions', 'must be an object of styles keyed by timeseries id', RENDER_EXAMPLE);
  const listed = fields['timeseries'] ?? [];
  if (!Array.isArray(listed) || listed.some((x) => typeof x !== 'string')) throw badParameter('timeseries', 'must be an array of timeseries ids', RENDER_EXAMPLE);

  const styles = new Map<string, ChartStyle | undefined>();
  for (const [id, st] of Object.entries(options as Record<string, unknown>)) styles.set(id, readStyle(`styleOptions.${id}`, st, RENDER_EXAMPLE));
  for (const id of listed as string[]) if (!styles.has(id)) styles.set(id, undefined);
  if (styles.size === 0) throw badParameter('styleOptions', 'must name at least one timeseries to render', RENDER_EXAMPLE);
  if (styles.size > MAX_POST_SERIES) throw tooManySeries(Object.keys(options).length, new Set(listed as string[]).size, styles.size);

  const series: ChartRequest['series'] = [];
  for (const [id, style] of styles) {
    const k = cat.ids.timeseries.get(id);
    if (k === undefined) throw notFound(`No timeseries '${id}'`, ['The collection /api/v1/timeseries lists the ids there are']);
    if (!hasFilters(o.filters) || seriesMatches(cat, cat.timeseries[k]!, o.filters)) series.push({ k, style });
  }
  if (series.length === 0) throw notFound('None of the timeseries named matches the filters given', ['Without filters every timeseries named is drawn']);
  return request(kind, look, { series, span: o.span, generalize: o.generalize, expanded: o.expanded });
}
