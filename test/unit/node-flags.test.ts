import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ENDPOINT_NODE_FLAGS } from '../../server/node-flags.ts';

test('npm start and npm run serve run the endpoint with its V8 flags', () => {
  const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['start', 'serve']) expect(scripts[name]).toContain(`node ${ENDPOINT_NODE_FLAGS.join(' ')} `);
});
