import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CHART_STRINGS, PALETTE, paletteIndex, renderChartSvg, type ChartSeries, type ChartSpec } from '../../core/charts/index.ts';

const ms = (iso: string) => Date.parse(iso);
const H = 3_600_000;
const START = ms('2024-03-01T00:00:00Z');
const END = START + 48 * H;
const hours = (n: number) => Array.from({ length: n }, (_, i) => START + i * H);

function lineSeries(id: string, uom: string, v: (number | null)[], props: Record<string, unknown> = {}): ChartSeries {
  return {
    id, name: `${id} (Water level [${uom}])`, phenomenon: 'Water level', uom,
    points: { t: hours(v.length), v },
    style: { chartType: 'line', properties: props },
  };
}

/** The golden spec: two lines with different units (one with a gap), one bar series, a reference value. */
function goldenSpec(): ChartSpec {
  const level = Array.from({ length: 49 }, (_, i) => (i >= 20 && i < 26 ? null : Math.round(300 + 40 * Math.sin(i / 6))));
  const temp = new Float64Array(Array.from({ length: 49 }, (_, i) => 8 + 4 * Math.cos(i / 8)));
  const rain = Array.from({ length: 49 }, (_, i) => (i % 5 === 0 ? 1.5 : i % 7 === 0 ? 0.4 : 0));
  return {
    width: 640, height: 360, legend: true,
    timespan: { start: START, end: END },
    series: [
      {
        id: 'ts/köln-1', name: 'Köln (Water level [cm])', phenomenon: 'Water level', uom: 'cm',
        points: { t: new Float64Array(hours(49)), v: level },
        style: { chartType: 'line', properties: { lineType: 'solid', width: 2, color: '#1A5FB4' } },
        referenceValues: [{ id: 'alarm', label: 'Alarm <1>', points: { t: [START, START + 24 * H], v: [330, 345] }, color: '#c01c28' }],
      },
      {
        id: 'ts-2', name: 'Bonn (Air temperature [°C])', phenomenon: 'Air temperature', uom: '°C',
        points: { t: hours(49), v: temp },
        style: { chartType: 'line', properties: { lineType: 'dashed', width: 1.5, color: '#e66100' } },
      },
      {
        id: 'ts-3', name: 'Bonn (Precipitation [mm])', phenomenon: 'Precipitation', uom: 'mm',
        points: { t: hours(49), v: rain },
        style: { chartType: 'bar', properties: { interval: 'byDay', width: 0.6, color: '#26a269' } },
      },
    ],
  };
}

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
const paths = (svg: string) => [...svg.matchAll(/<path d="([^"]*)"([^>]*)>/g)].map((m) => ({ d: m[1]!, attrs: m[2]! }));

describe('renderChartSvg', () => {
  test('defaults: 800×500, role="img", a title, "Time (UTC)"', () => {
    const svg = renderChartSvg({ series: [lineSeries('a', 'cm', [1, 2, 3])], timespan: { start: START, end: START + 2 * H } });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="500" viewBox="0 0 800 500" role="img"/);
    expect(svg).toContain('<title id="');
    expect(svg).toContain('>a (Water level [cm])</title>');
    expect(svg).toContain('>Time (UTC)</text>');
    expect(svg).toContain('class="grid"');
    expect(svg).not.toContain('class="legend"');
    expect(svg).toContain('stroke-width="2"');
  });

  test('width and height attributes follow the spec; grid off, legend on', () => {
    const svg = renderChartSvg({ width: 320, height: 200, grid: false, legend: true, series: [lineSeries('a', 'cm', [1, 2])], timespan: { start: START, end: START + H } });
    expect(svg).toContain('width="320" height="200" viewBox="0 0 320 200"');
    expect(svg).not.toContain('class="grid"');
    expect(svg).toContain('class="legend"');
  });

  test('gaps split the line into separate segments', () => {
    const svg = renderChartSvg({ series: [lineSeries('a', 'cm', [1, 2, null, 4, 5, NaN, 7, 8])], timespan: { start: START, end: START + 7 * H } });
    const [p] = paths(svg);
    expect(count(p!.d, /M/g)).toBe(3);
    const whole = renderChartSvg({ series: [lineSeries('a', 'cm', [1, 2, 3, 4])], timespan: { start: START, end: START + 3 * H } });
    expect(count(paths(whole)[0]!.d, /M/g)).toBe(1);
  });

  test('one y axis per unit, labelled "<phenomenon> [<uom>]"; first left, further right', () => {
    const svg = renderChartSvg({
      series: [lineSeries('a', 'cm', [1, 2]), lineSeries('b', 'm', [3, 4]), lineSeries('c', 'cm', [5, 6])],
      timespan: { start: START, end: START + H },
    });
    expect(count(svg, /class="axis axis-y /g)).toBe(2);
    expect(svg).toContain('>Water level [cm]</text>');
    expect(svg).toContain('>Water level [m]</text>');
    expect(svg).toMatch(/rotate\(-90 [^)]*\)">Water level \[cm\]/);
    expect(svg).toMatch(/rotate\(90 [^)]*\)">Water level \[m\]/);
  });

  test('requested colours are the stroke of lines and the fill of bars; the palette colour of the id otherwise', () => {
    const spec: ChartSpec = {
      series: [
        lineSeries('a', 'cm', [1, 2, 3], { color: '#AB12CD' }),
        { ...lineSeries('b', 'mm', [1, 2, 3]), style: { chartType: 'bar', properties: { interval: 'byHour', width: 1, color: '#00ff00' } } },
        lineSeries('c', 'cm', [3, 2, 1], { color: 'red' }),
      ],
      timespan: { start: START, end: START + 3 * H },
    };
    const svg = renderChartSvg(spec);
    const ps = paths(svg);
    expect(ps[0]!.attrs).toContain('stroke="#ab12cd"');
    expect(ps[1]!.attrs).toContain(`stroke="${PALETTE[paletteIndex('c')]}"`); // the palette colour of its id
    const rects = [...svg.matchAll(/<rect x="[^"]*" y="[^"]*" width="([^"]*)" height="[^"]*" fill="#00ff00"\/>/g)];
    expect(rects).toHaveLength(3);
    // width 1: bars of one bucket touch the next
    const xs = [...svg.matchAll(/<rect x="([^"]*)" y="[^"]*" width="([^"]*)" height="[^"]*" fill="#00ff00"/g)].map((m) => [+m[1]!, +m[2]!]);
    expect(Math.abs(xs[0]![0] + xs[0]![1] - xs[1]![0])).toBeLessThan(0.02);
  });

  test('lineType: dashed and dotted set stroke-dasharray, solidWithDots adds circles', () => {
    const render = (lineType: string) =>
      renderChartSvg({ series: [lineSeries('a', 'cm', [1, 2, null, 4, 5], { lineType, width: 3 })], timespan: { start: START, end: START + 4 * H } });
    expect(paths(render('solid'))[0]!.attrs).not.toContain('stroke-dasharray');
    expect(render('solid')).not.toContain('<circle');
    expect(paths(render('dashed'))[0]!.attrs).toContain('stroke-dasharray="12 6"');
    expect(paths(render('dotted'))[0]!.attrs).toContain('stroke-dasharray="0 6"');
    expect(paths(render('dotted'))[0]!.attrs).toContain('stroke-linecap="round"');
    expect(count(render('solidWithDots'), /<circle /g)).toBe(4);
    // an isolated point between gaps is shown as a dot whatever the line type
    const isolated = renderChartSvg({ series: [lineSeries('a', 'cm', [1, null, 3, null, 5, 6])], timespan: { start: START, end: START + 5 * H } });
    expect(count(isolated, /<circle /g)).toBe(2);
  });

  test('labels follow the language: axis titles and month names', () => {
    const month = { start: ms('2024-02-01T00:00:00Z'), end: ms('2024-07-15T00:00:00Z') };
    const s = { ...lineSeries('a', 'cm', [1, 2]), points: { t: [month.start, month.end], v: [1, 2] } };
    const de = renderChartSvg({ language: 'de', series: [s], timespan: month });
    const nl = renderChartSvg({ language: 'nl', series: [s], timespan: month });
    const en = renderChartSvg({ series: [s], timespan: month });
    expect(de).toContain('>Zeit (UTC)</text>');
    expect(nl).toContain('>Tijd (UTC)</text>');
    expect(CHART_STRINGS.de.timeAxis).toBe('Zeit (UTC)');
    // month ticks read as short month names, the year below the first
    expect(de).toContain('>Mär</text>');
    expect(nl).toContain('>apr</text>');
    expect(en).toContain('>Apr</text>');
    for (const svg of [de, nl, en]) expect(svg).toContain('class="tick-context" x="');
    expect(en).toMatch(/class="tick-context"[^>]*>2024<\/text>/);
  });

  test('reference values: dash-dot step lines in the series group, labelled with name and value; bars drawn from zero', () => {
    const svg = renderChartSvg(goldenSpec());
    const ref = paths(svg).find((p) => p.attrs.includes('stroke="#c01c28"'))!;
    expect(ref.attrs).toContain('stroke-width="1.5"');
    expect(ref.attrs).toContain('stroke-dasharray="8 3 2 3"');
    expect(svg).toMatch(/<g class="reference-label reference-(in|above)" data-reference-value="alarm">(<path [^>]*\/>)?<text [^>]*fill="#c01c28"[^>]*>Alarm &lt;1&gt; 345 cm<\/text>/);
    expect(ref.d).toMatch(/^M70,([\d.]+)L([\d.]+),\1L\2,/); // held until the change point, then steps
    expect(svg).toContain('<title>Alarm &lt;1&gt;</title>');
    const barGroup = /<g class="series series-bar"[^\n]*/.exec(svg)![0];
    const bars = [...barGroup.matchAll(/<rect (?:class="bar-partial" )?x="[^"]*" y="([^"]*)" width="[^"]*" height="([^"]*)" fill="#26a269"/g)];
    const bottoms = new Set(bars.map((m) => Math.round(+m[1]! + +m[2]!)));
    expect(bars).toHaveLength(3);
    // the last day holds only the value at the timespan's end instant: a partial bucket, marked
    expect(barGroup.match(/class="bar-partial"/g)).toHaveLength(1);
    expect(bottoms.size).toBe(1);
  });

  test('text is XML-escaped', () => {
    const s = { ...lineSeries('a&b', 'cm', [1, 2]), name: '<Köln> & "Deutz"' };
    const svg = renderChartSvg({ legend: true, series: [s], timespan: { start: START, end: START + H } });
    expect(svg).toContain('&lt;Köln&gt; &amp; &quot;Deutz&quot;');
    expect(svg).not.toContain('<Köln>');
    expect(svg).toContain('data-series="a&amp;b"');
  });

  test('deterministic: the same spec gives the same bytes; numbers have at most 2 decimals', () => {
    const a = renderChartSvg(goldenSpec());
    expect(renderChartSvg(goldenSpec())).toBe(a);
    expect(a).not.toMatch(/\d\.\d{3}/);
  });

  test('an empty chart says so', () => {
    const svg = renderChartSvg({ language: 'nl', series: [], timespan: { start: START, end: END } });
    expect(svg).toContain('>Geen gegevens</text>');
  });

  test('golden SVG (UPDATE_GOLDEN=1 rewrites it)', () => {
    const file = fileURLToPath(new URL('./__golden__/chart-basic.svg', import.meta.url));
    const svg = renderChartSvg(goldenSpec());
    if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
      writeFileSync(file, svg);
      return;
    }
    expect(existsSync(file)).toBe(true);
    expect(svg).toBe(readFileSync(file, 'utf8'));
  });
});
