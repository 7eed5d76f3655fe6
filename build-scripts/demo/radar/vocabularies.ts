/**
 * The small fixed tables of the radar catalogue: status values, file types, transfer methods,
 * alarm categories and coverage types. Ids are fixed here; the big tables refer to them.
 */

export const RADAR_STATUS = [
  { id: 0, status: 'operational', description: 'The radar is operating and sending data (radar.dat status 1).' },
  { id: 1, status: 'offline_or_test', description: 'The radar is offline or under test; data may be sparse or missing (radar.dat status 0).' },
  { id: 2, status: 'decommissioned', description: 'The radar has been shut down for good; no new data will come (radar.dat status -1).' },
] as const;

/** radar_status id of a radar.dat status (1, 0, -1). */
export function radarStatusId(rstStatus: 1 | 0 | -1): number {
  return rstStatus === 1 ? 0 : rstStatus === 0 ? 1 : 2;
}

export const FILE_STATUS = [
  { id: 0, status: 'ok', description: 'No known problem with the file.' },
  { id: 1, status: 'blacklisted', description: 'The file is on the SuperDARN blocklist (known bad data) and must not be used for science.' },
] as const;
export const FILE_OK = 0;
export const FILE_BLACKLISTED = 1;

export const FILE_TYPES = [
  { id: 1, file_type: 'dat', file_format: 'YYYYMMDDHH<letter>[<channel>].dat.bz2' },
  { id: 2, file_type: 'rawacf', file_format: 'YYYYMMDD.HHMM.SS.<code>.<channel>.rawacf.bz2' },
  { id: 3, file_type: 'fitacf', file_format: 'YYYYMMDD.HHMM.SS.<code>.<channel>.fitacf.bz2' },
] as const;
export const FT_DAT = 1;
export const FT_RAWACF = 2;
export const FT_FITACF = 3;

export const TRANSFER_METHODS = [
  { id: 1, method: 'rsync', description: 'rsync over ssh, pulling new files from the remote archive on a schedule.' },
  { id: 2, method: 'sftp', description: 'SFTP upload by the sending institute into the mirror\'s incoming area.' },
  { id: 3, method: 'scp', description: 'scp copy of single files, used by sites with restricted links.' },
] as const;

export const TRANSFERRED_FILE_STATUS = [
  { id: 1, status: 'blacklisted', description: 'The file name matched the blocklist.' },
  { id: 2, status: 'old', description: 'The file is older than the two-month threshold when it arrived.' },
  { id: 3, status: 'small', description: 'The file is smaller than 55 bytes.' },
  { id: 4, status: 'compression_failure', description: 'The file failed the bzip2 integrity check (bzip2 -t).' },
  { id: 5, status: 'compression_exception', description: 'Checking the file with bzip2 raised an unexpected exception.' },
  { id: 6, status: 'notregular', description: 'The file failed the regular-file test (for example a link or a device).' },
  { id: 7, status: 'nomatch', description: 'The file\'s sha1 differs from that of a previous copy of the same file.' },
] as const;
export const TS = { blacklisted: 1, old: 2, small: 3, compressionFailure: 4, compressionException: 5, notRegular: 6, noMatch: 7 } as const;

export const COVERAGE_TYPES = [
  { id: 1, coverage_type: 'file', description: 'Intervals covered by files: file start to file end, files that touch or overlap merged.' },
  { id: 2, coverage_type: 'data', description: 'Intervals covered by the records inside the files: first to last record, merged across the short hand-over between consecutive files.' },
] as const;
export const COV_FILE = 1;
export const COV_DATA = 2;
