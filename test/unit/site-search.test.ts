/**
 * The site search without a browser (site/lib/search-text.ts, site/scripts/site-search.ts): folding is case- and
 * diacritics-insensitive and knows umlauts written out; every word must be found; exact and prefix matches first;
 * a label of another locale finds the entry and is named.
 */
import { describe, expect, test } from 'vitest';
import { folds, rank, entryFolds, queryWords } from '../../site/lib/search-text.ts';
import { prepare, searchEntries } from '../../site/scripts/site-search.ts';
import type { SearchIndex } from '../../site/lib/search-index.ts';

const index: SearchIndex = {
  locales: ['de', 'nl'],
  entries: [
    ['radar', 'sas', 'Saskatoon (sas)', '/browse/radars/sas/', ['sas', 'Saskatoon', 'University of Saskatchewan', 'Canada']],
    ['radar', 'pgr', 'Prince George (pgr)', '/browse/radars/pgr/', ['pgr', 'Prince George', 'University of Saskatchewan', 'Canada']],
    ['timeseries', 'ts_1', 'Water level@Cologne (Rhine)', '/browse/timeseries/ts_1/', ['Wasserstand@Köln (Rhein)', 'Waterstand@Keulen (Rijn)']],
    ['timeseries', 'ts_2', 'Discharge@Bonn (Rhine)', '/browse/timeseries/ts_2/', ['Abfluss@Bonn (Rhein)']],
    ['station', 'sta_3', 'Düsseldorf', '/browse/stations/sta_3/', []],
    ['station', 'sta_4', 'Rheinfelden (Rhine)', '/browse/stations/sta_4/', ['Rheinfelden (Rhein)']],
  ],
};
const entries = prepare(index);
const ids = (q: string) => searchEntries(entries, q).map((h) => h.entry.id);

describe('folding', () => {
  test.each([
    ['Köln', ['koln', 'koeln']],
    ['KÖLN', ['koln', 'koeln']],
    ['Straße', ['strasse', 'strasse']],
    ['Ko\u0308ln', ['koln', 'koeln']],
    ['Île-de-France', ['ile-de-france', 'ile-de-france']],
  ])('%s', (text, want) => expect(folds(text)).toEqual(want));
});

describe('search', () => {
  test.each([
    ['koeln', ['ts_1']],
    ['Köln', ['ts_1']],
    ['koln', ['ts_1']],
    ['KOELN RHEIN', ['ts_1']],
    ['dusseldorf', ['sta_3']],
    ['duesseldorf', ['sta_3']],
    ['Saskatoon', ['sas']],
    ['nothing', []],
    ['', []],
  ])('%s finds %j', (q, want) => expect(ids(q)).toEqual(want));

  test('a radar by code first, then the radars whose institute holds the word', () => {
    expect(ids('sas')).toEqual(['sas', 'pgr']);
    expect(searchEntries(entries, 'sas')[1]!.via).toBe('University of Saskatchewan');
  });

  test('rhein finds what Rhine finds, where the German labels say Rhein', () => {
    expect(ids('rhein').sort()).toEqual(ids('Rhine').sort());
    expect(ids('rhein')).toHaveLength(3);
  });

  test('a label of another locale that matched is named; the own label wins', () => {
    const [hit] = searchEntries(entries, 'wasserstand');
    expect(hit).toMatchObject({ entry: { id: 'ts_1' }, via: 'Wasserstand@Köln (Rhein)' });
    expect(searchEntries(entries, 'water')[0]!.via).toBeUndefined();
  });

  test('ranks: equal, then a prefix, then a word start, then inside a word', () => {
    const words = queryWords('rhein');
    expect(rank(entryFolds(['Rhein']), words)).toBe(0);
    expect(rank(entryFolds(['Rheinfelden']), words)).toBe(1);
    expect(rank(entryFolds(['Köln (Rhein)']), words)).toBe(2);
    expect(rank(entryFolds(['Oberrhein']), words)).toBe(3);
    expect(rank(entryFolds(['Main']), words)).toBeUndefined();
    expect(ids('rhein')[0]).toBe('sta_4');
  });
});
