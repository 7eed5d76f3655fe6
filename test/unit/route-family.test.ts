import { describe, expect, test } from 'vitest';
import { routeFamily } from '../../core/http/route-family.ts';

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
