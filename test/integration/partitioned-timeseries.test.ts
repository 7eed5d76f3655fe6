/**
 * `build --partitioned` for the Timeseries API (lib/series-parquet.ts): the observations as hive-partitioned
 * Parquet by series group and year, no series file; the endpoint answers from those files exactly as over a
 * database-only build's series file: getData over spans within a year and across the new year, flot with the
 * values before and after the span (looked up in other years' files), generalized, POST of several series, and
 * the first and last values. The demo runs from 2023-12-27 to 2024-01-04, across a year boundary.
 */
import { existsSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { GROUP_SERIES } from '../../lib/series-parquet.ts';
import { runTmp } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

let work = '';
let plain: Served;
let parts: Served;
let ids: string[] = [];

beforeAll(async () => {
  work = runTmp(inject('tsSnapshot'), 'partitioned-ts');
  rmSync(work, { recursive: true, force: true });
  const snapshot = join(work, 'snapshot');
  await writeDemoSnapshot({ from: '2023-12-27', days: 8, seed: 11, out: snapshot, apis: ['timeseries-v1'], fastValues: true, log: () => {} });
  await build({ snapshot, out: join(work, 'db-only'), quiet: true, dbOnly: true, history: false });
  await build({ snapshot, out: join(work, 'partitioned'), quiet: true, partitioned: true, history: false });
  [plain, parts] = await Promise.all([startEndpoint(join(work, 'db-only'), { watchMs: 0 }), startEndpoint(join(work, 'partitioned'), { watchMs: 0 })]);
  const list = (await (await fetch(`${plain.url}/api/v1/timeseries`)).json()) as { id: string }[];
  ids = list.map((t) => t.id).sort();
}, 600_000);

afterAll(async () => {
  await Promise.all([plain?.close(), parts?.close()]);
});

test('the partitioned build holds Parquet by group and year, and no series file', () => {
  const data = join(realpathSync(join(work, 'partitioned')), 'data');
  expect(existsSync(join(data, 'observations-v1.pairs'))).toBe(false);
  const groups = readdirSync(join(data, 'observations')).sort();
  expect(groups).toEqual(Array.from({ length: Math.ceil(ids.length / GROUP_SERIES) }, (_, g) => `group=${g}`).sort());
  expect(readdirSync(join(data, 'observations', 'group=0')).sort()).toEqual(['year=2023', 'year=2024']);
});

test('the endpoint answers from the Parquet files as from the series file', async () => {
  const pick = [ids[0]!, ids[1]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!, ids[GROUP_SERIES] ?? ids[5]!];
  const spans = [
    '2023-12-27T00:00:00Z/2024-01-04T00:00:00Z',
    '2023-12-31T18:00:00Z/2024-01-01T06:00:00Z',
    '2023-12-28T03:00:00Z/2023-12-29T00:00:00Z',
    '2024-01-02T00:00:00Z/2024-01-03T12:00:00Z',
    // before the first and after the last observation: the values outside come from the other year
    '2023-01-01T00:00:00Z/2023-12-26T00:00:00Z',
    '2024-01-05T00:00:00Z/2024-02-01T00:00:00Z',
    '2023-12-31T23:55:00Z/2023-12-31T23:59:59Z',
  ];
  const paths: { path: string; init?: RequestInit }[] = [{ path: '/api/v1/timeseries?expanded=true' }];
  for (const id of pick) {
    paths.push({ path: `/api/v1/timeseries/${id}?expanded=true` });
    for (const span of spans) {
      paths.push(
        { path: `/api/v1/timeseries/${id}/getData?timespan=${span}` },
        { path: `/api/v1/timeseries/${id}/getData?timespan=${span}&format=flot&expanded=true` },
        { path: `/api/v1/timeseries/${id}/getData?timespan=${span}&generalize=true` },
      );
    }
    paths.push({ path: `/api/v1/timeseries/${id}/getData` });
  }
  paths.push({ path: '/api/v1/timeseries/getData', init: { method: 'POST', body: JSON.stringify({ timeseries: pick, timespan: spans[1], format: 'flot', expanded: true }) } });
  let withValues = 0;
  for (const { path, init } of paths) {
    const get = async (base: string) => {
      const res = await fetch(`${base}${path}`, { headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, ...init });
      return `${res.status} ${await res.text()}`;
    };
    const [a, b] = await Promise.all([get(plain.url), get(parts.url)]);
    expect(b, path).toBe(a);
    expect(a.slice(0, 3), path).toBe('200');
    if (/"values":\[\[|"values":\[\{|"valueBeforeTimespan"|"valueAfterTimespan"/.test(a)) withValues++;
  }
  expect(withValues).toBeGreaterThan(40);
}, 120_000);
