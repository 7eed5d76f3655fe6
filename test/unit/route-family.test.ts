import { describe, expect, test } from 'vitest';
import { routeFamily } from '../../core/http/route-family.ts';
import { isTimeseriesTarget } from '../../core/timeseries/routes.ts';

describe('route families of the metrics', () => {
  test.each([
    ['/radarnet/mirror/v3', 'radar'],
    ['/radarnet/mirror/v3/files', 'radar'],
    ['/superdarn/mirror/v3/radars/6.csv', 'radar'],
    ['/radarnet/mirror/v30', 'site'],
    ['/api/v1', 'timeseries'],
    ['/api/v1/', 'timeseries'],
    ['/api/v1/timeseries/ts1/getData.zip', 'timeseries'],
    ['/api/v1/timeseries/ts1/getData.png', 'charts'],
    ['/api/v1/timeseries/ts1/lastWeek.png', 'charts'],
    ['/api/v1/timeseries/ts1/getData.pdf', 'charts'],
    ['/api/v10/x', 'site'],
    ['/healthz', 'health'],
    ['/healthz/', 'site'],
    ['/metrics', 'metrics'],
    ['/', 'site'],
    ['/docs/operators/', 'site'],
    ['/no/such/path/at/all', 'site'],
  ])('%s is %s', (path, family) => {
    expect(routeFamily(path)).toBe(family);
  });
});

describe('isTimeseriesTarget: a request target (path and query) under the Timeseries API', () => {
  test.each([
    ['/api/v1', true],
    ['/api/v1/', true],
    ['/api/v1?locale=de', true],
    ['/api/v1/stations?expanded=true', true],
    ['/api/v10', false],
    ['/api/v1x/stations', false],
    ['/api', false],
    ['/radarnet/mirror/v3/radars?x=/api/v1/', false],
    ['', false],
    [undefined, false],
  ] as const)('%s: %s', (target, expected) => {
    expect(isTimeseriesTarget(target)).toBe(expected);
  });
});
