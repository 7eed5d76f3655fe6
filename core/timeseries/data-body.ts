/**
 * The bodies of raw data answers (DECISIONS.md, 52°North's "Data Formats"), as bytes:
 *
 * | request                     | tvp                                                                   | highchart |
 * |-----------------------------|-----------------------------------------------------------------------|-----------|
 * | GET one series              | `{"values": [V...]}`                                                   | `{"name": id, "data": [[t, v]...]}` |
 * | GET one series, expanded    | `{"<id>": {"values": [...], "extra": {"referenceValues": {"<ref>": {"values": [...]}}}}}` | `[{"name": id, ...}, {"name": ref, ...}...]` |
 * | POST several series         | `{"allTimeseries": {"<id>": {"values": [...]}...}}` (expanded: each with `extra`; profile `52north`: `{"<id>": ...}`) | `[{"name": id, ...}...]` (expanded: each followed by its reference values) |
 *
 * flot (DECISIONS.md "Real clients"): GET one series `{"values": [[t, v]...], "referenceValues": {}}`; expanded
 * `{"<id>": {"values": [...], "referenceValues": {"<ref>": {"values": [[t, v]...]}}, "valueBeforeTimespan":
 * [t, v], "valueAfterTimespan": [t, v]}}`; POST `{"<id>": {...}...}`, each entry as GET's (in both profiles).
 *
 * A value V is `{"timestamp": t, "value": v}`; a value reported without a usable number (null in the
 * snapshot) is `"value": null` (`[t, null]` in highchart, which Highcharts draws as a gap).
 */
import type { Series } from './generalize.ts';
import { JsonBytes, MAX_POINT_BYTES } from './json-bytes.ts';
import type { DataFormat } from './params.ts';
import type { TimeseriesProfile } from './profile.ts';

/** Timestamps (ms) and values (NaN for null), in time order. */
export type Points = Series;

export interface SeriesData {
  id: string;
  points: Points;
  /** Reference values sampled at the series' timestamps (expanded only), by id. */
  refs: { id: string; points: Points }[];
  /** Flot, expanded: the nearest non-null values before and after the timespan (zero or one point each). */
  before?: Points;
  after?: Points;
}

export interface BodyShape {
  format: DataFormat;
  expanded: boolean;
  /** `single`: GET of one series; `multiple`: POST. */
  mode: 'single' | 'multiple';
  /** POST tvp: `spec` (default) wraps the series in `allTimeseries`, `52north` does not (profile.ts). */
  profile?: TimeseriesProfile;
}

function tvpValues(out: JsonBytes, p: Points): void {
  out.raw('[').values(p.t, p.v, 'tvp').raw(']');
}

function highchartSeries(out: JsonBytes, id: string, p: Points): void {
  out.raw('{"name":').string(id).raw(',"data":[').values(p.t, p.v, 'pairs').raw(']}');
}

/** `{"values": [...]}` with, when expanded, `"extra": {"referenceValues": {...}}`. */
function tvpEntry(out: JsonBytes, s: SeriesData, expanded: boolean): void {
  out.raw('{"values":');
  tvpValues(out, s.points);
  if (expanded) {
    out.raw(',"extra":{"referenceValues":{');
    s.refs.forEach((r, i) => {
      out.raw(i === 0 ? '' : ',').string(r.id).raw(':{"values":');
      tvpValues(out, r.points);
      out.raw('}');
    });
    out.raw('}}');
  }
  out.raw('}');
}

/**
 * Flot: `{"values": [[t, v]...], "referenceValues": {"<ref>": {"values": [[t, v]...]}}}` (`{}` unless
 * expanded), with `"valueBeforeTimespan": [t, v]` and `"valueAfterTimespan": [t, v]` where the series has one.
 */
function flotEntry(out: JsonBytes, s: SeriesData): void {
  out.raw('{"values":[').values(s.points.t, s.points.v, 'pairs').raw('],"referenceValues":{');
  s.refs.forEach((r, i) => {
    out.raw(i === 0 ? '' : ',').string(r.id).raw(':{"values":[').values(r.points.t, r.points.v, 'pairs').raw(']}');
  });
  out.raw('}');
  for (const [key, p] of [['valueBeforeTimespan', s.before], ['valueAfterTimespan', s.after]] as const) {
    if (p && p.t.length > 0) out.raw(`,"${key}":`).values(p.t.subarray(0, 1), p.v.subarray(0, 1), 'pairs');
  }
  out.raw('}');
}

function capacity(series: SeriesData[]): number {
  let n = 64;
  for (const s of series) n += MAX_POINT_BYTES * (s.points.t.length + s.refs.reduce((k, r) => k + r.points.t.length, 0)) + 256;
  return n;
}

export function dataBody(series: SeriesData[], shape: BodyShape): Uint8Array {
  const out = new JsonBytes(capacity(series));
  if (shape.format === 'flot') {
    // keyed by id like tvp, for a POST too (in both profiles: DECISIONS.md lists flot among what every profile has)
    if (shape.mode === 'single' && !shape.expanded) flotEntry(out, series[0]!);
    else {
      out.raw('{');
      series.forEach((s, i) => {
        out.raw(i === 0 ? '' : ',').string(s.id).raw(':');
        flotEntry(out, s);
      });
      out.raw('}');
    }
    return out.bytes();
  }
  if (shape.format === 'highchart') {
    const all = shape.expanded ? series.flatMap((s) => [{ id: s.id, points: s.points }, ...s.refs]) : series;
    if (shape.mode === 'single' && !shape.expanded) highchartSeries(out, series[0]!.id, series[0]!.points);
    else {
      out.raw('[');
      all.forEach((s, i) => {
        if (i > 0) out.raw(',');
        highchartSeries(out, s.id, s.points);
      });
      out.raw(']');
    }
    return out.bytes();
  }
  if (shape.mode === 'single' && !shape.expanded) {
    tvpEntry(out, series[0]!, false);
    return out.bytes();
  }
  const wrapped = shape.mode === 'multiple' && shape.profile !== '52north';
  out.raw(wrapped ? '{"allTimeseries":{' : '{');
  series.forEach((s, i) => {
    out.raw(i === 0 ? '' : ',').string(s.id).raw(':');
    tvpEntry(out, s, shape.expanded);
  });
  out.raw(wrapped ? '}}' : '}');
  return out.bytes();
}
