import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { endpointScript } from '../../server/node-flags.ts';

test('npm start and npm run serve run the endpoint with its V8 flags and compile cache', () => {
  const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['start']).toBe(endpointScript('build-scripts/start.ts'));
  expect(scripts['serve']).toBe(endpointScript('server/main.ts'));
  expect(endpointScript('server/main.ts')).toBe('NODE_COMPILE_CACHE=.cache/node-compile DUCKDB_JE_MALLOC_CONF=narenas:1 node --max-semi-space-size=16 --max-old-space-size=1024 --expose-gc server/main.ts');
});
