/**
 * The demo network at national scale (issue 23): `buildNetwork(k)` is the network k times over, copy 1 unchanged,
 * every id unique, copies moved a little, gauges of even copies at 15 minutes.
 */
import { describe, expect, test } from 'vitest';
import { MAX_NETWORK_FACTOR, buildNetwork, valuesPerDay } from '../../build-scripts/demo/timeseries/network.ts';
import { daysForObservations } from '../../build-scripts/demo/timeseries/generate.ts';

const base = buildNetwork();
const k3 = buildNetwork(3);

describe('buildNetwork(factor)', () => {
  test('is the network k times over: stations, features, series, warning levels; services and collections once', () => {
    expect(k3.stations).toHaveLength(3 * base.stations.length);
    expect(k3.features).toHaveLength(3 * base.features.length);
    expect(k3.series).toHaveLength(3 * base.series.length);
    expect(k3.refValues).toHaveLength(3 * base.refValues.length);
    expect(k3.services).toEqual(base.services);
    expect(k3.phenomena).toEqual(base.phenomena);
    expect(k3.offerings).toEqual(base.offerings);
  });

  test('every id is unique and every list sorted by id', () => {
    for (const list of [k3.stations, k3.features, k3.series, k3.refValues]) {
      const ids = list.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  test('copy 1 is the plain network, unchanged', () => {
    const byId = new Map(k3.series.map((s) => [s.id, s]));
    for (const s of base.series) expect(byId.get(s.id)).toEqual(s);
    const stations = new Map(k3.stations.map((s) => [s.id, s]));
    for (const s of base.stations) expect(stations.get(s.id)).toEqual(s);
  });

  test('a copy sits beside its original, with its own keys; gauges of even copies report every 15 minutes', () => {
    const koeln = k3.stations.find((s) => s.id === 'sta_koeln_rhein')!;
    const koeln2 = k3.stations.find((s) => s.id === 'sta_koeln_rhein_2')!;
    expect(koeln2.labels.en).toBe('Cologne 2 (Rhine)');
    expect(Math.abs(koeln2.lon - koeln.lon)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(koeln2.lat - koeln.lat)).toBeLessThanOrEqual(0.2);
    expect([koeln2.lon, koeln2.lat]).not.toEqual([koeln.lon, koeln.lat]);
    expect(koeln2.key).not.toBe(koeln.key);
    const step = (id: string) => k3.series.find((s) => s.id === id)?.stepMinutes;
    expect([step('ts_koeln_rhein_water_level'), step('ts_koeln_rhein_2_water_level'), step('ts_koeln_rhein_3_water_level')]).toEqual([10, 15, 10]);
    expect([step('ts_berlin_air_temperature_2'), step('ts_berlin_2_air_temperature'), step('ts_berlin_2_pm10')]).toEqual([undefined, 10, 60]);
  });

  test('values per day grow with the factor: copies have every series of copy 1 for life, gauges of copy 2 at 15 minutes', () => {
    const rivers = base.series.filter((s) => s.serviceId === 'srv_rivers').length;
    const weather = base.series.filter((s) => s.serviceId === 'srv_weather').reduce((sum, s) => sum + 1440 / s.stepMinutes, 0);
    expect(valuesPerDay(k3)).toBe(valuesPerDay(base) + rivers * (96 + 144) + 2 * weather);
    // 10^9 observations: factor 10 over about ten years
    expect(daysForObservations(1e9, 10)).toBeGreaterThan(3000);
    expect(daysForObservations(1e9, 10)).toBeLessThan(4000);
  });

  test('refuses a factor that is not a whole number from 1 to the maximum', () => {
    for (const bad of [0, 1.5, MAX_NETWORK_FACTOR + 1]) expect(() => buildNetwork(bad)).toThrow(/network factor/);
  });
});
