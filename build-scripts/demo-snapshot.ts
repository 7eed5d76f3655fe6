/**
 * npm run demo-snapshot -- --from 2024-01-01 --days 30 --seed 1 --out DIR [--apis radarnet-mirror-v3,timeseries-v1] [--series-factor K]
 *
 * --series-factor K (1 to 100, default 1) makes the timeseries network K times as large: K × 103 stations and
 * K × 276 series (build-scripts/demo/timeseries/network.ts), for national-scale snapshots: `--series-factor 10
 * --days 3650` is about 10^9 observations. --fast-values swaps the timeseries' value models for a cheap one
 * (series.ts fastModelOf: same series, cadences, gaps and nulls; plausible, not realistic values) for scale
 * tests: the full models cost most of the generation's time.
 *
 * Writes a realistic, deterministic demo snapshot: `snapshot.json` and one Parquet file per table.
 * The folder is written beside its final name and renamed at the end, so a failed run leaves nothing half-written.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, resolve, basename } from 'node:path';
import { commandLine, wholeNumber, type CliOption, type CliSpec } from '../lib/cli.ts';
import { API_NAMES, MANIFEST_FILE, SNAPSHOT_FORMAT_VERSION, type ApiName, type SnapshotManifest } from '../core/snapshot/table-schema.ts';
import type { DemoOptions } from './demo/options.ts';
import { generateRadarDemo } from './demo/radar/generate.ts';
import { generateTimeseriesDemo } from './demo/timeseries/generate.ts';
import { MAX_NETWORK_FACTOR } from './demo/timeseries/network.ts';

const generators: Record<ApiName, (o: DemoOptions) => Promise<void>> = {
  'radarnet-mirror-v3': generateRadarDemo,
  'timeseries-v1': generateTimeseriesDemo,
};

export async function writeDemoSnapshot(opts: {
  from: string;
  days: number;
  seed: number;
  out: string;
  apis?: ApiName[];
  seriesFactor?: number;
  fastValues?: boolean;
  log?: (l: string) => void;
}): Promise<SnapshotManifest> {
  const from = new Date(`${opts.from}T00:00:00Z`);
  if (Number.isNaN(from.getTime())) throw new Error(`--from must be a date like 2024-01-01, not '${opts.from}'`);
  if (!Number.isInteger(opts.days) || opts.days < 1 || opts.days > 20000) throw new Error(`--days must be a whole number from 1 to 20000, not '${opts.days}'`);
  if (!Number.isInteger(opts.seed)) throw new Error(`--seed must be a whole number, not '${opts.seed}'`);
  const factor = opts.seriesFactor ?? 1;
  if (!Number.isInteger(factor) || factor < 1 || factor > MAX_NETWORK_FACTOR) throw new Error(`--series-factor must be a whole number from 1 to ${MAX_NETWORK_FACTOR}, not '${opts.seriesFactor}'`);
  const apis = opts.apis ?? [...API_NAMES];
  const out = resolve(opts.out);
  const tmp = resolve(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const takenAt = new Date(from.getTime() + opts.days * 86_400_000);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    for (const api of apis) {
      await generators[api]({ from, days: opts.days, seed: opts.seed, seriesFactor: factor, fastValues: opts.fastValues ?? false, outDir: tmp, takenAt, log });
    }
    const manifest: SnapshotManifest = {
      format_version: SNAPSHOT_FORMAT_VERSION,
      name: `demo-${opts.from}-${opts.days}d-seed${opts.seed}${factor > 1 ? `-x${factor}` : ''}${opts.fastValues ? '-fast' : ''}`,
      taken_at: takenAt.toISOString(),
      apis,
    };
    await writeFile(resolve(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    if (existsSync(out)) await rm(out, { recursive: true, force: true });
    await rename(tmp, out);
    return manifest;
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** `npm run demo-snapshot`'s command line (lib/cli.ts). */
export const DEMO_SNAPSHOT_CLI = {
  command: 'npm run demo-snapshot --',
  usage: '[--from 2024-01-01] [--days 30] [--seed 1] [--out .snapshots/demo] [--apis A,B] [--series-factor K] [--fast-values]',
  summary: `Writes a realistic, deterministic demo snapshot (snapshot.json and one Parquet file per table): the real
SuperDARN radar network's files, transfers and alarms, and a sensor network of 103 stations and 276 series.
The folder is written beside its final name and renamed at the end; the same options give the same bytes.`,
  options: {
    from: { type: 'string', value: 'DATE', default: '2024-01-01', describe: 'the first day (UTC)', check: (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? undefined : 'must be a date like 2024-01-01') },
    days: { type: 'string', value: 'N', default: '30', describe: 'days of data; the snapshot is taken at the end of the last (3,300 days: 10^8 observations)', check: wholeNumber(1, 20000) },
    seed: { type: 'string', value: 'N', default: '1', describe: 'the random seed', check: (v: string) => (/^-?\d+$/.test(v) ? undefined : 'must be a whole number') },
    out: { type: 'string', value: 'DIR', default: '.snapshots/demo', describe: 'the snapshot folder written (replaced when there)' },
    apis: { type: 'string', value: 'LIST', defaultText: API_NAMES.join(','), describe: 'the APIs whose tables are written, comma-separated', check: (v: string) => (v.split(',').every((a) => (API_NAMES as readonly string[]).includes(a.trim())) ? undefined : `must name APIs of ${API_NAMES.join(', ')}`) },
    'series-factor': { type: 'string', value: 'K', default: '1', describe: `a timeseries network K times as large (K x 103 stations, K x 276 series; 1 to ${MAX_NETWORK_FACTOR})`, check: wholeNumber(1, MAX_NETWORK_FACTOR) },
    'fast-values': { type: 'boolean', default: false, describe: 'cheap timeseries values (same series, instants, gaps and nulls), for scale tests' },
  },
  examples: [
    'npm run demo-snapshot -- --from 2024-01-01 --days 30 --seed 1 --out snapshots/demo',
    'npm run demo-snapshot -- --from 2016-01-01 --days 3650 --series-factor 10 --fast-values --apis timeseries-v1 --out snapshots/national   # about 10^9 observations',
  ],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  const { values } = commandLine(DEMO_SNAPSHOT_CLI);
  const apis = values.apis?.split(',').map((a) => a.trim()) as ApiName[] | undefined;
  try {
    const t0 = performance.now();
    const m = await writeDemoSnapshot({ from: values.from, days: Number(values.days), seed: Number(values.seed), out: values.out, seriesFactor: Number(values['series-factor']), fastValues: values['fast-values'], ...(apis ? { apis } : {}) });
    console.error(`demo snapshot ${m.name} written to ${values.out} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.error(`demo-snapshot: ${(e as Error).message}`);
    process.exit(1);
  }
}
