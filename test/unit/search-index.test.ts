/**
 * Search finds matches in one joined text of the folded labels: the same hits as a substring test on every
 * label, for needles at the start, the middle and the end of labels, across label boundaries, empty and
 * absent, and with a NUL.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Catalogue } from '../../core/timeseries/catalogue.ts';
import { search, SEARCH_GROUPS } from '../../core/timeseries/search.ts';

function catalogueOf(labels: string[]): Catalogue {
  const stations = labels.map((label, i) => ({ id: `s${i}`, label }));
  const cat: Record<string, unknown> = {};
  for (const g of SEARCH_GROUPS) cat[g.collection] = [];
  cat['stations'] = stations;
  return cat as unknown as Catalogue;
}

function expected(labels: string[], q: string): string[] {
  return labels.flatMap((l, i) => (l.toLowerCase().includes(q.toLowerCase()) ? [`s${i}`] : [])).sort();
}

describe('search over the joined labels', () => {
  const labels = ['Köln Rhein', 'Bonn Rhein', 'rheinau', 'Station 12', 'Station 123', 'X', ''];
  test.each(['rhein', 'RHEIN', 'n r', 'station 12', '3', 'x', 'inb', 'nope', 'ö'])('%s: the same hits as a test per label', (q) => {
    expect(search(catalogueOf(labels), q, undefined).map((h) => h.id).sort()).toEqual(expected(labels, q));
  });

  test('a needle spanning two labels matches neither', () => {
    expect(search(catalogueOf(['ab', 'cd']), 'bc', undefined)).toEqual([]);
  });

  test('random labels and needles: the same hits as a test per label', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 30 }), fc.string({ maxLength: 3 }), (ls, q) => {
        expect(search(catalogueOf(ls), q, undefined).map((h) => h.id).sort()).toEqual(expected(ls, q));
      }),
      { numRuns: 300 },
    );
  });
});
