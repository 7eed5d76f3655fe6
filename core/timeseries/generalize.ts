/**
 * `generalize=true` (DECISIONS.md): line simplification of raw timeseries data. Largest-Triangle-Three-Buckets
 * by default (`threshold`, default 200 points); `generalizing_algorithm=DP` selects Douglas-Peucker
 * (`tolerance_value`, default 0.1, vertical distance in the series' value units). Both keep the first and
 * last points, keep order, only ever drop points (output ⊆ input) and keep gaps (null values) as gaps:
 * see generalize/runs.ts, generalize/lttb.ts and generalize/douglas-peucker.ts for the exact rules and bounds.
 *
 * Two forms: the fast one, `{t, v}` typed arrays with NaN for null, and `{timestamp, value}[]` as the API
 * returns it. Timestamps must be non-decreasing.
 */
import { z } from 'zod';
import { badParameter } from '../http/errors.ts';
import { douglasPeuckerIndices } from './generalize/douglas-peucker.ts';
import { lttbIndices } from './generalize/lttb.ts';
import type { ParamDoc } from './params.ts';

export { douglasPeuckerIndices, lttbIndices };

/** Fast form: timestamps (ms) and values, NaN where the value is null. */
export interface Series {
  t: Float64Array;
  v: Float64Array;
}

export interface TimeValue {
  timestamp: number;
  value: number | null;
}

export const DEFAULT_LTTB_THRESHOLD = 200;
export const DEFAULT_DP_TOLERANCE = 0.1;

export function toSeries(points: readonly TimeValue[]): Series {
  const t = new Float64Array(points.length);
  const v = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    t[i] = points[i]!.timestamp;
    const x = points[i]!.value;
    v[i] = x === null ? NaN : x;
  }
  return { t, v };
}

/** The points at `indices`, in the form they came in (NaN back to null for `TimeValue[]`). */
function pick(input: Series, indices: Int32Array): Series;
function pick(input: readonly TimeValue[], indices: Int32Array): TimeValue[];
function pick(input: Series | readonly TimeValue[], indices: Int32Array): Series | TimeValue[];
function pick(input: Series | readonly TimeValue[], indices: Int32Array): Series | TimeValue[] {
  if (isPointArray(input)) return Array.from(indices, (i) => input[i]!);
  const t = new Float64Array(indices.length);
  const v = new Float64Array(indices.length);
  for (let k = 0; k < indices.length; k++) {
    t[k] = input.t[indices[k]!]!;
    v[k] = input.v[indices[k]!]!;
  }
  return { t, v };
}

function isPointArray(input: Series | readonly TimeValue[]): input is readonly TimeValue[] {
  return Array.isArray(input);
}

function typed(input: Series | readonly TimeValue[]): Series {
  return isPointArray(input) ? toSeries(input) : input;
}

/** Largest-Triangle-Three-Buckets to at most `threshold` points (more only to keep every gap; see lttb.ts). */
export function lttb(points: Series, threshold?: number): Series;
export function lttb(points: readonly TimeValue[], threshold?: number): TimeValue[];
export function lttb(points: Series | readonly TimeValue[], threshold = DEFAULT_LTTB_THRESHOLD): Series | TimeValue[] {
  const s = typed(points);
  return pick(points, lttbIndices(s.t, s.v, threshold));
}

/** Douglas-Peucker: every dropped point within `tolerance` (value units, vertically) of the kept line. */
export function douglasPeucker(points: Series, tolerance?: number): Series;
export function douglasPeucker(points: readonly TimeValue[], tolerance?: number): TimeValue[];
export function douglasPeucker(points: Series | readonly TimeValue[], tolerance = DEFAULT_DP_TOLERANCE): Series | TimeValue[] {
  const s = typed(points);
  return pick(points, douglasPeuckerIndices(s.t, s.v, tolerance));
}

export type GeneralizeOptions = { algorithm: 'lttb'; threshold: number } | { algorithm: 'dp'; tolerance: number };

/** Applies the chosen algorithm; the same form comes out as went in. */
export function generalize(points: Series, options: GeneralizeOptions): Series;
export function generalize(points: readonly TimeValue[], options: GeneralizeOptions): TimeValue[];
export function generalize(points: Series | readonly TimeValue[], options: GeneralizeOptions): Series | TimeValue[] {
  const s = typed(points);
  const idx = options.algorithm === 'lttb' ? lttbIndices(s.t, s.v, options.threshold) : douglasPeuckerIndices(s.t, s.v, options.tolerance);
  return pick(points, idx);
}

const algorithm = z.string().transform((v, ctx) => {
  const s = v.trim().toLowerCase();
  if (s === 'lttb' || s === 'dp') return s;
  ctx.addIssue({ code: 'custom', message: `must be LTTB or DP, not '${v}'` });
  return z.NEVER;
});

const threshold = z.string().transform((v, ctx) => {
  const s = v.trim();
  if (/^\d{1,9}$/.test(s) && Number(s) >= 2) return Number(s);
  ctx.addIssue({ code: 'custom', message: `must be a whole number of points from 2 up, not '${v}'` });
  return z.NEVER;
});

const tolerance = z.string().transform((v, ctx) => {
  const s = v.trim();
  if (/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s) && Number.isFinite(Number(s))) return Number(s);
  ctx.addIssue({ code: 'custom', message: `must be a number from 0 up (value units), not '${v}'` });
  return z.NEVER;
});

type OptionName = 'generalizing_algorithm' | 'threshold' | 'tolerance_value';

/** The generalizer's parameters with a valid example (used in error hints) and their meaning (for the docs). */
export const GENERALIZE_PARAM_DOCS: (ParamDoc & { name: OptionName })[] = [
  {
    name: 'generalizing_algorithm',
    example: 'generalizing_algorithm=DP',
    meaning: "With generalize=true: LTTB (Largest-Triangle-Three-Buckets) or DP (Douglas-Peucker), in any case; default: the snapshot's configured generalizer (LTTB unless configured).",
  },
  {
    name: 'threshold',
    example: 'threshold=200',
    meaning: `LTTB: at most this many points (a whole number from 2; default ${DEFAULT_LTTB_THRESHOLD}), plus one marker per gap of nulls. The first and last points are kept.`,
  },
  {
    name: 'tolerance_value',
    example: 'tolerance_value=0.1',
    meaning: `Douglas-Peucker: every dropped point lies within this distance (value units, vertically) of the kept line; a number from 0 up, default ${DEFAULT_DP_TOLERANCE}.`,
  },
];

const EXAMPLES = Object.fromEntries(GENERALIZE_PARAM_DOCS.map((d) => [d.name, d.example])) as Record<OptionName, string>;

function read<T>(query: URLSearchParams, name: OptionName, schema: z.ZodType<T, string>): T | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw badParameter(name, r.error.issues[0]?.message ?? 'cannot be read', EXAMPLES[name]);
}

/**
 * The algorithm's options from the query (`generalizing_algorithm`, `threshold`, `tolerance_value`; names
 * as in the 52°North documentation, the algorithm case-insensitive). Whether to generalize at all is the
 * `generalize` boolean, read by the caller. Throws HttpError 400 naming the parameter.
 */
export function parseGeneralizeOptions(query: URLSearchParams): GeneralizeOptions {
  const algo = read(query, 'generalizing_algorithm', algorithm) ?? 'lttb';
  if (algo === 'dp') return { algorithm: 'dp', tolerance: read(query, 'tolerance_value', tolerance) ?? DEFAULT_DP_TOLERANCE };
  return { algorithm: 'lttb', threshold: read(query, 'threshold', threshold) ?? DEFAULT_LTTB_THRESHOLD };
}
