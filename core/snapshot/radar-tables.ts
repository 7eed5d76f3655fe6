/**
 * The Parquet tables of a radar data mirror snapshot (API `radarnet-mirror-v3`).
 * Every table is one file `<name>.parquet`; every column is described here.
 */
import type { TableSpec } from './table-schema.ts';

const SHA1 = '^[0-9a-f]{40}$';

export const RADAR_TABLES: TableSpec[] = [
  {
    name: 'countries',
    meaning: 'Countries of the institutes that operate radars.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Country id.' },
      { name: 'country_name', kind: 'text', singleLine: true, unique: true, meaning: 'English short name, for example `United Kingdom`.' },
      { name: 'country_iso_code', kind: 'text', singleLine: true, unique: true, pattern: '^[A-Z]{2}$', meaning: 'ISO 3166-1 alpha-2 code.' },
    ],
  },
  {
    name: 'institutes',
    meaning: 'Institutes that operate radars or send data to the mirror.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Institute id.' },
      { name: 'institute_name', kind: 'text', singleLine: true, unique: true, meaning: 'Name, for example `British Antarctic Survey`.' },
      { name: 'country_id', kind: 'integer', references: 'countries.id', meaning: 'Country of the institute.' },
    ],
  },
  {
    name: 'radar_status',
    meaning: 'Radar status values. 0 is the only state without an alarm condition.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'The `status_flag` value of a radar.' },
      { name: 'status', kind: 'text', singleLine: true, unique: true, meaning: 'Short name, for example `operational`.' },
      { name: 'description', kind: 'text', meaning: 'What the status means.' },
    ],
  },
  {
    name: 'radars',
    meaning: 'The radars of the network, one row per radar.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Database id (not the community-allocated radar id).' },
      { name: 'radar_id', kind: 'integer', unique: true, meaning: 'Community-allocated station id (stid), for example 5 for Saskatoon.' },
      { name: 'radar_name', kind: 'text', singleLine: true, meaning: 'Site name, for example `Saskatoon`.' },
      { name: 'radar_code', kind: 'text', singleLine: true, unique: true, pattern: '^[a-z]{3}$', meaning: 'Three-letter code, lower case, for example `sas`.' },
      { name: 'radar_short_code', kind: 'text', singleLine: true, nullable: true, pattern: '^[a-z]$', meaning: 'Legacy one-letter code used in pre-2006 file names; null for radars that never had one.' },
      { name: 'latitude', kind: 'double', meaning: 'Geographic latitude of the site, degrees north (WGS84).' },
      { name: 'longitude', kind: 'double', meaning: 'Geographic longitude of the site, degrees east (WGS84), -180 to 180.' },
      { name: 'field_of_view', kind: 'json', nullable: true, meaning: 'GeoJSON Polygon of the field of view, lon/lat degrees (WGS84).' },
      { name: 'institute_id', kind: 'integer', references: 'institutes.id', meaning: 'Operating (PI) institute; the radar\'s country is the institute\'s.' },
      { name: 'hdw_file_path', kind: 'text', singleLine: true, meaning: 'Path of the hardware-description file, for example `/sddata/hdw/hdw.dat.sas`.' },
      { name: 'hdw_checksum', kind: 'text', pattern: SHA1, meaning: 'sha1 of the hardware-description file, 40 lower-case hex digits.' },
      { name: 'earliest_data', kind: 'timestamp', nullable: true, meaning: 'First instant of data from the radar (when it came online).' },
      { name: 'latest_data', kind: 'timestamp', nullable: true, meaning: 'Last instant of data from the radar.' },
      { name: 'status_flag', kind: 'integer', references: 'radar_status.id', meaning: 'Radar status; 0 means no alarm condition.' },
    ],
    rules: [
      { holds: 'latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180', meaning: 'the position is a valid latitude and longitude' },
      { holds: 'earliest_data IS NULL OR latest_data IS NULL OR latest_data >= earliest_data', meaning: 'latest_data is not before earliest_data' },
    ],
  },
  {
    name: 'file_types',
    meaning: 'Kinds of data file and their file-name patterns.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'File type id.' },
      { name: 'file_type', kind: 'text', singleLine: true, unique: true, meaning: 'Name, for example `rawacf`.' },
      { name: 'file_format', kind: 'text', singleLine: true, meaning: 'File-name pattern, for example `YYYYMMDD.HHMM.SS.<code>.<channel>.rawacf.bz2`.' },
    ],
  },
  {
    name: 'file_status',
    meaning: 'File status values. 0 is the only state without an alarm condition.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'The `status_flag` value of a file.' },
      { name: 'status', kind: 'text', singleLine: true, unique: true, meaning: 'Short name: `ok`, `blacklisted`, ...' },
      { name: 'description', kind: 'text', meaning: 'What the status means.' },
    ],
  },
  {
    name: 'files',
    meaning: 'The data files held by the mirror, one row per file.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'File id.' },
      { name: 'filename', kind: 'text', singleLine: true, meaning: 'File name without directory, for example `20240101.0000.00.sas.a.rawacf.bz2`.' },
      { name: 'file_path', kind: 'text', singleLine: true, meaning: 'Full path on the mirror, ending in `filename`.' },
      { name: 'file_start_datetime', kind: 'timestamp', meaning: 'Start of the interval the file covers.' },
      { name: 'file_end_datetime', kind: 'timestamp', meaning: 'End of the interval the file covers (not before the start).' },
      { name: 'data_start_datetime', kind: 'timestamp', nullable: true, meaning: 'First record in the file; null when not read.' },
      { name: 'data_end_datetime', kind: 'timestamp', nullable: true, meaning: 'Last record in the file; null when not read.' },
      { name: 'last_mod', kind: 'timestamp', meaning: 'Modification time of the file on the mirror.' },
      { name: 'file_size', kind: 'integer', meaning: 'Size in bytes (served as a string of digits).' },
      { name: 'status_flag', kind: 'integer', references: 'file_status.id', meaning: 'File status; 0 means no alarm condition.' },
      { name: 'checksum', kind: 'text', nullable: true, pattern: SHA1, meaning: 'sha1 of the file; null when not computed.' },
      { name: 'include_in_file_coverage', kind: 'boolean', meaning: 'Counted in file coverage intervals.' },
      { name: 'include_in_data_coverage', kind: 'boolean', meaning: 'Counted in data coverage intervals.' },
      { name: 'last_updated', kind: 'timestamp', meaning: 'When the catalogue record last changed.' },
      { name: 'radar_id', kind: 'integer', references: 'radars.id', meaning: 'Radar (database id) that recorded the file.' },
      { name: 'file_type_id', kind: 'integer', references: 'file_types.id', meaning: 'File type.' },
    ],
    rules: [
      { holds: 'file_end_datetime >= file_start_datetime', meaning: 'a file ends no earlier than it starts' },
      { holds: "ends_with(file_path, '/' || filename)", meaning: "file_path ends with '/' and the filename" },
      { holds: 'file_size >= 0', meaning: 'file_size is not negative' },
      { holds: 'data_start_datetime IS NULL OR data_end_datetime IS NULL OR data_end_datetime >= data_start_datetime', meaning: 'data ends no earlier than it starts' },
    ],
  },
  {
    name: 'transfer_methods',
    meaning: 'Tools files arrive by.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Method id.' },
      { name: 'method', kind: 'text', singleLine: true, unique: true, meaning: 'Tool name: `rsync`, `sftp`, `scp`.' },
      { name: 'description', kind: 'text', meaning: 'How the tool is used.' },
    ],
  },
  {
    name: 'transfer_logs',
    meaning: 'Log files written by transfers.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Transfer log id.' },
      { name: 'file_path', kind: 'text', singleLine: true, meaning: 'Path of the log file on the mirror.' },
      { name: 'checksum', kind: 'text', pattern: SHA1, meaning: 'sha1 of the log file.' },
      { name: 'radar_id', kind: 'integer', references: 'radars.id', meaning: 'Radar whose files the transfer brought.' },
      { name: 'institute_id', kind: 'integer', references: 'institutes.id', meaning: 'Institute (or mirror node operator) the files came from.' },
    ],
  },
  {
    name: 'transfers',
    meaning: 'Transfers: one run of a transfer tool that brought files of one radar.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Transfer id.' },
      { name: 'transfer_log_id', kind: 'integer', unique: true, references: 'transfer_logs.id', meaning: 'The log the transfer wrote; its radar is the transfer\'s radar.' },
      { name: 'start_datetime', kind: 'timestamp', meaning: 'Start of the transfer.' },
      { name: 'end_datetime', kind: 'timestamp', meaning: 'End of the transfer (not before the start).' },
      { name: 'duration', kind: 'integer', meaning: 'Duration in whole seconds.' },
      { name: 'size', kind: 'integer', meaning: 'Bytes transferred (served as a string of digits).' },
      { name: 'rate', kind: 'integer', meaning: 'Mean rate in bytes per second.' },
      { name: 'method_id', kind: 'integer', references: 'transfer_methods.id', meaning: 'Tool used.' },
      { name: 'is_error', kind: 'boolean', meaning: 'The tool reported an error.' },
    ],
    rules: [
      { holds: 'end_datetime >= start_datetime', meaning: 'a transfer ends no earlier than it starts' },
      { holds: 'duration >= 0 AND size >= 0 AND rate >= 0', meaning: 'duration, size and rate are not negative' },
    ],
  },
  {
    name: 'transferred_file_status',
    meaning: 'Alarm categories of a transferred file. A transfer instance without alarm has a null status.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Status id.' },
      {
        name: 'status',
        kind: 'text',
        singleLine: true,
        unique: true,
        pattern: '^(blacklisted|old|small|compression_failure|compression_exception|notregular|nomatch)$',
        meaning: 'Category: `blacklisted`, `old`, `small`, `compression_failure`, `compression_exception`, `notregular`, `nomatch`.',
      },
      { name: 'description', kind: 'text', meaning: 'What the check found.' },
    ],
  },
  {
    name: 'transfer_instances',
    meaning: 'Transferred files: one row each time a file arrived in a transfer. A file may arrive several times.',
    columns: [
      { name: 'file_id', kind: 'integer', key: true, references: 'files.id', meaning: 'The file.' },
      { name: 'transfer_id', kind: 'integer', key: true, references: 'transfers.id', meaning: 'The transfer that brought it.' },
      { name: 'status_id', kind: 'integer', nullable: true, references: 'transferred_file_status.id', meaning: 'Alarm category; null means no alarm.' },
    ],
  },
  {
    name: 'coverage_types',
    meaning: 'Kinds of temporal coverage interval.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Coverage type id.' },
      { name: 'coverage_type', kind: 'text', singleLine: true, unique: true, meaning: '`file` (intervals covered by files) or `data` (by records inside them).' },
      { name: 'description', kind: 'text', meaning: 'What the intervals count.' },
    ],
  },
  {
    name: 'temporal_coverage',
    meaning: 'Contiguous intervals of data availability per radar and file type.',
    columns: [
      { name: 'id', kind: 'integer', key: true, meaning: 'Coverage interval id.' },
      { name: 'radar_id', kind: 'integer', references: 'radars.id', meaning: 'Radar.' },
      { name: 'file_type_id', kind: 'integer', references: 'file_types.id', meaning: 'File type the interval counts.' },
      { name: 'coverage_type_id', kind: 'integer', references: 'coverage_types.id', meaning: 'Coverage type.' },
      { name: 'start_datetime', kind: 'timestamp', meaning: 'Start of the interval.' },
      { name: 'end_datetime', kind: 'timestamp', meaning: 'End of the interval (not before the start).' },
      { name: 'duration', kind: 'integer', meaning: 'Length in whole seconds.' },
      { name: 'status_flag', kind: 'integer', meaning: '0 means no alarm condition.' },
    ],
    rules: [
      { holds: 'end_datetime >= start_datetime', meaning: 'an interval ends no earlier than it starts' },
      { holds: 'duration >= 0', meaning: 'duration is not negative' },
    ],
  },
];
