import { describe, expect, test } from 'vitest';
import { ifRangeAllows, rangeAnswer } from '../../core/http/range.ts';

describe('rangeAnswer', () => {
  test.each([
    ['bytes=0-9', 100, { kind: 'partial', start: 0, end: 9 }],
    ['bytes=10-', 100, { kind: 'partial', start: 10, end: 99 }],
    ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-1000', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-5000', 100, { kind: 'partial', start: 50, end: 99 }],
    ['bytes=99-99', 100, { kind: 'partial', start: 99, end: 99 }],
    ['Bytes = 1-2', 100, { kind: 'partial', start: 1, end: 2 }],
    // only satisfiable ranges count (nginx's rule): one left is answered
    ['bytes=0-9, 500-', 100, { kind: 'partial', start: 0, end: 9 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=100-200', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=100-,200-', 100, { kind: 'unsatisfiable' }],
    // several: the whole file
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
    ['bytes=0-1,0-1', 100, { kind: 'whole' }],
    // not a byte range: ignored
    ['items=0-1', 100, { kind: 'whole' }],
    ['bytes=abc', 100, { kind: 'whole' }],
    ['bytes=5-3', 100, { kind: 'whole' }],
    ['bytes=-', 100, { kind: 'whole' }],
    ['bytes=', 100, { kind: 'whole' }],
    // an empty file has no byte to ask for: the whole (empty) file
    ['bytes=0-', 0, { kind: 'whole' }],
  ] as const)('%s of %i bytes', (header, size, want) => {
    expect(rangeAnswer(header, size)).toEqual(want);
  });

  test('no header: the whole file', () => {
    expect(rangeAnswer(undefined, 10)).toEqual({ kind: 'whole' });
  });
});

describe('ifRangeAllows', () => {
  test('absent, or the current strong ETag: the range applies; anything else: the whole file', () => {
    expect(ifRangeAllows(undefined, '"a-b"')).toBe(true);
    expect(ifRangeAllows('"a-b"', '"a-b"')).toBe(true);
    expect(ifRangeAllows('"a-c"', '"a-b"')).toBe(false);
    expect(ifRangeAllows('W/"a-b"', '"a-b"')).toBe(false);
    expect(ifRangeAllows('Thu, 26 Nov 2026 10:00:00 GMT', '"a-b"')).toBe(false);
    expect(ifRangeAllows('"a-b"', undefined)).toBe(false);
  });
});
