/**
 * The radar catalogue's common query parameters: one zod schema each, validated once at the edge.
 * The same table documents them (name, default, example, meaning), so docs and behaviour cannot drift.
 */
import { z } from 'zod';
import { booleanParam } from '../http/param-schemas.ts';
import { badParameter } from '../http/errors.ts';
import { parsePartialDatetime } from './partial-datetime.ts';
import { CONTENT_TYPE_VALUES, FORMATS, MEDIA_TYPES, RADAR_FORMATS, type Format } from '../formats/radar.ts';

export { CONTENT_TYPE_VALUES, FORMATS, MEDIA_TYPES, type Format };

export interface Timespan {
  /** Inclusive bounds, ms since the epoch. */
  start: number;
  end: number;
}

export interface Bbox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface RadarParams {
  contentType: Format | undefined;
  expanded: boolean;
  timespan: Timespan | undefined;
  bbox: Bbox | undefined;
  radarCode: string | undefined;
  distinct: boolean;
  delimiter: string;
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

const timespan = z.string().transform((v, ctx): Timespan => {
  const parts = v.split('/');
  if (parts.length !== 2) {
    ctx.addIssue({ code: 'custom', message: `must be two datetimes joined by '/', not '${v}'` });
    return z.NEVER;
  }
  const [a, b] = parts.map((p) => parsePartialDatetime(p));
  if (!a!.ok || !b!.ok) {
    ctx.addIssue({ code: 'custom', message: `has ${!a!.ok ? a!.problem : (b as { problem: string }).problem}` });
    return z.NEVER;
  }
  if (a!.ms > b!.ms) {
    ctx.addIssue({ code: 'custom', message: `starts after it ends ('${v}')` });
    return z.NEVER;
  }
  return { start: a!.ms, end: b!.ms };
});

const bbox = z.string().transform((v, ctx): Bbox => {
  const parts = v.split(',').map((p) => p.trim());
  const nums = parts.map((p) => (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(p) ? Number(p) : NaN));
  if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
    ctx.addIssue({ code: 'custom', message: `must be four numbers minX,minY,maxX,maxY (lon/lat), not '${v}'` });
    return z.NEVER;
  }
  const [minX, minY, maxX, maxY] = nums as [number, number, number, number];
  if ([minX, maxX].some((x) => x < -180 || x > 180) || [minY, maxY].some((y) => y < -90 || y > 90)) {
    ctx.addIssue({ code: 'custom', message: `must have longitudes from -180 to 180 and latitudes from -90 to 90, not '${v}'` });
    return z.NEVER;
  }
  if (minY > maxY) {
    ctx.addIssue({ code: 'custom', message: `has minY ${minY} above maxY ${maxY}; give the lower-left corner first` });
    return z.NEVER;
  }
  return { minX, minY, maxX, maxY };
});

const radarCode = z.string().transform((v, ctx) => {
  const s = v.trim().toLowerCase();
  if (/^[a-z]{3}$/.test(s)) return s;
  ctx.addIssue({ code: 'custom', message: `must be a three-letter radar code, not '${v}'` });
  return z.NEVER;
});

const delimiter = z.string().transform((v, ctx) => {
  if ([...v].length === 1 && !['"', '\r', '\n'].includes(v)) return v;
  ctx.addIssue({ code: 'custom', message: `must be one character other than a double quote or a line break, not '${v}'` });
  return z.NEVER;
});

export interface ParamDoc {
  name: keyof typeof RAW_SCHEMAS;
  type: string;
  default: string;
  example: string;
  meaning: string;
}

const RAW_SCHEMAS = { contentType, expanded: boolean, timespan, bbox, radar_code: radarCode, distinct: boolean, delimiter, includeHeaders: boolean };
/** The parameters parseRadarParams reads. */
export const RADAR_PARAM_NAMES = Object.keys(RAW_SCHEMAS) as (keyof typeof RAW_SCHEMAS)[];

export const PARAM_DOCS: ParamDoc[] = [
  { name: 'contentType', type: 'media type or short name', default: '(Accept header, else application/json)', example: 'checksumReport', meaning: `Selects the representation: ${FORMATS.map((f) => `${RADAR_FORMATS[f].media.type} (${RADAR_FORMATS[f].names[0]})`).join(', ')}. Wins over Accept.` },
  { name: 'expanded', type: 'boolean', default: 'false', example: 'true', meaning: 'Return the full record instead of the simple view.' },
  { name: 'timespan', type: 'START/END, partial ISO 8601 datetimes', default: 'none', example: '2024-01-01/2024-01-02', meaning: "Records whose own interval overlaps [START, END]; radars whose earliest_data lies in it. Missing parts take their lowest value; no zone means UTC." },
  { name: 'bbox', type: 'minX,minY,maxX,maxY (lon/lat, EPSG:4326)', default: 'none', example: '-180,-90,180,0', meaning: "Records of radars whose position lies in the box. minX > maxX means a box across the antimeridian." },
  { name: 'radar_code', type: 'three letters, case-insensitive', default: 'none', example: 'sas', meaning: 'Records of one radar.' },
  { name: 'distinct', type: 'boolean', default: 'false', example: 'true', meaning: 'One instance per file id (the most recent transfer) instead of every transfer instance.' },
  { name: 'delimiter', type: 'one character', default: ',', example: ';', meaning: 'Field delimiter of CSV output.' },
  { name: 'includeHeaders', type: 'boolean', default: 'true', example: 'false', meaning: 'Whether CSV output starts with a header row.' },
];

const EXAMPLES = Object.fromEntries(PARAM_DOCS.map((d) => [d.name, d.example])) as Record<string, string>;

function read<T>(query: URLSearchParams, name: keyof typeof RAW_SCHEMAS, schema: z.ZodType<T, string>): T | undefined {
  const raw = query.get(name); // a repeated parameter: the first value counts
  if (raw === null) return undefined;
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw badParameter(name, r.error.issues[0]?.message ?? 'cannot be read', `${name}=${EXAMPLES[name]}`);
}

/** Reads the common parameters; unknown parameters are ignored. Throws HttpError(400) naming the first bad one. */
export function parseRadarParams(query: URLSearchParams): RadarParams {
  return {
    contentType: read(query, 'contentType', contentType),
    expanded: read(query, 'expanded', boolean) ?? false,
    timespan: read(query, 'timespan', timespan),
    bbox: read(query, 'bbox', bbox),
    radarCode: read(query, 'radar_code', radarCode),
    distinct: read(query, 'distinct', boolean) ?? false,
    delimiter: read(query, 'delimiter', delimiter) ?? ',',
    includeHeaders: read(query, 'includeHeaders', boolean) ?? true,
  };
}

/** Parameters that select rows or change bytes beyond the static variants (format, expanded). */
export function needsLiveQuery(p: RadarParams): boolean {
  return p.timespan !== undefined || p.bbox !== undefined || p.radarCode !== undefined || p.distinct || p.delimiter !== ',' || !p.includeHeaders;
}
