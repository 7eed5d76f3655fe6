/** Which tables each API needs in a snapshot. */
import type { ApiName, TableSpec } from './table-schema.ts';
import { RADAR_TABLES } from './radar-tables.ts';
import { TIMESERIES_TABLES } from './timeseries-tables.ts';

export const TABLES_BY_API: Record<ApiName, TableSpec[]> = {
  'radarnet-mirror-v3': RADAR_TABLES,
  'timeseries-v1': TIMESERIES_TABLES,
};
