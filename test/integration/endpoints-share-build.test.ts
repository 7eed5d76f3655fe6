/**
 * Several endpoints, no shared state: two endpoint processes serve one build folder at the same time (each
 * opens the databases read-only), answer the same bytes, and agree on ETags (a hash of build.json and the
 * folder's name), so a load balancer may send any request to either. Over a built tree and over a partitioned
 * build (docs/scale-out.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { partitionedDemoBuild } from '../helpers/partitioned.ts';
import { get, inParallel } from '../helpers/servers.ts';

const ROOT = join(import.meta.dirname, '../..');
const P = RADAR_PREFIX;
const DAY = 'timespan=2024-03-01T00:00:00Z/2024-03-01T23:59:59Z';
const PATHS = [
  `${P}/`,
  `${P}/files`,
  `${P}/files?${DAY}`,
  `${P}/files?${DAY}&contentType=csv&expanded=true`,
  `${P}/transferred/files?distinct=true&${DAY}`,
  `${P}/transfers?${DAY}&contentType=checksumReport`,
  `${P}/coverage/temporal?bbox=-180,0,180,90`,
  `${P}/radars?expanded=true`,
  `${P}/files/12`,
  `${P}/transferred/files/12`,
  `${P}/files/999999999`,
];

interface Endpoint {
  child: ChildProcess;
  url: string;
}

/** `node server/main.ts --build BUILD --port 0` in a process of its own, once it says where it listens. */
function startProcess(buildLink: string): Promise<Endpoint> {
  const child = spawn(process.execPath, ['server/main.ts', '--build', buildLink, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      said += text;
      const m = / on (http:\/\/\S+)/.exec(said);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`endpoint exited with ${code}: ${said}`)));
  });
}

function stop(e: Endpoint | undefined): Promise<void> {
  if (!e || e.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    e.child.once('exit', () => resolve());
    e.child.kill('SIGTERM');
  });
}

let partitioned: string;

beforeAll(async () => {
  partitioned = await partitionedDemoBuild(inject('demoSnapshot'), 'shared');
}, 300_000);

describe.each([
  ['a build with its tree', () => inject('demoBuild')],
  ['a partitioned build', () => partitioned],
])('two endpoint processes over %s', (_what, buildOf) => {
  let a: Endpoint | undefined;
  let b: Endpoint | undefined;

  beforeAll(async () => {
    [a, b] = await Promise.all([startProcess(buildOf()), startProcess(buildOf())]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  test('answer the same bytes with the same ETags', async () => {
    expect(a!.child.pid).not.toBe(b!.child.pid);
    for (const path of PATHS) {
      const [x, y] = await Promise.all([get(a!.url, path), get(b!.url, path)]);
      expect(y.status, path).toBe(x.status);
      expect(y.text, path).toBe(x.text);
      expect(y.headers.get('etag'), path).toBe(x.headers.get('etag'));
      if (x.status === 200) {
        expect(x.headers.get('etag'), path).toMatch(/^"[\w-]+"$/);
        // A client that got its copy from one endpoint revalidates it at the other.
        const again = await get(b!.url, path, { 'If-None-Match': x.headers.get('etag')! });
        expect(again.status, path).toBe(304);
      }
    }
  });

  test('answer at the same time', async () => {
    const expected = new Map<string, string>();
    for (const path of PATHS) expected.set(path, (await get(a!.url, path)).text);
    const requests = Array.from({ length: 60 }, (_, i) => ({ base: i % 2 === 0 ? a!.url : b!.url, path: PATHS[i % PATHS.length]! }));
    await inParallel(requests, 8, async ({ base, path }) => {
      expect((await get(base, path)).text, `${base}${path}`).toBe(expected.get(path));
    });
  });
});
