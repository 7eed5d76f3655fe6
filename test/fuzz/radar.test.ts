/**
 * Property-based tests of the radar catalogue API (/radarnet/mirror/v3) through real endpoints over the demo
 * build, one answering from the static tree and one by live queries only. The routes come from RADAR_ROUTES
 * and the parameters from RADAR_PARAM_NAMES, so a new route or parameter is fuzzed without a change here.
 *
 * For every generated request: never a 5xx, a hang or a reset; every error the one JSON error body, a 400
 * naming the parameter with a valid example; no injected header; no file outside the site; SQL fragments
 * answered as any other invalid value; the first of a repeated parameter counts; unknown parameters ignored.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { PARAM_DOCS, RADAR_PARAM_NAMES } from '../../core/radar/params.ts';
import { RADAR_PREFIX, RADAR_ROUTES, routeFormats } from '../../core/radar/routes.ts';
import { MEDIA_TYPES } from '../../core/radar/params.ts';
import { startTreeAndLive, type Served } from '../helpers/servers.ts';
import {
  acceptHeader, cap, checkAnswer, fc, form, FUZZ_TEST_TIMEOUT_MS, hostileRaw, inParallel, method, occurrence, pct, runs, valueFor, secretsOf, send, SQL_FRAGMENTS,
  plainOf, treeLiveAndHeadAgree, type Secret,
} from '../helpers/fuzz.ts';

let fromTree: Served;
let live: Served;
let close: () => Promise<void>;
let secrets: Secret[];

beforeAll(async () => {
  ({ fromTree, live, close } = await startTreeAndLive(inject('demoBuild')));
  secrets = secretsOf([inject('demoBuild'), inject('tsBuild')], [inject('demoSnapshot'), inject('tsSnapshot')]);
});
afterAll(() => close());

const server = fc.constantFrom('tree' as const, 'live' as const);
const base = (s: 'tree' | 'live') => (s === 'tree' ? fromTree : live).url;

/** Ids for `:id`: some that exist in the demo, some that do not. */
const ID = fc.constantFrom('1', '2', '29', '65', '305', '0', '999999');
const route = fc.constantFrom(...RADAR_ROUTES);
const routePath = fc.tuple(route, ID).map(([r, id]) => ({ route: r, path: `${RADAR_PREFIX}${r.path.replace(':id', id)}` }));
/** The parameters read, and one nobody reads. */
const PARAMS = [...RADAR_PARAM_NAMES, 'fuzzUnknown'] as const;
const param = fc.constantFrom(...PARAMS);
const VALID: Record<string, string> = { ...Object.fromEntries(PARAM_DOCS.map((d) => [d.name, d.example])), fuzzUnknown: 'x' };
/** A parameter and a value for it: hostile, or near its valid example. */
const paramValue = param.chain((name) => fc.tuple(fc.constant(name), valueFor(VALID[name]!)));


describe('radar catalogue: every route and parameter', () => {
  test('the parameter tables are what is fuzzed', () => {
    expect(RADAR_PARAM_NAMES.length).toBeGreaterThanOrEqual(8);
    for (const p of RADAR_PARAM_NAMES) expect(VALID[p], `a valid example of ${p}`).toBeDefined();
  });

  test('one hostile parameter in any form: never a 5xx, always the error body naming it', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routePath, paramValue, form, fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), async (s, { path }, [name, raw], f, m) => {
        const { query, seen } = occurrence(name, raw, f, VALID[name]!);
        const a = await send(base(s), `${path}?${query}`, { method: m });
        checkAnswer(a, { secrets, ...(seen && name !== 'fuzzUnknown' ? { param: name } : {}) });
      }),
      runs(400),
    );
  });

  test('several parameters at once, with any Accept: a 400 names one of them', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const pick = param.chain((n) => fc.tuple(fc.constant(n), fc.oneof(valueFor(VALID[n]!).map((r) => cap(r, 2000)), fc.constant(pct(VALID[n]!)))));
    await fc.assert(
      fc.asyncProperty(server, routePath, fc.array(pick, { minLength: 1, maxLength: 6 }), fc.option(acceptHeader), async (s, { path }, ps, accept) => {
        const a = await send(base(s), `${path}?${ps.map(([n, v]) => `${n}=${v}`).join('&')}`, accept === null ? {} : { headers: { Accept: accept } });
        const body = checkAnswer(a, { secrets });
        if (a.status === 400) expect(ps.some(([n]) => body!.userMessage.includes(`'${n}'`)), body!.userMessage).toBe(true);
      }),
      runs(150),
    );
  });

  test('a repeated parameter: the first value counts, whatever follows', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routePath, paramValue, async (s, { path }, [name, raw]) => {
        const valid = `${name}=${pct(VALID[name]!)}`;
        const [alone, repeated] = await inParallel([`${path}?${valid}`, `${path}?${valid}&${pct(name)}=${raw}`], (p) => send(base(s), p));
        checkAnswer(repeated!, { secrets });
        expect(plainOf(repeated!), repeated!.path).toEqual(plainOf(alone!));
      }),
      runs(100),
    );
  });

  test('unknown parameters (and other spellings of known ones) are ignored', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const unknown = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !(PARAMS as readonly string[]).includes(n)),
      param.filter((p) => p !== 'fuzzUnknown').map((p) => p.toUpperCase()),
      param.filter((p) => p !== 'fuzzUnknown').map((p) => `${p}[]`),
    );
    await fc.assert(
      fc.asyncProperty(server, routePath, unknown, hostileRaw, async (s, { path }, name, raw) => {
        const [plain, withUnknown] = await inParallel([path, `${path}?${pct(name)}=${raw}`], (p) => send(base(s), p));
        checkAnswer(withUnknown!, { secrets });
        expect(plainOf(withUnknown!), withUnknown!.path).toEqual(plainOf(plain!));
      }),
      runs(80),
    );
  });

  test('SQL fragments in every parameter are answered as any other invalid value', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routePath, param, fc.constantFrom(...SQL_FRAGMENTS), async (s, { path }, name, sql) => {
        const plain = 'xqzxqzxqz';
        const [a, b] = await inParallel([sql, plain], (v) => send(base(s), `${path}?${pct(name)}=${pct(v)}`));
        const ea = checkAnswer(a!, { secrets });
        const eb = checkAnswer(b!, { secrets });
        expect(a!.status, `${a!.path} vs ${b!.path}`).toBe(b!.status);
        if (a!.status < 400) expect(plainOf(a!)).toEqual(plainOf(b!));
        else expect({ reason: ea!.reason, hints: ea!.hints, names: ea!.userMessage.startsWith(`Parameter '${name}'`) }).toEqual({ reason: eb!.reason, hints: eb!.hints, names: eb!.userMessage.startsWith(`Parameter '${name}'`) });
      }),
      runs(100),
    );
  });

  test('SQL fragments and hostile text in the :id segment: 400 or 404, never an answer of another id', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const withId = RADAR_ROUTES.filter((r) => r.path.endsWith('/:id'));
    const segment = fc.oneof(
      fc.constantFrom(...SQL_FRAGMENTS).map(pct),
      fc.constantFrom('1%20OR%201=1', '1;', '1--', '-1', '-0', '+1', '01', '1.0', '1e0', '0x1', '%31', '%EF%BC%91', '9223372036854775807', '9223372036854775808', '18446744073709551617', '1%00', '1%0d%0aX-Fuzz-Injected:1', '%ED%A0%80'),
      hostileRaw.map((r) => r.replace(/%2f/gi, '%252f')).filter((r) => r !== '' && !r.includes('/')),
    );
    await fc.assert(
      fc.asyncProperty(server, fc.constantFrom(...withId), segment, async (s, r, seg) => {
        const a = await send(base(s), `${RADAR_PREFIX}${r.path.replace(':id', seg)}`);
        checkAnswer(a, { secrets });
        let decoded = seg;
        try {
          decoded = decodeURIComponent(seg);
        } catch { /* kept raw */ }
        if (!/^-?\d+$/.test(decoded) && !/^(\.|%2e){1,2}$/i.test(seg)) expect([400, 404], a.path).toContain(a.status);
        if (a.status === 400) expect(a.text).toContain("':id'");
      }),
      runs(120),
    );
  });

  test('timespans of partial datetimes, zones and odd calendars on every route', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const part = fc
      .tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.nat(999_999_999), fc.nat(6), fc.constantFrom('', 'Z', 'z', '+01:00', '-0130', '+24:00', '+05', ' 01:00'), fc.constantFrom('T', ' ', 't'))
      .map(([y, mo, d, h, mi, sec, frac, n, z, t]) => {
        const p2 = (x: number) => String(x).padStart(2, '0');
        const pieces = [String(y).padStart(4, '0'), `-${p2(mo)}`, `-${p2(d)}`, `${t}${p2(h)}`, `:${p2(mi)}`, `:${p2(sec)}`, `.${frac}`];
        return pieces.slice(0, n + 1).join('') + (n >= 3 ? z : '');
      });
    const timespan = fc.oneof(fc.tuple(part, part).map(([a, b]) => `${a}/${b}`), fc.tuple(fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: true })).map(([a, b]) => `${a.toISOString()}/${b.toISOString()}`));
    await fc.assert(
      fc.asyncProperty(server, routePath, timespan, async (s, { path }, t) => {
        const a = await send(base(s), `${path}?timespan=${pct(t)}`);
        checkAnswer(a, { secrets, statuses: [200, 400, 404], param: 'timespan' });
      }),
      runs(100),
    );
  });

  test('the static tree and live queries answer alike, and HEAD as GET, whatever the request', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    const pick = param.chain((n) => fc.tuple(fc.constant(n), fc.oneof(valueFor(VALID[n]!).map((r) => cap(r, 2000)), fc.constant(pct(VALID[n]!)))));
    await fc.assert(
      fc.asyncProperty(routePath, fc.array(pick, { maxLength: 4 }), fc.option(acceptHeader), async ({ path }, ps, accept) => {
        const target = `${path}?${ps.map(([n, v]) => `${n}=${v}`).join('&')}`;
        await treeLiveAndHeadAgree(base, target, accept, secrets);
      }),
      runs(120),
    );
  });

  test('any Accept header: the representation asked for, or 406', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routePath, acceptHeader, fc.boolean(), async (s, { route: r, path }, accept, expanded) => {
        const a = await send(base(s), `${path}${expanded ? '?expanded=true' : ''}`, { headers: { Accept: accept } });
        checkAnswer(a, { secrets });
        if (a.status === 200) expect(routeFormats(r).map((f) => MEDIA_TYPES[f]), `${a.path} Accept: ${accept}`).toContain(a.type.split(';')[0]);
        if (a.status >= 400) expect([404, 406], `${a.path} Accept: ${accept}: ${a.text}`).toContain(a.status);
      }),
      runs(150),
    );
  });

  test('any method: GET and HEAD answer, OPTIONS is the preflight (204), others 405 with Allow', { timeout: FUZZ_TEST_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(server, routePath, method, fc.option(fc.json({ maxDepth: 2 })), async (s, { path }, m, body) => {
        const a = await send(base(s), path, { method: m, ...(body === null ? {} : { body, headers: { 'Content-Type': 'application/json' } }) });
        checkAnswer(a, { secrets });
        if (m === 'OPTIONS') expect(a.status, a.path).toBe(204);
        else if (m !== 'GET' && m !== 'HEAD') expect(a.status, a.path).toBe(405);
      }),
      runs(60),
    );
  });
});
