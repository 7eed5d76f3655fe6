import { describe, expect, test } from 'vitest';
import { matchRadarRoute, RADAR_ROUTES, INDEX_PATHS, indexDocument, RADAR_PREFIX } from '../../core/radar/routes.ts';
import { routeVariants, staticFile, variantFor } from '../../core/radar/static-tree.ts';
import { recordQuery, NO_SELECTION } from '../../core/radar/queries.ts';

describe('route table', () => {
  test('every path of the spec is there', () => {
    const paths = new Set(RADAR_ROUTES.map((r) => r.path));
    const spec = [
      '/', '/files', '/files/:id', '/files/blacklisted', '/files/blacklisted/:id', '/transferred/files', '/transferred/files/:id',
      '/transferred/files/ok', '/transferred/files/ok/:id',
      ...['blacklisted', 'old', 'small', 'compression/failure', 'compression/exception', 'notregular', 'nomatch', 'alarm'].flatMap((c) => [`/transferred/files/${c}`, `/transferred/files/${c}/:id`]),
      '/transfers', '/transfers/:id', '/transfers/ok', '/transfers/ok/:id', '/transfers/alarm', '/transfers/alarm/:id', '/radars', '/radars/:id',
      '/coverage/temporal', '/coverage/temporal/:id',
      ...['institutes', 'countries', 'file/types', 'coverage/temporal/types', 'file/status', 'transferred/file/status', 'radar/status', 'transfer/logs', 'transfer/methods'].flatMap((m) => [`/metadata/${m}`, `/metadata/${m}/:id`]),
    ];
    expect([...paths].sort()).toEqual([...new Set(spec)].sort());
    expect(RADAR_ROUTES.length).toBe(paths.size);
  });

  test.each([
    ['/', '/', undefined],
    ['/files', '/files', undefined],
    ['/files/12', '/files/:id', '12'],
    ['/files/blacklisted', '/files/blacklisted', undefined],
    ['/files/blacklisted/3', '/files/blacklisted/:id', '3'],
    ['/transferred/files/compression/failure/9', '/transferred/files/compression/failure/:id', '9'],
    ['/transferred/files/compression', '/transferred/files/:id', 'compression'],
    ['/metadata/coverage/temporal/types/1', '/metadata/coverage/temporal/types/:id', '1'],
  ])('%s matches %s', (path, pattern, id) => {
    const m = matchRadarRoute(path)!;
    expect(m.route.path).toBe(pattern);
    expect(m.id).toBe(id);
  });

  test.each(['/nothing', '/files/1/2', '/files/', '', '/metadata'])('%s matches nothing', (path) => {
    expect(matchRadarRoute(path)).toBeUndefined();
  });

  test('the index lists every route with the prefix, / included', () => {
    const doc = indexDocument();
    expect(doc.api_routes).toContainEqual({ method: 'GET', path: `${RADAR_PREFIX}/` });
    expect(doc.api_routes).toContainEqual({ method: 'GET', path: `${RADAR_PREFIX}/transferred/files/small/:id` });
    expect(doc.api_routes.length).toBe(INDEX_PATHS.length);
    expect(doc.api_routes).toContainEqual({ method: 'GET', path: `${RADAR_PREFIX}/changes` });
  });
});

describe('static tree names', () => {
  test.each([
    ['/radarnet/mirror/v3/', 'json', false, 'radarnet/mirror/v3/index.json'],
    ['/radarnet/mirror/v3/files', 'json', false, 'radarnet/mirror/v3/files.json'],
    ['/radarnet/mirror/v3/files', 'json', true, 'radarnet/mirror/v3/files.expanded.json'],
    ['/radarnet/mirror/v3/files/7', 'csv', true, 'radarnet/mirror/v3/files/7.expanded.csv'],
    ['/radarnet/mirror/v3/files/7', 'checksum', true, 'radarnet/mirror/v3/files/7.sha1'],
    ['/radarnet/mirror/v3/files', 'html', true, 'radarnet/mirror/v3/files.html'],
  ] as const)('%s %s expanded=%s is %s', (path, format, expanded, file) => {
    expect(staticFile(path, variantFor(format, expanded))).toBe(file);
  });

  test('id paths have no HTML file; resources without checksums no .sha1', () => {
    const files = RADAR_ROUTES.find((r) => r.path === '/files/:id')!;
    expect(routeVariants(files).map((v) => v.suffix)).toEqual(['.json', '.expanded.json', '.csv', '.expanded.csv', '.sha1']);
    const coverage = RADAR_ROUTES.find((r) => r.path === '/coverage/temporal')!;
    expect(routeVariants(coverage).map((v) => v.suffix)).toEqual(['.json', '.expanded.json', '.csv', '.expanded.csv', '.html']);
  });
});

describe('record queries bind every value', () => {
  test('filters become named parameters, never SQL text', () => {
    const route = RADAR_ROUTES.find((r) => r.path === '/transferred/files/small')!;
    const evil = "x'); DROP TABLE files_x; --";
    const q = recordQuery(
      { route, format: 'csv', expanded: true, selection: { ...NO_SELECTION, radarCode: evil, delimiter: ';', distinct: true, timespan: { start: 0, end: 86_400_000 } } },
      { maxDurationMs: { transferred: 7_200_000 } },
    );
    expect(q.sql).not.toContain(evil);
    expect(q.params).toMatchObject({ radar_code: evil, delimiter: ';', ts_start: '1970-01-01 00:00:00.000', ts_end: '1970-01-02 00:00:00.000', ts_start_bound: '1969-12-31 22:00:00.000' });
    expect(q.sql).toContain("transferred_file_status = 'small'");
    expect(q.sql).toContain('AND latest_of_status');
    expect(q.sql).not.toContain('ORDER BY');
  });
});
