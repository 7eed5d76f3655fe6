/**
 * `Accept-Language` → the labels' locale (core/timeseries/locale.ts), as one table; and the nginx rule that
 * serves the static tree only for headers the endpoint answers with the default labels (core/nginx/static-rules.ts):
 * every header that rule admits, the endpoint reads as the default, whatever languages the labels have.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TIMESERIES } from '../../core/nginx/static-rules.ts';
import { localeFromAcceptLanguage } from '../../core/timeseries/locale.ts';
import { preflightHeaders } from '../../core/http/cors.ts';

const LABELS = new Set(['de', 'de_AT', 'nl']);

describe('localeFromAcceptLanguage', () => {
  test.each([
    [undefined, undefined],
    ['', undefined],
    ['de', 'de'],
    ['de-DE', 'de_DE'],
    ['DE-at', 'de_AT'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de_DE'],
    ['en-US,en;q=0.9,de;q=0.8', undefined],
    ['en;q=0.2, de;q=0.9', 'de'],
    ['fr, de;q=0.8', 'de'],
    ['fr, it', undefined],
    ['nl;q=0.5, de;q=0.5', 'nl'],
    ['*', undefined],
    ['*;q=0.1, nl', 'nl'],
    ['de;q=0', undefined],
    ['de;q=0, nl;q=0.1', 'nl'],
    ['de;q=abc, nl;q=0.1', 'nl'],
    ['de;q=1.5', 'de'], // clamped to 1, as Accept's q-values are
    ['zh-Hant-TW, nl-BE;q=0.3', 'nl_BE'],
    ['de-CH-1996', 'de'],
    ['x-klingon, 12, ;;, ,', undefined],
    ['  de  ;  q=0.7 , fr', 'de'],
  ])('%j → %j', (header, locale) => {
    expect(localeFromAcceptLanguage(header, LABELS)).toBe(locale);
  });
});

describe("nginx's default-language rule agrees with the endpoint", () => {
  const rule = new RegExp(TIMESERIES.defaultLanguages, 'i');
  test.each(['en', 'en-US', 'EN-gb, en;q=0.9', 'en-US,en;q=0.9,*;q=0.1', '*', 'en;q=0', 'en-GB-oxendict'])('%j: the tree', (h) => {
    expect(rule.test(h)).toBe(true);
    expect(localeFromAcceptLanguage(h, LABELS)).toBeUndefined();
  });
  test.each(['de', 'en, de', 'fr', 'de-DE,de;q=0.9,en;q=0.8', 'english', 'en,,de'])('%j: the endpoint', (h) => {
    expect(rule.test(h)).toBe(false);
  });
  test('any header the rule admits is the default labels at the endpoint', () => {
    const range = fc.oneof(fc.constantFrom('en', 'EN', 'en-US', 'en_GB', '*', 'de', 'nl', 'fr', 'de-AT', 'x'), fc.stringMatching(/^[a-zA-Z*_-]{0,6}$/));
    const q = fc.option(fc.constantFrom(';q=0', ';q=0.5', '; q = 1', ';q=1.0', ';q=abc', ';q=.5'), { nil: '' });
    const header = fc.array(fc.tuple(range, q).map(([r, w]) => `${r}${w}`), { minLength: 1, maxLength: 5 }).chain((parts) => fc.constantFrom(parts.join(','), parts.join(', '), ` ${parts.join(' , ')} `));
    fc.assert(
      fc.property(header, (h) => {
        if (rule.test(h)) expect(localeFromAcceptLanguage(h, LABELS), h).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});

describe('preflightHeaders', () => {
  test('the methods, a fixed header list with Content-Type, Accept and Accept-Language, a day', () => {
    expect(preflightHeaders(['POST', 'OPTIONS'])).toEqual({
      Allow: 'POST, OPTIONS',
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Accept, Accept-Language, Content-Language, Content-Type, Cache-Control, If-None-Match, If-Modified-Since, X-Requested-With',
      'Access-Control-Max-Age': '86400',
    });
  });
});
