/**
 * Chart requests and pre-rendering, pure: reading GET chart queries and POST render bodies (defaults, sizes,
 * flags, locales, styles, 400s naming the parameter with a valid example), the pre-rendering jobs of the demo
 * configuration (files, intervals, qualifiers, languages, titles, a timeseries entry winning over a phenomenon
 * entry), title placeholders, reference value steps in a span, series names and pre-rendered chart files.
 *
 * The demo catalogue is built in memory from the demo network's rows and configuration files (no DuckDB).
 */
import { describe, expect, test } from 'vitest';
import { buildNetwork } from '../../build-scripts/demo/timeseries/network.ts';
import { configFiles } from '../../build-scripts/demo/timeseries/config.ts';
import { tableRows } from '../../build-scripts/demo/timeseries/rows.ts';
import { parseTimeseriesConfig, TIMESERIES_CONFIG_FILES, type TimeseriesConfig } from '../../core/snapshot/timeseries-config.ts';
import { makeCatalogue, type Catalogue, type CatalogueRows } from '../../core/timeseries/catalogue.ts';
import { chartLanguage, MAX_SIZE, MIN_SIZE, readChartQuery, readRenderRequest, type ChartRequest } from '../../core/timeseries/chart-request.ts';
import { chartDocument, defaultStyle, seriesName, stepsInSpan } from '../../core/timeseries/chart-document.ts';
import type { SeriesSource } from '../../core/timeseries/data.ts';
import { attachment } from '../../core/http/download.ts';
import { chartFileName, noPrerenderedChart, prerenderedFile, prerenderedFileName } from '../../core/timeseries/charts.ts';
import { MAX_POST_SERIES } from '../../core/timeseries/data-request.ts';
import { DEFAULT_DP_TOLERANCE, DEFAULT_LTTB_THRESHOLD } from '../../core/timeseries/generalize.ts';
import { labelIn } from '../../core/timeseries/locale.ts';
import { formatTitle, intervalSpan, prerenderJobs, type PrerenderJob } from '../../core/timeseries/prerender.ts';
import { httpErrorOf } from '../helpers/errors.ts';
import { tinyCatalogue } from '../helpers/ts-catalogue.ts';

const DAY = 86_400_000;
const FROM = Date.UTC(2024, 0, 1);
const DAYS = 60;
/** 2024-03-01T00:00Z: the month before it (February 2024) has 29 days, not 30. */
const TAKEN_AT = FROM + DAYS * DAY;

function demoCatalogue(): Catalogue {
  const network = buildNetwork();
  const t = tableRows(network, FROM, DAYS);
  const rows: CatalogueRows = {
    services: t['services']!,
    categories: t['categories']!,
    offerings: t['offerings']!,
    features: t['features']!,
    procedures: t['procedures']!,
    phenomena: t['phenomena']!,
    stations: t['stations']!,
    timeseries: t['timeseries']!.map((r, sid) => ({ ...r, sid })),
    reference_values: t['reference_values']!,
    reference_value_observations: t['reference_value_observations']!,
    labels: t['labels']!,
  };
  return makeCatalogue(rows, parseTimeseriesConfig(configFiles(network, FROM, DAYS)), TAKEN_AT);
}

const cat = demoCatalogue();
const KOELN = 'ts_koeln_rhein_water_level';
const BERLIN = 'ts_berlin_air_temperature';
const KOELN_RAIN = 'ts_koeln_precipitation';
const pos = (id: string): number => {
  const k = cat.ids.timeseries.get(id);
  if (k === undefined) throw new Error(`the demo catalogue has no ${id}`);
  return k;
};
const kKoeln = pos(KOELN);
const q = (text: string) => new URLSearchParams(text);
const get = (text: string): ChartRequest => readChartQuery('png', q(text), cat, kKoeln);
const post = (body: unknown, query = ''): ChartRequest => readRenderRequest('png', body, q(query), cat);
const idsOf = (r: ChartRequest) => r.series.map((s) => cat.timeseries[s.k]!.id);

describe('chartLanguage', () => {
  test.each([
    [undefined, 'en'],
    ['de', 'de'],
    ['de_AT', 'de'],
    ['nl', 'nl'],
    ['nl_BE', 'nl'],
    ['en_US', 'en'],
    ['fr', 'en'],
    ['fr_FR', 'en'],
  ] as const)('%s → %s', (locale, language) => {
    expect(chartLanguage(locale)).toBe(language);
  });
});

describe('GET chart query', () => {
  test('defaults: 800×500, grid, no legend, no base64, English on A4, the week ending at taken_at, one series without style', () => {
    const r = get('');
    expect(r).toMatchObject({ kind: 'png', width: 800, height: 500, grid: true, legend: false, base64: false, language: 'en', paper: 'A4', expanded: false });
    expect(r.locale).toBeUndefined();
    expect(r.generalize).toBeUndefined();
    expect(r.title).toBeUndefined();
    expect(r.span).toEqual({ start: TAKEN_AT - 7 * DAY, end: TAKEN_AT });
    expect(r.series).toEqual([{ k: kKoeln, style: undefined }]);
    expect(readChartQuery('pdf', q(''), cat, kKoeln).kind).toBe('pdf');
  });

  test('size, flags, locale and base64 are read', () => {
    const r = get('width=640&height=400&legend=true&grid=false&locale=de&base64=true');
    expect(r).toMatchObject({ width: 640, height: 400, legend: true, grid: false, locale: 'de', base64: true, language: 'de', paper: 'A4' });
  });

  test('fitReferenceValues: false by default, read as a flag from the query and a render body; 400 otherwise', () => {
    expect(get('').fitReferenceValues).toBe(false);
    expect(get('fitReferenceValues=true').fitReferenceValues).toBe(true);
    expect(post({ timespan: 'P1D/2024-02-20TZ', styleOptions: { [KOELN]: { chartType: 'line' } }, fitReferenceValues: true }).fitReferenceValues).toBe(true);
    const e = httpErrorOf(() => get('fitReferenceValues=maybe'));
    expect(e.status).toBe(400);
    expect(e.message).toContain('fitReferenceValues');
  });

  test('the size bounds are inclusive; spaces around the number are allowed', () => {
    expect(get(`width=${MIN_SIZE}&height=${MAX_SIZE}`)).toMatchObject({ width: MIN_SIZE, height: MAX_SIZE });
    expect(get('width=%20640%20').width).toBe(640);
  });

  test('locale en_US: Letter paper, English; de-AT normalised, German on A4', () => {
    expect(get('locale=en_US')).toMatchObject({ locale: 'en_US', paper: 'Letter', language: 'en' });
    expect(get('locale=de-AT')).toMatchObject({ locale: 'de_AT', paper: 'A4', language: 'de' });
  });

  test('locale fr: the chart speaks English, the labels stay French', () => {
    expect(get('locale=fr')).toMatchObject({ locale: 'fr', language: 'en' });
  });

  test('language wins over locale', () => {
    expect(get('language=nl&locale=de')).toMatchObject({ locale: 'nl', language: 'nl' });
  });

  test('data options: timespan, expanded, generalize with the default generalizer', () => {
    const r = get('timespan=P1D/2024-02-01TZ&expanded=true&generalize=true');
    expect(r.span).toEqual({ start: Date.UTC(2024, 0, 31), end: Date.UTC(2024, 1, 1) });
    expect(r.expanded).toBe(true);
    expect(r.generalize).toEqual({ algorithm: 'lttb', threshold: DEFAULT_LTTB_THRESHOLD });
  });

  test('a filter the series does not match: 404 pointing to the chart without filters', () => {
    const e = httpErrorOf(() => get('phenomenon=phe_air_temperature'));
    expect(e.status).toBe(404);
    expect(e.userMessage).toContain(KOELN);
    expect(e.hints.join(' ')).toContain(`/api/v1/timeseries/${KOELN}/getData.png`);
    expect(get('phenomenon=phe_water_level').series).toHaveLength(1);
  });

  test.each([
    ['width=10', 'width'],
    ['width=abc', 'width'],
    ['width=640.5', 'width'],
    ['height=5000', 'height'],
    ['height=0', 'height'],
    ['legend=yes', 'legend'],
    ['grid=1', 'grid'],
    ['base64=maybe', 'base64'],
    ['locale=???', 'locale'],
    ['language=english!', 'language'],
  ])('%s: 400 naming %s with a valid example', (query, name) => {
    const e = httpErrorOf(() => get(query));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain(`'${name}'`);
    expect(e.hints[0]).toMatch(/^A valid example/);
  });

  test('style that is not JSON: 400 naming style', () => {
    const e = httpErrorOf(() => get('style=notjson'));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain('style');
    expect(e.userMessage).toContain('not JSON');
    expect(e.hints[0]).toMatch(/^A valid example/);
  });

  test.each([
    ['an unknown chartType', '{"chartType":"pie"}', 'chartType'],
    ['a colour name', '{"chartType":"line","properties":{"color":"red"}}', 'color'],
    ['an unknown lineType', '{"chartType":"line","properties":{"lineType":"wavy"}}', 'lineType'],
    ['a bar width above 1', '{"chartType":"bar","properties":{"width":2}}', 'width'],
    ['a line width below 1', '{"chartType":"line","properties":{"width":0}}', 'width'],
    ['a bar property on a line', '{"chartType":"line","properties":{"interval":"byDay"}}', 'interval'],
    ['no chartType', '{"properties":{}}', 'chartType'],
  ])('style with %s: 400 naming style and the field', (_what, style, field) => {
    const e = httpErrorOf(() => get(`style=${encodeURIComponent(style)}`));
    expect(e.status).toBe(400);
    expect(e.userMessage).toMatch(/^Parameter 'style' is not a valid style/);
    expect(e.userMessage).toContain(field);
    expect(e.hints[0]).toMatch(/^A valid example: style=\{/);
  });

  test('a valid style is the series style, normalised', () => {
    const r = get(`style=${encodeURIComponent('{"chartType":"bar","properties":{"interval":"byDay","color":"#00ff00","width":0.5}}')}`);
    expect(r.series).toEqual([
      { k: kKoeln, style: { chartType: 'bar', properties: { interval: 'byDay', color: '#00ff00', width: 0.5 }, referenceValueStyleProperties: {} } },
    ]);
  });

  test('reference value styles inside properties come out next to them', () => {
    const style = { chartType: 'line', properties: { color: '#0000ff', referenceValueStyleProperties: { ref_koeln_rhein_ms1: { chartType: 'line', properties: { lineType: 'dotted' } } } } };
    const r = get(`style=${encodeURIComponent(JSON.stringify(style))}`);
    expect(r.series[0]!.style).toEqual({
      chartType: 'line',
      properties: { color: '#0000ff' },
      referenceValueStyleProperties: { ref_koeln_rhein_ms1: { chartType: 'line', properties: { lineType: 'dotted' } } },
    });
  });

  test('a timespan longer than the configured maximum: 400 "Requested timespan is too long"', () => {
    const e = httpErrorOf(() => get('timespan=P2Y/2024-01-01TZ'));
    expect(e.status).toBe(400);
    expect(e.userMessage).toBe('Requested timespan is too long');
    expect(e.hints.join(' ')).toContain(cat.config.maxTimespan);
  });
});

describe('POST render request', () => {
  const line = { chartType: 'line', properties: { color: '#ff0000' } };
  const bar = { chartType: 'bar', properties: { interval: 'byDay' } };

  test('series: the styleOptions keys in order, then the timeseries not among them, without style', () => {
    const r = post({ styleOptions: { [KOELN_RAIN]: bar, [KOELN]: line }, timeseries: [KOELN, BERLIN, KOELN_RAIN, BERLIN] });
    expect(idsOf(r)).toEqual([KOELN_RAIN, KOELN, BERLIN]);
    expect(r.series[0]!.style).toEqual({ chartType: 'bar', properties: { interval: 'byDay' }, referenceValueStyleProperties: {} });
    expect(r.series[1]!.style).toEqual({ chartType: 'line', properties: { color: '#ff0000' }, referenceValueStyleProperties: {} });
    expect(r.series[2]!.style).toBeUndefined();
  });

  test('only timeseries: every series without a style; defaults as for GET', () => {
    const r = post({ timeseries: [BERLIN, KOELN] });
    expect(idsOf(r)).toEqual([BERLIN, KOELN]);
    expect(r.series.every((s) => s.style === undefined)).toBe(true);
    expect(r).toMatchObject({ width: 800, height: 500, grid: true, legend: false, base64: false, language: 'en', paper: 'A4' });
    expect(r.span).toEqual({ start: TAKEN_AT - 7 * DAY, end: TAKEN_AT });
  });

  test('look from the body: width, height, legend, grid; language nl', () => {
    const r = post({ styleOptions: { [KOELN]: line }, width: 300, height: 200, legend: true, grid: false, language: 'nl' });
    expect(r).toMatchObject({ width: 300, height: 200, legend: true, grid: false, locale: 'nl', language: 'nl' });
  });

  test('the body wins over the query string; the query fills what the body leaves out', () => {
    const r = post({ styleOptions: { [KOELN]: line }, width: 300 }, 'width=900&height=250&legend=true');
    expect(r).toMatchObject({ width: 300, height: 250, legend: true });
  });

  test('data options from the body: timespan, expanded, generalize', () => {
    const r = post({ timeseries: [KOELN], timespan: 'P1D/2024-02-01TZ', expanded: true, generalize: true });
    expect(r.span).toEqual({ start: Date.UTC(2024, 0, 31), end: Date.UTC(2024, 1, 1) });
    expect(r.expanded).toBe(true);
    expect(r.generalize).toEqual({ algorithm: 'lttb', threshold: DEFAULT_LTTB_THRESHOLD });
  });

  test('filters in the query string select among the series', () => {
    expect(idsOf(post({ timeseries: [KOELN, BERLIN] }, 'phenomenon=phe_water_level'))).toEqual([KOELN]);
  });

  test('an unknown id: 404 naming it', () => {
    const e = httpErrorOf(() => post({ styleOptions: { ts_nowhere: line } }));
    expect(e.status).toBe(404);
    expect(e.userMessage).toContain('ts_nowhere');
    expect(httpErrorOf(() => post({ timeseries: [KOELN, 'ts_nowhere'] })).status).toBe(404);
  });

  test('an empty body: 400 naming styleOptions', () => {
    const e = httpErrorOf(() => post({}));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain("'styleOptions'");
    expect(e.hints[0]).toMatch(/^A valid example/);
  });

  test('styleOptions that is an array: 400 naming styleOptions', () => {
    const e = httpErrorOf(() => post({ styleOptions: [] }));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain("'styleOptions'");
  });

  test.each([[[]], [null], ['text'], [42]])('a body that is not an object (%j): 400', (body) => {
    const e = httpErrorOf(() => post(body));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain('JSON object');
    expect(e.hints[0]).toMatch(/^A valid example/);
  });

  test('timeseries that is not an array of ids: 400 naming timeseries', () => {
    expect(httpErrorOf(() => post({ timeseries: KOELN })).userMessage).toContain("'timeseries'");
    expect(httpErrorOf(() => post({ timeseries: [1] })).userMessage).toContain("'timeseries'");
  });

  test('a bad style in styleOptions: 400 naming styleOptions.<id>', () => {
    const e = httpErrorOf(() => post({ styleOptions: { [KOELN]: { chartType: 'line', properties: { lineType: 'wavy' } } } }));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain(`'styleOptions.${KOELN}'`);
    expect(e.userMessage).toContain('lineType');
  });

  test('a bad size or flag in the body: 400 naming it', () => {
    expect(httpErrorOf(() => post({ timeseries: [KOELN], width: 3.5 })).userMessage).toContain("'width'");
    expect(httpErrorOf(() => post({ timeseries: [KOELN], legend: 'yes' })).userMessage).toContain("'legend'");
    expect(httpErrorOf(() => post({ timeseries: [KOELN], timespan: { a: 1 } })).userMessage).toContain("'timespan'");
  });

  test('a too long timespan in the body: 400 "Requested timespan is too long"', () => {
    expect(httpErrorOf(() => post({ timeseries: [KOELN], timespan: 'P2Y/2024-01-01TZ' })).userMessage).toBe('Requested timespan is too long');
  });

  test(`more than ${MAX_POST_SERIES} series: 400`, () => {
    const ids = Array.from({ length: MAX_POST_SERIES + 1 }, (_, i) => `ts_many_${i}`);
    const e = httpErrorOf(() => post({ timeseries: ids }));
    expect(e.status).toBe(400);
    expect(e.userMessage).toContain(String(MAX_POST_SERIES));
  });

  test('too many series: the error names the field that named them', () => {
    const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `ts_many_${from + i}`);
    const styles = (list: string[]) => Object.fromEntries(list.map((id) => [id, { chartType: 'line' }]));
    expect(httpErrorOf(() => post({ timeseries: ids(MAX_POST_SERIES + 1) })).userMessage).toBe(`Parameter 'timeseries' may name at most ${MAX_POST_SERIES} timeseries, not ${MAX_POST_SERIES + 1}`);
    expect(httpErrorOf(() => post({ styleOptions: styles(ids(MAX_POST_SERIES + 1)) })).userMessage).toBe(`Parameter 'styleOptions' may name at most ${MAX_POST_SERIES} timeseries, not ${MAX_POST_SERIES + 1}`);
    const both = httpErrorOf(() => post({ styleOptions: styles(ids(60)), timeseries: ids(60, 60) }));
    expect(both.status).toBe(400);
    expect(both.userMessage).toBe(`Parameters 'styleOptions' and 'timeseries' together may name at most ${MAX_POST_SERIES} timeseries, not 120`);
    // the same id in both counts once
    expect(() => post({ styleOptions: styles(ids(60)), timeseries: ids(60) })).not.toThrow(/at most/);
  });
});

describe('pre-rendering jobs of the demo configuration', () => {
  const jobs = prerenderJobs(cat);
  const byFile = new Map(jobs.map((j) => [j.file, j]));
  const jobOf = (id: string, name: string): PrerenderJob => {
    const j = byFile.get(`api/v1/timeseries/${id}/${name}.png`);
    if (!j) throw new Error(`no job for ${id}/${name}`);
    return j;
  };

  test('files are api/v1/timeseries/<id>/<interval>[_<qualifier>].png, one job each, sorted by id then file', () => {
    expect(jobs.length).toBeGreaterThan(0);
    for (const j of jobs) {
      expect(j.file).toBe(`api/v1/timeseries/${j.seriesId}/${j.interval}${j.qualifier ? `_${j.qualifier}` : ''}.png`);
      expect(j.request.series).toHaveLength(1);
      expect(cat.timeseries[j.request.series[0]!.k]!.id).toBe(j.seriesId);
      expect(j.request.kind).toBe('png');
    }
    expect(new Set(jobs.map((j) => j.file)).size).toBe(jobs.length);
    const keys = jobs.map((j) => [j.seriesId, j.file] as const);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(keys).toEqual(sorted);
  });

  test('koeln water level: lastDay, lastWeek, lastMonth and lastWeek_with_legend, nothing else', () => {
    const files = jobs.filter((j) => j.seriesId === KOELN).map((j) => j.file.split('/').at(-1));
    expect(files.sort()).toEqual(['lastDay.png', 'lastMonth.png', 'lastWeek.png', 'lastWeek_with_legend.png']);
    const legend = jobOf(KOELN, 'lastWeek_with_legend');
    expect(legend.interval).toBe('lastWeek');
    expect(legend.qualifier).toBe('with_legend');
    expect(legend.request.legend).toBe(true);
    expect(jobOf(KOELN, 'lastWeek').request.legend).toBe(false);
    expect(jobOf(KOELN, 'lastWeek').qualifier).toBeUndefined();
  });

  test("koeln's main entry carries its warning level styles (written inside properties) next to the properties", () => {
    const style = jobOf(KOELN, 'lastDay').request.series[0]!.style!;
    expect(style).toMatchObject({ chartType: 'line', properties: { lineType: 'solid', width: 2, color: '#1e90ff' } });
    expect(style.properties).not.toHaveProperty('referenceValueStyleProperties');
    expect(Object.keys(style.referenceValueStyleProperties).sort()).toEqual(['ref_koeln_rhein_ms1', 'ref_koeln_rhein_ms2', 'ref_koeln_rhein_ms3']);
    expect(jobOf(KOELN, 'lastWeek_with_legend').request.series[0]!.style!.referenceValueStyleProperties).toEqual({});
  });

  test('every timeseries of phe_water_temperature gets lastWeek and lastMonth, and no lastDay', () => {
    const p = cat.ids.phenomena.get('phe_water_temperature')!;
    const ids = cat.timeseries.filter((s) => s.phenomenon === p).map((s) => s.id);
    expect(ids.length).toBeGreaterThan(1);
    for (const id of ids) {
      expect(jobOf(id, 'lastWeek').request.series[0]!.style).toMatchObject({ chartType: 'line', properties: { color: '#ff8c00' } });
      expect(jobOf(id, 'lastMonth').interval).toBe('lastMonth');
      expect(byFile.has(prerenderedFile(id, 'lastDay'))).toBe(false);
    }
  });

  test('precipitation in koeln: hourly bars for lastDay and lastWeek, daily bars for lastMonth', () => {
    expect(jobOf(KOELN_RAIN, 'lastDay').request.series[0]!.style).toMatchObject({ chartType: 'bar', properties: { interval: 'byHour' } });
    expect(jobOf(KOELN_RAIN, 'lastWeek').request.series[0]!.style).toMatchObject({ chartType: 'bar', properties: { interval: 'byHour' } });
    expect(jobOf(KOELN_RAIN, 'lastMonth').request.series[0]!.style).toMatchObject({ chartType: 'bar', properties: { interval: 'byDay' } });
  });

  test('spans end at taken_at: lastDay one day, lastWeek seven days, lastMonth one calendar month', () => {
    for (const j of jobs) expect(j.request.span.end).toBe(TAKEN_AT);
    expect(jobOf(KOELN, 'lastDay').request.span.start).toBe(TAKEN_AT - DAY);
    expect(jobOf(KOELN, 'lastWeek').request.span.start).toBe(TAKEN_AT - 7 * DAY);
    expect(jobOf(KOELN, 'lastMonth').request.span.start).toBe(Date.UTC(2024, 1, 1));
    expect(jobOf(KOELN, 'lastMonth').request.span.start).toBe(TAKEN_AT - 29 * DAY);
  });

  test('the chart configuration: generalConfig (800×500, de, grid, expanded), an entry overriding the language', () => {
    for (const j of jobs) {
      expect(j.request).toMatchObject({ width: 800, height: 500, grid: true, expanded: true, base64: false, paper: 'A4' });
      expect(j.request.generalize).toBeUndefined();
    }
    expect(jobOf(KOELN, 'lastWeek').request).toMatchObject({ locale: 'de', language: 'de' });
    for (const name of ['lastDay', 'lastWeek']) expect(jobOf(BERLIN, name).request).toMatchObject({ locale: 'en', language: 'en' });
    expect(jobs.filter((j) => j.seriesId !== BERLIN).every((j) => j.request.language === 'de')).toBe(true);
  });

  test('titles have their placeholders filled in the chart language; entries without a title have none', () => {
    const s = cat.timeseries[kKoeln]!;
    const feature = labelIn(cat.features[s.feature]!, 'de');
    const phenomenon = labelIn(cat.phenomena[s.phenomenon]!, 'de');
    const title = jobOf(KOELN, 'lastWeek').request.title!;
    expect(title).not.toContain('%');
    expect(title).toContain(feature);
    expect(title).toBe(`${feature}: ${phenomenon} [cm]`);
    expect(feature).not.toBe(cat.features[s.feature]!.label); // really the German label
    expect(jobOf(KOELN, 'lastWeek_with_legend').request.title).toBe(`${feature}: ${phenomenon} [cm] (mit Legende)`);
    expect(jobOf('ts_koeln_rhein_water_temperature', 'lastWeek').request.title).toBe('Köln (Rhein): Wassertemperatur [°C]');
    expect(jobOf(BERLIN, 'lastDay').request).not.toHaveProperty('title');
    for (const j of jobs) if (j.request.title !== undefined) expect(j.request.title).not.toMatch(/%\d\$s/);
  });
});

describe('pre-rendering jobs of a modified configuration', () => {
  const WT = 'ts_koeln_rhein_water_temperature';
  const OTHER_WT = 'ts_dresden_elbe_water_temperature';
  const line = (color: string) => ({ chartType: 'line', properties: { color } });

  function withPrerendering(file: unknown, general: Record<string, unknown> = {}): Catalogue {
    const parsed = parseTimeseriesConfig({ [TIMESERIES_CONFIG_FILES.general]: general, [TIMESERIES_CONFIG_FILES.prerendering]: file });
    const config: TimeseriesConfig = { ...cat.config, defaultGeneralizer: parsed.defaultGeneralizer, prerendering: parsed.prerendering };
    return { ...cat, config };
  }

  test('a timeseries entry wins over a phenomenon entry for the same file, whatever their order in the file', () => {
    const c = withPrerendering({
      timeseriesStyles: [{ id: WT, interval: ['lastWeek'], style: line('#123456'), config: { width: 640 } }],
      phenomenonStyles: [{ id: 'phe_water_temperature', interval: ['lastWeek', 'lastMonth'], style: line('#abcdef') }],
    });
    const jobs = prerenderJobs(c);
    const find = (id: string, name: string) => jobs.find((j) => j.file === `api/v1/timeseries/${id}/${name}.png`);
    expect(find(WT, 'lastWeek')!.request.series[0]!.style!.properties.color).toBe('#123456');
    expect(find(WT, 'lastWeek')!.request.width).toBe(640);
    expect(find(WT, 'lastMonth')!.request.series[0]!.style!.properties.color).toBe('#abcdef');
    expect(find(OTHER_WT, 'lastWeek')!.request.series[0]!.style!.properties.color).toBe('#abcdef');
    expect(jobs.filter((j) => j.seriesId === WT)).toHaveLength(2);
    expect(new Set(jobs.map((j) => j.file)).size).toBe(jobs.length);
  });

  test('of two timeseries entries for the same file, the later one wins', () => {
    const c = withPrerendering({
      timeseriesStyles: [
        { id: WT, interval: ['lastDay'], style: line('#111111') },
        { id: WT, interval: ['lastDay'], style: line('#222222') },
      ],
    });
    const jobs = prerenderJobs(c);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.request.series[0]!.style!.properties.color).toBe('#222222');
  });

  test('entries naming ids the catalogue does not hold are skipped; no configuration, no jobs', () => {
    const c = withPrerendering({
      phenomenonStyles: [{ id: 'phe_nowhere', interval: ['lastDay'], style: line('#000000') }],
      timeseriesStyles: [{ id: 'ts_nowhere', interval: ['lastDay'], style: line('#000000') }],
    });
    expect(prerenderJobs(c)).toEqual([]);
    expect(prerenderJobs(withPrerendering({}))).toEqual([]);
  });

  test('generalize in the chart configuration: the default generalizer with its default parameter', () => {
    const entry = { id: WT, interval: ['lastDay'], style: line('#000000') };
    const lttb = prerenderJobs(withPrerendering({ generalConfig: { generalize: true }, timeseriesStyles: [entry] }));
    expect(lttb[0]!.request.generalize).toEqual({ algorithm: 'lttb', threshold: DEFAULT_LTTB_THRESHOLD });
    const dp = prerenderJobs(withPrerendering({ generalConfig: { generalize: true }, timeseriesStyles: [entry] }, { generalizer: { defaultGeneralizer: 'dp' } }));
    expect(dp[0]!.request.generalize).toEqual({ algorithm: 'dp', tolerance: DEFAULT_DP_TOLERANCE });
  });

  test('an en_US entry: English on Letter paper; locale is read for language', () => {
    const c = withPrerendering({ timeseriesStyles: [{ id: WT, interval: ['lastDay'], style: line('#000000'), config: { locale: 'en_US' } }] });
    expect(prerenderJobs(c)[0]!.request).toMatchObject({ locale: 'en_US', language: 'en', paper: 'Letter' });
  });
});

describe('intervalSpan', () => {
  test('lastDay, lastWeek, lastMonth end at taken_at', () => {
    const t = Date.UTC(2024, 5, 15, 12, 30);
    expect(intervalSpan('lastDay', t)).toEqual({ start: t - DAY, end: t });
    expect(intervalSpan('lastWeek', t)).toEqual({ start: t - 7 * DAY, end: t });
    expect(intervalSpan('lastMonth', t)).toEqual({ start: Date.UTC(2024, 4, 15, 12, 30), end: t });
  });

  test('lastMonth clamps to the end of a shorter month', () => {
    expect(intervalSpan('lastMonth', Date.UTC(2024, 2, 31)).start).toBe(Date.UTC(2024, 1, 29));
    expect(intervalSpan('lastMonth', Date.UTC(2023, 2, 31)).start).toBe(Date.UTC(2023, 1, 28));
  });
});

describe('formatTitle', () => {
  const s = cat.timeseries[kKoeln]!;
  const all = '%1$s|%2$s|%3$s|%4$s|%5$s|%6$s|%7$s|%8$s|%9$s';

  test('all eight placeholders, default labels; an unknown one left as is', () => {
    expect(formatTitle(all, cat, s, undefined)).toBe('Cologne (Rhine)|Water level|Radar level gauge|Hydrology|WATER_LEVEL_RAW|Cologne gauge, Rhine|River gauges (demo)|cm|%9$s');
  });

  test('labels of the locale', () => {
    expect(formatTitle(all, cat, s, 'de')).toBe('Köln (Rhein)|Wasserstand|Radarpegel|Hydrologie|WASSERSTAND_ROHDATEN|Pegel Köln, Rhein|Flusspegel (Demo)|cm|%9$s');
  });

  test('repeated placeholders, text around them, %0$s and plain % left alone', () => {
    expect(formatTitle('%8$s and %8$s, 100% %0$s %s', cat, s, undefined)).toBe('cm and cm, 100% %0$s %s');
    expect(formatTitle('no placeholders', cat, s, 'de')).toBe('no placeholders');
  });
});

describe('stepsInSpan', () => {
  const steps = (t: number[], v: number[]) => ({ t: Float64Array.from(t), v: Float64Array.from(v) });
  const plain = (p: { t: Float64Array; v: Float64Array }) => ({ t: Array.from(p.t), v: Array.from(p.v) });
  const span = { start: 100, end: 200 };

  test('the step in force before the span becomes a point at its start; changes inside kept; after the end dropped', () => {
    expect(plain(stepsInSpan(steps([10, 50, 150, 180, 250], [1, 2, 3, 4, 5]), span))).toEqual({ t: [100, 150, 180], v: [2, 3, 4] });
  });

  test('no step before the span: no leading point', () => {
    expect(plain(stepsInSpan(steps([120, 300], [7, 8]), span))).toEqual({ t: [120], v: [7] });
  });

  test('a step exactly at the start is the value in force; a step exactly at the end is kept', () => {
    expect(plain(stepsInSpan(steps([50, 100, 200], [1, 2, 3]), span))).toEqual({ t: [100, 200], v: [2, 3] });
  });

  test('only steps before: one point at the start; only after, or none: empty', () => {
    expect(plain(stepsInSpan(steps([1, 2], [5, 6]), span))).toEqual({ t: [100], v: [6] });
    expect(plain(stepsInSpan(steps([201], [5]), span))).toEqual({ t: [], v: [] });
    expect(plain(stepsInSpan(steps([], []), span))).toEqual({ t: [], v: [] });
  });

  test("a demo warning level revised mid-period: its value in force, then the revision", () => {
    const rv = cat.refValues[cat.timeseries[kKoeln]!.refs[0]!]!;
    expect(rv.steps.t.length).toBe(2);
    const [t0, t1] = [rv.steps.t[0]!, rv.steps.t[1]!];
    const [v0, v1] = [rv.steps.v[0]!, rv.steps.v[1]!];
    expect(plain(stepsInSpan(rv.steps, { start: t1 - DAY, end: t1 + DAY }))).toEqual({ t: [t1 - DAY, t1], v: [v0, v1] });
    expect(plain(stepsInSpan(rv.steps, { start: t1 + DAY, end: TAKEN_AT }))).toEqual({ t: [t1 + DAY], v: [v1] });
    expect(plain(stepsInSpan(rv.steps, { start: t0 - 2 * DAY, end: t0 - DAY }))).toEqual({ t: [], v: [] });
  });
});

describe('seriesName and defaultStyle', () => {
  const s = cat.timeseries[kKoeln]!;

  test('"<feature> (<phenomenon> [<uom>])" in the default labels', () => {
    expect(seriesName(cat, s, undefined)).toBe('Cologne gauge, Rhine (Water level [cm])');
  });

  test("the locale's labels, with de_AT falling back to de and a missing label to the default", () => {
    expect(seriesName(cat, s, 'de')).toBe('Pegel Köln, Rhein (Wasserstand [cm])');
    expect(seriesName(cat, s, 'de_AT')).toBe('Pegel Köln, Rhein (Wasserstand [cm])');
    expect(seriesName(cat, s, 'nl')).toBe('Cologne gauge, Rhine (Waterstand [cm])');
    expect(seriesName(cat, cat.timeseries[pos(BERLIN)]!, 'de')).toContain('(Lufttemperatur [°C])');
  });

  test('defaultStyle: the timeseries hint wins over the phenomenon hint', () => {
    expect(defaultStyle(cat, cat.timeseries[pos('ts_zugspitze_precipitation')]!)).toEqual({
      chartType: 'bar',
      properties: { interval: 'byDay', width: 0.8, color: '#4169e1' },
      referenceValueStyleProperties: {},
    });
    expect(defaultStyle(cat, cat.timeseries[pos(KOELN_RAIN)]!)).toMatchObject({ chartType: 'bar', properties: { interval: 'byHour', color: '#0000ff' } });
    expect(Object.keys(defaultStyle(cat, s)!.referenceValueStyleProperties).sort()).toEqual(['ref_koeln_rhein_ms1', 'ref_koeln_rhein_ms2', 'ref_koeln_rhein_ms3']);
  });

  test('defaultStyle: nothing configured, undefined', () => {
    const tiny = tinyCatalogue();
    expect(defaultStyle(tiny, tiny.timeseries[tiny.ids.timeseries.get('ts_azur_level')!]!)).toBeUndefined();
    expect(defaultStyle(tiny, tiny.timeseries[tiny.ids.timeseries.get('ts_azur_temp')!]!)).toMatchObject({ chartType: 'line', properties: { color: '#ff0000' } });
  });
});

describe('pre-rendered chart files', () => {
  test('prerenderedFile: interval, optional qualifier, id URL-encoded', () => {
    expect(prerenderedFile(KOELN, 'lastWeek')).toBe(`api/v1/timeseries/${KOELN}/lastWeek.png`);
    expect(prerenderedFile(KOELN, 'lastWeek', 'with_legend')).toBe(`api/v1/timeseries/${KOELN}/lastWeek_with_legend.png`);
    expect(prerenderedFile(KOELN, 'lastDay', '')).toBe(`api/v1/timeseries/${KOELN}/lastDay.png`);
    expect(prerenderedFile('ts a/b', 'lastMonth')).toBe('api/v1/timeseries/ts%20a%2Fb/lastMonth.png');
  });

  test('download names: ASCII only, from the series ids and the timespan or chart name', () => {
    const span = { start: Date.UTC(2024, 0, 1, 6), end: Date.UTC(2024, 0, 8, 23, 59, 59, 999) };
    expect(chartFileName([KOELN], span, 'png')).toBe(`${KOELN}_20240101T060000Z_20240108T235959Z.png`);
    expect(chartFileName(['ts_a', 'ts_b'], span, 'pdf')).toBe('ts_a_ts_b_20240101T060000Z_20240108T235959Z.pdf');
    expect(chartFileName(['ts_a', 'ts_b', 'ts_c', 'ts_d', 'ts_e'], span, 'pdf')).toBe('ts_a_ts_b_ts_c_and_2_more_20240101T060000Z_20240108T235959Z.pdf');
    expect(chartFileName(['ts_"ä"/x;y'], span, 'png')).toBe('ts__x_y_20240101T060000Z_20240108T235959Z.png');
    expect(prerenderedFileName(KOELN, 'lastWeek')).toBe(`${KOELN}_lastWeek.png`);
    expect(prerenderedFileName(KOELN, 'lastWeek', 'with_legend')).toBe(`${KOELN}_lastWeek_with_legend.png`);
    expect(attachment('a.png')).toBe('attachment; filename="a.png"');
  });

  test('noPrerenderedChart: 404 with the spec message and a hint to render on demand', () => {
    const e = noPrerenderedChart(KOELN);
    expect(e.status).toBe(404);
    expect(e.userMessage).toBe(`No pre-rendered chart found for timeseries '${KOELN}'`);
    expect(e.hints.some((h) => h.includes(`/api/v1/timeseries/${KOELN}/getData.png`))).toBe(true);
    expect(e.hints.some((h) => h.includes('lastWeek'))).toBe(true);
  });
});

describe('chart documents: gaps, colours and levels from the catalogue', () => {
  /** Ten-minute values of the requested span with a 6 h hole after its first day: in memory, no database. */
  const source: SeriesSource = {
    read: async (_s, span) => {
      const t: number[] = [];
      for (let x = span.start; x <= span.end; x += 600_000) if (x < span.start + DAY || x > span.start + DAY + 6 * 3_600_000) t.push(x);
      return { t: Float64Array.from(t), v: Float64Array.from(t, (x) => 500 + ((x / 600_000) % 50)) };
    },
    lastBefore: async () => ({ t: new Float64Array(0), v: new Float64Array(0) }),
    firstAfter: async () => ({ t: new Float64Array(0), v: new Float64Array(0) }),
  } as SeriesSource;

  test('reference values of the hints style are drawn in their status interval colours; a request colour is kept', async () => {
    const intervals = cat.config.statusIntervals.timeseries[KOELN]!;
    expect(intervals.length).toBeGreaterThan(1);
    const doc = await chartDocument(cat, source, get('expanded=true&legend=true'));
    expect(doc.kind).toBe('png');
    const html = doc.html;
    const refColors = [...html.matchAll(/class="reference-value" data-reference-value="[^"]*" fill="none" stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(refColors.length).toBeGreaterThan(0);
    const { readableOnWhite } = await import('../../core/charts/references.ts');
    const statusColours = new Set(intervals.map((i) => readableOnWhite(i.color.toLowerCase())));
    for (const c of refColors) expect(statusColours.has(c!)).toBe(true);
    const style = { chartType: 'line', properties: { referenceValueStyleProperties: Object.fromEntries(cat.timeseries[kKoeln]!.refs.map((r) => [cat.refValues[r]!.id, { chartType: 'line', properties: { color: '#123456' } }])) } };
    const asked = await chartDocument(cat, source, get(`style=${encodeURIComponent(JSON.stringify(style))}`));
    expect(asked.html).toMatch(/class="reference-value" data-reference-value="[^"]*" fill="none" stroke="#123456"/);
  });

  test('a 6 h hole in ten-minute values breaks the line; with generalize=true too', async () => {
    for (const query of ['', 'generalize=true']) {
      const doc = await chartDocument(cat, source, get(query));
      const line = /<path d="([^"]*)" fill="none"/.exec(doc.html)![1]!; // the data line (reference values carry a class first)
      expect(line.split('M').filter(Boolean), query).toHaveLength(2);
    }
  });
});
