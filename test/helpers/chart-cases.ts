/**
 * Chart specs of the cases issue 20 names (gaps, seven series, reference values in and out of range,
 * weekly and monthly bars with a partial bucket, two units, de and nl): drawn by the golden SVG test
 * (test/unit/charts-golden.test.ts) and rendered to PNG by the pixel test on the real renderer
 * (test/integration/chart-pixels.test.ts, which writes them to test/artifacts/charts/ to be looked at).
 * Values are deterministic functions of time, no randomness.
 */
import type { ChartSeries, ChartSpec } from '../../core/charts/index.ts';
import { seriesLabel } from '../../core/timeseries/chart-document.ts';

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

export const SEVEN_STATIONS = ['Aachen', 'Amsterdam', 'Barby', 'Bonn', 'Köln', 'München', 'Regensburg'];

/** Seven air-temperature series all hinted red (the phenomenon's rendering hint). */
export function sevenSpec(): ChartSpec {
  const start = ms('2024-01-20T00:00:00Z'), end = start + 2 * D;
  return {
    width: 800, height: 500, legend: true,
    timespan: { start, end },
    series: SEVEN_STATIONS.map((st, i): ChartSeries => ({
      id: `ts_${st.toLowerCase().replace('ö', 'oe').replace('ü', 'ue')}_air_temperature`,
      name: `${st} (Air temperature [°C])`, phenomenon: 'Air temperature', uom: '°C',
      points: tenMinutes(start, end, (t) => 2 + i * 1.5 + 4 * Math.sin(((t - start) / D) * 2 * Math.PI + i / 2)),
      style: { chartType: 'line', properties: { color: '#ff0000', width: 2 } },
      colorHinted: true,
    })),
  };
}

/**
 * Barby water level, 293–344 cm over a week, with three warning levels in their status interval colours
 * (pale yellow #ffd700, orange, red): 330 cm inside the data's range, 500 and 800 cm above it.
 */
export function levelsSpec(fit = false): ChartSpec {
  const start = ms('2024-01-22T00:00:00Z'), end = start + 7 * D;
  const level = (id: string, label: string, v: number, color: string) => ({ id, label, points: { t: [start], v: [v] }, color });
  return {
    width: 800, height: 500, legend: true, language: 'de',
    ...(fit ? { fitReferenceValues: true } : {}),
    timespan: { start, end },
    series: [{
      id: 'ts_barby_elbe_water_level', name: 'Barby (Wasserstand [cm])', phenomenon: 'Wasserstand', uom: 'cm',
      points: tenMinutes(start, end, (t) => 318.5 + 25.5 * Math.sin(((t - start) / (7 * D)) * 3 * Math.PI)),
      style: { chartType: 'line', properties: { color: '#1e90ff', width: 2 } },
      referenceValues: [
        level('ref_barby_ms1', 'Richtwert 1', 330, '#ffd700'),
        level('ref_barby_ms2', 'Richtwert 2', 500, '#ff8c00'),
        level('ref_barby_ms3', 'Richtwert 3', 800, '#ff0000'),
      ],
    }],
  };
}

/** Values every `step` ms from `start` to `end` (inclusive). */
function every(start: number, end: number, step: number, f: (t: number, i: number) => number): { t: number[]; v: number[] } {
  const t: number[] = [];
  const v: number[] = [];
  for (let x = start, i = 0; x <= end; x += step, i++) {
    t.push(x);
    v.push(Math.round(f(x, i) * 100) / 100);
  }
  return { t, v };
}

/** Rain, hourly values, in weekly bars from Wednesday 2024-01-03 to Tuesday 2024-02-06 12:00: both ends partial weeks. */
export const WEEKLY_SPAN = { start: ms('2024-01-03T00:00:00Z'), end: ms('2024-02-06T12:00:00Z') };
export function weeklySpec(): ChartSpec {
  return {
    width: 800, height: 400, legend: true, timespan: WEEKLY_SPAN,
    series: [{
      id: 'ts_koeln_precipitation', name: 'Köln (Precipitation [mm])', phenomenon: 'Precipitation', uom: 'mm',
      points: every(WEEKLY_SPAN.start, WEEKLY_SPAN.end, H, (_, i) => (i % 7 === 0 ? 0.4 + (i % 5) * 0.1 : 0)),
      style: { chartType: 'bar', properties: { interval: 'byWeek', width: 0.8, color: '#0072b2' } },
    }],
  };
}

/** Rain, daily values, in monthly bars from 2023-11-15 to 2024-03-10, in Dutch: both ends partial months. */
export const MONTHLY_SPAN = { start: ms('2023-11-15T00:00:00Z'), end: ms('2024-03-10T00:00:00Z') };
export function monthlySpec(): ChartSpec {
  return {
    width: 800, height: 400, legend: true, language: 'nl', timespan: MONTHLY_SPAN,
    series: [{
      id: 'ts_amsterdam_precipitation', name: 'Amsterdam (Neerslag [mm])', phenomenon: 'Neerslag', uom: 'mm',
      points: every(MONTHLY_SPAN.start, MONTHLY_SPAN.end, D, (_, i) => 1 + (i % 4) * 0.75),
      style: { chartType: 'bar', properties: { interval: 'byMonth', width: 0.8, color: '#009e73' } },
    }],
  };
}

/**
 * Two units in German over 36 hours: water level (cm) and discharge (`m3/s` as the catalogue writes it, typeset
 * m³/s in the name, the axis title and the reference label), each axis in its series' colour.
 */
export function twoUnitsSpec(): ChartSpec {
  const start = ms('2024-01-27T06:00:00Z'), end = start + 36 * H;
  return {
    width: 800, height: 450, legend: true, language: 'de', timespan: { start, end },
    series: [
      {
        id: 'ts_regensburg_donau_water_level', name: 'Regensburg (Wasserstand [cm])', phenomenon: 'Wasserstand', uom: 'cm',
        points: tenMinutes(start, end, (t) => 310 + 30 * Math.sin((t - start) / (9 * H))),
        style: { chartType: 'line', properties: { color: '#1e90ff', width: 2 } }, colorHinted: true,
      },
      {
        // the catalogue's ASCII unit, as the endpoint hands it over: every chart text typesets it (m³/s)
        id: 'ts_regensburg_donau_discharge', name: seriesLabel('Regensburg', 'Abfluss', 'm3/s'), phenomenon: 'Abfluss', uom: 'm3/s',
        points: tenMinutes(start, end, (t) => 420 + 60 * Math.sin((t - start) / (9 * H) - 0.6)),
        style: { chartType: 'line', properties: { color: '#1e90ff', width: 2, lineType: 'dashed' } }, colorHinted: true,
        referenceValues: [{ id: 'ref_regensburg_mq', label: 'MQ', points: { t: [start], v: [450] } }],
      },
    ],
  };
}

/** Dense ten-minute humidity over a week, dotted and dashed, with the 81 h gap (Dutch). */
export function denseSpec(): ChartSpec {
  const { start, end } = GAP_SPAN;
  const wiggle = (t: number, k: number) => 75 + 12 * Math.sin(((t - start) / D) * 2 * Math.PI + k) + 3 * Math.sin((t - start) / (37 * MIN));
  return {
    width: 800, height: 400, legend: true, language: 'nl', timespan: GAP_SPAN,
    series: [
      {
        id: 'ts_amsterdam_relative_humidity', name: 'Amsterdam (Relatieve luchtvochtigheid [%])', phenomenon: 'Relatieve luchtvochtigheid', uom: '%',
        points: tenMinutes(start, end, (t) => wiggle(t, 0), [[GAP.from + 1, GAP.to - 1]]),
        style: { chartType: 'line', properties: { lineType: 'dotted', width: 2 } },
      },
      {
        id: 'ts_muenchen_relative_humidity', name: 'München (Relatieve luchtvochtigheid [%])', phenomenon: 'Relatieve luchtvochtigheid', uom: '%',
        points: tenMinutes(start, end, (t) => wiggle(t, 2) - 10),
        style: { chartType: 'line', properties: { lineType: 'dashed', width: 2 } },
      },
    ],
  };
}

/** Every case by name: the golden SVG test writes `__golden__/chart-<name>.svg`, the pixel test `<name>.png`. */
export const CASES: Record<string, () => ChartSpec> = {
  gap: gapSpec,
  seven: sevenSpec,
  levels: () => levelsSpec(false),
  'levels-fit': () => levelsSpec(true),
  weekly: weeklySpec,
  monthly: monthlySpec,
  'two-units': twoUnitsSpec,
  dense: denseSpec,
};
