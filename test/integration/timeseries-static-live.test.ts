/**
 * The Timeseries API's static tree and its live endpoint agree to the byte, for every file of the tree; a
 * parameter-free request answers the static file; two builds of one snapshot are identical.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';
import { get, inParallel, startEndpoint, startTreeAndLive, type Served } from '../helpers/servers.ts';

let live: Served;
let fromTree: Served;
let site: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ live, fromTree, site, close } = await startTreeAndLive(inject('tsBuild')));
});
afterAll(() => close());

/** The request a static file answers. */
function requestOf(file: string): string {
  const rel = `/${relative(site, file)}`;
  const expanded = rel.endsWith('.expanded.json');
  let path = rel.slice(0, -(expanded ? '.expanded.json' : '.json').length);
  if (path.endsWith('/index')) path = path.slice(0, -'index'.length);
  return `${path}${expanded ? '?expanded=true' : ''}`;
}

describe('static tree equals live endpoint', () => {
  test('every file of the tree, byte for byte', async () => {
    const files = walkFiles(join(site, 'api', 'v1')).filter((f) => f.endsWith('.json'));
    // index, 8 collections, 513 resources, 276 series' data: two files each
    expect(files.length).toBe(2 * (1 + 8 + 2 + 4 + 7 + 103 + 11 + 7 + 103 + 276 + 276));
    const mismatches: string[] = [];
    await inParallel(files, 8, async (file) => {
      const request = requestOf(file);
      const r = await get(live.url, request);
      if (r.status !== 200 || !r.body.equals(readFileSync(file))) mismatches.push(`${request}: live ${r.status} ${r.text.slice(0, 120)}`);
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
  }, 120_000);

  test('a parameter-free request answers the static file', async () => {
    for (const [path, file] of [
      ['/api/v1/', 'index.json'],
      ['/api/v1/?expanded=true', 'index.expanded.json'],
      ['/api/v1/stations/', 'stations.json'],
      ['/api/v1/timeseries.json?expanded=true', 'timeseries.expanded.json'],
      ['/api/v1/stations/sta_koeln_rhein?expanded=true', 'stations/sta_koeln_rhein.json'],
      ['/api/v1/timeseries/ts_koeln_rhein_water_level/getData?format=tvp', 'timeseries/ts_koeln_rhein_water_level/getData.json'],
      ['/api/v1/timeseries/ts_koeln_rhein_water_level/getData.json?expanded=true&unknown=1', 'timeseries/ts_koeln_rhein_water_level/getData.expanded.json'],
    ]) {
      const r = await get(fromTree.url, path!, { 'Accept-Encoding': 'identity' });
      expect(r.status, path).toBe(200);
      expect(r.body.equals(readFileSync(join(site, 'api/v1', file!))), path).toBe(true);
      expect(r.headers.get('content-length')).toBe(String(r.body.length));
      expect(r.type).toBe('application/json; charset=UTF-8');
    }
  });

  test('two builds of one snapshot give identical trees', async () => {
    const out = runTmp(inject('tsSnapshot'), 'ts-dist-again');
    await build({ snapshot: inject('tsSnapshot'), out, quiet: true });
    const again = join(realpathSync(out), 'site');
    const a = walkFiles(join(site, 'api')).map((f) => relative(site, f)).sort();
    const b = walkFiles(join(again, 'api')).map((f) => relative(again, f)).sort();
    expect(b).toEqual(a);
    const differ = a.filter((f) => !readFileSync(join(site, f)).equals(readFileSync(join(again, f))));
    expect(differ).toEqual([]);
  }, 120_000);

  test('a database-only build answers the same bytes without a tree', async () => {
    const out = runTmp(inject('tsSnapshot'), 'ts-dist-db-only');
    await build({ snapshot: inject('tsSnapshot'), out, quiet: true, dbOnly: true });
    expect(existsSync(join(realpathSync(out), 'site', 'api'))).toBe(false);
    const dbOnly = await startEndpoint(out);
    try {
      for (const file of ['index.json', 'stations.expanded.json', 'timeseries/ts_koeln_rhein_water_level.json', 'timeseries/ts_koeln_rhein_water_level/getData.expanded.json']) {
        const r = await get(dbOnly.url, requestOf(join(site, 'api/v1', file)));
        expect(r.body.equals(readFileSync(join(site, 'api/v1', file))), file).toBe(true);
      }
    } finally {
      await dbOnly.close();
    }
  }, 120_000);
});
