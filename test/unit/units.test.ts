/** Units typeset for the site's pages and in every chart text (core/units.ts); the raw `uom` stays the data's. */
import { describe, expect, test } from 'vitest';
import { renderChart } from '../../core/charts/index.ts';
import { renderReportHtml, type ReportSeries } from '../../core/charts/report.ts';
import { seriesLabel } from '../../core/timeseries/chart-document.ts';
import { typesetUnit } from '../../core/units.ts';

test.each([
  ['m3/s', 'm³/s'],
  ['ug/m3', 'µg/m³'],
  ['m s-1', 'm s⁻¹'],
  ['W/m2', 'W/m²'],
  ['umol/l', 'µmol/l'],
  ['°C', '°C'],
  ['%', '%'],
  ['cm', 'cm'],
  ['mm', 'mm'],
  ['hPa', 'hPa'],
  ['unit', 'unit'],
  ['1/s', '1/s'],
  ['', ''],
])('%s → %s', (raw, shown) => {
  expect(typesetUnit(raw)).toBe(shown);
  // typesetting twice changes nothing (a unit the catalogue already typesets is left alone)
  expect(typesetUnit(typesetUnit(raw))).toBe(shown);
});

describe('chart texts typeset the unit', () => {
  const start = Date.parse('2024-01-22T00:00:00Z');
  const end = start + 86_400_000;
  const t = Array.from({ length: 25 }, (_, i) => start + i * 3_600_000);

  test('series name, axis title, reference label and legend: µg/m³, never ug/m3', () => {
    const { svg, geometry } = renderChart({
      width: 800, height: 450, legend: true, timespan: { start, end },
      series: [{
        id: 'ts_pm10', name: seriesLabel('Köln', 'PM10', 'ug/m3'), phenomenon: 'PM10', uom: 'ug/m3',
        points: { t, v: t.map((_, i) => 20 + i) },
        referenceValues: [{ id: 'eu_limit', label: 'EU limit', points: { t: [start], v: [40] } }],
      }],
    });
    expect(svg).toContain('Köln (PM10 [µg/m³])');
    expect(svg).toContain('>PM10 [µg/m³]</text>');
    expect(svg).toContain('EU limit 40 µg/m³');
    expect(svg).not.toContain('ug/m3');
    // the geometry (read by the site's script) keeps the data's own unit
    expect(geometry.axes[0]!.uom).toBe('ug/m3');
  });

  test('the PDF report: unit row, value columns, reference and status tables', () => {
    const s: ReportSeries = {
      id: 'ts_q', name: seriesLabel('Regensburg', 'Abfluss', 'm3/s'), station: 'Regensburg', phenomenon: 'Abfluss', procedure: 'gauge', uom: 'm3/s',
      first: { t: start, v: 420 }, last: { t: end, v: 480 }, values: { t: [start, end], v: [420, 480] },
      referenceValues: [{ name: 'MQ', value: 450 }],
      statusIntervals: [{ name: 'normal', lower: '0', upper: '500', color: '#00a000' }],
    };
    const html = renderReportHtml({ title: s.name, language: 'de', paper: 'A4', timespan: { start, end }, chartSvg: '<svg></svg>', series: [s] });
    expect(html).toContain('<tr><th scope="row">Einheit</th><td>m³/s</td></tr>');
    expect(html).toContain('Wert am Ende des Zeitraums [m³/s]');
    expect(html).toContain('<th scope="col">Von [m³/s]</th><th scope="col">Bis [m³/s]</th>');
    expect(html).toContain('Wert [m³/s]');
    expect(html).toContain('480 m³/s');
    expect(html).not.toContain('m3/s');
  });
});
