/**
 * The snapshot format's docs for operators, from the specs the validator uses: the manifest fields and column
 * texts of core/snapshot/format-doc.ts, the table specs of each API, the zod schemas of the configuration files.
 */
import { fromZod } from '../../core/openapi/json-schema.ts';
import { columnNotes, KIND_TEXT, MANIFEST_EXAMPLE, MANIFEST_FIELDS } from '../../core/snapshot/format-doc.ts';
import { API_NAMES, MANIFEST_FILE, SNAPSHOT_FORMAT_VERSION, type ApiName, type TableSpec } from '../../core/snapshot/table-schema.ts';
import { TABLES_BY_API } from '../../core/snapshot/tables.ts';
import { generalFileSchema, prerenderingFileSchema, renderingHintsFileSchema, statusIntervalsFileSchema, TIMESERIES_CONFIG_FILES } from '../../core/snapshot/timeseries-config.ts';
import { TIMESERIES_CONFIG_DIR } from '../../core/snapshot/timeseries-tables.ts';
import { propertyRows, type PropertyRow } from './schema-props.ts';

export { columnNotes, KIND_TEXT, MANIFEST_EXAMPLE, MANIFEST_FIELDS, MANIFEST_FILE, SNAPSHOT_FORMAT_VERSION };

export const tableAnchor = (t: string) => `table-${t.replaceAll('_', '-')}`;

export function snapshotTables(): { api: ApiName; tables: TableSpec[] }[] {
  return API_NAMES.map((api) => ({ api, tables: TABLES_BY_API[api] }));
}

const CONFIG_SCHEMAS = {
  general: generalFileSchema,
  statusIntervals: statusIntervalsFileSchema,
  renderingHints: renderingHintsFileSchema,
  prerendering: prerenderingFileSchema,
} as const;

const CONFIG_LABELS: Record<keyof typeof TIMESERIES_CONFIG_FILES, string> = {
  general: 'General settings',
  statusIntervals: 'Status intervals',
  renderingHints: 'Rendering hints',
  prerendering: 'Chart pre-rendering',
};

/** The configuration files of the timeseries API (all optional), each with its top-level fields from its zod schema. */
export function configFileDocs(): { path: string; label: string; anchor: string; fields: PropertyRow[] }[] {
  return (Object.keys(TIMESERIES_CONFIG_FILES) as (keyof typeof TIMESERIES_CONFIG_FILES)[]).map((k) => ({
    path: `${TIMESERIES_CONFIG_DIR}/${TIMESERIES_CONFIG_FILES[k]}`,
    label: CONFIG_LABELS[k],
    anchor: `config-${k.toLowerCase()}`,
    fields: propertyRows(fromZod(CONFIG_SCHEMAS[k], 'input')),
  }));
}
