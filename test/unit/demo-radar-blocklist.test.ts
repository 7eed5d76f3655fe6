/** Blocklisted files and reference data of the radar demo. */
import { describe, expect, it } from 'vitest';
import { blockedFiles, readBlocklist } from '../../build-scripts/demo/radar/blocklist.ts';
import { lateSlots } from '../../build-scripts/demo/radar/late-files.ts';
import { radarProfiles } from '../../build-scripts/demo/radar/radar-profiles.ts';
import { SUPERDARN_DATA_DIR, parseCsv, readReferenceData } from '../../build-scripts/demo/radar/radars.ts';
import { unit } from '../../build-scripts/demo/radar/random.ts';

const ref = readReferenceData();
const names = readBlocklist(SUPERDARN_DATA_DIR);
const at = (iso: string): number => Date.parse(iso) / 1000;

describe('radar demo reference data', () => {
  it('reads radars, institutes and countries', () => {
    expect(ref.radars.map((r) => r.id)).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
    expect(ref.radars.map((r) => r.stid)).toEqual([...ref.radars.map((r) => r.stid)].sort((a, b) => a - b));
    expect(ref.radars.find((r) => r.code === 'hal')).toMatchObject({ stid: 4, letter: 'h', rstStatus: -1, endS: at('2016-01-21T00:00:00Z') });
    expect(ref.radars.find((r) => r.code === 'bks')!.hdw).toMatchObject({ boresight: -40, maxBeams: 24, maxRangeGates: 110 });
    const tst = ref.radars.find((r) => r.code === 'tst')!;
    const country = ref.countries.find((c) => c.id === ref.institutes.find((i) => i.name === tst.institute)!.countryId)!;
    expect(country.iso).toBe('CA');
    expect(parseCsv('a,"b, ""c"""\r\n1,2\n')).toEqual([['a', 'b, "c"'], ['1', '2']]);
  });

  it('draws deterministic uniform numbers', () => {
    expect(unit(1, 2, 3)).toBe(unit(1, 2, 3));
    expect(unit(1, 2, 3)).not.toBe(unit(2, 2, 3));
    let sum = 0;
    for (let i = 0; i < 10_000; i++) sum += unit(7, i);
    expect(sum / 10_000).toBeGreaterThan(0.48);
    expect(sum / 10_000).toBeLessThan(0.52);
  });
});

describe('radar demo blocklist', () => {
  it('reads the 27 232 real names', () => {
    expect(names).toHaveLength(27_232);
    expect(names).toContain('20040104.0000.12.sas..rawacf.bz2');
  });

  it('takes the real names of the range for radars operating then', () => {
    const from = at('2024-08-20T00:00:00Z');
    const to = from + 20 * 86_400;
    const files = blockedFiles(names, radarProfiles(ref, 1, from, to), 1, from, to);
    expect(files.length).toBeGreaterThanOrEqual(20);
    const real = files.filter((f) => names.includes(f.filename));
    expect(real.length).toBeGreaterThan(20);
    for (const f of files) expect(f.startS >= from && f.startS < to).toBe(true);
    expect(real.find((f) => f.filename === '20240829.2200.00.inv.a.rawacf.bz2')).toMatchObject({
      radarId: ref.radars.find((r) => r.code === 'inv')!.id,
      startS: at('2024-08-29T22:00:00Z'),
    });
  });

  it('re-dates real shapes into ranges without real names, keeping the shape and the era', () => {
    const from = at('2024-01-01T00:00:00Z');
    const to = from + 3 * 86_400;
    const files = blockedFiles(names, radarProfiles(ref, 1, from, to), 1, from, to);
    expect(files).toHaveLength(3);
    for (const f of files) {
      expect(f.filename).toMatch(/^202401\d{2}\.\d{2}(\d{2})?\.(\d{2})?\.[a-z]{3}\..*rawacf\.bz2$/);
      expect(f.startS >= from && f.startS < to).toBe(true);
    }
    const old = blockedFiles(names, radarProfiles(ref, 1, at('1999-01-01T00:00:00Z'), at('1999-01-11T00:00:00Z')), 1, at('1999-01-01T00:00:00Z'), at('1999-01-11T00:00:00Z'));
    expect(old).toHaveLength(10);
    for (const f of old) expect(f.filename).toMatch(/^199901\d{4}[a-z][A-Z]?\.dat\.bz2$/);
    expect(blockedFiles(names, radarProfiles(ref, 1, from, to), 1, from, to)).toEqual(files);
  });
});

describe('radar demo: one more day', () => {
  const DAY = 86_400;
  for (const [from, days] of [['2024-01-01', 3], ['1999-01-01', 10], ['2012-06-01', 400]] as const) {
    it(`keeps the blocklisted names and late batches of ${days} days from ${from} and adds the next day's`, () => {
      const fromS = at(`${from}T00:00:00Z`);
      const toS = fromS + days * DAY;
      const blocked = (to: number) => blockedFiles(names, radarProfiles(ref, 1, fromS, to), 1, fromS, to);
      const late = (to: number) => lateSlots(radarProfiles(ref, 1, fromS, to), 1, fromS, to);
      const [b1, b2] = [blocked(toS), blocked(toS + DAY)];
      expect(b2.filter((f) => f.startS < toS)).toEqual(b1);
      expect(b2.filter((f) => f.startS >= toS).length).toBeGreaterThan(0);
      const [l1, l2] = [late(toS), late(toS + DAY)];
      expect(l2.filter((l) => l.sendS < toS)).toEqual(l1);
      // files of a day at least 68 days before the sending day: over two months old when they arrive
      for (const l of l2) expect((l.slot + 1) * 7200 <= l.sendS - 67 * DAY).toBe(true);
    });
  }
  it('sends late batches now and then: a few a day over the network', () => {
    const fromS = at('2015-01-01T00:00:00Z');
    const slots = lateSlots(radarProfiles(ref, 1, fromS, fromS + 365 * DAY), 1, fromS, fromS + 365 * DAY);
    const batches = new Set(slots.map((l) => `${l.radarId}:${l.sendS}`)).size;
    expect(batches / 365).toBeGreaterThan(0.2);
    expect(batches / 365).toBeLessThan(2);
  });
});
