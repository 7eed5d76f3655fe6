/**
 * Property-based tests of POST /api/v1/timeseries/getData (data as JSON, charts as PNG, reports as PDF) with
 * arbitrary bodies, and of chart rendering through a real Chromium (a few runs, small sizes).
 *
 * Body fields come from the tables: the data and chart parameters the route reads (TIMESERIES_ROUTES) and the
 * body's own fields (POST_BODY_DOCS, RENDER_BODY_DOCS). Most properties run against an endpoint with a stub
 * renderer (every check of the request and the chart document is made, no browser is started); the last
 * ones against one with the real renderer.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';
import { decodePng, isPng } from '../helpers/png.ts';
import {
  acceptHeader, checkAnswer, fc, FUZZ_TEST_TIMEOUT_MS, hostileRaw, long, nearValid, occurrence, form, runs, secretsOf, send, SQL_FRAGMENTS, stubRenderer, valueFor, pct, type Secret,
} from '../helpers/fuzz.ts';
import { BODY_EXAMPLES, BODY_FIELDS, TS_POST_ROUTES, TS_VALID } from '../helpers/fuzz-timeseries.ts';

let stubbed: Served;
let real: Served;
let secrets: Secret[];
let seriesIds: string[];

beforeAll(async () => {
  [stubbed, real] = await Promise.all([startEndpoint(inject('tsBuild'), { renderer: stubRenderer() }), startEndpoint(inject('tsBuild'))]);
  secrets = secretsOf([inject('demoBuild'), inject('tsBuild')], [inject('demoSnapshot'), inject('tsSnapshot')]);
  seriesIds = [...stubbed.build.timeseries!.catalogue.ids.timeseries.keys()];
});
afterAll(async () => {
  await Promise.all([stubbed.close(), real.close()]);
});

const POST = TS_POST_ROUTES[0]!;
const PATH = `${TIMESERIES_PREFIX}${POST.pattern}`;
/** Every field a body may carry: the route's query parameters by name, and the body's own. */
const FIELDS = [...new Set([...POST.query, ...BODY_FIELDS])];

/** The documented example of a field as JSON text: the value itself when it is JSON (800, true, [...]), else a string. */
function validJson(name: string): string {
  const v = Object.hasOwn(BODY_EXAMPLES, name) ? BODY_EXAMPLES[name]! : Object.hasOwn(TS_VALID, name) ? TS_VALID[name]! : 'x';
  try {
    JSON.parse(v);
    return v;
  } catch {
    return JSON.stringify(v);
  }
}

const SPECIAL_JSON = [
  '1e400', '-1e400', '1e-400', '-0', '18446744073709551616', '9007199254740993', '-1', '0', '49', '50', '4000', '4001', '0.5', '100.0', '1e2',
  'true', 'false', 'null', '""', '" "', '"true"', '"1e400"', '"NaN"', '"Infinity"', '[]', '{}', '[null]', '[""]', '[1,2]', '{"a":1}',
  '"\\u0000"', '"\\ud800"', '"\\r\\nX-Fuzz-Injected: 1"', '"😀"', '"\\u202e"', '"e\\u0301"',
  ...SQL_FRAGMENTS.map((s) => JSON.stringify(s)),
];

/** A hostile value as JSON text. */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SPECIAL_JSON),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  hostileRaw.map((r) => asJsonString(r)),
  fc.integer({ min: 10, max: 2000 }).map((n) => long('['.repeat(n) + ']'.repeat(n))),
  fc.constant(long(JSON.stringify('x'.repeat(10 * 1024)))),
);

/** A raw (URL-encoded) value as a JSON string. */
function asJsonString(raw: string): string {
  try {
    return JSON.stringify(decodeURIComponent(String(raw)));
  } catch {
    return JSON.stringify(String(raw));
  }
}

const idJson = (ids: () => string[]) => fc.oneof(fc.constantFrom(...ids()).map((id) => JSON.stringify(id)), hostileJson);

function styleJson(): fc.Arbitrary<string> {
  const color = fc.oneof(fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`), fc.constantFrom('red', '#fff', '#GGGGGG', '', '#0000ff\r\n'));
  const line = fc.record(
    { lineType: fc.constantFrom('solid', 'dashed', 'dotted', 'solidWithDots', 'wavy', ''), width: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.double()), color },
    { requiredKeys: [] },
  );
  const bar = fc.record({ interval: fc.constantFrom('byHour', 'byDay', 'byWeek', 'byMonth', 'byCentury'), width: fc.double({ min: -1, max: 2 }), color }, { requiredKeys: [] });
  return fc.oneof(
    line.map((properties) => JSON.stringify({ chartType: 'line', properties })),
    bar.map((properties) => JSON.stringify({ chartType: 'bar', properties })),
    hostileJson,
  );
}

/** A body as JSON text: an object of fields from the tables (and an unknown one), each valid, hostile, or ids. */
function bodyText(): fc.Arbitrary<string> {
  const ids = () => seriesIds;
  const field = fc.constantFrom(...FIELDS, 'fuzzUnknown', '__proto__', 'constructor').chain((name) => {
    const value =
      name === 'timeseries'
        ? fc.oneof(fc.array(idJson(ids), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`), hostileJson)
        : name === 'styleOptions'
          ? fc.oneof(fc.array(fc.tuple(idJson(ids), styleJson()), { maxLength: 3 }).map((es) => `{${es.map(([k, v]) => `${JSON.stringify(String(JSON.parse(String(k))))}:${v}`).join(',')}}`), hostileJson)
          : fc.oneof(fc.constant(validJson(name)), hostileJson, nearValid(Object.hasOwn(TS_VALID, name) ? TS_VALID[name]! : 'x').map(asJsonString));
    return value.map((v) => `${JSON.stringify(name)}:${v}`);
  });
  return fc.array(field, { maxLength: 8 }).map((fs) => `{${fs.join(',')}}`);
}

/**
 * A valid data or render request with one field (of the tables, or an unknown one) set to a valid, near-valid
 * or hostile value: mostly answered, or 400 naming that field.
 */
function oneFieldOff(): fc.Arbitrary<string> {
  const bases = [
    { timespan: '"PT12H/2024-01-08TZ"', timeseries: JSON.stringify(seriesIds.slice(0, 2)) },
    { timespan: '"P1D/2024-01-08TZ"', width: '60', height: '60', styleOptions: JSON.stringify({ [seriesIds[0]!]: { chartType: 'line', properties: { color: '#ff0000' } } }) },
  ];
  const value = (name: string) =>
    fc.oneof(fc.constant(validJson(name)), hostileJson, nearValid(Object.hasOwn(TS_VALID, name) ? TS_VALID[name]! : Object.hasOwn(BODY_EXAMPLES, name) ? BODY_EXAMPLES[name]! : 'x').map(asJsonString));
  return fc
    .tuple(fc.constantFrom(...bases), fc.constantFrom(...FIELDS, 'fuzzUnknown'))
    .chain(([b, name]) => value(name).map((v) => `{${Object.entries({ ...b, [name]: v }).map(([k, x]) => `${JSON.stringify(k)}:${x}`).join(',')}}`));
}

/** Any body at all: objects of the tables' fields, arbitrary JSON, arbitrary values stringified, not JSON. */
function anyBody(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: oneFieldOff() },
    { weight: 3, arbitrary: bodyText() },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'undefined') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', '\ufeff{"timeseries":["ts_koeln_rhein_water_level"]}', '{"timeseries":["ts_koeln_rhein_water_level"]} trailing', '{"timeseries":["ts_koeln_rhein_water_level"],"timeseries":"x"}', 'null', '[]', '"str"', '{', long('['.repeat(30000) + ']'.repeat(30000))),
    },
  );
}

const accept = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(undefined, 'application/json', 'image/png', 'application/pdf', '*/*', 'image/*', 'text/html', 'application/json, image/png;q=0.9') },
  { weight: 1, arbitrary: acceptHeader },
);
const extension = fc.constantFrom('', '', '', '.json', '.png', '.pdf', '/');

function expectedType(acceptValue: string | undefined, ext: string): string | undefined {
  if (ext === '.json' || ext === '.png' || ext === '.pdf') return { '.json': 'application/json', '.png': 'image/png', '.pdf': 'application/pdf' }[ext];
  if (acceptValue === undefined || acceptValue === 'application/json' || acceptValue === '*/*') return 'application/json';
  if (acceptValue === 'image/png' || acceptValue === 'image/*') return 'image/png';
  if (acceptValue === 'application/pdf') return 'application/pdf';
  return undefined;
}

describe('POST /api/v1/timeseries/getData', () => {
  test('the body fields come from the tables', () => {
    for (const f of ['timespan', 'timeseries', 'styleOptions', 'width', 'height', 'legend', 'grid', 'language']) expect(FIELDS).toContain(f);
  });

  test('any body, any Accept: data, a chart, or the error body naming the field', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(anyBody(), accept, extension, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined), async (body, acc, ext, ctype) => {
        const headers: Record<string, string> = {};
        if (acc !== undefined) headers['Accept'] = acc;
        if (ctype !== undefined) headers['Content-Type'] = ctype;
        const a = await send(stubbed.url, `${PATH}${ext}`, { method: 'POST', headers, body });
        checkAnswer(a, { secrets, statuses: [200, 400, 404, 406] });
        const type = expectedType(acc, ext);
        if (a.status === 200 && type) expect(a.type.split(';')[0], `${a.path} Accept: ${acc}`).toBe(type);
        if (a.status === 200 && a.type.startsWith('application/json')) expect(() => JSON.parse(a.text)).not.toThrow();
      }),
      runs(300),
    );
  });

  test('hostile query parameters next to a valid body', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const paramValue = fc.constantFrom(...POST.query, 'fuzzUnknown').chain((n) => fc.tuple(fc.constant(n), valueFor(TS_VALID[n]!)));
    await fc.assert(
      fc.asyncProperty(paramValue, form, fc.constantFrom('application/json', 'image/png', 'application/pdf'), async ([name, raw], f, acc) => {
        const { query, seen } = occurrence(name, raw, f, TS_VALID[name]!);
        const body = acc === 'application/json' ? '{"timeseries":["ts_koeln_rhein_water_level"]}' : '{"styleOptions":{"ts_koeln_rhein_water_level":{"chartType":"line","properties":{}}}}';
        const a = await send(stubbed.url, `${PATH}?${query}`, { method: 'POST', headers: { Accept: acc, 'Content-Type': 'application/json' }, body });
        // a body field wins over the query: only parameters the body does not carry can be at fault
        checkAnswer(a, { secrets, statuses: [200, 400, 404], ...(seen && name !== 'fuzzUnknown' ? { param: name } : {}) });
      }),
      runs(150),
    );
  });

  test('a real chart: PNG of the size asked for (few runs, small sizes)', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.record({
      ids: fc.uniqueArray(fc.constantFrom(...seriesIds), { minLength: 1, maxLength: 3 }),
      width: fc.integer({ min: 50, max: 120 }),
      height: fc.integer({ min: 50, max: 120 }),
      legend: fc.boolean(),
      grid: fc.boolean(),
      language: fc.constantFrom('en', 'de', 'nl', 'fr', 'en_US'),
      timespan: fc.constantFrom('PT6H/2024-01-08TZ', 'P1D/2024-01-08TZ', '2024-01-01/2024-01-09', 'P1M/2024-01-09TZ', '2023-01-01/2023-01-02'),
      bar: fc.boolean(),
      color: fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const style = r.bar ? { chartType: 'bar', properties: { interval: 'byDay', color: r.color } } : { chartType: 'line', properties: { color: r.color, lineType: 'dashed' } };
        const body = JSON.stringify({ timespan: r.timespan, width: r.width, height: r.height, legend: r.legend, grid: r.grid, language: r.language, styleOptions: Object.fromEntries(r.ids.map((id) => [id, style])) });
        const a = await send(real.url, PATH, { method: 'POST', headers: { Accept: 'image/png', 'Content-Type': 'application/json' }, body });
        checkAnswer(a, { secrets, statuses: [200] });
        expect(a.type).toBe('image/png');
        expect(isPng(a.body)).toBe(true);
        const img = decodePng(a.body);
        expect([img.width, img.height]).toEqual([r.width, r.height]);
      }),
      runs(8),
    );
  });

  test('a real report: PDF (few runs, small sizes)', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.record({
      ids: fc.uniqueArray(fc.constantFrom(...seriesIds), { minLength: 1, maxLength: 2 }),
      language: fc.constantFrom('en', 'de', 'en_US', 'xx'),
      timespan: fc.constantFrom('PT6H/2024-01-08TZ', 'P1D/2024-01-08TZ'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const body = JSON.stringify({ timespan: r.timespan, width: 60, height: 60, language: r.language, timeseries: r.ids });
        const a = await send(real.url, PATH, { method: 'POST', headers: { Accept: 'application/pdf', 'Content-Type': 'application/json' }, body });
        checkAnswer(a, { secrets, statuses: [200] });
        expect(a.type).toBe('application/pdf');
        expect(a.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      }),
      runs(4),
    );
  });

  test('hostile chart parameters through the real renderer: 400 before a render, or a chart', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const chartParams = ['style', 'legend', 'grid', 'width', 'height', 'locale', 'language', 'base64', 'timespan', 'generalize'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...chartParams).chain((n) => fc.tuple(fc.constant(n), fc.oneof(valueFor(TS_VALID[n]!), fc.constant(pct(TS_VALID[n]!))))), fc.constantFrom('.png', '.pdf'), async ([name, raw], ext) => {
        // small by default; a hostile width or height comes first and counts
        const a = await send(real.url, `${TIMESERIES_PREFIX}/timeseries/ts_koeln_rhein_water_level/getData${ext}?${name}=${raw}&width=60&height=60&timespan=PT6H/2024-01-08TZ`);
        checkAnswer(a, { secrets, statuses: [200, 400], param: name });
        if (a.status === 200) expect(a.type).toBe(ext === '.png' ? 'image/png' : 'application/pdf');
      }),
      runs(20),
    );
  });
});
