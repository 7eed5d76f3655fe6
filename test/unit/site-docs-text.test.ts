/** The docs pages' curl lines (site/lib/curl.ts) and markdown code spans (site/lib/code-spans.ts). */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { codeSpans } from '../../site/lib/code-spans.ts';
import { curlLine, curlWords, shellQuote, shellWords } from '../../site/lib/curl.ts';

describe('curl lines', () => {
  test('a GET, a POST with headers, body and output', () => {
    expect(curlLine({ method: 'GET', target: '/radarnet/mirror/v3/radars' }, 'http://127.0.0.1:8080')).toBe('curl -sS http://127.0.0.1:8080/radarnet/mirror/v3/radars');
    expect(curlLine({ method: 'POST', target: '/api/v1/timeseries/getData', headers: [['Accept', 'application/pdf'], ['Content-Type', 'application/json']], body: '{"a":"it\'s"}', output: 'report.pdf' }, 'https://h')).toBe(
      `curl -sS -X POST -H 'Accept: application/pdf' -H 'Content-Type: application/json' --data-binary '{"a":"it'\\''s"}' -o report.pdf https://h/api/v1/timeseries/getData`,
    );
    expect(curlLine({ method: 'GET', target: '/x?a=1&b=2' })).toBe(`curl -sS 'https://<host>/x?a=1&b=2'`);
  });

  test('shellWords reads back the words of every line curlLine writes', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.option(fc.string(), { nil: undefined }), (target, header, body) => {
        const req = { method: 'POST' as const, target: `/${target}`, headers: [['X-A', header]] as [string, string][], ...(body === undefined ? {} : { body }) };
        expect(shellWords(curlLine(req, 'http://o'))).toEqual(curlWords(req, 'http://o'));
      }),
    );
  });

  test('a POSIX shell reads the same words', () => {
    const words = ['curl', "it's", 'a b', '{"x": [1, 2]}', '$HOME', '`id`', 'a\\b', '*', '%2F&x=1'];
    const line = words.map(shellQuote).join(' ');
    const out = execFileSync('sh', ['-c', `for w in ${line}; do printf '%s\\n' "$w"; done`], { encoding: 'utf8' });
    expect(out.split('\n').slice(0, -1)).toEqual(words);
  });
});

describe('code spans', () => {
  test.each([
    ['plain', [{ text: 'plain', code: false }]],
    ['a `b` c', [{ text: 'a ', code: false }, { text: 'b', code: true }, { text: ' c', code: false }]],
    ['``a`b`` end', [{ text: 'a`b', code: true }, { text: ' end', code: false }]],
    ['`` `x` ``', [{ text: '`x`', code: true }]],
    ['one ` alone', [{ text: 'one ` alone', code: false }]],
    ['`a``b`', [{ text: 'a``b', code: true }]],
  ])('%s', (text, parts) => expect(codeSpans(text)).toEqual(parts));

  test('no text is lost: the parts joined (code re-fenced) hold every character but the fences', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const parts = codeSpans(s);
        const plain = parts.map((p) => p.text).join('');
        expect(plain.replaceAll('`', '').length).toBeLessThanOrEqual(s.replaceAll('`', '').length);
        expect(s.replaceAll('`', '').replaceAll(' ', '')).toBe(plain.replaceAll('`', '').replaceAll(' ', ''));
      }),
    );
  });
});
