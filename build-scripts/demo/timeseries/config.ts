/**
 * The configuration files of the demo snapshot (`config/` in the snapshot folder), in the shapes
 * of 52°North's `web_config-*.json` (see core/snapshot/timeseries-config.ts):
 *
 * - general: maximum request timespan `P1Y1D`, LTTB as default generalizer;
 * - status intervals: water level per phenomenon (green / yellow / red, a coarse guide) and per
 *   water level series from the gauge's warning levels as they stand at the end of the period
 *   (green below level 1, yellow, orange, red from level 3; the series entry wins); PM10 per
 *   phenomenon (EU-style bands); bounds as strings, no upper bound on the top interval;
 * - rendering hints: a style per phenomenon (precipitation as blue hourly bars, air temperature
 *   as a red line, ...) and per series for a few water level series (with dashed warning-level
 *   lines) and one precipitation series drawn as daily bars;
 * - pre-rendering: water temperature for all its series, and a handful of single series in
 *   German, 800×500, with reference values, one of them twice (with and without legend).
 */
import { TIMESERIES_CONFIG_FILES } from '../../../core/snapshot/timeseries-config.ts';
import type { Network } from './network.ts';
import { refValueSteps } from './rows.ts';

type Json = Record<string, unknown>;

const line = (color: string, width = 2, lineType = 'solid') => ({ chartType: 'line', properties: { lineType, width, color } });
const bar = (color: string, interval: string, width = 0.8) => ({ chartType: 'bar', properties: { interval, width, color } });
const WARNING_COLORS = ['#ffd700', '#ff8c00', '#ff0000'];

/** Reference value styles of a water level series: warning levels 1..3 as dashed yellow, orange, red lines. */
function warningLineStyles(n: Network, tsId: string): Json {
  const refs = n.refValues.filter((r) => r.timeseriesId === tsId);
  return Object.fromEntries(refs.map((r) => [r.id, line(WARNING_COLORS[r.level - 1]!, 1, 'dashed')]));
}

function statusIntervals(n: Network, fromMs: number, days: number): Json {
  const timeseriesIntervals: Json = {};
  for (const s of n.series.filter((x) => x.phenomenon === 'water_level')) {
    const levels = n.refValues
      .filter((r) => r.timeseriesId === s.id)
      .sort((a, b) => a.level - b.level)
      .map((r) => String(refValueSteps(r, fromMs, days).at(-1)!.value));
    const [l1, l2, l3] = levels as [string, string, string];
    timeseriesIntervals[s.id] = {
      statusIntervals: {
        'below warning level 1': { lower: '0', upper: l1, color: '#00a000' },
        'warning level 1': { lower: l1, upper: l2, color: WARNING_COLORS[0] },
        'warning level 2': { lower: l2, upper: l3, color: WARNING_COLORS[1] },
        'warning level 3': { lower: l3, color: WARNING_COLORS[2] },
      },
    };
  }
  return {
    phenomenonIntervals: {
      phe_water_level: {
        statusIntervals: {
          normal: { lower: '0', upper: '400', color: '#00a000' },
          elevated: { lower: '400', upper: '600', color: '#ffd700' },
          high: { lower: '600', color: '#ff0000' },
        },
      },
      phe_pm10: {
        statusIntervals: {
          good: { lower: '0', upper: '20', color: '#00a000' },
          moderate: { lower: '20', upper: '35', color: '#ffd700' },
          poor: { lower: '35', upper: '50', color: '#ff8c00' },
          'above daily limit': { lower: '50', color: '#ff0000' },
        },
      },
    },
    timeseriesIntervals,
  };
}

const HINT_SERIES = ['ts_koeln_rhein_water_level', 'ts_dresden_elbe_water_level', 'ts_passau_donau_water_level'];

function renderingHints(n: Network): Json {
  const timeseriesStyles: Json = {};
  for (const id of HINT_SERIES) {
    timeseriesStyles[id] = { style: { ...line('#1e90ff', 2), referenceValueStyleProperties: warningLineStyles(n, id) } };
  }
  timeseriesStyles['ts_zugspitze_precipitation'] = { style: bar('#4169e1', 'byDay') };
  return {
    phenomenonStyles: {
      phe_air_temperature: { style: line('#ff0000', 2) },
      phe_discharge: { style: line('#00008b', 2) },
      phe_pm10: { style: line('#8b4513', 1, 'solidWithDots') },
      phe_precipitation: { style: bar('#0000ff', 'byHour') },
      phe_relative_humidity: { style: line('#008080', 1, 'dotted') },
      phe_water_level: { style: line('#1e90ff', 2) },
      phe_water_temperature: { style: line('#ff8c00', 2, 'dashed') },
    },
    timeseriesStyles,
  };
}

function prerendering(n: Network): Json {
  const koeln = 'ts_koeln_rhein_water_level';
  return {
    generalConfig: { width: '800', height: '500', language: 'de', grid: true, generalize: false, expanded: true },
    phenomenonStyles: [
      { id: 'phe_water_temperature', title: '%1$s: %2$s [%8$s]', interval: ['lastWeek', 'lastMonth'], style: line('#ff8c00', 2) },
    ],
    timeseriesStyles: [
      // as in 52°North's sample file, reference value styles sit inside `properties` here
      {
        id: koeln,
        title: '%6$s: %2$s [%8$s]',
        interval: ['lastDay', 'lastWeek', 'lastMonth'],
        style: { chartType: 'line', properties: { ...line('#1e90ff', 2).properties, referenceValueStyleProperties: warningLineStyles(n, koeln) } },
      },
      { id: koeln, title: '%6$s: %2$s [%8$s] (mit Legende)', chartQualifier: 'with_legend', interval: ['lastWeek'], config: { legend: true }, style: line('#1e90ff', 2) },
      { id: 'ts_dresden_elbe_water_level', interval: ['lastWeek', 'lastMonth'], style: line('#1e90ff', 2) },
      { id: 'ts_berlin_air_temperature', interval: ['lastDay', 'lastWeek'], config: { language: 'en' }, style: line('#ff0000', 2) },
      { id: 'ts_koeln_precipitation', interval: ['lastDay', 'lastWeek'], style: bar('#0000ff', 'byHour') },
      { id: 'ts_koeln_precipitation', interval: ['lastMonth'], style: bar('#0000ff', 'byDay') },
      { id: 'ts_muenchen_pm10', interval: ['lastWeek'], style: line('#8b4513', 1, 'solidWithDots') },
    ],
  };
}

/** The config files as `file name → JSON value`. */
export function configFiles(n: Network, fromMs: number, days: number): Record<string, Json> {
  const F = TIMESERIES_CONFIG_FILES;
  return {
    [F.general]: {
      requestIntervalRestriction: 'P1Y1D',
      timeformat: 'YYYY-MM-DD, HH:mm',
      generalizer: { defaultGeneralizer: 'lttb', noDataGapThreshold: 5 },
      license: 'Generated demo data, free to use for any purpose (CC0 1.0).',
    },
    [F.statusIntervals]: statusIntervals(n, fromMs, days),
    [F.renderingHints]: renderingHints(n),
    [F.prerendering]: prerendering(n),
  };
}
