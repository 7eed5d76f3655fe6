import { describe, expect, test } from 'vitest';
import { PALETTE, paletteIndex, renderChartSvg, seriesColors, type ChartSeries } from '../../core/charts/index.ts';
import { sevenSpec } from '../helpers/chart-cases.ts';

const line = (id: string, color?: string, colorHinted = false): ChartSeries => ({
  id, name: id, phenomenon: 'Air temperature', uom: '°C', points: { t: [0, 1], v: [1, 2] },
  style: { chartType: 'line', properties: color === undefined ? {} : { color } },
  ...(colorHinted ? { colorHinted } : {}),
});

describe('series colours', () => {
  test('the palette is seven distinct colours, none pale yellow', () => {
    expect(new Set(PALETTE).size).toBe(7);
    expect(PALETTE).not.toContain('#f0e442');
  });

  test('a colour the request gives is kept, even when another series has it too', () => {
    expect(seriesColors([line('a', '#FF0000'), line('b', '#ff0000')])).toEqual(['#ff0000', '#ff0000']);
  });

  test('a hinted colour is kept while unique in the chart', () => {
    expect(seriesColors([line('a', '#ff0000', true), line('b', '#00ff00', true)])).toEqual(['#ff0000', '#00ff00']);
  });

  test('colliding hinted colours give way to distinct palette colours; a requested colour stays', () => {
    const c = seriesColors([line('aachen', '#ff0000', true), line('amsterdam', '#ff0000', true), line('x', '#ff0000')]);
    expect(c[2]).toBe('#ff0000');
    expect(PALETTE).toContain(c[0]);
    expect(PALETTE).toContain(c[1]);
    expect(c[0]).not.toBe(c[1]);
  });

  test('a series\' palette colour comes from its id: the same in every chart where it is free', () => {
    const alone = seriesColors([line('ts_bonn_air_temperature')]);
    expect(alone).toEqual([PALETTE[paletteIndex('ts_bonn_air_temperature')]]);
    const other = seriesColors([line('ts_koeln_water_level', '#123456'), line('ts_bonn_air_temperature')]);
    expect(other[1]).toBe(alone[0]);
  });

  test('collisions inside a chart are resolved in series order: the later series takes the next free colour', () => {
    // two ids preferring the same palette colour
    const ids = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const a = ids[0]!;
    const b = ids.find((id) => id !== a && paletteIndex(id) === paletteIndex(a))!;
    const [ca, cb] = seriesColors([line(a), line(b)]);
    expect(ca).toBe(PALETTE[paletteIndex(a)]);
    expect(cb).toBe(PALETTE[(paletteIndex(a) + 1) % PALETTE.length]);
    expect(seriesColors([line(a), line(b)])).toEqual([ca, cb]);
    expect(seriesColors([line(b), line(a)])).toEqual([ca, cb]); // whichever comes first keeps the preferred colour
  });

  test('seven series hinted red: seven distinct colours on lines and in the legend', () => {
    const svg = renderChartSvg(sevenSpec());
    const strokes = [...svg.matchAll(/<g class="series series-line"[^>]*><path d="[^"]*" fill="none" stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(strokes).toHaveLength(7);
    expect(new Set(strokes).size).toBe(7);
    const legend = /<g class="legend">.*?<\/g><\/g>\n/s.exec(svg)?.[0] ?? '';
    const swatches = [...legend.matchAll(/<line [^>]*stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(swatches).toEqual(strokes);
    expect(svg).not.toContain('stroke="#ff0000"');
  });
});
