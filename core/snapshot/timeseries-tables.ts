/**
 * The Parquet tables of a sensor timeseries snapshot (API `timeseries-v1`, the 52°North
 * Timeseries Access API v1). Every table is one file `<name>.parquet`; every column is described here.
 *
 * Model, in the API's words: a service (observation service provider) offers timeseries; each
 * timeseries is the sequence of values of one phenomenon measured at one station, and is filed
 * under one category, one offering, one feature (the monitoring site) and one procedure (the
 * sensor or method). Stations carry the position. Reference values (for example flood warning
 * levels) belong to one timeseries and have their own values over time.
 *
 * Identifiers are strings with a type prefix (`srv_`, `cat_`, `off_`, `foi_`, `pro_`, `phe_`,
 * `sta_`, `ts_`, `ref_`) followed by letters, digits, `_` or `-`, so they are safe in URL paths.
 *
 * Labels: every resource table has a `label` column, the resource's default label, which is its
 * English (`en`) label. The `labels` table holds the label of every resource in every locale the
 * provider has, including an `en` row equal to the `label` column. A request for a locale uses
 * the `labels` row of that locale (`de_AT` falls back to `de`), and the `label` column when the
 * resource has no label in that locale.
 *
 * Timestamps of data are integers: milliseconds since the Unix epoch, UTC, as the API serves them.
 *
 * Cross-table coherence that a row rule cannot state (checked by the demo tests):
 * a timeseries' category, offering, feature, procedure, phenomenon and station belong to the
 * timeseries' service (same `service_id`).
 *
 * Configuration of status intervals, rendering hints, chart pre-rendering and the maximum
 * timespan is not a table: it is JSON under `config/` in the snapshot folder, read by
 * `core/snapshot/timeseries-config.ts`.
 */
import type { ColumnSpec, RowRule, TableSpec } from './table-schema.ts';

/** Id pattern for a type prefix. */
const idPattern = (prefix: string): string => `^${prefix}_[A-Za-z0-9][A-Za-z0-9_-]*$`;
/** Any resource id that can have labels. */
export const LABELLED_ID_PATTERN = '^(srv|cat|off|foi|pro|phe|sta|ts|ref)_[A-Za-z0-9][A-Za-z0-9_-]*$';
/** Locale codes: ISO 639 language, optionally `_` and an ISO 3166 region (`en`, `de`, `de_AT`). */
export const LOCALE_PATTERN = '^[a-z]{2,3}(_[A-Z]{2})?$';

const exampleSuffix: Record<string, string> = {
  srv: 'rivers',
  cat: 'hydrology',
  off: 'water_level_raw',
  foi: 'koeln_rhein',
  pro: 'radar_gauge',
  phe: 'water_level',
  sta: 'koeln_rhein',
  ts: 'koeln_rhein_water_level',
  ref: 'koeln_rhein_ms1',
};
const id = (prefix: string, what: string): ColumnSpec => ({
  name: 'id',
  kind: 'text',
  singleLine: true,
  key: true,
  pattern: idPattern(prefix),
  meaning: `${what} id, \`${prefix}_\` and a name, for example \`${prefix}_${exampleSuffix[prefix] ?? 'x'}\`.`,
});
const label = (example: string): ColumnSpec => ({
  name: 'label',
  kind: 'text',
  singleLine: true,
  meaning: `Default label, the English one (equal to the \`en\` row in \`labels\`), for example \`${example}\`.`,
});
const serviceId: ColumnSpec = { name: 'service_id', kind: 'text', references: 'services.id', meaning: 'The service that offers the resource.' };
const labelNotBlank: RowRule = { holds: 'length(trim(label)) > 0', meaning: 'the label is not blank' };

/** An organising collection (category, offering, feature, procedure, phenomenon): id, label, service. */
function collection(name: string, prefix: string, what: string, meaning: string, labelExample: string): TableSpec {
  return { name, meaning, columns: [id(prefix, what), label(labelExample), serviceId], rules: [labelNotBlank] };
}

export const TIMESERIES_TABLES: TableSpec[] = [
  {
    name: 'services',
    meaning: 'Service providers (observation services), each offering timeseries. The API counts their categories, features, offerings, phenomena, procedures, stations and timeseries (`quantities`) from the other tables.',
    columns: [
      id('srv', 'Service'),
      label('River gauges (demo)'),
      { name: 'service_url', kind: 'text', singleLine: true, pattern: '^https?://\\S+$', meaning: 'URL of the underlying observation service (`serviceUrl`).' },
      { name: 'version', kind: 'text', singleLine: true, meaning: 'Version of the service interface, for example `2.0.0`.' },
      { name: 'type', kind: 'text', singleLine: true, meaning: 'Kind of service, for example `SOS`.' },
      { name: 'supports_first_latest', kind: 'boolean', meaning: 'The service can answer first- and latest-value requests (`supportsFirstLatest`).' },
    ],
    rules: [labelNotBlank, { holds: 'length(trim(version)) > 0 AND length(trim(type)) > 0', meaning: 'version and type are not blank' }],
  },
  collection('categories', 'cat', 'Category', 'Categories that group timeseries, for example hydrology or air quality.', 'Hydrology'),
  collection('offerings', 'off', 'Offering', 'Offerings: organising units of the observation service, for example the raw water level data of a network.', 'WATER_LEVEL_RAW'),
  collection('features', 'foi', 'Feature', 'Features of interest: the monitoring sites the timeseries observe, for example a river gauge.', 'Cologne gauge'),
  collection('procedures', 'pro', 'Procedure', 'Procedures: the sensor types or methods that produce the values, for example a radar level gauge.', 'Radar level gauge'),
  collection('phenomena', 'phe', 'Phenomenon', 'Phenomena (observed properties), for example water level.', 'Water level'),
  {
    name: 'stations',
    meaning: 'Stations: the places where measurements take place, served as GeoJSON Point features.',
    columns: [
      id('sta', 'Station'),
      label('Cologne (Rhine)'),
      { name: 'longitude', kind: 'double', meaning: 'Longitude, degrees east (WGS84), -180 to 180: the GeoJSON x coordinate.' },
      { name: 'latitude', kind: 'double', meaning: 'Latitude, degrees north (WGS84), -90 to 90: the GeoJSON y coordinate.' },
      serviceId,
    ],
    rules: [
      labelNotBlank,
      { holds: 'latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180', meaning: 'the position is a valid latitude and longitude' },
    ],
  },
  {
    name: 'timeseries',
    meaning: 'Timeseries: the values of one phenomenon at one station, with the collections it is filed under. A timeseries may have no observations (the API then serves an empty `values` array).',
    columns: [
      id('ts', 'Timeseries'),
      label('Water level@Cologne (Rhine)'),
      serviceId,
      { name: 'category_id', kind: 'text', references: 'categories.id', meaning: 'Category (of the same service).' },
      { name: 'offering_id', kind: 'text', references: 'offerings.id', meaning: 'Offering (of the same service).' },
      { name: 'feature_id', kind: 'text', references: 'features.id', meaning: 'Feature of interest, the monitoring site (of the same service).' },
      { name: 'procedure_id', kind: 'text', references: 'procedures.id', meaning: 'Procedure, the sensor or method (of the same service).' },
      { name: 'phenomenon_id', kind: 'text', references: 'phenomena.id', meaning: 'Observed phenomenon (of the same service).' },
      { name: 'station_id', kind: 'text', references: 'stations.id', meaning: 'Station where the values are measured (of the same service).' },
      { name: 'uom', kind: 'text', singleLine: true, meaning: 'Unit of measure of the values (`uom`), for example `cm`, `m3/s`, `°C`; empty for dimensionless values.' },
    ],
    rules: [labelNotBlank],
  },
  {
    name: 'observations',
    meaning: 'The values of all timeseries, one row per timeseries and instant; the file is sorted by timeseries_id, then timestamp. A missing instant is a gap (no value was reported); a null value was reported but is not usable.',
    columns: [
      { name: 'timeseries_id', kind: 'text', key: true, references: 'timeseries.id', meaning: 'The timeseries.' },
      { name: 'timestamp', kind: 'integer', key: true, meaning: 'Instant of the value, milliseconds since the Unix epoch (UTC).' },
      { name: 'value', kind: 'double', nullable: true, meaning: 'The value in the timeseries\' unit; null when the provider reported the instant without a usable value.' },
    ],
    rules: [{ holds: 'value IS NULL OR isfinite(value)', meaning: 'a value is a finite number (no NaN or infinity)' }],
  },
  {
    name: 'reference_values',
    meaning: 'Reference values of a timeseries, for example flood warning levels; served as `refValues` of the timeseries and, with `expanded=true`, as extra series in data responses.',
    columns: [
      id('ref', 'Reference value'),
      label('Warning level 1'),
      { name: 'timeseries_id', kind: 'text', references: 'timeseries.id', meaning: 'The timeseries the reference value belongs to; its values are in that timeseries\' unit.' },
    ],
    rules: [labelNotBlank],
  },
  {
    name: 'reference_value_observations',
    meaning: 'Values of reference values over time, stored as change points: a value holds from its timestamp until the next row\'s timestamp of the same reference value, and the last one holds from then on. A constant reference value has one row, at or before the first observation of its timeseries. Data responses sample this step function at the timestamps they serve.',
    columns: [
      { name: 'reference_value_id', kind: 'text', key: true, references: 'reference_values.id', meaning: 'The reference value.' },
      { name: 'timestamp', kind: 'integer', key: true, meaning: 'Instant from which the value holds, milliseconds since the Unix epoch (UTC).' },
      { name: 'value', kind: 'double', meaning: 'The value, in the unit of the reference value\'s timeseries.' },
    ],
    rules: [{ holds: 'isfinite(value)', meaning: 'a value is a finite number (no NaN or infinity)' }],
  },
  {
    name: 'labels',
    meaning: 'Localized labels of every resource (services, categories, offerings, features, procedures, phenomena, stations, timeseries, reference values). Every resource has an `en` row, equal to its `label` column; other locales are optional per resource.',
    columns: [
      { name: 'resource_id', kind: 'text', singleLine: true, key: true, pattern: LABELLED_ID_PATTERN, meaning: 'Id of the resource; its prefix names the table it is in, and it must exist there.' },
      { name: 'locale', kind: 'text', singleLine: true, key: true, pattern: LOCALE_PATTERN, meaning: 'Locale: ISO 639 language code, optionally `_` and a region, for example `en`, `de`, `nl`, `de_AT`.' },
      { name: 'label', kind: 'text', singleLine: true, meaning: 'The label in that locale, for example `Wasserstand` for `de`.' },
    ],
    rules: [labelNotBlank],
  },
];

/** The tables that hold resources with labels, by id prefix. */
export const LABELLED_TABLE_BY_PREFIX: Record<string, string> = {
  srv: 'services',
  cat: 'categories',
  off: 'offerings',
  foi: 'features',
  pro: 'procedures',
  phe: 'phenomena',
  sta: 'stations',
  ts: 'timeseries',
  ref: 'reference_values',
};

/** The name of the folder, inside the snapshot folder, that holds the timeseries configuration files. */
export const TIMESERIES_CONFIG_DIR = 'config';
