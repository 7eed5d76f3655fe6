/**
 * The configuration files of a timeseries snapshot (API `timeseries-v1`), in the folder `config/`
 * of the snapshot, in the shapes of 52°North's `web_config-*.json` files:
 *
 * - `web_config-general.json`: general settings; `requestIntervalRestriction` is the longest
 *   timespan a data request may ask for (ISO 8601 duration, default `P1Y1D`); `license` is the text
 *   `GET /timeseries/{id}/extras` answers as `license` (52°North reads it from a file of its own,
 *   `config-license.txt`). Other 52°North settings in this file (`timeformat`, `cache`, ...) are
 *   allowed and ignored.
 * - `web_config-status-intervals.json`: status intervals per phenomenon (`phenomenonIntervals`)
 *   and per timeseries (`timeseriesIntervals`; `datasetIntervals` and `seriesIntervals` mean the same).
 * - `web_config-rendering-hints.json`: a chart style per phenomenon (`phenomenonStyles`) and per
 *   timeseries (`timeseriesStyles`; `datasetStyles`, `seriesStyles` mean the same).
 * - `web_config-task-prerendering.json`: charts rendered at build time, for every timeseries of a
 *   phenomenon or for single timeseries, with a general chart configuration.
 *
 * A timeseries entry wins over a phenomenon entry. Every file is optional; a missing file means
 * "nothing configured" (and the default maximum timespan). Ids must carry their type prefix.
 *
 * Normalisations: status interval bounds may be written as numbers or strings and come out as
 * strings (the API serves them as strings); `referenceValueStyleProperties` may sit next to a
 * style's `properties` (rendering hints) or inside them (pre-rendering) and comes out next to them;
 * `width`/`height` of the pre-rendering chart may be strings of digits and come out as numbers;
 * `locale` is accepted for `language`.
 *
 * Pure: give it the parsed JSON of the files, keyed by file name (with or without `config/`).
 */
import { z } from 'zod';

export const TIMESERIES_CONFIG_FILES = {
  general: 'web_config-general.json',
  statusIntervals: 'web_config-status-intervals.json',
  renderingHints: 'web_config-rendering-hints.json',
  prerendering: 'web_config-task-prerendering.json',
} as const;

export const DEFAULT_MAX_TIMESPAN = 'P1Y1D';
export const PRERENDER_INTERVALS = ['lastDay', 'lastWeek', 'lastMonth'] as const;
export type PrerenderInterval = (typeof PRERENDER_INTERVALS)[number];

const ID_TAIL = '[A-Za-z0-9][A-Za-z0-9_-]*$';
const phenomenonId = z.string().regex(new RegExp(`^phe_${ID_TAIL}`), { error: 'expected a phenomenon id like phe_water_level' });
const timeseriesId = z.string().regex(new RegExp(`^ts_${ID_TAIL}`), { error: 'expected a timeseries id like ts_koeln_rhein_water_level' });
const referenceValueId = z.string().regex(new RegExp(`^ref_${ID_TAIL}`), { error: 'expected a reference value id like ref_koeln_rhein_ms1' });
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'expected a six-digit hex colour like #0000ff' });
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

// ---------- styles ----------

export const LINE_TYPES = ['solid', 'dashed', 'dotted', 'solidWithDots'] as const;
export const BAR_INTERVALS = ['byHour', 'byDay', 'byWeek', 'byMonth'] as const;

const lineProperties = {
  lineType: z.enum(LINE_TYPES).optional(),
  width: z.number().int().min(1, { error: 'a line width is a whole number of at least 1' }).optional(),
  color: color.optional(),
};
const barProperties = {
  interval: z.enum(BAR_INTERVALS).optional(),
  width: z.number().min(0).max(1, { error: 'a bar width is a number from 0 to 1' }).optional(),
  color: color.optional(),
};
/** A style without reference value styles: the style of a reference value. */
const plainStyleSchema = z.discriminatedUnion('chartType', [
  z.strictObject({ chartType: z.literal('line'), properties: z.strictObject(lineProperties).default({}) }),
  z.strictObject({ chartType: z.literal('bar'), properties: z.strictObject(barProperties).default({}) }),
]);
const refStyles = z.record(referenceValueId, plainStyleSchema);
/** A chart style as written in the files; see `ChartStyle` for the normalised form. */
export const styleSchema = z.discriminatedUnion('chartType', [
  z.strictObject({
    chartType: z.literal('line'),
    properties: z.strictObject({ ...lineProperties, referenceValueStyleProperties: refStyles.optional() }).default({}),
    referenceValueStyleProperties: refStyles.optional(),
  }),
  z.strictObject({
    chartType: z.literal('bar'),
    properties: z.strictObject({ ...barProperties, referenceValueStyleProperties: refStyles.optional() }).default({}),
    referenceValueStyleProperties: refStyles.optional(),
  }),
]);

export type LineStyle = { chartType: 'line'; properties: { lineType?: (typeof LINE_TYPES)[number]; width?: number; color?: string } };
export type BarStyle = { chartType: 'bar'; properties: { interval?: (typeof BAR_INTERVALS)[number]; width?: number; color?: string } };
export type PlainStyle = LineStyle | BarStyle;
/** A normalised chart style: reference value styles, by reference value id, next to `properties`. */
export type ChartStyle = PlainStyle & { referenceValueStyleProperties: Record<string, PlainStyle> };

export function normaliseStyle(s: z.infer<typeof styleSchema>): ChartStyle {
  const { referenceValueStyleProperties: inner, ...properties } = s.properties;
  const refs = { ...(s.referenceValueStyleProperties ?? {}), ...(inner ?? {}) } as Record<string, PlainStyle>;
  return { chartType: s.chartType, properties, referenceValueStyleProperties: refs } as ChartStyle;
}

// ---------- status intervals ----------

const bound = z
  .union([z.number(), z.string()])
  .transform((v) => String(v))
  .refine((v) => NUMBER_TEXT.test(v), { error: 'expected a number (or a string holding one), for example "20" or 20.5' });
const statusIntervalSchema = z
  .strictObject({ lower: bound, upper: bound.optional(), color })
  .refine((i) => i.upper === undefined || Number(i.upper) >= Number(i.lower), { error: 'upper must not be below lower' });
const intervalEntry = z.strictObject({ statusIntervals: z.record(z.string().min(1), statusIntervalSchema).optional() });

export const statusIntervalsFileSchema = z.strictObject({
  phenomenonIntervals: z.record(phenomenonId, intervalEntry).optional(),
  timeseriesIntervals: z.record(timeseriesId, intervalEntry).optional(),
  datasetIntervals: z.record(timeseriesId, intervalEntry).optional(),
  seriesIntervals: z.record(timeseriesId, intervalEntry).optional(),
});

/** One status interval as the API serves it: bounds as strings, `upper` absent on the top interval. */
export interface StatusInterval {
  name: string;
  lower: string;
  upper?: string;
  color: string;
}

// ---------- rendering hints ----------

const hintEntry = z.strictObject({ style: styleSchema });
export const renderingHintsFileSchema = z.strictObject({
  phenomenonStyles: z.record(phenomenonId, hintEntry).optional(),
  timeseriesStyles: z.record(timeseriesId, hintEntry).optional(),
  datasetStyles: z.record(timeseriesId, hintEntry).optional(),
  seriesStyles: z.record(timeseriesId, hintEntry).optional(),
});

// ---------- pre-rendering ----------

const pixels = z
  .union([z.number(), z.string().regex(/^\d+$/, { error: 'expected a whole number of pixels' })])
  .transform((v) => Number(v))
  .refine((v) => Number.isInteger(v) && v >= 50 && v <= 4000, { error: 'expected a whole number of pixels from 50 to 4000' });
const chartConfigFields = {
  width: pixels.optional(),
  height: pixels.optional(),
  language: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'expected a language code like de or en_US' }).optional(),
  locale: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'expected a language code like de or en_US' }).optional(),
  grid: z.boolean().optional(),
  generalize: z.boolean().optional(),
  expanded: z.boolean().optional(),
  legend: z.boolean().optional(),
};
const prerenderEntry = z.strictObject({
  id: z.string(),
  title: z.string().optional(),
  chartQualifier: z.string().regex(/^[A-Za-z0-9_-]+$/, { error: 'expected letters, digits, _ or -' }).optional(),
  interval: z.array(z.enum(PRERENDER_INTERVALS)).min(1),
  config: z.strictObject(chartConfigFields).optional(),
  style: styleSchema,
});
export const prerenderingFileSchema = z.strictObject({
  generalConfig: z.strictObject(chartConfigFields).optional(),
  phenomenonStyles: z.array(prerenderEntry.extend({ id: phenomenonId })).optional(),
  timeseriesStyles: z.array(prerenderEntry.extend({ id: timeseriesId })).optional(),
  datasetStyles: z.array(prerenderEntry.extend({ id: timeseriesId })).optional(),
  seriesStyles: z.array(prerenderEntry.extend({ id: timeseriesId })).optional(),
});

export interface ChartConfig {
  width: number;
  height: number;
  language: string;
  grid: boolean;
  generalize: boolean;
  expanded: boolean;
  legend: boolean;
}
export const DEFAULT_CHART_CONFIG: ChartConfig = { width: 800, height: 500, language: 'en', grid: true, generalize: false, expanded: false, legend: false };

export interface PrerenderTask {
  /** Phenomenon id (`phenomenon` tasks) or timeseries id (`timeseries` tasks). */
  id: string;
  title?: string;
  /** Distinguishes several charts of one timeseries and interval, for example `with_legend`. */
  chartQualifier?: string;
  intervals: PrerenderInterval[];
  /** The general configuration with the entry's `config` applied. */
  chart: ChartConfig;
  style: ChartStyle;
}

// ---------- general ----------

export const generalFileSchema = z.looseObject({
  requestIntervalRestriction: z.string().regex(ISO_DURATION, { error: 'expected an ISO 8601 duration like P1Y1D or P370D' }).optional(),
  generalizer: z
    .looseObject({
      defaultGeneralizer: z.string().regex(/^(lttb|dp)$/i, { error: 'expected lttb or dp' }).optional(),
      noDataGapThreshold: z.number().min(0).optional(),
    })
    .optional(),
  license: z.string().trim().min(1, { error: 'expected the license text, not an empty string' }).optional(),
});

export interface DurationParts {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function parseIsoDuration(text: string): DurationParts | undefined {
  const m = ISO_DURATION.exec(text);
  if (!m) return undefined;
  const n = (s: string | undefined) => (s ? Number(s.slice(0, -1)) : 0);
  return { years: n(m[1]), months: n(m[2]), weeks: n(m[3]), days: n(m[4]), hours: n(m[6]), minutes: n(m[7]), seconds: n(m[8]) };
}

// ---------- the whole configuration ----------

export interface TimeseriesConfig {
  /** Longest timespan of a data request, ISO 8601 duration (`requestIntervalRestriction`). */
  maxTimespan: string;
  maxTimespanParts: DurationParts;
  /** Default generalizer when `generalize=true` names none. */
  defaultGeneralizer: 'lttb' | 'dp';
  /** The data's license text (`license` of web_config-general.json), served by the extras path; undefined: none. */
  license?: string | undefined;
  /** 52°North's `generalizer.noDataGapThreshold`: where chart lines break (core/charts/gaps.ts); unset: not configured. */
  noDataGapThreshold?: number;
  statusIntervals: { phenomenon: Record<string, StatusInterval[]>; timeseries: Record<string, StatusInterval[]> };
  renderingHints: { phenomenon: Record<string, ChartStyle>; timeseries: Record<string, ChartStyle> };
  prerendering: { general: ChartConfig; phenomenon: PrerenderTask[]; timeseries: PrerenderTask[] };
}

export class TimeseriesConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid timeseries configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'TimeseriesConfigError';
    this.problems = problems;
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(top level)' : path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

function parseFile<S extends z.ZodType>(schema: S, file: string, value: unknown, problems: string[]): z.output<S> | undefined {
  if (value === undefined) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) problems.push(`config/${file}: ${fieldPath(issue.path)}: ${issue.message}`);
  return undefined;
}

function mergeAliases<T>(...maps: (Record<string, T> | undefined)[]): Record<string, T> {
  return Object.assign({}, ...maps.filter(Boolean).reverse());
}

/**
 * Reads the configuration files of a timeseries snapshot. `files` maps file names
 * (`web_config-general.json` or `config/web_config-general.json`) to their parsed JSON; other
 * names are ignored. Throws a `TimeseriesConfigError` naming the file and field of every problem.
 */
export function parseTimeseriesConfig(files: Record<string, unknown>): TimeseriesConfig {
  const byName = new Map<string, unknown>();
  for (const [k, v] of Object.entries(files)) byName.set(k.replace(/^(\.\/)?config\//, ''), v);
  const problems: string[] = [];
  const F = TIMESERIES_CONFIG_FILES;
  const general = parseFile(generalFileSchema, F.general, byName.get(F.general), problems);
  const si = parseFile(statusIntervalsFileSchema, F.statusIntervals, byName.get(F.statusIntervals), problems);
  const rh = parseFile(renderingHintsFileSchema, F.renderingHints, byName.get(F.renderingHints), problems);
  const pr = parseFile(prerenderingFileSchema, F.prerendering, byName.get(F.prerendering), problems);
  if (problems.length) throw new TimeseriesConfigError(problems);

  const intervals = (m: Record<string, z.infer<typeof intervalEntry>>): Record<string, StatusInterval[]> =>
    Object.fromEntries(
      Object.entries(m).map(([id, e]) => [
        id,
        Object.entries(e.statusIntervals ?? {}).map(([name, i]) => ({ name, lower: i.lower, ...(i.upper !== undefined ? { upper: i.upper } : {}), color: i.color })),
      ]),
    );
  const styles = (m: Record<string, z.infer<typeof hintEntry>>): Record<string, ChartStyle> =>
    Object.fromEntries(Object.entries(m).map(([id, e]) => [id, normaliseStyle(e.style)]));
  const chart = (base: ChartConfig, c: z.infer<typeof prerenderEntry>['config']): ChartConfig => {
    const { locale, language, ...rest } = c ?? {};
    const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    return { ...base, ...defined, language: language ?? locale ?? base.language };
  };
  const generalChart = chart(DEFAULT_CHART_CONFIG, pr?.generalConfig);
  const tasks = (list: z.infer<typeof prerenderEntry>[]): PrerenderTask[] =>
    list.map((e) => ({
      id: e.id,
      ...(e.title !== undefined ? { title: e.title } : {}),
      ...(e.chartQualifier !== undefined ? { chartQualifier: e.chartQualifier } : {}),
      intervals: [...new Set(e.interval)],
      chart: chart(generalChart, e.config),
      style: normaliseStyle(e.style),
    }));

  const maxTimespan = general?.requestIntervalRestriction ?? DEFAULT_MAX_TIMESPAN;
  return {
    maxTimespan,
    maxTimespanParts: parseIsoDuration(maxTimespan)!,
    defaultGeneralizer: (general?.generalizer?.defaultGeneralizer?.toLowerCase() ?? 'lttb') as 'lttb' | 'dp',
    ...(general?.license !== undefined ? { license: general.license } : {}),
    ...(general?.generalizer?.noDataGapThreshold !== undefined ? { noDataGapThreshold: general.generalizer.noDataGapThreshold } : {}),
    statusIntervals: {
      phenomenon: intervals(si?.phenomenonIntervals ?? {}),
      timeseries: intervals(mergeAliases(si?.timeseriesIntervals, si?.datasetIntervals, si?.seriesIntervals)),
    },
    renderingHints: {
      phenomenon: styles(rh?.phenomenonStyles ?? {}),
      timeseries: styles(mergeAliases(rh?.timeseriesStyles, rh?.datasetStyles, rh?.seriesStyles)),
    },
    prerendering: {
      general: generalChart,
      phenomenon: tasks(pr?.phenomenonStyles ?? []),
      timeseries: tasks([...(pr?.timeseriesStyles ?? []), ...(pr?.datasetStyles ?? []), ...(pr?.seriesStyles ?? [])]),
    },
  };
}

/**
 * Ids the configuration names that the snapshot's tables do not hold, as messages naming the file.
 * For a validator: `parseTimeseriesConfig` alone cannot know the tables.
 */
export function configReferenceProblems(
  config: TimeseriesConfig,
  known: { phenomena: ReadonlySet<string>; timeseries: ReadonlySet<string>; referenceValues: ReadonlySet<string> },
): string[] {
  const out: string[] = [];
  const F = TIMESERIES_CONFIG_FILES;
  const check = (file: string, where: string, id: string, set: ReadonlySet<string>) => {
    if (!set.has(id)) out.push(`config/${file}: ${where}: unknown id '${id}'`);
  };
  const checkStyle = (file: string, where: string, s: ChartStyle) => {
    for (const ref of Object.keys(s.referenceValueStyleProperties)) check(file, `${where}.referenceValueStyleProperties`, ref, known.referenceValues);
  };
  for (const id of Object.keys(config.statusIntervals.phenomenon)) check(F.statusIntervals, 'phenomenonIntervals', id, known.phenomena);
  for (const id of Object.keys(config.statusIntervals.timeseries)) check(F.statusIntervals, 'timeseriesIntervals', id, known.timeseries);
  for (const [id, s] of Object.entries(config.renderingHints.phenomenon)) {
    check(F.renderingHints, 'phenomenonStyles', id, known.phenomena);
    checkStyle(F.renderingHints, `phenomenonStyles.${id}.style`, s);
  }
  for (const [id, s] of Object.entries(config.renderingHints.timeseries)) {
    check(F.renderingHints, 'timeseriesStyles', id, known.timeseries);
    checkStyle(F.renderingHints, `timeseriesStyles.${id}.style`, s);
  }
  config.prerendering.phenomenon.forEach((t, i) => {
    check(F.prerendering, `phenomenonStyles[${i}].id`, t.id, known.phenomena);
    checkStyle(F.prerendering, `phenomenonStyles[${i}].style`, t.style);
  });
  config.prerendering.timeseries.forEach((t, i) => {
    check(F.prerendering, `timeseriesStyles[${i}].id`, t.id, known.timeseries);
    checkStyle(F.prerendering, `timeseriesStyles[${i}].style`, t.style);
  });
  return out;
}
