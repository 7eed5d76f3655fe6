/** The partition predicates and the explicit order of a partitioned catalogue's queries (core/radar/partitions.ts). */
import { expect, test } from 'vitest';
import { partitionFilter } from '../../core/radar/partitions.ts';
import { NO_SELECTION, recordQuery } from '../../core/radar/queries.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { RADAR_ROUTES } from '../../core/radar/routes.ts';
import { hiveKeysIn } from '../../lib/hive.ts';

const HOUR = 3_600_000;
const route = (path: string) => RADAR_ROUTES.find((r) => r.path === path)!;
const day = (iso: string) => ({ start: Date.parse(`${iso}T00:00:00Z`), end: Date.parse(`${iso}T23:59:59Z`) });

test('a timespan selects the years from its start less the longest interval to its end', () => {
  const none = { timespan: undefined, radarCode: undefined };
  expect(partitionFilter(RESOURCES.files, { ...none, timespan: day('2015-06-01') }, 2 * HOUR)?.params).toEqual({ year_from: 2015, year_to: 2015 });
  // A file of up to 2 h starting on 31 December may overlap 1 January: the year before is read too.
  expect(partitionFilter(RESOURCES.files, { ...none, timespan: day('2016-01-01') }, 2 * HOUR)?.params).toEqual({ year_from: 2015, year_to: 2016 });
  expect(partitionFilter(RESOURCES.coverage, { ...none, timespan: { start: day('2016-03-01').start, end: day('2018-02-01').end } }, 0)?.params).toEqual({ year_from: 2016, year_to: 2018 });
  const both = partitionFilter(RESOURCES.transfers, { timespan: day('2015-06-01'), radarCode: 'sas' }, HOUR)!;
  expect(both.sql).toBe('(year BETWEEN $year_from AND $year_to) AND (radar = $radar_code)');
  expect(partitionFilter(RESOURCES.transfers, { ...none, radarCode: 'sas' }, HOUR)).toEqual({ sql: '(radar = $radar_code)', params: { radar_code: 'sas' } });
  expect(partitionFilter(RESOURCES.files, none, HOUR)).toBeUndefined();
  expect(partitionFilter(RESOURCES.radars, { ...none, radarCode: 'sas' }, 0)).toBeUndefined();
});

test('over a partitioned catalogue the big resources are ordered explicitly; other tables and databases are not', () => {
  const facts = { maxDurationMs: { files: 2 * HOUR, transferred: 2 * HOUR }, partitioned: true };
  const selection = { ...NO_SELECTION, timespan: day('2015-06-01'), radarCode: 'sas' };
  const files = recordQuery({ route: route('/files'), format: 'json', expanded: false, selection }, facts);
  expect(files.sql).toMatch(/AND \(\(year BETWEEN \$year_from AND \$year_to\) AND \(radar = \$radar_code\)\) ORDER BY id$/);
  const instances = recordQuery({ route: route('/transferred/files'), format: 'csv', expanded: true, selection }, facts);
  expect(instances.sql).toMatch(/ORDER BY id, transfer_start_datetime, transfer_id$/);
  const radars = recordQuery({ route: route('/radars'), format: 'json', expanded: false, selection }, facts);
  expect(radars.sql).not.toMatch(/ORDER BY|year/);
  const database = recordQuery({ route: route('/files'), format: 'json', expanded: false, selection }, { ...facts, partitioned: false });
  expect(database.sql).not.toMatch(/ORDER BY|year/);
  expect(() => recordQuery({ route: route('/files'), format: 'json', expanded: false, selection: NO_SELECTION, ordinal: true }, facts)).toThrow(/partitioned/);
});

test('hiveKeysIn finds the key=value folder names of a path', () => {
  expect(hiveKeysIn('/srv/id=7/snap/files/year=2015/radar=sas/data_0.parquet')).toEqual(['id', 'year', 'radar']);
  expect(hiveKeysIn('/srv/snapcat/dist.builds/20240101T000000Z/data')).toEqual([]);
  expect(hiveKeysIn('/srv/=x/a')).toEqual([]);
});
