/**
 * Property-based tests of the Timeseries API's GET paths (/api/v1) through real endpoints over the timeseries
 * demo build, one answering from the static tree and one by live answers only. Routes and the parameters each
 * reads come from TIMESERIES_ROUTES, valid examples from the parameter docs, ids from the served catalogue:
 * a new route or parameter is fuzzed without a change here.
 *
 * Charts asked for here (getData.png, Accept: application/pdf, ...) go to a stub renderer: the request is read
 * and the chart document built as for a real render, without starting Chromium hundreds of times (the real
 * renderer is fuzzed, a few times, in post-charts.test.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { COLLECTIONS, type CollectionName } from '../../core/timeseries/catalogue.ts';
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { SUPPORTED_CRS } from '../../core/timeseries/geo/crs.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';
import {
  acceptHeader, cap, checkAnswer, fc, form, FUZZ_TEST_TIMEOUT_MS, hostileRaw, inParallel, method, occurrence, pct, runs, valueFor, secretsOf, send, SQL_FRAGMENTS, stubRenderer,
  plainOf, treeLiveAndHeadAgree, type Secret,
} from '../helpers/fuzz.ts';
import { pathsOf, required, someIds, TS_GET_ROUTES, TS_VALID, type TsRoute } from '../helpers/fuzz-timeseries.ts';

let fromTree: Served;
let live: Served;
let secrets: Secret[];
let ids: Record<CollectionName, string[]>;
/** Every GET route with each of its concrete paths. */
let routes: { route: TsRoute; paths: string[] }[];

beforeAll(async () => {
  [fromTree, live] = await Promise.all([startEndpoint(inject('tsBuild'), { renderer: stubRenderer() }), startEndpoint(inject('tsBuild'), { renderer: stubRenderer(), liveOnly: true })]);
  secrets = secretsOf([inject('demoBuild'), inject('tsBuild')], [inject('demoSnapshot'), inject('tsSnapshot')]);
  ids = someIds(fromTree.build.timeseries!.catalogue);
  routes = TS_GET_ROUTES.map((route) => ({ route, paths: pathsOf(route, ids) }));
});
afterAll(async () => {
  await Promise.all([fromTree.close(), live.close()]);
});

const server = fc.constantFrom('tree' as const, 'live' as const);
const base = (s: 'tree' | 'live') => (s === 'tree' ? fromTree : live).url;

/**
 * A parameter (each as likely as the others), a route that reads it (or, now and then, any route), one of the
 * route's paths, and a value for the parameter.
 */
function routeAndParam() {
  const names = [...new Set(routes.flatMap((r) => r.route.query)), 'fuzzUnknown'];
  return fc
    .tuple(fc.constantFrom(...names), fc.nat(), fc.nat(9))
    .chain(([name, i, anyRoute]) => {
      const readers = routes.filter((r) => r.route.query.includes(name));
      const { route, paths } = anyRoute === 0 || readers.length === 0 ? routes[i % routes.length]! : readers[i % readers.length]!;
      return fc.record({ route: fc.constant(route), path: fc.constantFrom(...paths), name: fc.constant(name) });
    })
    .chain((r) => fc.tuple(fc.constant(r), valueFor(TS_VALID[r.name]!)));
}


describe('timeseries API: every GET route and parameter', () => {
  test('the route table is what is fuzzed, and every parameter has a valid example', () => {
    expect(routes.length).toBeGreaterThanOrEqual(2 + 2 * COLLECTIONS.length + 2);
    for (const { route } of routes) for (const q of route.query) expect(TS_VALID[q], `a valid example of ${q}`).toBeDefined();
  });

  test('one hostile parameter in any form: never a 5xx, always the error body naming it', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routeAndParam(), form, fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), async (s, [{ path, name }, raw], f, m) => {
        const { query, seen } = occurrence(name, raw, f, TS_VALID[name]!);
        const a = await send(base(s), `${path}?${query}${required(path, [name])}`, { method: m });
        checkAnswer(a, { secrets, ...(seen && name !== 'fuzzUnknown' ? { param: name } : {}) });
      }),
      runs(400),
    );
  });

  test('several parameters at once, with any Accept: a 400 names one of them', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.constantFrom(...routes).chain(({ route, paths }) =>
      fc.record({
        path: fc.constantFrom(...paths),
        ps: fc.array(fc.constantFrom(...route.query, 'fuzzUnknown').chain((n) => fc.tuple(fc.constant(n), fc.oneof(valueFor(TS_VALID[n]!).map((r) => cap(r, 2000)), fc.constant(pct(TS_VALID[n]!))))), { minLength: 1, maxLength: 6 }),
        accept: fc.option(acceptHeader),
      }),
    );
    await fc.assert(
      fc.asyncProperty(server, request, async (s, { path, ps, accept }) => {
        const a = await send(base(s), `${path}?${ps.map(([n, v]) => `${n}=${v}`).join('&')}${required(path, ps.map(([n]) => n))}`, accept === null ? {} : { headers: { Accept: accept } });
        const body = checkAnswer(a, { secrets });
        if (a.status === 400 && !/^Requested timespan is too long$/.test(body!.userMessage)) expect(ps.some(([n]) => body!.userMessage.includes(`'${n}'`)), body!.userMessage).toBe(true);
      }),
      runs(150),
    );
  });

  test('a repeated parameter: the first value counts, whatever follows', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routeAndParam(), async (s, [{ path, name }, raw]) => {
        const valid = `${name}=${pct(TS_VALID[name]!)}`;
        const more = required(path, [name]);
        const [alone, repeated] = await inParallel([`${path}?${valid}${more}`, `${path}?${valid}&${pct(name)}=${raw}${more}`], (p) => send(base(s), p));
        checkAnswer(repeated!, { secrets });
        expect(plainOf(repeated!), repeated!.path).toEqual(plainOf(alone!));
      }),
      runs(100),
    );
  });

  test('unknown parameters (and other spellings of known ones) are ignored', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const known = new Set(routes.flatMap((r) => r.route.query));
    const request = fc.constantFrom(...routes).chain(({ route, paths }) =>
      fc.record({
        path: fc.constantFrom(...paths),
        name: fc.oneof(
          fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !known.has(n)),
          // a parameter of another route, or another spelling of one of this route
          fc.constantFrom(...known).filter((n) => !route.query.includes(n)),
          fc.constantFrom(...route.query, 'q').map((n) => n.toUpperCase()),
          fc.constantFrom(...route.query, 'q').map((n) => `${n}[]`),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(server, request, hostileRaw, async (s, { path, name }, raw) => {
        // search reads q, without which it is 400: keep a valid one first
        const q = path.endsWith('/search') ? '?q=rhein&' : '?';
        const [plain, withUnknown] = await inParallel([`${path}${q.slice(0, -1)}`, `${path}${q}${pct(name)}=${raw}`], (p) => send(base(s), p));
        checkAnswer(withUnknown!, { secrets });
        expect(plainOf(withUnknown!), withUnknown!.path).toEqual(plainOf(plain!));
      }),
      runs(80),
    );
  });

  test('SQL fragments in every parameter are answered as any other invalid value', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routeAndParam(), fc.constantFrom(...SQL_FRAGMENTS), async (s, [{ path, name }], sql) => {
        const plain = 'xqzxqzxqz';
        const [a, b] = await inParallel([sql, plain], (v) => send(base(s), `${path}?${pct(name)}=${pct(v)}${required(path, [name])}`));
        const ea = checkAnswer(a!, { secrets });
        const eb = checkAnswer(b!, { secrets });
        expect(a!.status, `${a!.path} vs ${b!.path}`).toBe(b!.status);
        if (a!.status < 400) expect(plainOf(a!)).toEqual(plainOf(b!));
        else expect({ reason: ea!.reason, hints: ea!.hints, names: ea!.userMessage.includes(`'${name}'`) }).toEqual({ reason: eb!.reason, hints: eb!.hints, names: eb!.userMessage.includes(`'${name}'`) });
      }),
      runs(100),
    );
  });

  test('SQL fragments and hostile text as path segments: 404 (or 400, 405, 406), the same as an unknown id', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const segment = fc
      .oneof(fc.constantFrom(...SQL_FRAGMENTS).map(pct), hostileRaw.map((r) => cap(r, 3000).replace(/%2f/gi, '%252f')))
      .filter((r) => r !== '' && !/[/?#]/.test(r) && !/^(\.|%2e)+$/i.test(r));
    const shape = fc.constantFrom(...COLLECTIONS).chain((c) =>
      fc.oneof(
        fc.constant((seg: string) => `${TIMESERIES_PREFIX}/${c}/${seg}`),
        fc.constant((seg: string) => `${TIMESERIES_PREFIX}/${seg}`),
        fc.constantFrom(...ids.timeseries).map((id) => (seg: string) => `${TIMESERIES_PREFIX}/timeseries/${id}/${seg}`),
        fc.constant((seg: string) => `${TIMESERIES_PREFIX}/timeseries/${seg}/getData`),
        fc.constant((seg: string) => `${TIMESERIES_PREFIX}/timeseries/${seg}/lastWeek`),
      ),
    );
    const ext = fc.constantFrom('', '', '.json', '.png', '.pdf', '.PNG', '.html', '.json.png', '/', '.');
    await fc.assert(
      fc.asyncProperty(server, shape, segment, ext, async (s, at, seg, e) => {
        const [a, b] = await inParallel([seg, 'xqzxqzxqz'], (v) => send(base(s), `${at(v)}${e}`));
        checkAnswer(a!, { secrets });
        checkAnswer(b!, { secrets });
        expect([400, 404, 405, 406], a!.path).toContain(a!.status);
        if (SQL_FRAGMENTS.map(pct).includes(seg)) expect(a!.status, `${a!.path} vs ${b!.path}`).toBe(b!.status);
      }),
      runs(150),
    );
  });

  test('timespans of every form and length, around the configured maximum too', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const getData = routes.find((r) => r.route.pattern === '/timeseries/{id}/getData')!;
    const date = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });
    const instant = fc.tuple(date, fc.constantFrom('iso', 'day', 'dayZ', 'offset', 'month', 'year')).map(([d, f]) => {
      const iso = d.toISOString();
      return { iso, day: iso.slice(0, 10), dayZ: `${iso.slice(0, 10)}TZ`, offset: `${iso.slice(0, 19)}+02:00`, month: iso.slice(0, 7), year: iso.slice(0, 4) }[f];
    });
    const period = fc.oneof(
      fc.constantFrom('P1Y1D', 'P1Y2D', 'P1Y', 'P366D', 'P367D', 'P368D', 'PT8808H', 'PT8809H', 'P1Y1DT1S', 'P1Y1DT0.001S', 'P13M', 'P12M1D', 'P52W2D', 'PT1S', 'PT0.5S', 'P0Y0M3D'),
      fc.tuple(fc.nat(2), fc.nat(13), fc.nat(53), fc.nat(370), fc.nat(48)).map(([y, m, w, d, h]) => `P${y}Y${m}M${w}W${d}DT${h}H`),
    );
    const timespan = fc.oneof(
      fc.tuple(instant, instant).map(([a, b]) => `${a}/${b}`),
      fc.tuple(period, instant).map(([p, b]) => `${p}/${b}`),
      fc.tuple(instant, period).map(([a, p]) => `${a}/${p}`),
      instant,
    );
    await fc.assert(
      fc.asyncProperty(server, fc.constantFrom(...getData.paths), timespan, fc.constantFrom('', '.png'), async (s, path, t, e) => {
        const a = await send(base(s), `${path}${e}?timespan=${pct(t)}`);
        checkAnswer(a, { secrets, statuses: [200, 400, 404], param: 'timespan' });
      }),
      runs(150),
    );
  });

  test('stations by bbox and near in every supported CRS, with any coordinates', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const coordinate = fc.oneof(
      fc.double({ min: -200, max: 200, noNaN: true }),
      fc.double({ min: -2e7, max: 2e7, noNaN: true }),
      fc.constantFrom(0, -0, 90, -90, 180, -180, 90.0000001, 1e308, -1e308, 5e-324, 6378137, 2.0037508342789244e7),
    ).map((x) => (Object.is(x, -0) ? '-0' : String(x)));
    const point = fc.tuple(coordinate, coordinate).map(([x, y]) => `{"type":"Point","coordinates":[${x},${y}]}`);
    const geo = fc.oneof(
      fc.tuple(point, point).map(([ll, ur]) => ['bbox', `{"ll":${ll},"ur":${ur}}`] as const),
      fc.tuple(point, fc.oneof(coordinate, fc.constantFrom('1e400', '-1', '0', '20015', '40000'))).map(([c, r]) => ['near', `{"center":${c},"radius":${r}}`] as const),
    );
    const crs = fc.option(fc.constantFrom(...SUPPORTED_CRS.map((c) => c.code), 'EPSG:900913', 'urn:ogc:def:crs:EPSG::4326', 'EPSG:0', 'EPSG:2'));
    const path = fc.constantFrom(`${TIMESERIES_PREFIX}/stations`, `${TIMESERIES_PREFIX}/stations/${ids.stations[0]}`);
    await fc.assert(
      fc.asyncProperty(server, path, crs, fc.array(geo, { minLength: 1, maxLength: 2 }), async (s, p, c, gs) => {
        const query = [...(c === null ? [] : [`crs=${pct(c)}`]), ...gs.map(([n, v]) => `${n}=${pct(v)}`)].join('&');
        const a = await send(base(s), `${p}?${query}`);
        const body = checkAnswer(a, { secrets, statuses: [200, 400] });
        if (a.status === 400) expect(['crs', 'bbox', 'near'].some((n) => body!.userMessage.includes(`'${n}'`)), body!.userMessage).toBe(true);
      }),
      runs(150),
    );
  });

  test('chart parameters of getData.png and .pdf: read as strictly as the rest', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const getData = routes.find((r) => r.route.pattern === '/timeseries/{id}/getData')!;
    const paramValue = fc.constantFrom(...getData.route.query).chain((n) => fc.tuple(fc.constant(n), valueFor(TS_VALID[n]!)));
    await fc.assert(
      fc.asyncProperty(server, fc.constantFrom(...getData.paths), fc.constantFrom('.png', '.pdf'), paramValue, form, async (s, path, e, [name, raw], f) => {
        const { query, seen } = occurrence(name, raw, f, TS_VALID[name]!);
        const a = await send(base(s), `${path}${e}?${query}`);
        checkAnswer(a, { secrets, ...(seen ? { param: name } : {}) });
        if (a.status === 200) expect(a.type).toBe(e === '.png' ? 'image/png' : 'application/pdf');
      }),
      runs(200),
    );
  });

  test('the static tree and live answers agree, and HEAD as GET, whatever the request', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.constantFrom(...routes).chain(({ route, paths }) =>
      fc.record({
        path: fc.constantFrom(...paths),
        ps: fc.array(fc.constantFrom(...route.query, 'fuzzUnknown').chain((n) => fc.tuple(fc.constant(n), fc.oneof(valueFor(TS_VALID[n]!).map((r) => cap(r, 2000)), fc.constant(pct(TS_VALID[n]!))))), { maxLength: 4 }),
        accept: fc.option(acceptHeader),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ path, ps, accept }) => {
        const target = `${path}?${ps.map(([n, v]) => `${n}=${v}`).join('&')}${required(path, ps.map(([n]) => n))}`;
        await treeLiveAndHeadAgree(base, target, accept, secrets);
      }),
      runs(120),
    );
  });

  test('any Accept header: JSON, a chart where charts are made, or 406', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.constantFrom(...routes).chain(({ route, paths }) => fc.record({ route: fc.constant(route), path: fc.constantFrom(...paths) }));
    await fc.assert(
      fc.asyncProperty(server, request, acceptHeader, async (s, { route, path }, accept) => {
        const a = await send(base(s), path.endsWith('/search') ? `${path}?q=rhein` : path, { headers: { Accept: accept } });
        checkAnswer(a, { secrets });
        const types = route.pattern.endsWith('/getData') ? ['application/json', 'image/png', 'application/pdf', 'text/csv', 'application/zip'] : route.pattern.endsWith('{interval}') ? ['image/png'] : ['application/json'];
        if (a.status === 200) expect(types, `${a.path} Accept: ${accept}`).toContain(a.type.split(';')[0]);
        if (a.status >= 400) expect([404, 406], `${a.path} Accept: ${accept}: ${a.text}`).toContain(a.status);
      }),
      runs(150),
    );
  });

  test('any method: GET and HEAD answer, POST only on /timeseries/getData, OPTIONS everywhere, others 405 with Allow', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const request = fc.constantFrom(...routes).chain(({ paths }) => fc.constantFrom(...paths, `${TIMESERIES_PREFIX}/timeseries/getData`));
    await fc.assert(
      fc.asyncProperty(server, request, method, fc.option(fc.json({ maxDepth: 2 })), async (s, path, m, body) => {
        const a = await send(base(s), path, { method: m, ...(body === null ? {} : { body, headers: { 'Content-Type': 'application/json' } }) });
        checkAnswer(a, { secrets });
        const allowed = path.endsWith('/timeseries/getData') ? ['POST', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
        if (!allowed.includes(m)) expect(a.status, a.path).toBe(405);
        if (m === 'OPTIONS') expect(a.status, a.path).toBe(204);
      }),
      runs(60),
    );
  });
});
