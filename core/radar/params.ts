/**
 * The radar catalogue's common query parameters: one zod schema each, validated once at the edge. The filters
 * are one record each in filters.ts (schema, SQL, resident test, partitions, live or static, docs); the output
 * parameters (contentType, expanded, includeHeaders) are here. The same tables document them (name, default,
 * example, meaning, wire format), so docs and behaviour cannot drift.
 */
import { z } from 'zod';
import { booleanParam } from '../http/param-schemas.ts';
import { badParameter } from '../http/errors.ts';
import { CONTENT_TYPE_VALUES, FORMATS, MEDIA_TYPES, RADAR_FORMATS, type Format } from '../formats/radar.ts';
import { BOOLEAN_WIRE, FILTER_KEYS, FILTERS, filterOf, selectionLive, type Bbox, type ParamDocWords, type Selection, type Timespan } from './filters.ts';

export { CONTENT_TYPE_VALUES, FORMATS, MEDIA_TYPES, type Format };

export type { Bbox, Timespan };

/** The parameters of a request: its format and view, its selection (filters.ts FILTERS), and CSV's header row. */
export interface RadarParams extends Selection {
  contentType: Format | undefined;
  expanded: boolean;
  includeHeaders: boolean;
}

/** What each format holds (for the docs). */
export const FORMAT_MEANINGS = Object.fromEntries(FORMATS.map((f) => [f, RADAR_FORMATS[f].docs])) as Record<Format, string>;

const CONTENT_TYPE_NAMES: Record<string, Format> = Object.fromEntries(Object.entries(CONTENT_TYPE_VALUES).map(([v, f]) => [v.toLowerCase(), f]));

const boolean = booleanParam;

/** `a, b, c or d`: every media type, then every short name. */
const CONTENT_TYPE_CHOICES = (() => {
  const all = [...FORMATS.map((f) => RADAR_FORMATS[f].media.type), ...FORMATS.flatMap((f) => RADAR_FORMATS[f].names)];
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
})();

const contentType = z.string().transform((v, ctx) => {
  const f = CONTENT_TYPE_NAMES[v.trim().toLowerCase()];
  if (f) return f;
  ctx.addIssue({ code: 'custom', message: `must be one of ${CONTENT_TYPE_CHOICES}, not '${v}'` });
  return z.NEVER;
});

/** The output parameters (format, view, header row); the filters are FILTERS. */
const OUTPUT_PARAMS = {
  contentType: {
    schema: contentType,
    docs: {
      type: 'media type or short name',
      default: '(Accept header, else application/json)',
      example: 'checksumReport',
      meaning: `Selects the representation: ${FORMATS.map((f) => `${RADAR_FORMATS[f].media.type} (${RADAR_FORMATS[f].names[0]})`).join(', ')}. Wins over Accept.`,
      wire: () => ({ type: 'string', enum: Object.keys(CONTENT_TYPE_VALUES) }),
    },
  },
  expanded: { schema: boolean, docs: { type: 'boolean', default: 'false', example: 'true', meaning: 'Return the full record instead of the simple view.', wire: BOOLEAN_WIRE } },
  includeHeaders: { schema: boolean, docs: { type: 'boolean', default: 'true', example: 'false', meaning: 'Whether CSV output starts with a header row.', wire: BOOLEAN_WIRE } },
} as const satisfies Record<string, { schema: z.ZodType<unknown, string>; docs: ParamDocWords }>;

/** Every parameter's name: the output ones and each filter's. */
export type RadarParamName = keyof typeof OUTPUT_PARAMS | (typeof FILTERS)[keyof Selection]['param'];

export interface ParamDoc extends ParamDocWords {
  name: RadarParamName;
}

const docOf = (name: RadarParamName, words: ParamDocWords): ParamDoc => ({ name, ...words });

/** The documented parameters in the order of the docs: format and view, the filters, then CSV's header row. */
export const PARAM_DOCS: ParamDoc[] = [
  docOf('contentType', OUTPUT_PARAMS.contentType.docs),
  docOf('expanded', OUTPUT_PARAMS.expanded.docs),
  ...FILTER_KEYS.map((k) => docOf(FILTERS[k].param, FILTERS[k].docs)),
  docOf('includeHeaders', OUTPUT_PARAMS.includeHeaders.docs),
];

/** The parameters parseRadarParams reads. */
export const RADAR_PARAM_NAMES: RadarParamName[] = PARAM_DOCS.map((d) => d.name);

const EXAMPLES = Object.fromEntries(PARAM_DOCS.map((d) => [d.name, d.example])) as Record<RadarParamName, string>;

function read<T>(query: URLSearchParams, name: RadarParamName, schema: z.ZodType<T, string>): T | undefined {
  const raw = query.get(name); // a repeated parameter: the first value counts
  if (raw === null) return undefined;
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw badParameter(name, r.error.issues[0]?.message ?? 'cannot be read', `${name}=${EXAMPLES[name]}`);
}

/** The selection of a request: each filter's value, or its absent value. */
function readSelection(query: URLSearchParams): Selection {
  const one = <K extends keyof Selection>(k: K): Selection[K] => {
    const f = filterOf(k);
    return read(query, f.param as RadarParamName, f.schema) ?? f.absent;
  };
  // every key of Selection: FILTERS satisfies FilterTable
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, one(k)])) as unknown as Selection;
}

/** Reads the common parameters; unknown parameters are ignored. Throws HttpError(400) naming the first bad one, in the docs' order. */
export function parseRadarParams(query: URLSearchParams): RadarParams {
  const contentTypeValue = read(query, 'contentType', contentType);
  const expanded = read(query, 'expanded', boolean) ?? false;
  const selection = readSelection(query);
  return { contentType: contentTypeValue, expanded, ...selection, includeHeaders: read(query, 'includeHeaders', boolean) ?? true };
}

/** Parameters that select rows or change bytes beyond the static variants (format, expanded). */
export function needsLiveQuery(p: RadarParams): boolean {
  return selectionLive(p) || !p.includeHeaders;
}
