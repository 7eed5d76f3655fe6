/**
 * File names and paths of the mirror, by era:
 * - before 2006-01-01: `YYYYMMDDHH<letter>[<channel>].dat.bz2` (letter = legacy one-letter code,
 *   upper-case channel letter only when the radar ran more than one channel), e.g. `1993092914g.dat.bz2`;
 * - from 2006: `YYYYMMDD.HHMM.SS.<code>.<channel>.rawacf.bz2` and the matching `.fitacf.bz2`.
 * Paths: `/sddata/dat/YYYY/MM/`, `/sddata/raw/YYYY/MM/` (rawacf), `/sddata/fitacf/YYYY/MM/`.
 * Blocklisted files keep the real, sometimes odd, shapes of the blocklist (`sas..rawacf`, ...).
 */
import { FT_DAT, FT_RAWACF } from './vocabularies.ts';

/** Names of ordinary (not blocklisted) files of the `.dat` era. */
export const DAT_NAME = /^\d{10}[a-z][A-Z]?\.dat\.bz2$/;
/** Names of ordinary rawacf files. */
export const RAWACF_NAME = /^\d{8}\.\d{4}\.\d{2}\.[a-z]{3}\.[a-d]\.rawacf\.bz2$/;
/** Names of ordinary fitacf files. */
export const FITACF_NAME = /^\d{8}\.\d{4}\.\d{2}\.[a-z]{3}\.[a-d]\.fitacf\.bz2$/;

/** SQL: a TIMESTAMP from seconds since 1970. */
export function tsSql(secondsExpr: string): string {
  return `make_timestamp((${secondsExpr})::BIGINT * 1000000)`;
}

/**
 * SQL: the generated file name, from columns `ft`, `fstart` (seconds), `letter`, `code`,
 * `chl` (channel letter) and `nch` (channels running in the slot).
 */
export function fileNameSql(): string {
  const ts = tsSql('fstart');
  return `CASE ft
    WHEN ${FT_DAT} THEN strftime(${ts}, '%Y%m%d%H') || letter || CASE WHEN nch > 1 THEN upper(chl) ELSE '' END || '.dat.bz2'
    WHEN ${FT_RAWACF} THEN strftime(${ts}, '%Y%m%d.%H%M.%S') || '.' || code || '.' || chl || '.rawacf.bz2'
    ELSE strftime(${ts}, '%Y%m%d.%H%M.%S') || '.' || code || '.' || chl || '.fitacf.bz2' END`;
}

/** SQL: the mirror path of a file, from columns `ft`, `fstart` (seconds) and `filename`. */
export function filePathSql(): string {
  return `'/sddata/' || CASE ft WHEN ${FT_DAT} THEN 'dat' WHEN ${FT_RAWACF} THEN 'raw' ELSE 'fitacf' END
    || strftime(${tsSql('fstart')}, '/%Y/%m/') || filename`;
}

/** SQL: the transfer log path, from columns `code`, `t_start` (seconds) and `method`. */
export function transferLogPathSql(): string {
  const ts = tsSql('t_start');
  return `'/sddata/logs/transfer/' || strftime(${ts}, '%Y/%m/') || code || '.' || strftime(${ts}, '%Y%m%d.%H%M%S') || '.' || method || '.log'`;
}
