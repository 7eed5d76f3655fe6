/**
 * The radar demo generator (build-scripts/demo/radar): table contract, realism rules and
 * determinism, checked with DuckDB on small generated snapshots.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RADAR_TABLES } from '../../core/snapshot/radar-tables.ts';
import type { ColumnKind } from '../../core/snapshot/table-schema.ts';
import { DAT_NAME, FITACF_NAME, RAWACF_NAME } from '../../build-scripts/demo/radar/file-names.ts';
import { demoFileContent } from '../../build-scripts/demo/radar/file-content.ts';
import { generateRadarDemo } from '../../build-scripts/demo/radar/generate.ts';
import { SUPERDARN_DATA_DIR, readReferenceData } from '../../build-scripts/demo/radar/radars.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const ROOT = join(TEST_TMP, `demo-radar-${process.pid}`);
const DAY = 86_400_000;

async function generate(name: string, from: string, days: number, seed: number): Promise<string> {
  const outDir = join(ROOT, name);
  mkdirSync(outDir, { recursive: true });
  const start = new Date(`${from}T00:00:00Z`);
  await generateRadarDemo({ from: start, days, seed, outDir, takenAt: new Date(start.getTime() + days * DAY), log: () => {} });
  return outDir;
}

let conn: DuckDBConnection;
let instance: DuckDBInstance;
const dirs: Record<string, string> = {};

/** Query rows as plain objects, integers as numbers. */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const out = (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  return out.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}
async function one(sql: string): Promise<number> {
  return Number(Object.values((await rows(sql))[0]!)[0]);
}
/** `read_parquet` of a table of a generated snapshot. */
const t = (snapshot: string, table: string): string => `read_parquet('${join(dirs[snapshot]!, `${table}.parquet`)}')`;

function kindOf(type: string): ColumnKind | 'other' {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(type)) return 'integer';
  if (type === 'DOUBLE' || type === 'FLOAT') return 'double';
  if (type === 'VARCHAR') return 'text';
  if (type === 'BOOLEAN') return 'boolean';
  if (type.startsWith('TIMESTAMP')) return 'timestamp';
  return 'other';
}

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  dirs.a = await generate('a', '2024-01-01', 3, 1);
  dirs.a2 = await generate('a2', '2024-01-01', 3, 1);
  dirs.b = await generate('b', '2024-01-01', 3, 2);
  // 20 days over the end of the real blocklist (2024-08/09), for the alarm categories.
  dirs.c = await generate('c', '2024-08-20', 20, 1);
  // The .dat era, over the switch to rawacf on 2006-01-01.
  dirs.d = await generate('d', '2005-12-25', 14, 3);
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
  rmSync(ROOT, { recursive: true, force: true });
});

describe('radar demo: table contract', () => {
  for (const snapshot of ['a', 'c', 'd']) {
    it(`snapshot ${snapshot}: every table with exactly its columns, kinds, nulls, keys, references, patterns and rules`, async () => {
      for (const table of RADAR_TABLES) {
        const src = t(snapshot, table.name);
        const described = await rows(`DESCRIBE SELECT * FROM ${src}`);
        expect(described.map((r) => r.column_name), table.name).toEqual(table.columns.map((c) => c.name));
        for (const [i, c] of table.columns.entries()) {
          const kind = kindOf(String(described[i]!.column_type));
          expect(kind === c.kind || (c.kind === 'json' && kind === 'text') || (c.kind === 'double' && kind === 'integer'), `${table.name}.${c.name}`).toBe(true);
          if (!c.nullable) expect(await one(`SELECT count(*) FROM ${src} WHERE "${c.name}" IS NULL`), `${table.name}.${c.name} nulls`).toBe(0);
          if (c.unique) expect(await one(`SELECT count(*) - count(DISTINCT "${c.name}") FROM ${src}`), `${table.name}.${c.name} unique`).toBe(0);
          if (c.pattern) {
            const bad = await one(`SELECT count(*) FROM ${src} WHERE NOT regexp_full_match("${c.name}", '${c.pattern}')`);
            expect(bad, `${table.name}.${c.name} pattern`).toBe(0);
          }
          if (c.references) {
            const [rt, rc] = c.references.split('.');
            const missing = await one(`SELECT count(*) FROM ${src} x WHERE "${c.name}" IS NOT NULL AND "${c.name}" NOT IN (SELECT "${rc}" FROM ${t(snapshot, rt!)})`);
            expect(missing, `${table.name}.${c.name} -> ${c.references}`).toBe(0);
          }
        }
        const key = table.columns.filter((c) => c.key).map((c) => `"${c.name}"`).join(', ');
        expect(await one(`SELECT count(*) - count(DISTINCT (${key})) FROM ${src}`), `${table.name} key`).toBe(0);
        for (const rule of table.rules ?? []) expect(await one(`SELECT count(*) FROM ${src} WHERE NOT (${rule.holds})`), `${table.name}: ${rule.meaning}`).toBe(0);
        if (table.columns.some((c) => c.name === 'id')) {
          expect(await one(`SELECT count(*) FROM (SELECT id, lag(id) OVER () AS prev FROM ${src}) WHERE id <= prev`), `${table.name} rows in id order`).toBe(0);
          // temporal_coverage has holes where two intervals merged into the older one (see coverage.ts)
          if (!table.name.endsWith('status') && table.name !== 'temporal_coverage') {
            expect(await one(`SELECT count(*) FROM (SELECT id, row_number() OVER () AS n FROM ${src}) WHERE id <> n`), `${table.name} ids 1..n`).toBe(0);
          }
        }
      }
    });
  }
});

describe('radar demo: realism', () => {
  it('holds the 49 real radars with their stids, codes, institutes, countries, statuses and hdw checksums', async () => {
    const ref = readReferenceData();
    const radars = await rows(`SELECT r.*, i.institute_name, c.country_iso_code FROM ${t('a', 'radars')} r
      JOIN ${t('a', 'institutes')} i ON i.id = r.institute_id JOIN ${t('a', 'countries')} c ON c.id = i.country_id ORDER BY r.id`);
    expect(radars).toHaveLength(49);
    for (const [i, r] of radars.entries()) {
      const real = ref.radars[i]!;
      expect(r.id).toBe(i + 1);
      expect([r.radar_id, r.radar_code, r.radar_short_code, r.institute_name]).toEqual([real.stid, real.code, real.letter, real.institute]);
      expect(r.status_flag).toBe(real.rstStatus === 1 ? 0 : real.rstStatus === 0 ? 1 : 2);
      expect(r.hdw_file_path).toBe(`/sddata/hdw/${real.hdwFileName}`);
      expect(r.hdw_checksum).toBe(createHash('sha1').update(readFileSync(join(SUPERDARN_DATA_DIR, 'hdw', real.hdwFileName))).digest('hex'));
      const fov = JSON.parse(String(r.field_of_view)) as { type: string; coordinates: [number, number][][] };
      expect(fov.type).toBe('Polygon');
      expect(fov.coordinates[0]!.at(-1)).toEqual(fov.coordinates[0]![0]);
    }
    const by = Object.fromEntries(radars.map((r) => [r.radar_code, r]));
    expect(by.sas!.country_iso_code).toBe('CA');
    expect(by.hal!.country_iso_code).toBe('GB');
    expect(by.hal!.status_flag).toBe(2);
    expect((by.sas!.earliest_data as Date).toISOString()).toBe('1993-09-29T00:00:00.000Z');
    expect((by.sch!.latest_data as Date).toISOString()).toBe('1995-10-01T00:00:00.000Z');
  });

  it('names files by era and keeps them inside the radars\' operating periods', async () => {
    const ref = readReferenceData();
    for (const s of ['a', 'c', 'd']) {
      const files = await rows(`SELECT f.filename, f.file_path, f.status_flag, ft.file_type, epoch(f.file_start_datetime) AS start, f.radar_id,
          exists(SELECT 1 FROM ${t(s, 'transfer_instances')} i WHERE i.file_id = f.id AND i.status_id = 2) AS old
        FROM ${t(s, 'files')} f JOIN ${t(s, 'file_types')} ft ON ft.id = f.file_type_id`);
      expect(files.length).toBeGreaterThan(1000);
      const [from, to] = s === 'a' ? ['2024-01-01', 3] : s === 'c' ? ['2024-08-20', 20] : ['2005-12-25', 14];
      const fromS = Date.parse(`${from}T00:00:00Z`) / 1000;
      const toS = fromS + Number(to) * 86_400;
      for (const f of files) {
        const name = String(f.filename);
        const start = Number(f.start);
        const radar = ref.radars[Number(f.radar_id) - 1]!;
        expect(start >= radar.firstS && start < (radar.endS ?? Infinity), `${name} in operating period`).toBe(true);
        expect((start >= fromS && start < toS) || f.old, `${name} in range or old`).toBe(true);
        const dir = { dat: 'dat', rawacf: 'raw', fitacf: 'fitacf' }[String(f.file_type)];
        expect(String(f.file_path)).toMatch(new RegExp(`^/sddata/${dir}/\\d{4}/\\d{2}/`));
        if (f.status_flag !== 0) continue;
        const era = f.file_type === 'dat' ? DAT_NAME : f.file_type === 'rawacf' ? RAWACF_NAME : FITACF_NAME;
        expect(name).toMatch(era);
        expect(f.file_type === 'dat', name).toBe(start < Date.parse('2006-01-01T00:00:00Z') / 1000);
        expect(name.includes(radar.code) || name.slice(10, 11) === radar.letter, name).toBe(true);
      }
      expect(files.some((f) => String(f.filename).match(/\.[bcd]\.rawacf\.bz2$/) || String(f.filename).match(/[A-D]\.dat\.bz2$/))).toBe(true);
    }
    expect(await one(`SELECT count(*) FROM ${t('d', 'files')} WHERE file_type_id = 1`)).toBeGreaterThan(100);
    expect(await one(`SELECT count(*) FROM ${t('d', 'files')} WHERE file_type_id = 2`)).toBeGreaterThan(100);
  });

  it('uses real blocklisted names in range and flags them blacklisted, well under 1 %', async () => {
    const blocklist = new Set(readFileSync(join(SUPERDARN_DATA_DIR, 'blocklist_all.txt'), 'utf8').split('\n').map((l) => l.trim().split(/\s+/)[0]));
    const blocked = await rows(`SELECT f.filename, (SELECT list(i.status_id) FROM ${t('c', 'transfer_instances')} i WHERE i.file_id = f.id) AS st
      FROM ${t('c', 'files')} f WHERE status_flag = 1`);
    expect(blocked.length).toBeGreaterThan(10);
    expect(blocked.filter((b) => blocklist.has(String(b.filename))).length).toBeGreaterThan(10);
    for (const b of blocked) expect((b.st as number[]).every((s) => s === 1)).toBe(true);
    const rate = blocked.length / (await one(`SELECT count(*) FROM ${t('c', 'files')}`));
    expect(rate).toBeLessThan(0.01);
    expect(await one(`SELECT count(*) FROM ${t('a', 'files')} WHERE status_flag = 1`)).toBeGreaterThanOrEqual(3);
  });

  it('gives every checksum as the sha1 of demoFileContent, so sha1sum -c accepts a checksum report', async () => {
    const files = await rows(`SELECT filename, checksum FROM ${t('a', 'files')}`);
    const nulls = files.filter((f) => f.checksum === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(nulls / files.length).toBeLessThan(0.03);
    for (const f of files) {
      if (f.checksum !== null) expect(f.checksum).toBe(createHash('sha1').update(demoFileContent(String(f.filename))).digest('hex'));
    }
    const dir = join(ROOT, 'materialised');
    mkdirSync(dir, { recursive: true });
    const some = files.filter((f) => f.checksum !== null).slice(0, 300);
    for (const f of some) writeFileSync(join(dir, String(f.filename)), demoFileContent(String(f.filename)));
    writeFileSync(join(dir, 'report.sha1'), some.map((f) => `${f.checksum}  ${f.filename}\n`).join(''));
    expect(() => execFileSync('sha1sum', ['-c', '--quiet', 'report.sha1'], { cwd: dir })).not.toThrow();
    expect(readdirSync(dir)).toHaveLength(some.length + 1);
  });

  it('has plausible sizes, ids in arrival order, and data inside the file interval', async () => {
    const median = await one(`SELECT median(file_size) FROM ${t('c', 'files')} WHERE file_type_id = 2`);
    expect(median).toBeGreaterThan(20e6);
    expect(median).toBeLessThan(50e6);
    const fit = await one(`SELECT median(file_size) FROM ${t('c', 'files')} WHERE file_type_id = 3`);
    expect(fit).toBeGreaterThan(1e6);
    expect(fit).toBeLessThan(10e6);
    expect(await one(`SELECT median(file_size) FROM ${t('d', 'files')} WHERE file_type_id = 1`)).toBeLessThan(2e6);
    // file ids follow the first arrival (the first transfer that brought the file), as a mirror numbers new records
    expect(await one(`SELECT count(*) FROM (SELECT first_transfer < lag(first_transfer) OVER (ORDER BY id) AS back
      FROM (SELECT i.file_id AS id, min(i.transfer_id) AS first_transfer FROM ${t('c', 'transfer_instances')} i GROUP BY i.file_id)) WHERE back`)).toBe(0);
    // and within a transfer the start: so files of a radar come in start order but for late and delayed ones
    const back = await one(`SELECT count(*) FROM (SELECT file_start_datetime < lag(file_start_datetime) OVER (PARTITION BY radar_id, file_type_id ORDER BY id) AS back
      FROM ${t('c', 'files')}) WHERE back`);
    expect(back).toBeGreaterThan(0);
    expect(back / (await one(`SELECT count(*) FROM ${t('c', 'files')}`))).toBeLessThan(0.02);
    expect(await one(`SELECT count(*) FROM ${t('c', 'files')} WHERE data_start_datetime < file_start_datetime OR data_end_datetime > file_end_datetime`)).toBe(0);
    expect(await one(`SELECT count(*) FROM ${t('c', 'files')} WHERE last_mod < file_end_datetime OR last_updated < last_mod`)).toBe(0);
  });

  it('brings every file by a transfer that starts after the file ends, with consistent sizes', async () => {
    for (const s of ['a', 'c']) {
      expect(await one(`SELECT count(*) FROM ${t(s, 'files')} WHERE id NOT IN (SELECT file_id FROM ${t(s, 'transfer_instances')})`)).toBe(0);
      expect(await one(`SELECT count(*) FROM ${t(s, 'transfer_instances')} i JOIN ${t(s, 'files')} f ON f.id = i.file_id
        JOIN ${t(s, 'transfers')} tr ON tr.id = i.transfer_id WHERE tr.start_datetime <= f.file_end_datetime`)).toBe(0);
      expect(await one(`SELECT count(*) FROM ${t(s, 'transfers')} tr WHERE size <> (SELECT sum(f.file_size) FROM ${t(s, 'transfer_instances')} i
        JOIN ${t(s, 'files')} f ON f.id = i.file_id WHERE i.transfer_id = tr.id)`)).toBe(0);
      expect(await one(`SELECT count(*) FROM ${t(s, 'transfers')} WHERE epoch(end_datetime) - epoch(start_datetime) <> duration OR rate <> size // duration`)).toBe(0);
      // A transfer brings the files of one radar: its log's.
      expect(await one(`SELECT count(*) FROM ${t(s, 'transfer_instances')} i JOIN ${t(s, 'files')} f ON f.id = i.file_id
        JOIN ${t(s, 'transfers')} tr ON tr.id = i.transfer_id JOIN ${t(s, 'transfer_logs')} l ON l.id = tr.transfer_log_id WHERE l.radar_id <> f.radar_id`)).toBe(0);
    }
    const errors = await one(`SELECT avg(is_error::INT) FROM ${t('c', 'transfers')}`);
    expect(errors).toBeGreaterThan(0.003);
    expect(errors).toBeLessThan(0.05);
    const logs = await rows(`SELECT file_path, checksum FROM ${t('c', 'transfer_logs')} LIMIT 5`);
    for (const l of logs) expect(String(l.file_path)).toMatch(/^\/sddata\/logs\/transfer\/\d{4}\/\d{2}\/[a-z]{3}\.\d{8}\.\d{6}\.(rsync|sftp|scp)\.log$/);
  });

  it('has every alarm category in 20 days, at plausible rates', async () => {
    const counts = await rows(`SELECT s.status, count(i.file_id) AS n FROM ${t('c', 'transferred_file_status')} s
      LEFT JOIN ${t('c', 'transfer_instances')} i ON i.status_id = s.id GROUP BY s.status ORDER BY s.status`);
    for (const c of counts) expect(Number(c.n), String(c.status)).toBeGreaterThan(0);
    const total = await one(`SELECT count(*) FROM ${t('c', 'transfer_instances')}`);
    const alarms = await one(`SELECT count(*) FROM ${t('c', 'transfer_instances')} WHERE status_id IS NOT NULL`);
    expect(alarms / total).toBeLessThan(0.05);
    expect(await one(`SELECT count(*) FROM ${t('c', 'transfer_instances')} i JOIN ${t('c', 'files')} f ON f.id = i.file_id
      WHERE (i.status_id = 3) <> (f.file_size < 55)`)).toBe(0);
    // `old`: arrived more than two months after the file started.
    expect(await one(`SELECT count(*) FROM ${t('c', 'transfer_instances')} i JOIN ${t('c', 'files')} f ON f.id = i.file_id
      JOIN ${t('c', 'transfers')} tr ON tr.id = i.transfer_id WHERE i.status_id = 2 AND tr.start_datetime < f.file_start_datetime + INTERVAL 2 MONTH`)).toBe(0);
    const repeated = await one(`SELECT count(*) FROM (SELECT file_id FROM ${t('c', 'transfer_instances')} GROUP BY file_id HAVING count(*) > 1)`);
    expect(repeated / (await one(`SELECT count(*) FROM ${t('c', 'files')}`))).toBeGreaterThan(0.01);
  });

  it('derives coverage intervals with gaps from the files', async () => {
    for (const s of ['a', 'c']) {
      const cov = t(s, 'temporal_coverage');
      expect(await one(`SELECT count(*) FROM (SELECT radar_id FROM ${cov} WHERE coverage_type_id = 1 GROUP BY radar_id, file_type_id HAVING count(*) > 1)`)).toBeGreaterThan(5);
      expect(await one(`SELECT count(DISTINCT coverage_type_id) FROM ${cov}`)).toBe(2);
      // Intervals of one radar, file type and coverage type neither overlap nor touch (file coverage: no gap tolerance).
      expect(await one(`SELECT count(*) FROM (SELECT start_datetime, lag(end_datetime) OVER (PARTITION BY radar_id, file_type_id, coverage_type_id ORDER BY start_datetime) AS prev
        FROM ${cov} WHERE coverage_type_id = 1) WHERE start_datetime <= prev`)).toBe(0);
      // Every file lies inside one file-coverage interval of its radar and type.
      expect(await one(`SELECT count(*) FROM ${t(s, 'files')} f WHERE NOT EXISTS (SELECT 1 FROM ${cov} c WHERE c.coverage_type_id = 1
        AND c.radar_id = f.radar_id AND c.file_type_id = f.file_type_id AND c.start_datetime <= f.file_start_datetime AND c.end_datetime >= f.file_end_datetime)`)).toBe(0);
      expect(await one(`SELECT sum(duration) FROM ${cov} WHERE coverage_type_id = 1`)).toBeGreaterThan(0);
    }
    expect(await one(`SELECT count(*) FROM ${t('c', 'temporal_coverage')} WHERE status_flag <> 0`)).toBeGreaterThan(0);
  });
});

describe('radar demo: determinism', () => {
  it('writes byte-identical Parquet for the same seed and different files for another seed', () => {
    for (const table of RADAR_TABLES) {
      const a = readFileSync(join(dirs.a!, `${table.name}.parquet`));
      expect(a.equals(readFileSync(join(dirs.a2!, `${table.name}.parquet`))), table.name).toBe(true);
    }
    for (const table of ['files', 'transfers', 'transfer_instances', 'temporal_coverage']) {
      expect(readFileSync(join(dirs.a!, `${table}.parquet`)).equals(readFileSync(join(dirs.b!, `${table}.parquet`))), table).toBe(false);
    }
  });
});
