/**
 * "One more day": the demo snapshot of D + 1 days is what a real mirror publishes the day after the
 * D-day snapshot. Compared table by table on the contract's keys:
 * - every row of the D-day snapshot is in the D+1-day one with the same values, except the columns a
 *   real system changes in earlier rows over a day (listed per table in CHANGES, each with its reason
 *   and a check of the direction of the change), and the rows a real system drops (GONE, each checked);
 * - every row the D+1-day snapshot adds happened or arrived after the D-day snapshot's `taken_at`
 *   (NEW: per table, the SQL of the rows that break this).
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { RADAR_TABLES } from '../../core/snapshot/radar-tables.ts';
import { TIMESERIES_TABLES } from '../../core/snapshot/timeseries-tables.ts';
import type { ApiName, TableSpec } from '../../core/snapshot/table-schema.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const ROOT = join(TEST_TMP, `demo-prefix-${process.pid}`);

interface Case {
  name: string;
  from: string;
  days: number;
  seed: number;
  apis: ApiName[];
}

/** The pairs compared; DEMO_PREFIX_CASES (JSON, a list of Case) compares others instead, DEMO_PREFIX_REPORT=1 prints the counts. */
const CASES: Case[] = process.env['DEMO_PREFIX_CASES'] ? (JSON.parse(process.env['DEMO_PREFIX_CASES']) as Case[]) : [
  { name: 'both APIs, 2024', from: '2024-01-01', days: 2, seed: 1, apis: ['radarnet-mirror-v3', 'timeseries-v1'] },
  // the .dat era; the added day is the first of the rawacf era (2006-01-01)
  { name: 'radar, over the switch to rawacf', from: '2005-12-30', days: 2, seed: 3, apis: ['radarnet-mirror-v3'] },
  // Longer, at a cut-off (seed and length chosen for it) with the rare kinds of change: coverage intervals merged
  // by a file that arrived after it, late files of earlier months arriving on the new day, a transfer running at it.
  { name: 'radar, 17 days', from: '2024-08-20', days: 17, seed: 7, apis: ['radarnet-mirror-v3'] },
];

/**
 * The columns whose values may differ between a D-day row and the D+1-day row with the same key, with
 * the SQL that must hold for every such row (`a` the D-day row, `b` the D+1-day one, `T` the D-day
 * snapshot's taken_at as TIMESTAMP).
 */
const CHANGES: Record<string, Record<string, string>> = {
  radars: {
    // the radar's last file end moves on as its files of the new day arrive; a radar whose first day is the new day gets one
    latest_data: '(a.latest_data IS NULL AND b.earliest_data >= T) OR b.latest_data > a.latest_data',
    // a radar whose first day is the new day comes online
    earliest_data: 'a.earliest_data IS NULL AND b.earliest_data >= T',
  },
  files: {
    // a file that arrives again (a repeated transfer, a late re-send flagged `old`) after T updates its record
    last_updated: 'b.last_updated > a.last_updated AND b.last_updated > T',
  },
  temporal_coverage: {
    // an interval grows as files arrive: at its end (new files), at its start (a late or delayed file of just before it),
    // and it is flagged when a blacklisted file joins it
    start_datetime: 'b.start_datetime < a.start_datetime',
    end_datetime: 'b.end_datetime > a.end_datetime',
    duration: 'b.duration > a.duration',
    status_flag: 'a.status_flag = 0 AND b.status_flag = 1',
  },
};

/**
 * D-day rows that may be missing from the D+1-day snapshot, with the SQL that must hold for each (`a` the
 * missing row, `B(table)` the D+1-day table): only coverage intervals, merged into an older (smaller id)
 * interval of the same radar, type and coverage type by a file that arrived after T and filled the gap
 * between them. A real mirror deletes the younger row then.
 */
const GONE: Record<string, string> = {
  temporal_coverage: `EXISTS (SELECT 1 FROM B(temporal_coverage) b WHERE b.radar_id = a.radar_id AND b.file_type_id = a.file_type_id
    AND b.coverage_type_id = a.coverage_type_id AND b.id < a.id AND b.start_datetime <= a.start_datetime AND b.end_datetime >= a.end_datetime)`,
};

/**
 * For each table, SQL counting the D+1-day rows (`b`) the D-day snapshot lacks although they happened or
 * arrived by T (must be 0). `A(table)`/`B(table)` are the two snapshots' tables; `newb` the added rows.
 */
const NEW: Record<string, string> = {
  // a file is new when its first transfer ended after T; its id is above every D-day file id
  files: `SELECT count(*) FROM newb b WHERE b.id <= (SELECT max(id) FROM A(files))
    OR (SELECT min(t.end_datetime) FROM B(transfer_instances) i JOIN B(transfers) t ON t.id = i.transfer_id WHERE i.file_id = b.id) <= T`,
  transfers: 'SELECT count(*) FROM newb b WHERE b.id <= (SELECT max(id) FROM A(transfers)) OR b.end_datetime <= T',
  transfer_logs: 'SELECT count(*) FROM newb b WHERE b.id NOT IN (SELECT id FROM B(transfers) WHERE end_datetime > T)',
  // new arrivals, and alarms raised today on old files
  transfer_instances: 'SELECT count(*) FROM newb b JOIN B(transfers) t ON t.id = b.transfer_id WHERE t.end_datetime <= T',
  // an interval is new when it holds a file that arrived after T; its id is above every D-day interval id
  temporal_coverage: `SELECT count(*) FROM newb b WHERE b.id <= (SELECT max(id) FROM A(temporal_coverage)) OR NOT EXISTS (
    SELECT 1 FROM B(files) f WHERE f.id > (SELECT max(id) FROM A(files)) AND f.radar_id = b.radar_id AND f.file_type_id = b.file_type_id
      AND f.file_start_datetime <= b.end_datetime AND f.file_end_datetime >= b.start_datetime)`,
  observations: 'SELECT count(*) FROM newb b WHERE make_timestamp(b.timestamp * 1000) < T',
  reference_value_observations: 'SELECT count(*) FROM newb b WHERE make_timestamp(b.timestamp * 1000) < T',
};

let instance: DuckDBInstance;
let conn: DuckDBConnection;

async function one(sql: string): Promise<number> {
  const rows = (await conn.runAndReadAll(sql)).getRows();
  return Number(rows[0]![0]);
}

interface TableDiff {
  rows: [number, number];
  gone: number;
  changed: Record<string, number>;
  added: number;
}

/** Compares one table of the two snapshots; returns the counts (the assertions are made here too). */
async function compare(dirA: string, dirB: string, table: TableSpec, taken: string): Promise<TableDiff> {
  const file = (dir: string, t: string): string => `read_parquet('${join(dir, `${t}.parquet`)}')`;
  const sub = (sql: string): string =>
    sql.replace(/\bT\b/g, `TIMESTAMP '${taken}'`).replace(/\bA\((\w+)\)/g, (_, t: string) => file(dirA, t)).replace(/\bB\((\w+)\)/g, (_, t: string) => file(dirB, t));
  const key = table.columns.filter((c) => c.key).map((c) => c.name);
  const rest = table.columns.filter((c) => !c.key).map((c) => c.name);
  const on = key.map((k) => `a."${k}" = b."${k}"`).join(' AND ');
  const a = file(dirA, table.name);
  const b = file(dirB, table.name);
  const where = `${table.name}`;
  const out: TableDiff = { rows: [await one(`SELECT count(*) FROM ${a}`), await one(`SELECT count(*) FROM ${b}`)], gone: 0, changed: {}, added: 0 };

  const goneRows = `SELECT a.* FROM ${a} a ANTI JOIN ${b} b ON ${on}`;
  out.gone = await one(`SELECT count(*) FROM (${goneRows})`);
  if (out.gone > 0) {
    expect(GONE[table.name], `${where}: ${out.gone} D-day rows are missing from the D+1-day snapshot`).toBeDefined();
    expect(await one(`SELECT count(*) FROM (${goneRows}) a WHERE NOT (${sub(GONE[table.name]!)})`), `${where}: missing rows not explained`).toBe(0);
  }
  for (const c of rest) {
    const n = await one(`SELECT count(*) FROM ${a} a JOIN ${b} b ON ${on} WHERE a."${c}" IS DISTINCT FROM b."${c}"`);
    if (n === 0) continue;
    out.changed[c] = n;
    const rule = CHANGES[table.name]?.[c];
    expect(rule, `${where}.${c}: ${n} D-day rows have another value the next day`).toBeDefined();
    const bad = await one(`SELECT count(*) FROM ${a} a JOIN ${b} b ON ${on} WHERE a."${c}" IS DISTINCT FROM b."${c}" AND NOT coalesce(${sub(rule!)}, false)`);
    expect(bad, `${where}.${c}: changes not of the expected kind (${rule})`).toBe(0);
  }
  const newRows = `SELECT b.* FROM ${b} b ANTI JOIN ${a} a ON ${on}`;
  out.added = await one(`SELECT count(*) FROM (${newRows})`);
  if (NEW[table.name]) {
    const sql = sub(NEW[table.name]!).replace(/\bnewb\b/g, `(${newRows})`);
    expect(await one(sql), `${where}: added rows that happened or arrived by the D-day snapshot's taken_at`).toBe(0);
  } else {
    expect(out.added, `${where}: rows added by one more day`).toBe(0);
  }
  return out;
}

const dirs = new Map<string, [string, string]>();

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  for (const c of CASES) {
    const pair: [string, string] = [join(ROOT, `${c.from}-${c.days}`), join(ROOT, `${c.from}-${c.days + 1}`)];
    for (const [i, out] of pair.entries()) await writeDemoSnapshot({ from: c.from, days: c.days + i, seed: c.seed, out, apis: c.apis, log: () => {} });
    dirs.set(c.name, pair);
  }
  instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await instance.connect();
}, 600_000);

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
  rmSync(ROOT, { recursive: true, force: true });
});

describe('demo snapshots: one more day is the same snapshot plus a day', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const [dirA, dirB] = dirs.get(c.name)!;
      const taken = new Date(Date.parse(`${c.from}T00:00:00Z`) + c.days * 86_400_000).toISOString().replace('T', ' ').replace('Z', '');
      const tables = [...(c.apis.includes('radarnet-mirror-v3') ? RADAR_TABLES : []), ...(c.apis.includes('timeseries-v1') ? TIMESERIES_TABLES : [])];
      const report: Record<string, TableDiff> = {};
      for (const t of tables) report[t.name] = await compare(dirA, dirB, t, taken);
      if (process.env['DEMO_PREFIX_REPORT']) console.log(c.name, JSON.stringify(report, null, 1));
      // The day adds rows to the growing tables, and the D-day snapshot's rows are the same rows.
      for (const t of ['files', 'transfers', 'transfer_instances', 'temporal_coverage', ...(c.apis.includes('timeseries-v1') ? ['observations'] : [])]) {
        expect(report[t]!.added, `${t} grows`).toBeGreaterThan(0);
      }
      expect(report.files!.changed.last_updated ?? 0, 'few files change').toBeLessThan(0.05 * report.files!.rows[0]);
    });
  }

  it.skipIf(!CASES.some((c) => c.name === 'radar, 17 days'))('holds the rare kinds of change in the longer case', async () => {
    const [dirA, dirB] = dirs.get('radar, 17 days')!;
    const f = (dir: string, t: string): string => `read_parquet('${join(dir, `${t}.parquet`)}')`;
    const T = "TIMESTAMP '2024-09-06'";
    // files months older than the range that arrived on the new day (flagged `old`), with ids above every D-day file
    expect(await one(`SELECT count(*) FROM ${f(dirB, 'files')} f JOIN ${f(dirB, 'transfer_instances')} i ON i.file_id = f.id
      WHERE f.id > (SELECT max(id) FROM ${f(dirA, 'files')}) AND f.file_start_datetime < TIMESTAMP '2024-08-20' AND i.status_id = 2`)).toBeGreaterThan(0);
    // a transfer running at the cut-off: not in the D-day snapshot, recorded when it ended
    expect(await one(`SELECT count(*) FROM ${f(dirB, 'transfers')} WHERE start_datetime < ${T} AND end_datetime > ${T}`)).toBeGreaterThan(0);
    // coverage intervals merged into an older one by a file that arrived after the cut-off
    expect(await one(`SELECT count(*) FROM ${f(dirA, 'temporal_coverage')} WHERE id NOT IN (SELECT id FROM ${f(dirB, 'temporal_coverage')})`)).toBeGreaterThan(0);
  });
});
