/**
 * The small tables, built from JS rows: countries, institutes, the fixed vocabularies and the
 * radars (whose `latest_data` comes from the generated files).
 */
import { fieldOfView } from './field-of-view.ts';
import type { ReferenceData } from './radars.ts';
import type { Cell, SqlSession, SqlType } from './sql-session.ts';
import { tsSql } from './file-names.ts';
import {
  COVERAGE_TYPES, FILE_STATUS, FILE_TYPES, RADAR_STATUS, TRANSFER_METHODS, TRANSFERRED_FILE_STATUS, radarStatusId,
} from './vocabularies.ts';

interface SmallTable {
  name: string;
  columns: [string, SqlType][];
  rows: Cell[][];
}

const ID: [string, SqlType] = ['id', 'BIGINT'];

function lookupTables(ref: ReferenceData): SmallTable[] {
  return [
    { name: 'countries', columns: [ID, ['country_name', 'VARCHAR'], ['country_iso_code', 'VARCHAR']], rows: ref.countries.map((c) => [c.id, c.name, c.iso]) },
    { name: 'institutes', columns: [ID, ['institute_name', 'VARCHAR'], ['country_id', 'BIGINT']], rows: ref.institutes.map((i) => [i.id, i.name, i.countryId]) },
    { name: 'radar_status', columns: [ID, ['status', 'VARCHAR'], ['description', 'VARCHAR']], rows: RADAR_STATUS.map((s) => [s.id, s.status, s.description]) },
    { name: 'file_types', columns: [ID, ['file_type', 'VARCHAR'], ['file_format', 'VARCHAR']], rows: FILE_TYPES.map((t) => [t.id, t.file_type, t.file_format]) },
    { name: 'file_status', columns: [ID, ['status', 'VARCHAR'], ['description', 'VARCHAR']], rows: FILE_STATUS.map((s) => [s.id, s.status, s.description]) },
    { name: 'transfer_methods', columns: [ID, ['method', 'VARCHAR'], ['description', 'VARCHAR']], rows: TRANSFER_METHODS.map((m) => [m.id, m.method, m.description]) },
    {
      name: 'transferred_file_status',
      columns: [ID, ['status', 'VARCHAR'], ['description', 'VARCHAR']],
      rows: TRANSFERRED_FILE_STATUS.map((s) => [s.id, s.status, s.description]),
    },
    { name: 'coverage_types', columns: [ID, ['coverage_type', 'VARCHAR'], ['description', 'VARCHAR']], rows: COVERAGE_TYPES.map((c) => [c.id, c.coverage_type, c.description]) },
  ];
}

/** Writes the lookup tables; returns [table, rows] for the log. */
export async function writeLookupTables(db: SqlSession, ref: ReferenceData, outDir: string): Promise<[string, number][]> {
  const done: [string, number][] = [];
  for (const t of lookupTables(ref)) {
    const work = `small_${t.name}`;
    await db.load(work, t.columns, t.rows);
    done.push([t.name, await db.copyParquet(`SELECT * FROM ${work} ORDER BY id`, outDir, t.name)]);
  }
  return done;
}

/**
 * Table `radars_base`: every radar with its position, field of view, hdw file and first/fallback
 * last data instants (seconds). earliest_data is the radar's real first day, null when that is not
 * before the snapshot; latest_data is its last file's end, but not before the data the mirror held
 * before the generated range: the end of the radar's operating period, or, for a radar still
 * operating, the start of the range (or its first day, when later). Null for the test radar, which
 * never produced data. A radar without files in the range (a long outage) so keeps one latest_data
 * from snapshot to snapshot, until its files come again.
 */
export async function loadRadarsBase(db: SqlSession, ref: ReferenceData, fromS: number, toS: number): Promise<void> {
  const rows: Cell[][] = ref.radars.map((r) => {
    const online = r.firstS < toS;
    const fallbackLatest = online && r.code !== 'tst' ? Math.min(r.endS ?? Infinity, Math.max(fromS, r.firstS)) : null;
    return [
      r.id, r.stid, r.name, r.code, r.letter, r.latitude, r.longitude, fieldOfView(r.hdw),
      ref.instituteId.get(r.institute)!, `/sddata/hdw/${r.hdwFileName}`, r.hdwSha1,
      online ? r.firstS : null, fallbackLatest, radarStatusId(r.rstStatus),
    ];
  });
  await db.load('radars_base', [
    ID, ['radar_id', 'BIGINT'], ['radar_name', 'VARCHAR'], ['radar_code', 'VARCHAR'], ['radar_short_code', 'VARCHAR'],
    ['latitude', 'DOUBLE'], ['longitude', 'DOUBLE'], ['field_of_view', 'VARCHAR'], ['institute_id', 'BIGINT'],
    ['hdw_file_path', 'VARCHAR'], ['hdw_checksum', 'VARCHAR'], ['earliest_s', 'BIGINT'], ['latest_s', 'BIGINT'], ['status_flag', 'BIGINT'],
  ], rows);
}

/** SQL of the Parquet table `radars`, once `files_out` exists. */
export function radarsSql(): string {
  return `SELECT b.id, b.radar_id, b.radar_name, b.radar_code, b.radar_short_code, b.latitude, b.longitude, b.field_of_view,
      b.institute_id, b.hdw_file_path, b.hdw_checksum,
      CASE WHEN b.earliest_s IS NULL THEN NULL ELSE ${tsSql('b.earliest_s')} END AS earliest_data,
      CASE WHEN b.latest_s IS NULL THEN NULL ELSE ${tsSql('greatest(coalesce(f.last_end, b.latest_s), b.latest_s)')} END AS latest_data,
      b.status_flag
    FROM radars_base b LEFT JOIN (SELECT r, max(fend) AS last_end FROM files_out GROUP BY r) f ON f.r = b.id
    ORDER BY b.id`;
}
