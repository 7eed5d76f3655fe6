/** The Parquet tables of a sensor timeseries snapshot (API `timeseries-v1`). Filled in by the timeseries work. */
import type { TableSpec } from './table-schema.ts';

export const TIMESERIES_TABLES: TableSpec[] = [];
