/**
 * The radar browse pages' two big summaries as the site computed them before the build wrote its radar browse
 * summary (build-scripts/radar/browse-summary.ts): by reading the tree's expanded `/files` and
 * `/transferred/files` collections record by record. Kept as the reference the summary must equal
 * (test/integration/radar-browse-summary.test.ts). Reads the build folder of SNAPCAT_BUILD, like the site.
 */
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { staticFile, VARIANTS } from '../../core/radar/static-tree.ts';
import { join } from 'node:path';
import { keepLatest } from '../../core/site-data/radar-activity.ts';
import { buildFolder, hasTree } from '../../site/lib/data.ts';
import { pathFiles, type RadarFiles, type TransferActivity, type TypeCount } from '../../site/lib/radar-activity.ts';
import { treeRecordReader } from '../../build-scripts/lib/tree-records.ts';

const forEachTreeRecord = <T>(rel: string, each: (record: T) => void): number => treeRecordReader(join(buildFolder(), 'site'))(rel, each);
import type { FileRecord } from '../../site/scripts/radar-finder.ts';

const EXPANDED_JSON = VARIANTS.find((v) => v.suffix === '.expanded.json')!;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** site/lib/radar-activity.ts filesByRadar() as it was: files per radar code, from the expanded file collection. */
export function filesByRadarFromCollection(): Map<string, RadarFiles> {
  const acc = new Map<string, { types: Map<string, TypeCount>; recent: FileRecord[] }>();
  if (hasTree('radarnet-mirror-v3')) {
    forEachTreeRecord<FileRecord>(staticFile(`${RADAR_PREFIX}/files`, EXPANDED_JSON), (f) => {
      let a = acc.get(f.radar_code);
      if (!a) acc.set(f.radar_code, (a = { types: new Map(), recent: [] }));
      let t = a.types.get(f.file_type);
      if (!t) a.types.set(f.file_type, (t = { fileType: f.file_type, files: 0, bytes: 0, flagged: 0, first: f.file_start_datetime, last: f.file_end_datetime }));
      t.files++;
      t.bytes += Number(f.file_size) || 0;
      if (f.status_flag !== 0) t.flagged++;
      if (f.file_start_datetime < t.first) t.first = f.file_start_datetime;
      if (f.file_end_datetime > t.last) t.last = f.file_end_datetime;
      keepLatest(a.recent, f, (x) => `${x.file_start_datetime}|${String(x.id).padStart(20, '0')}`);
    });
  }
  return new Map(
    [...acc].map(([code, a]) => [
      code,
      {
        byType: [...a.types.values()].sort((x, y) => x.fileType.localeCompare(y.fileType)),
        recent: a.recent.map((f) => ({
          id: f.id,
          filename: baseName(f.file_path),
          fileType: f.file_type,
          start: f.file_start_datetime,
          end: f.file_end_datetime,
          bytes: Number(f.file_size) || 0,
          flagged: f.status_flag !== 0,
          links: pathFiles(`${RADAR_PREFIX}/files/${f.id}`),
        })),
      },
    ]),
  );
}

interface TransferredRecord {
  id: number;
  radar_code: string;
  transferred_file_status: string | null;
  transfer_start_datetime: string;
}

/** site/lib/radar-activity.ts transferActivity() as it was: every transfer instance of the expanded transferred-file collection, counted. */
export function transferActivityFromCollection(): TransferActivity {
  const a: TransferActivity = { byCategoryDay: new Map(), byRadar: new Map(), totals: new Map(), firstDay: undefined, lastDay: undefined, instances: 0 };
  if (hasTree('radarnet-mirror-v3')) {
    a.instances = forEachTreeRecord<TransferredRecord>(staticFile(`${RADAR_PREFIX}/transferred/files`, EXPANDED_JSON), (t) => {
      const cat = t.transferred_file_status ?? 'ok';
      const day = t.transfer_start_datetime.slice(0, 10);
      let days = a.byCategoryDay.get(cat);
      if (!days) a.byCategoryDay.set(cat, (days = new Map()));
      days.set(day, (days.get(day) ?? 0) + 1);
      let r = a.byRadar.get(t.radar_code);
      if (!r) a.byRadar.set(t.radar_code, (r = new Map()));
      r.set(cat, (r.get(cat) ?? 0) + 1);
      a.totals.set(cat, (a.totals.get(cat) ?? 0) + 1);
      if (a.firstDay === undefined || day < a.firstDay) a.firstDay = day;
      if (a.lastDay === undefined || day > a.lastDay) a.lastDay = day;
    });
  }
  return a;
}
