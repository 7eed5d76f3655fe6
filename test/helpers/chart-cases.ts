/**
 * Chart specs of the cases issue 20 names (gaps, seven series, reference values in and out of range,
 * weekly and monthly bars with a partial bucket, two units, de and nl): drawn by the golden SVG test
 * (test/unit/charts-golden.test.ts) and rendered to PNG by the pixel test on the real renderer
 * (test/integration/chart-pixels.test.ts, which writes them to test/artifacts/charts/ to be looked at).
 * Values are deterministic functions of time, no randomness.
 */
import type { ChartSpec } from '../../core/charts/index.ts';

const ms = (iso: string) => Date.parse(iso);
export const MIN = 60_000;
export const H = 3_600_000;
export const D = 24 * H;

/** Ten-minute values from `start` to `end` (inclusive), leaving out those in [holeFrom, holeTo]. */
export function tenMinutes(start: number, end: number, f: (t: number) => number, holes: [number, number][] = []): { t: number[]; v: number[] } {
  const t: number[] = [];
  const v: number[] = [];
  for (let x = start; x <= end; x += 10 * MIN) {
    if (holes.some(([a, b]) => x >= a && x <= b)) continue;
    t.push(x);
    v.push(Math.round(f(x) * 100) / 100);
  }
  return { t, v };
}

/** Munich relative humidity: no values from 2024-01-24 18:30 to 01-28 03:20 (81 h), as in the demo. */
export const GAP = { from: ms('2024-01-24T18:30:00Z'), to: ms('2024-01-28T03:20:00Z') };
export const GAP_SPAN = { start: ms('2024-01-22T00:00:00Z'), end: ms('2024-01-29T00:00:00Z') };

export function gapSpec(): ChartSpec {
  const { start, end } = GAP_SPAN;
  return {
    width: 800, height: 400, legend: true,
    timespan: GAP_SPAN,
    series: [{
      id: 'ts_muenchen_relative_humidity', name: 'München (Relative humidity [%])', phenomenon: 'Relative humidity', uom: '%',
      points: tenMinutes(start, end, (t) => 75 + 15 * Math.sin(((t - start) / D) * 2 * Math.PI), [[GAP.from + 1, GAP.to - 1]]),
      style: { chartType: 'line', properties: { color: '#0072b2', width: 2 } },
    }],
  };
}
