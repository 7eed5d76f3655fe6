import { describe, expect, test } from 'vitest';
import { renderChartSvg } from '../../core/charts/index.ts';
import { contrastOnWhite, readableOnWhite, REFERENCE_GREY } from '../../core/charts/references.ts';
import { statusColor } from '../../core/timeseries/chart-document.ts';
import { levelsSpec } from '../helpers/chart-cases.ts';

const yTicks = (svg: string) => {
  const axis = /<g class="axis axis-y axis-y-0"[^\n]*/.exec(svg)![0];
  return [...axis.matchAll(/text-anchor="end">([^<]*)<\/text>/g)].map((m) => Number(m[1]!.replace('.', '').replace(',', '.')));
};

describe('reference values', () => {
  test('the y axis fits the data (293–344 cm); levels above it are labelled at the top edge with a triangle', () => {
    const svg = renderChartSvg(levelsSpec());
    const ticks = yTicks(svg);
    expect(Math.min(...ticks)).toBeGreaterThanOrEqual(280);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(360);
    for (const [id, text] of [['ref_barby_ms2', 'Richtwert 2 500 cm'], ['ref_barby_ms3', 'Richtwert 3 800 cm']]) {
      expect(svg).toMatch(new RegExp(`<g class="reference-label reference-above" data-reference-value="${id}"><path class="reference-off-scale"[^>]*/><text [^>]*>${text}</text>`));
    }
    expect(svg).toMatch(/<g class="reference-label reference-in" data-reference-value="ref_barby_ms1"><text [^>]*>Richtwert 1 330 cm<\/text>/);
    // highest level on top
    const y = (id: string) => Number(new RegExp(`data-reference-value="${id}">(?:<path[^>]*/>)?<text x="[^"]*" y="([^"]*)"`).exec(svg)![1]);
    expect(y('ref_barby_ms3')).toBeLessThan(y('ref_barby_ms2'));
    expect(y('ref_barby_ms2')).toBeLessThan(y('ref_barby_ms1'));
  });

  test('fitReferenceValues stretches the axis to every level; nothing is off the scale', () => {
    const svg = renderChartSvg(levelsSpec(true));
    expect(Math.max(...yTicks(svg))).toBeGreaterThanOrEqual(800);
    expect(svg).not.toContain('reference-off-scale');
    expect(svg.match(/class="reference-label reference-in"/g)).toHaveLength(3);
  });

  test('listed in the legend after the series, dash-dot in their colour', () => {
    const svg = renderChartSvg(levelsSpec());
    const items = [...svg.matchAll(/<g class="legend-item[^"]*"[^>]*>.*?<\/g>/g)].map((m) => m[0]);
    expect(items).toHaveLength(4);
    expect(items[1]).toContain('stroke-dasharray="8 3 2 3"');
    expect(items[1]).toContain('>Richtwert 1 330 cm</text>');
    expect(items[3]).toContain('stroke="#ff0000"');
  });

  test('the data line and the levels differ: dash-dot versus solid, pale yellow darkened to 3:1', () => {
    expect(contrastOnWhite('#ffd700')).toBeLessThan(3);
    expect(contrastOnWhite(readableOnWhite('#ffd700'))).toBeGreaterThanOrEqual(3);
    expect(readableOnWhite('#ff0000')).toBe('#ff0000');
    expect(contrastOnWhite(REFERENCE_GREY)).toBeGreaterThan(4.5);
    const svg = renderChartSvg(levelsSpec());
    expect(svg).toContain(`stroke="${readableOnWhite('#ffd700')}" stroke-width="1.5" stroke-dasharray="8 3 2 3"`);
  });

  test('a level without a colour is grey, not the data colour', () => {
    const spec = levelsSpec();
    const s = spec.series[0]!;
    const svg = renderChartSvg({ ...spec, series: [{ ...s, referenceValues: [{ id: 'ref_barby_ms1', label: 'Richtwert 1', points: s.referenceValues![0]!.points }] }] });
    expect(svg).toMatch(new RegExp(`class="reference-value" data-reference-value="ref_barby_ms1" fill="none" stroke="${REFERENCE_GREY}"`));
  });

  test('statusColor: the interval the value lies in, lower bound inclusive, upper exclusive, last one open', () => {
    const iv = [
      { lower: '0', upper: '400', color: '#00a000' },
      { lower: '400', upper: '600', color: '#ffd700' },
      { lower: '600', color: '#ff0000' },
    ];
    expect(statusColor(iv, 399.9)).toBe('#00a000');
    expect(statusColor(iv, 400)).toBe('#ffd700');
    expect(statusColor(iv, 6000)).toBe('#ff0000');
    expect(statusColor(iv, -1)).toBeUndefined();
    expect(statusColor(iv, NaN)).toBeUndefined();
    expect(statusColor([], 5)).toBeUndefined();
  });
});
