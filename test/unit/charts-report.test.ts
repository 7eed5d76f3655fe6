import { describe, expect, it } from 'vitest';
import { renderChartSvg } from '../../core/charts/index.ts';
import { paperFor, renderReportHtml, reportChartHeight, REPORT_STRINGS, type ReportSeries, type ReportSpec } from '../../core/charts/report.ts';

const H = 3_600_000;
const START = Date.parse('2024-01-01T00:00:00Z');
const END = START + 7 * 24 * H;

function series(id: string, over: Partial<ReportSeries> = {}): ReportSeries {
  const t = new Float64Array(Array.from({ length: 24 }, (_, i) => START + i * H));
  const v = new Float64Array(Array.from({ length: 24 }, (_, i) => (i === 5 ? NaN : 1234.5 + i)));
  return {
    id, name: `Köln (Water level [cm])`, station: 'Köln', phenomenon: 'Water level', procedure: 'gauge', uom: 'cm',
    first: { t: START - 10 * H, v: 1.5 }, last: { t: END, v: -2.25 },
    values: { t, v }, ...over,
  };
}

function spec(over: Partial<ReportSpec> = {}): ReportSpec {
  const s = [series('ts-1'), series('ts-2', { values: { t: [], v: [] } })];
  const chartSvg = renderChartSvg({
    width: 800, height: 500, timespan: { start: START, end: END },
    series: s.map((x) => ({ id: x.id, name: x.name, phenomenon: x.phenomenon, uom: x.uom, points: x.values })),
  });
  return { title: 'Report <1>', language: 'en', paper: 'A4', timespan: { start: START, end: END }, chartSvg, series: s, ...over };
}

const count = (s: string, sub: string) => s.split(sub).length - 1;

describe('renderReportHtml', () => {
  it('is deterministic', () => {
    expect(renderReportHtml(spec())).toBe(renderReportHtml(spec()));
  });

  it('is a complete HTML document with inline CSS only', () => {
    const html = renderReportHtml(spec());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<h1>Report &lt;1&gt;</h1>');
    expect(html).toContain('Timespan: 2024-01-01 00:00 \u2013 2024-01-08 00:00 UTC');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link|@import|url\(http/i);
    expect(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')).not.toContain('http');
  });

  it('embeds the chart svg scaled to the page width', () => {
    const s = spec();
    const html = renderReportHtml(s);
    expect(html).toContain(`<div class="chart">\n${s.chartSvg.trim()}\n</div>`);
    expect(s.chartSvg).toContain('viewBox="0 0 800 500"');
    expect(html).toContain('div.chart svg { display: block; width: 100%; height: auto; }');
  });

  it('has one section per series, each on a new page', () => {
    const html = renderReportHtml(spec());
    expect(count(html, '<section class="series"')).toBe(2);
    expect(html).toContain('section.series { break-before: page; }');
    expect(count(html, '<table class="meta">')).toBe(2);
    expect(count(html, '<table class="values">')).toBe(1);
    expect(count(html, '<tr><td>')).toBe(24);
    expect(html).toContain('<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Value [cm]</th></tr></thead>');
    expect(html).toContain('<p class="no-values">No values in this timespan</p>');
  });

  it('escapes text from the spec', () => {
    const html = renderReportHtml(spec({ series: [series('a"b', { station: '<script>alert(1)</script>', uom: 'a&b' })] }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('data-series="a&quot;b"');
    expect(html).toContain('Value [a&amp;b]');
  });

  it('formats numbers and dates by language', () => {
    const de = renderReportHtml(spec({ language: 'de' }));
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('<tr><td>01.01.2024 00:00</td><td>1.234,5</td></tr>');
    expect(de).toContain('<tr><td>01.01.2024 01:00</td><td>1.235,5</td></tr>');
    expect(de).toContain('<th scope="row">Erster Wert</th><td>1,5 cm (31.12.2023 14:00 UTC)</td>');
    expect(de).toContain('<th scope="row">Letzter Wert</th><td>-2,25 cm (08.01.2024 00:00 UTC)</td>');
    expect(de).toContain('Keine Werte in diesem Zeitraum');
    expect(de).toContain('Zeit (UTC)');
    const nl = renderReportHtml(spec({ language: 'nl' }));
    expect(nl).toContain('<tr><td>01-01-2024 00:00</td><td>1.234,5</td></tr>');
    expect(nl).toContain('Geen waarden in deze periode');
    const en = renderReportHtml(spec());
    expect(en).toContain('<tr><td>2024-01-01 00:00</td><td>1,234.5</td></tr>');
  });

  it('prints up to 10 significant digits, with an exponent only for extreme magnitudes', () => {
    const values = { t: [0, 1, 2, 3, 4].map((i) => START + i * H), v: [0.1 + 0.2, 12345678.9, 1e12, -2.5e-9, null] };
    const html = renderReportHtml(spec({ series: [series('x', { values })] }));
    const cells = [...html.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(cells).toEqual(['0.3', '12,345,678.9', '1e+12', '-2.5e-9', '\u2014']);
  });

  it('shows an em dash for a gap and for an undefined first value', () => {
    const html = renderReportHtml(spec({ series: [series('x', { first: undefined, last: { t: END, v: NaN } })] }));
    expect(html).toContain('<tr><td>2024-01-01 05:00</td><td>\u2014</td></tr>');
    expect(html).toContain('<th scope="row">First value</th><td>\u2014</td>');
    expect(html).toContain('<th scope="row">Last value</th><td>\u2014</td>');
  });

  it('sets the page size from the paper', () => {
    expect(renderReportHtml(spec({ paper: paperFor('en_US') }))).toContain('@page { size: Letter; margin: 15mm 12mm; }');
    expect(renderReportHtml(spec({ paper: paperFor('de_DE') }))).toContain('@page { size: A4; margin: 15mm 12mm; }');
  });
});

describe('paperFor', () => {
  it('gives Letter for the Americas regions and the Philippines, A4 otherwise', () => {
    for (const l of ['en_US', 'en-US', 'es_MX', 'fr-CA', 'en_US.UTF-8', 'fil-PH', 'es-CL', 'es_CO', 'es-VE', 'zh-Hant-US']) {
      expect(paperFor(l), l).toBe('Letter');
    }
    for (const l of [undefined, '', 'en', 'de', 'de_DE', 'en-GB', 'nl_NL.UTF-8', 'es-ES', 'C', 'POSIX']) {
      expect(paperFor(l), String(l)).toBe('A4');
    }
  });
});

describe('REPORT_STRINGS', () => {
  it('has the same keys, all non-empty, in every language', () => {
    const keys = Object.keys(REPORT_STRINGS.en).sort();
    for (const strings of Object.values(REPORT_STRINGS)) {
      expect(Object.keys(strings).sort()).toEqual(keys);
      for (const v of Object.values(strings)) expect(v).not.toBe('');
    }
  });
});

describe('reference values, status intervals and the chart page', () => {
  const levels = series('ts-1', {
    referenceValues: [{ name: 'Richtwert 1 <a>', value: 330, color: '#FFD700' }, { name: 'Richtwert 2', value: NaN }],
    statusIntervals: [{ name: 'normal', lower: '0', upper: '400', color: '#00a000' }, { name: 'high', lower: '600', color: '#ff0000' }],
  });

  it('lists the reference values with name, value at the end and colour, and the status intervals with their bounds', () => {
    const html = renderReportHtml(spec({ language: 'de', series: [levels] }));
    expect(html).toContain('<h3>Referenzwerte</h3>');
    expect(html).toContain('<th scope="col">Wert am Ende des Zeitraums [cm]</th>');
    expect(html).toContain('<tr><td>Richtwert 1 &lt;a&gt;</td><td>330</td><td><span class="swatch" style="background:#ffd700"></span>#ffd700</td></tr>');
    expect(html).toContain('<tr><td>Richtwert 2</td><td>\u2014</td><td>\u2014</td></tr>');
    expect(html).toContain('<h3>Statusintervalle</h3>');
    expect(html).toContain('<th scope="col">Von [cm]</th><th scope="col">Bis [cm]</th>');
    expect(html).toContain('<tr><td>normal</td><td>0</td><td>400</td>');
    expect(html).toContain('<tr><td>high</td><td>600</td><td>\u2014</td>');
    // before the values
    expect(html.indexOf('Statusintervalle')).toBeLessThan(html.indexOf('class="values"'));
  });

  it('a series without levels has no level tables', () => {
    const html = renderReportHtml(spec());
    expect(html).not.toContain('<h3>');
    expect(html).not.toContain('class="levels');
  });

  it('the chart is as tall as page 1 leaves room for: taller on A4 than on Letter, less under a long title', () => {
    const a4 = reportChartHeight('A4', 800, 'Köln (Water level [cm])');
    const letter = reportChartHeight('Letter', 800, 'Köln (Water level [cm])');
    expect(a4).toBeGreaterThan(900);
    expect(a4).toBeLessThan(800 * (267 / 186));
    expect(letter).toBeLessThan(a4);
    expect(reportChartHeight('A4', 800, 'x'.repeat(400))).toBeLessThan(a4);
    expect(reportChartHeight('A4', 800, 'x'.repeat(5000))).toBe(400);
  });
});
