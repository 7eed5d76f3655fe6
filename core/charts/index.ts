/** Pure SVG charts for timeseries (no DOM, no I/O): used by the docs site and the PNG/PDF renderer. */
export { renderChart, renderChartSvg, type ChartGeometry } from './render.ts';
export { barBuckets, type Bucket } from './bars.ts';
export { CHART_STRINGS, LANGUAGES, TIME_LOCALES, NUMBER_LOCALES, type ChartStrings, type Language } from './locale.ts';
export { PALETTE, paletteIndex, seriesColors } from './colors.ts';
export { DEFAULTS, resolveStyle, type BarInterval, type ChartPoints, type ChartReferenceValue, type ChartSeries, type ChartSpec, type ChartStyle, type LineType } from './spec.ts';
export { esc } from './svg.ts';
export { tickLabels, timeTicks, type TickLabel, type TickLevel, type TimeTicks } from './time-axis.ts';
