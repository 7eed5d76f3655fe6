/**
 * The radar catalogue's resources: where each lives in the catalogue database (built from the snapshot by
 * build-scripts/radar/catalogue-db.ts), its fields in the simple and expanded views, and which filters it takes.
 */

export type FieldKind = 'int' | 'text' | 'bool' | 'datetime' | 'digits' | 'json';

export interface Field {
  name: string;
  /** Column of the resource's table holding the value. */
  column: string;
  kind: FieldKind;
  /** The value may be null (the snapshot's column is nullable). */
  nullable?: boolean;
}

export interface Resource {
  name: ResourceName;
  /** Table in the catalogue database. */
  table: string;
  /** What the resource is, for the docs. */
  meaning: string;
  simple: Field[];
  expanded: Field[];
  /** Columns that make the checksum report; absent when the resource has no checksum. */
  checksum?: { checksum: string; filename: string };
  /** How `timespan` selects: by overlap of an interval, or by an instant lying in the span. */
  time?: { kind: 'overlap'; start: string; end: string } | { kind: 'instant'; column: string };
  /** The resource belongs to a radar: `radar_code` and `bbox` apply. */
  radar?: boolean;
  /**
   * One of the big tables a partitioned build (`build --partitioned`) stores as hive-partitioned Parquet by
   * year of the interval's start and radar code (partitions.ts); the others stay in the database.
   */
  partitioned?: boolean;
  /** The order records are answered in, when more than `id` (the instances of a file, by transfer). */
  order?: string;
}

const f = (name: string, kind: FieldKind, column = name): Field => ({ name, kind, column });
/** A field whose value may be null. */
const n = (name: string, kind: FieldKind, column = name): Field => ({ name, kind, column, nullable: true });

const FILE_SIMPLE = [f('id', 'int'), f('filename', 'text'), n('checksum', 'text')];
const FILE_EXPANDED = [
  f('id', 'int'),
  f('file_path', 'text'),
  f('file_start_datetime', 'datetime'),
  f('file_end_datetime', 'datetime'),
  n('data_start_datetime', 'datetime'),
  n('data_end_datetime', 'datetime'),
  f('last_mod', 'datetime'),
  f('file_size', 'digits'),
  f('status_flag', 'int'),
  n('checksum', 'text'),
  f('include_in_file_coverage', 'bool'),
  f('include_in_data_coverage', 'bool'),
  f('last_updated', 'datetime'),
  f('radar_code', 'text'),
  n('radar_short_code', 'text'),
  f('radar_name', 'text'),
  f('file_type', 'text'),
];
const FILE_TIME = { kind: 'overlap', start: 'file_start_datetime', end: 'file_end_datetime' } as const;

const STATUS_FIELDS = [f('id', 'int'), f('status', 'text'), f('description', 'text')];

export const RESOURCE_NAMES = [
  'files',
  'transferred',
  'transfers',
  'radars',
  'coverage',
  'institutes',
  'countries',
  'file_types',
  'coverage_types',
  'file_status',
  'transferred_file_status',
  'radar_status',
  'transfer_logs',
  'transfer_methods',
] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

export const RESOURCES: Record<ResourceName, Resource> = {
  files: {
    name: 'files',
    table: 'files_x',
    meaning: 'A data file held by the mirror.',
    simple: FILE_SIMPLE,
    expanded: FILE_EXPANDED,
    checksum: { checksum: 'checksum', filename: 'filename' },
    time: FILE_TIME,
    radar: true,
    partitioned: true,
  },
  transferred: {
    name: 'transferred',
    table: 'transferred_x',
    meaning: 'A recorded instance of a file arriving in a transfer; one file id may have several.',
    simple: FILE_SIMPLE,
    expanded: [...FILE_EXPANDED, n('transferred_file_status', 'text'), f('transfer_start_datetime', 'datetime'), f('transfer_end_datetime', 'datetime')],
    checksum: { checksum: 'checksum', filename: 'filename' },
    time: FILE_TIME,
    radar: true,
    partitioned: true,
    order: 'id, transfer_start_datetime, transfer_id',
  },
  transfers: {
    name: 'transfers',
    table: 'transfers_x',
    meaning: 'One run of a transfer tool that brought files of one radar.',
    simple: [
      f('id', 'int'),
      f('transfer_log_file_path', 'text'),
      f('transfer_log_checksum', 'text'),
      f('radar_code', 'text'),
      f('start_datetime', 'datetime'),
      f('end_datetime', 'datetime'),
      f('duration', 'int'),
      f('size', 'digits'),
      f('rate', 'int'),
      f('method', 'text'),
      f('is_error', 'bool'),
    ],
    expanded: [],
    checksum: { checksum: 'transfer_log_checksum', filename: 'transfer_log_filename' },
    time: { kind: 'overlap', start: 'start_datetime', end: 'end_datetime' },
    radar: true,
    partitioned: true,
  },
  radars: {
    name: 'radars',
    table: 'radars_x',
    meaning: 'A radar of the network, with its hardware-description file.',
    simple: [f('id', 'int'), f('filename', 'text', 'hdw_filename'), f('checksum', 'text', 'hdw_checksum')],
    expanded: [
      f('id', 'int'),
      f('radar_id', 'int'),
      f('radar_name', 'text'),
      f('radar_code', 'text'),
      n('radar_short_code', 'text'),
      f('geographic_position', 'json'),
      n('field_of_view', 'json'),
      f('country_name', 'text'),
      f('country_iso_code', 'text'),
      f('institute_name', 'text'),
      f('hdw_checksum', 'text'),
      f('hdw_file_path', 'text'),
      n('earliest_data', 'datetime'),
      n('latest_data', 'datetime'),
      f('status_flag', 'int'),
    ],
    checksum: { checksum: 'hdw_checksum', filename: 'hdw_filename' },
    time: { kind: 'instant', column: 'earliest_data' },
    radar: true,
  },
  coverage: {
    name: 'coverage',
    table: 'coverage_x',
    meaning: 'A contiguous interval of data availability for a radar and file type.',
    simple: [
      f('id', 'int'),
      f('radar_code', 'text'),
      f('file_type', 'text'),
      f('coverage_type', 'text'),
      f('start_datetime', 'datetime'),
      f('end_datetime', 'datetime'),
      f('duration', 'int'),
      f('status_flag', 'int'),
    ],
    expanded: [],
    time: { kind: 'overlap', start: 'start_datetime', end: 'end_datetime' },
    radar: true,
    partitioned: true,
  },
  institutes: {
    name: 'institutes',
    table: 'institutes_x',
    meaning: 'An institute that operates radars or sends data.',
    simple: [f('id', 'int'), f('institute_name', 'text'), f('country_name', 'text'), f('country_iso_code', 'text')],
    expanded: [],
  },
  countries: {
    name: 'countries',
    table: 'countries_x',
    meaning: 'A country of an institute.',
    simple: [f('id', 'int'), f('country_name', 'text'), f('country_iso_code', 'text')],
    expanded: [],
  },
  file_types: {
    name: 'file_types',
    table: 'file_types_x',
    meaning: 'A kind of data file and its file-name pattern.',
    simple: [f('id', 'int'), f('file_type', 'text'), f('file_format', 'text')],
    expanded: [],
  },
  coverage_types: {
    name: 'coverage_types',
    table: 'coverage_types_x',
    meaning: 'A kind of temporal coverage interval.',
    simple: [f('id', 'int'), f('coverage_type', 'text'), f('description', 'text')],
    expanded: [],
  },
  file_status: { name: 'file_status', table: 'file_status_x', meaning: 'A file status; 0 means no alarm.', simple: STATUS_FIELDS, expanded: [] },
  transferred_file_status: {
    name: 'transferred_file_status',
    table: 'transferred_file_status_x',
    meaning: 'An alarm category of a transferred file.',
    simple: STATUS_FIELDS,
    expanded: [],
  },
  radar_status: { name: 'radar_status', table: 'radar_status_x', meaning: 'A radar status; 0 means no alarm.', simple: STATUS_FIELDS, expanded: [] },
  transfer_logs: {
    name: 'transfer_logs',
    table: 'transfer_logs_x',
    meaning: 'A log file written by a transfer.',
    simple: [f('id', 'int'), f('file_path', 'text'), f('checksum', 'text'), f('radar_code', 'text'), f('radar_name', 'text'), f('institute_name', 'text')],
    expanded: [],
    checksum: { checksum: 'checksum', filename: 'filename' },
    radar: true,
  },
  transfer_methods: {
    name: 'transfer_methods',
    table: 'transfer_methods_x',
    meaning: 'A tool files arrive by.',
    simple: [f('id', 'int'), f('method', 'text'), f('description', 'text')],
    expanded: [],
  },
};

/** The fields of a view; resources with one view only answer it for both. */
export function viewFields(r: Resource, expanded: boolean): Field[] {
  return expanded && r.expanded.length > 0 ? r.expanded : r.simple;
}
