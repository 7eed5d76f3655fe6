/**
 * A tiny timeseries catalogue in memory for unit tests: two services, four stations (one without series,
 * labels chosen so that collation differs from code-unit order), five series, one reference value with a
 * change point, labels in de and de_AT, and a configuration with status intervals and rendering hints per
 * phenomenon and per series.
 */
import { parseTimeseriesConfig } from '../../core/snapshot/timeseries-config.ts';
import { makeCatalogue, type Catalogue, type CatalogueRows } from '../../core/timeseries/catalogue.ts';

const member = (id: string, label: string, service_id: string) => ({ id, label, service_id });

function series(id: string, station: string, phen: 'level' | 'temp', feature: string, first?: [number, number], last?: [number, number]) {
  const a = phen === 'level';
  return {
    id,
    label: `${a ? 'Water level' : 'Temperature'}@${station}`,
    service_id: a ? 'srv_a' : 'srv_b',
    category_id: a ? 'cat_water' : 'cat_air',
    offering_id: a ? 'off_level' : 'off_temp',
    feature_id: feature,
    procedure_id: a ? 'pro_gauge' : 'pro_thermo',
    phenomenon_id: a ? 'phe_level' : 'phe_temp',
    station_id: station,
    uom: a ? 'cm' : '°C',
    first_timestamp: first?.[0] ?? null,
    first_value: first?.[1] ?? null,
    last_timestamp: last?.[0] ?? null,
    last_value: last?.[1] ?? null,
  };
}

export const TINY_ROWS: CatalogueRows = {
  services: [
    { id: 'srv_a', label: 'Alpha service', service_url: 'https://a.example.org/sos', version: '2.0.0', type: 'SOS', supports_first_latest: true },
    { id: 'srv_b', label: 'Beta service', service_url: 'https://b.example.org/sos', version: '1.0.0', type: 'SOS', supports_first_latest: false },
  ],
  categories: [member('cat_air', 'Air', 'srv_b'), member('cat_water', 'Water', 'srv_a')],
  offerings: [member('off_level', 'LEVEL_RAW', 'srv_a'), member('off_temp', 'TEMP_RAW', 'srv_b')],
  features: [member('foi_aerzen', 'Ärzen site', 'srv_a'), member('foi_azur', 'Azur site', 'srv_a'), member('foi_zug', 'Zugspitze site', 'srv_b')],
  procedures: [member('pro_gauge', 'Gauge', 'srv_a'), member('pro_thermo', 'Thermometer', 'srv_b')],
  phenomena: [member('phe_level', 'Water level', 'srv_a'), member('phe_temp', 'Temperature', 'srv_b')],
  stations: [
    { id: 'sta_aerzen', label: 'Ärzen', longitude: 9.26, latitude: 52.04, service_id: 'srv_a' },
    { id: 'sta_azur', label: 'Azur', longitude: 7.0, latitude: 43.7, service_id: 'srv_a' },
    { id: 'sta_empty', label: 'Empty', longitude: 0, latitude: 0, service_id: 'srv_b' },
    { id: 'sta_zug', label: 'Zugspitze', longitude: 10.98, latitude: 47.42, service_id: 'srv_b' },
  ],
  timeseries: [
    { ...series('ts_aerzen_level', 'sta_aerzen', 'level', 'foi_aerzen', [1000, 4], [9000, 6]), sid: 0 },
    { ...series('ts_azur_level', 'sta_azur', 'level', 'foi_azur', [1000, 1], [2000, 2]), sid: 1 },
    { ...series('ts_azur_temp', 'sta_azur', 'temp', 'foi_azur', [1000, 20.5], [3000, 21.5]), sid: 2 },
    { ...series('ts_zug_empty', 'sta_zug', 'temp', 'foi_zug'), sid: 3 },
    { ...series('ts_zug_temp', 'sta_zug', 'temp', 'foi_zug', [1000, -3], [4000, -1.5]), sid: 4 },
  ],
  reference_values: [{ id: 'ref_aerzen_ms1', label: 'Warning level 1', timeseries_id: 'ts_aerzen_level' }],
  reference_value_observations: [
    { reference_value_id: 'ref_aerzen_ms1', timestamp: 1000, value: 5 },
    { reference_value_id: 'ref_aerzen_ms1', timestamp: 5000, value: 7 },
  ],
  labels: [
    { resource_id: 'phe_level', locale: 'de', label: 'Wasserstand' },
    { resource_id: 'phe_level', locale: 'en', label: 'Water level' },
    { resource_id: 'phe_temp', locale: 'de', label: 'Temperatur' },
    { resource_id: 'sta_azur', locale: 'de', label: 'Azur (de)' },
    { resource_id: 'sta_azur', locale: 'de_AT', label: 'Azur (AT)' },
    { resource_id: 'ref_aerzen_ms1', locale: 'de', label: 'Meldestufe 1' },
    { resource_id: 'srv_a', locale: 'de', label: 'Alpha-Dienst' },
  ],
};

export const TINY_CONFIG = parseTimeseriesConfig({
  'web_config-general.json': { requestIntervalRestriction: 'P30D' },
  'web_config-status-intervals.json': {
    phenomenonIntervals: { phe_level: { statusIntervals: { low: { lower: 0, upper: 5, color: '#00ff00' }, high: { lower: '5', color: '#ff0000' } } } },
    timeseriesIntervals: { ts_aerzen_level: { statusIntervals: { normal: { lower: '0', upper: '7', color: '#0000ff' }, flood: { lower: '7', color: '#ff0000' } } } },
  },
  'web_config-rendering-hints.json': {
    phenomenonStyles: { phe_temp: { style: { chartType: 'line', properties: { color: '#ff0000', width: 2 } } } },
    timeseriesStyles: {
      ts_aerzen_level: { style: { chartType: 'bar', properties: { interval: 'byDay', width: 0.5, color: '#0000ff' }, referenceValueStyleProperties: { ref_aerzen_ms1: { chartType: 'line', properties: { lineType: 'dashed' } } } } },
    },
  },
});

export function tinyCatalogue(): Catalogue {
  return makeCatalogue(TINY_ROWS, TINY_CONFIG, Date.UTC(2024, 0, 9));
}
