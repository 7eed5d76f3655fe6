/** Accept-Encoding negotiation, the compress-or-not decision and ETags per coding, as tables. */
import { describe, expect, test } from 'vitest';
import { codingFor, compressibleType, COMPRESS_MIN_BYTES, etagInCoding, etagsInAnyCoding, parseAcceptEncoding, preferredCoding } from '../../core/http/content-coding.ts';

describe('preferredCoding', () => {
  test.each([
    // [Accept-Encoding, coding, identity refused]
    [undefined, undefined, false],
    ['', undefined, false],
    ['identity', undefined, false],
    ['gzip', 'gzip', false],
    ['x-gzip', 'gzip', false],
    ['GZip', 'gzip', false],
    ['br', 'br', false],
    ['zstd', 'zstd', false],
    ['deflate', undefined, false],
    ['compress, deflate', undefined, false],
    // equal q: the server's order (zstd, br, gzip)
    ['gzip, deflate, br, zstd', 'zstd', false],
    ['gzip, deflate, br', 'br', false],
    ['gzip, br', 'br', false],
    ['*', 'zstd', false],
    // q-values decide
    ['zstd;q=0.5, br;q=0.8, gzip;q=0.9', 'gzip', false],
    ['gzip;q=0.2, br;q=0.3', 'br', false],
    ['br;q=1.0, zstd;q=0.999', 'br', false],
    ['gzip;q=0.1', 'gzip', false],
    ['gzip; q=0.4 , zstd ; Q=0.6', 'zstd', false],
    // q=0 refuses
    ['gzip;q=0', undefined, false],
    ['zstd;q=0, br;q=0, gzip', 'gzip', false],
    ['*, zstd;q=0', 'br', false],
    ['*;q=0.5, gzip', 'gzip', false],
    ['*;q=0.5, gzip;q=0.2', 'zstd', false],
    // identity
    ['gzip, identity', 'gzip', false],
    ['gzip;q=0.5, identity', undefined, false],
    ['gzip;q=0.5, identity;q=0.4', 'gzip', false],
    ['gzip, identity;q=0', 'gzip', true],
    ['*;q=0, br', 'br', true],
    ['*;q=0, identity, br', 'br', false],
    ['*;q=0', undefined, true],
    ['identity;q=0', undefined, true],
    ['identity;q=0, deflate', undefined, true],
    // malformed members are left out
    ['gzip;q=2', undefined, false],
    ['gzip;q=abc, br', 'br', false],
    ['gzip;q=0.1234', undefined, false],
    ['gzip;q=, br;q=0.1', 'br', false],
    ['g zip, br;q=0.3', 'br', false],
    [',,gzip,,', 'gzip', false],
    // a coding listed twice keeps its first q
    ['gzip;q=0, gzip', undefined, false],
  ] as const)('%j → %s (identity refused: %s)', (header, coding, refused) => {
    expect(preferredCoding(header)).toEqual({ coding, identityRefused: refused });
  });

  test('parseAcceptEncoding reads members and q-values', () => {
    expect([...parseAcceptEncoding('gzip;q=0.5, BR, *;q=0, x-gzip;q=1')]).toEqual([
      ['gzip', 0.5],
      ['br', 1],
      ['*', 0],
    ]);
  });
});

describe('codingFor', () => {
  const gzip = { coding: 'gzip', identityRefused: false } as const;
  const gzipOnly = { coding: 'gzip', identityRefused: true } as const;
  const none = { coding: undefined, identityRefused: false } as const;
  test.each([
    ['JSON of 1 KB', gzip, { status: 200, contentType: 'application/json', length: COMPRESS_MIN_BYTES }, 'gzip'],
    ['JSON under 1 KB', gzip, { status: 200, contentType: 'application/json', length: COMPRESS_MIN_BYTES - 1 }, undefined],
    ['JSON under 1 KB, identity refused', gzipOnly, { status: 200, contentType: 'application/json', length: 10 }, 'gzip'],
    ['streamed CSV (length unknown)', gzip, { status: 200, contentType: 'text/csv; charset=utf-8', length: undefined }, 'gzip'],
    ['checksum report', gzip, { status: 200, contentType: 'text/plain; charset=utf-8', length: 5000 }, 'gzip'],
    ['HTML', gzip, { status: 200, contentType: 'text/html; charset=utf-8', length: 5000 }, 'gzip'],
    ['JSON with charset', gzip, { status: 200, contentType: 'application/json; charset=UTF-8', length: 5000 }, 'gzip'],
    ['problem+json', gzip, { status: 400, contentType: 'application/problem+json', length: 5000 }, 'gzip'],
    ['error of 1 KB or more', gzip, { status: 404, contentType: 'application/json', length: 2000 }, 'gzip'],
    ['PNG', gzip, { status: 200, contentType: 'image/png', length: 50_000 }, undefined],
    ['PNG, identity refused', gzipOnly, { status: 200, contentType: 'image/png', length: 50_000 }, undefined],
    ['PDF', gzip, { status: 200, contentType: 'application/pdf', length: 50_000 }, undefined],
    ['ZIP', gzip, { status: 200, contentType: 'application/zip', length: 50_000 }, undefined],
    ['no type', gzip, { status: 200, contentType: undefined, length: 50_000 }, undefined],
    ['already encoded', gzip, { status: 200, contentType: 'application/json', length: 50_000, contentEncoding: 'br' }, undefined],
    ['304', gzip, { status: 304, contentType: 'application/json', length: undefined }, undefined],
    ['204', gzip, { status: 204, contentType: 'application/json', length: undefined }, undefined],
    ['client asks for none', none, { status: 200, contentType: 'application/json', length: 50_000 }, undefined],
  ] as const)('%s', (_, pref, answer, coding) => {
    expect(codingFor(pref, answer)).toBe(coding);
  });

  test.each([
    ['image/svg+xml', true],
    ['text/javascript; charset=utf-8', true],
    ['application/geo+json', true],
    ['image/png', false],
    ['application/pdf', false],
    ['application/zip', false],
    ['application/gzip', false],
    ['application/octet-stream', false],
  ])('compressibleType(%s) is %s', (type, yes) => {
    expect(compressibleType(type)).toBe(yes);
  });
});

describe('ETags per coding', () => {
  test('each coding has its own ETag, weakness kept', () => {
    expect(etagInCoding('"b1-h2"', 'br')).toBe('"b1-h2-br"');
    expect(etagInCoding('W/"b1-h2"', 'gzip')).toBe('W/"b1-h2-gzip"');
    const all = etagsInAnyCoding('"b1-h2"');
    expect(all).toEqual(['"b1-h2"', '"b1-h2-zstd"', '"b1-h2-br"', '"b1-h2-gzip"']);
    expect(new Set(all).size).toBe(all.length);
  });
});
