/**
 * Outages: the runs of instants a series has no values for. They are drawn per series (a sensor
 * fault) and per station (a power or communication failure that silences all the station's
 * series): time is cut into 10-day slots, and a slot has an outage with probability 0.12
 * (series) or 0.05 (station), starting at a uniformly random instant of the slot and lasting 30
 * minutes to 100 hours (log-uniform, so short ones are common). Over a year this loses about
 * 1.4 % of the instants.
 *
 * Computed here in JavaScript, from the seed with a small integer hash, because there are few of
 * them: the SQL then only compares each instant with a handful of intervals, far cheaper than
 * drawing the slot's random numbers again for every row.
 */
import { fmix32 } from '../hash.ts';
import type { SeriesDef } from './network.ts';

const HOUR = 3_600_000;
export const OUTAGE_SLOT_MS = 240 * HOUR;
export const SERIES_OUTAGE_PROBABILITY = 0.12;
export const STATION_OUTAGE_PROBABILITY = 0.05;
const MIN_MS = 0.5 * HOUR;
const MAX_OVER_MIN = 200;

const STREAM_OCCURS = 1;
const STREAM_START = 2;
const STREAM_LENGTH = 3;

/** A uniform number in [0, 1) from four integers (each fully mixed in turn). */
export function uniform(seed: number, key: number, stream: number, index: number): number {
  let h = fmix32((seed | 0) ^ 0x9e3779b9);
  for (const v of [key, stream, index % 0x1_0000_0000, Math.floor(index / 0x1_0000_0000)]) h = fmix32((h ^ fmix32(v >>> 0)) + 0x7f4a7c15);
  return h / 0x1_0000_0000;
}

export interface Interval {
  start: number;
  end: number;
}

function drawn(seed: number, key: number, probability: number, fromMs: number, endMs: number): Interval[] {
  const out: Interval[] = [];
  for (let slot = Math.floor(fromMs / OUTAGE_SLOT_MS) - 1; slot * OUTAGE_SLOT_MS < endMs; slot++) {
    if (uniform(seed, key, STREAM_OCCURS, slot) >= probability) continue;
    const start = Math.floor((slot + uniform(seed, key, STREAM_START, slot)) * OUTAGE_SLOT_MS);
    const length = Math.floor(MIN_MS * Math.pow(MAX_OVER_MIN, uniform(seed, key, STREAM_LENGTH, slot)));
    out.push({ start, end: start + length });
  }
  return out;
}

/** The outages of a series within [fromMs, endMs): sorted, disjoint, half-open intervals. */
export function outagesOf(s: SeriesDef, seed: number, fromMs: number, endMs: number): Interval[] {
  const all = [
    ...drawn(seed, s.key, SERIES_OUTAGE_PROBABILITY, fromMs, endMs),
    ...drawn(seed, s.site.station.key, STATION_OUTAGE_PROBABILITY, fromMs, endMs),
  ]
    .map((i) => ({ start: Math.max(i.start, fromMs), end: Math.min(i.end, endMs) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const i of all) {
    const last = merged.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return merged;
}
