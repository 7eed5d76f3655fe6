/**
 * npm run partition-snapshot -- --snapshot IN --out OUT [--by year,radar]
 *
 * Writes a copy of a radar snapshot whose big tables (files, transfers, transfer_instances, temporal_coverage)
 * are hive-partitioned folders, `files/year=1995/radar=gbr/data_0.parquet`, and copies everything else as it is.
 * The partition keys come from the rows: `year` of the record's start (a transfer instance: its file's start),
 * `radar` the code of the record's radar (a transfer: its log's radar; an instance: its file's). They are not
 * columns of the tables' descriptions, so validation and the build drop them (docs/snapshot-format.md). The
 * input may itself be partitioned: its partition keys are dropped the same way.
 */
import { cp, mkdir, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { commandLine, type CliOption, type CliSpec } from '../../lib/cli.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { hiveKeysIn } from '../../lib/hive.ts';
import { tableReadSql, tableSource } from './files.ts';
import type { TableSource } from './sql.ts';
import { ident } from './sql.ts';

export const PARTITION_KEYS = ['year', 'radar'] as const;
export type PartitionKey = (typeof PARTITION_KEYS)[number];

/** How a big table's rows get their partition keys; `t(name)` reads a table of the input. */
interface Partitioning {
  /** The table under its alias, joined to what gives its keys. */
  from: string;
  alias: string;
  /** The record's start (a timestamp) and its radar's code, as SQL. */
  start: string;
  radar: string;
}

const BIG_TABLES: Record<string, (t: (name: string) => string) => Partitioning> = {
  files: (t) => ({
    from: `${t('files')} f LEFT JOIN ${t('radars')} r ON r.id = f.radar_id`,
    alias: 'f',
    start: 'f.file_start_datetime',
    radar: 'r.radar_code',
  }),
  transfers: (t) => ({
    from: `${t('transfers')} t LEFT JOIN ${t('transfer_logs')} l ON l.id = t.transfer_log_id LEFT JOIN ${t('radars')} r ON r.id = l.radar_id`,
    alias: 't',
    start: 't.start_datetime',
    radar: 'r.radar_code',
  }),
  transfer_instances: (t) => ({
    from: `${t('transfer_instances')} i LEFT JOIN ${t('files')} f ON f.id = i.file_id LEFT JOIN ${t('radars')} r ON r.id = f.radar_id`,
    alias: 'i',
    start: 'f.file_start_datetime',
    radar: 'r.radar_code',
  }),
  temporal_coverage: (t) => ({
    from: `${t('temporal_coverage')} c LEFT JOIN ${t('radars')} r ON r.id = c.radar_id`,
    alias: 'c',
    start: 'c.start_datetime',
    radar: 'r.radar_code',
  }),
};

/** The input tables the partitioning reads. */
const READ = ['files', 'radars', 'transfers', 'transfer_logs', 'transfer_instances', 'temporal_coverage'];

export interface PartitionOptions {
  snapshot: string;
  out: string;
  /** The partition keys, outermost folder first (default year, radar). */
  by?: PartitionKey[];
  log?: (line: string) => void;
}

/** Where a table of the input is: `<name>.parquet` or a folder `<name>/`. */
async function tablePath(dir: string, name: string): Promise<string> {
  const folder = join(dir, name);
  const isFolder = await stat(folder).then((s) => s.isDirectory(), () => false);
  return isFolder ? folder : join(dir, `${name}.parquet`);
}

/** `alias.* EXCLUDE (...)`: a table's own columns, without the partition keys of a partitioned input. */
function ownColumns(table: TableSource, alias: string): string {
  const keys = table.partitioned ? [...new Set(table.files.flatMap(hiveKeysIn))] : [];
  return keys.length === 0 ? `${alias}.*` : `${alias}.* EXCLUDE (${keys.map(ident).join(', ')})`;
}

/** Writes the partitioned copy; returns the rows written per big table. */
export async function partitionSnapshot(opts: PartitionOptions, conn?: DuckDBConnection): Promise<Record<string, number>> {
  const by = opts.by ?? [...PARTITION_KEYS];
  const inDir = resolve(opts.snapshot);
  const outDir = resolve(opts.out);
  if (await stat(outDir).then(() => true, () => false)) throw new Error(`${outDir} exists; choose a new folder`);
  const instance = conn ? undefined : await openDuckDB();
  const c = conn ?? (await instance!.connect());
  const written: Record<string, number> = {};
  try {
    await mkdir(outDir, { recursive: true });
    const big = new Set(Object.keys(BIG_TABLES).flatMap((t) => [t, `${t}.parquet`]));
    for (const entry of await readdir(inDir)) {
      if (!big.has(entry)) await cp(join(inDir, entry), join(outDir, entry), { recursive: true });
    }
    const sources = new Map<string, TableSource>();
    for (const name of READ) sources.set(name, tableSource(await tablePath(inDir, name)));
    const t = (name: string) => tableReadSql(sources.get(name)!);
    for (const [table, partitioning] of Object.entries(BIG_TABLES)) {
      const how = partitioning(t);
      const keys = { year: `year(CAST(${how.start} AS TIMESTAMP)) AS year`, radar: `${how.radar} AS radar` };
      const select = `SELECT ${ownColumns(sources.get(table)!, how.alias)}, ${by.map((k) => keys[k]).join(', ')} FROM ${how.from}`;
      const [row] = await all(c, `COPY (${select}) TO ${sqlString(join(outDir, table))} (FORMAT parquet, PARTITION_BY (${by.join(', ')}))`);
      written[table] = Number(row?.['Count'] ?? 0);
      opts.log?.(`${table}: ${written[table]} rows -> ${table}/${by.map((k) => `${k}=...`).join('/')}/`);
    }
    return written;
  } finally {
    if (instance) {
      c.closeSync();
      instance.closeSync();
    }
  }
}

/** `npm run partition-snapshot`'s command line (lib/cli.ts). */
export const PARTITION_CLI = {
  command: 'npm run partition-snapshot --',
  usage: `--snapshot IN --out OUT [--by ${PARTITION_KEYS.join(',')}]`,
  summary: `Writes a copy of a radar snapshot whose big tables (files, transfers, transfer_instances, temporal_coverage) are
hive-partitioned folders (files/year=1995/radar=gbr/data_0.parquet), everything else copied as it is.`,
  options: {
    snapshot: { type: 'string', value: 'IN', required: true, describe: 'the snapshot to partition (itself partitioned or not)' },
    out: { type: 'string', value: 'OUT', required: true, describe: 'the partitioned snapshot written' },
    by: {
      type: 'string',
      value: 'KEYS',
      default: PARTITION_KEYS.join(','),
      describe: `the partition keys in order, comma-separated (${PARTITION_KEYS.join(', ')}, each once)`,
      check: (v: string) => {
        const by = v.split(',').map((k) => k.trim());
        return by.every((k) => (PARTITION_KEYS as readonly string[]).includes(k)) && new Set(by).size === by.length ? undefined : `must be keys of ${PARTITION_KEYS.join(', ')}, each once`;
      },
    },
  },
  examples: ['npm run partition-snapshot -- --snapshot snapshots/demo --out snapshots/demo-partitioned', 'npm run partition-snapshot -- --snapshot snapshots/demo --out snapshots/by-radar --by radar'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  const { values } = commandLine(PARTITION_CLI);
  const by = values.by.split(',').map((k) => k.trim());
  try {
    await partitionSnapshot({ snapshot: values.snapshot, out: values.out, by: by as PartitionKey[], log: (line) => console.error(line) });
  } catch (e) {
    console.error(`partition-snapshot failed: ${(e as Error).message}`);
    process.exit(1);
  }
}
