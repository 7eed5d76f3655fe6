import { describe, expect, test } from 'vitest';
import { attachment as contentDisposition } from '../../core/http/download.ts';
import { downloadName, instantName } from '../../core/radar/download-name.ts';
import { RADAR_ROUTES, BAS_PREFIX, RADAR_PREFIX, radarPrefixOf } from '../../core/radar/routes.ts';
import { holdsPrefix, routeVariants, staticFile, treeFileRequest, variantFor } from '../../core/radar/static-tree.ts';
import { RADAR } from '../../core/nginx/static-rules.ts';

const ms = (iso: string) => Date.parse(iso);

describe('download names', () => {
  test.each([
    ['/files', variantFor('csv', false), {}, 'files.csv'],
    ['/files', variantFor('csv', true), {}, 'files.expanded.csv'],
    ['/files', variantFor('checksum', true), {}, 'files.sha1'],
    ['/files', variantFor('json', false), {}, undefined],
    ['/radars', variantFor('html', false), {}, undefined],
    ['/files/12', variantFor('csv', false), {}, 'files-12.csv'],
    ['/transferred/files/compression/failure', variantFor('checksum', false), {}, 'transferred-files-compression-failure.sha1'],
    ['/files', variantFor('csv', false), { radarCode: 'sas', timespan: { start: ms('2016-03-01'), end: ms('2016-04-01') } }, 'files-sas-2016-03-01_2016-04-01.csv'],
    ['/radars', variantFor('csv', true), { bbox: { minX: -180, minY: -90, maxX: 180, maxY: 0.5 } }, 'radars-bbox_-180_-90_180_0.5.expanded.csv'],
    ['/transferred/files/alarm', variantFor('checksum', false), { distinct: true }, 'transferred-files-alarm-distinct.sha1'],
  ] as const)('%s %j %j: %s', (path, variant, selection, name) => {
    expect(downloadName(path, variant, selection)).toBe(name);
  });

  test.each([
    ['2016-03-01T00:00:00.000Z', '2016-03-01'],
    ['2016-03-01T12:30:00.000Z', '2016-03-01T1230Z'],
    ['2016-03-01T12:30:05.000Z', '2016-03-01T123005Z'],
    ['2016-03-01T12:30:05.250Z', '2016-03-01T123005.250Z'],
    ['2016-03-01T00:00:00.001Z', '2016-03-01T000000.001Z'],
  ])('instant %s is %s', (iso, name) => {
    expect(instantName(ms(iso))).toBe(name);
  });

  test('every tree file that is a download is named as nginx names it: its path after the prefix, / as -', () => {
    const rules = RADAR.downloadRules().map(([re, header]) => [new RegExp(re), header] as const);
    let downloads = 0;
    for (const route of RADAR_ROUTES) {
      const path = route.path.replace(':id', '42');
      for (const v of routeVariants(route)) {
        const file = `/${staticFile(`${RADAR_PREFIX}${path}`, v)}`;
        const rule = rules.find(([re]) => re.test(file));
        const byNginx = rule ? file.replace(rule[0], rule[1]) : undefined;
        const name = downloadName(path, v);
        expect(byNginx, file).toBe(name === undefined ? undefined : contentDisposition(name));
        const named = treeFileRequest(file.slice(RADAR_PREFIX.length))!;
        expect(downloadName(named.path, named.variant), file).toBe(name);
        if (name) downloads++;
      }
    }
    expect(downloads).toBeGreaterThan(100);
  });
});

describe('prefixes and tree files', () => {
  test.each([
    ['/radarnet/mirror/v3', RADAR_PREFIX],
    ['/radarnet/mirror/v3/files', RADAR_PREFIX],
    ['/superdarn/mirror/v3', BAS_PREFIX],
    ['/superdarn/mirror/v3/', BAS_PREFIX],
    ['/superdarn/mirror/v3x', undefined],
    ['/superdarn/mirror', undefined],
    ['/api/v1/', undefined],
  ])('%s is under %s', (path, prefix) => {
    expect(radarPrefixOf(path)).toBe(prefix);
  });

  test.each([
    ['/index.json', '/', 'json', true],
    ['/index.html', '/', 'html', true],
    ['/files.html', '/files', 'html', true],
    ['/files.sha1', '/files', 'checksum', false],
    ['/radars/6.expanded.csv', '/radars/6', 'csv', false],
    ['/coverage/temporal.expanded.json', '/coverage/temporal', 'json', false],
  ])('%s answers %s as %s; holds the prefix: %s', (rest, path, format, holds) => {
    const r = treeFileRequest(rest)!;
    expect([r.path, r.variant.format]).toEqual([path, format]);
    expect(holdsPrefix(r)).toBe(holds);
  });

  test('a name without a variant suffix is no tree file', () => {
    expect(treeFileRequest('/files')).toBeUndefined();
    expect(treeFileRequest('/.json')).toBeUndefined();
  });
});
