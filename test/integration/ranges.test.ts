/**
 * HTTP Range on the site's files and the downloads (core/http/range.ts), from the endpoint and through nginx with
 * the build's configuration: exact bytes for single, open and suffix ranges, 416 with `Content-Range: bytes * /len`,
 * several ranges answered 200 whole, If-Range with each server's own ETag, identity (never compressed), and no
 * ranges on the APIs' paths.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { nginxConfig } from '../../build-scripts/nginx-config.ts';
import type { DownloadIndex } from '../../build-scripts/downloads.ts';
import { ensureBrotliModule, ensureNginx, rawRequest, startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { runTmp } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

// The demo build, hard-linked into a folder of this test's own with one more file: one over 256 KB, which the
// endpoint streams from disk instead of holding in memory (the demo's downloads are all smaller).
const work = runTmp(inject('demoSnapshot'), 'ranges');
const build = join(work, 'build');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const copied = spawnSync('cp', ['-al', realpathSync(inject('demoBuild')), build], { encoding: 'utf8' });
if (copied.status !== 0) throw new Error(`cp -al failed: ${copied.stderr}`);
const site = join(build, 'site');
const BIG = '/downloads/big-test-file.parquet';
writeFileSync(join(site, BIG), randomBytes(1_000_003));
const installed = ensureNginx();
const nginxBin = 'skip' in installed ? undefined : installed;
if ('skip' in installed) console.warn(`ranges.test.ts: nginx skipped: ${installed.skip}`);
const brotli = nginxBin ? ensureBrotliModule() : { skip: 'no nginx' };
const brotliModule = 'skip' in brotli ? undefined : brotli.path;

let endpoint: Served;
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  endpoint = await startEndpoint(build);
  if (nginxBin) {
    nginx = await startNginx(nginxBin.path, runTmp(inject('demoSnapshot'), 'nginx-ranges'), (listen) =>
      nginxConfig({ site, endpoint: endpoint.url, listen, workers: 1, ...(brotliModule ? { brotliModule } : {}) }),
    );
  }
}, 120_000);
afterAll(async () => {
  await nginx?.stop();
  await endpoint?.close();
  rmSync(work, { recursive: true, force: true });
});

const index = JSON.parse(readFileSync(join(site, 'downloads', 'index.json'), 'utf8')) as DownloadIndex;
const parquet = index.tables.find((t) => t.name === 'transferred')!.files[0]!.path;
/** A big file (streamed from disk), a small one (held in memory), and a compressible text file. */
const FILES = [BIG, parquet, '/downloads/index.json'];

function servers(): [string, string][] {
  return [['endpoint', endpoint.url], ...(nginx ? [['nginx', nginx.url] as [string, string]] : [])];
}

describe.each(FILES)('%s', (path) => {
  const bytes = readFileSync(join(site, path));
  const len = bytes.length;
  test.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, len - 1],
    ['bytes=-200', len - 200, len - 1],
    [`bytes=${len - 10}-${len + 1000}`, len - 10, len - 1],
    [`bytes=-${len + 5}`, 0, len - 1],
    [`bytes=7-7`, 7, 7],
    [`bytes=0-9,${len}-`, 0, 9],
  ])('%s: 206 with exactly those bytes, in identity, from both servers', async (range, start, end) => {
    for (const [name, url] of servers()) {
      const a = await rawRequest(url, path, { headers: { Range: range, 'Accept-Encoding': 'gzip, br, zstd' } });
      expect([name, a.status, a.headers['content-range'], a.headers['content-encoding'], a.headers['content-length']]).toEqual([name, 206, `bytes ${start}-${end}/${len}`, undefined, String(end - start + 1)]);
      expect(a.body.equals(bytes.subarray(start, end + 1)), `${name} ${range}`).toBe(true);
      expect(a.headers['access-control-allow-origin']).toBe('*');
    }
  });

  test('a range past the end: 416 with Content-Range bytes */length', async () => {
    for (const [name, url] of servers()) {
      for (const range of [`bytes=${len}-`, `bytes=${len + 10}-${len + 20}`, 'bytes=-0']) {
        const a = await rawRequest(url, path, { headers: { Range: range } });
        expect([name, range, a.status, a.headers['content-range']]).toEqual([name, range, 416, `bytes */${len}`]);
      }
    }
    const e = await rawRequest(endpoint.url, path, { headers: { Range: `bytes=${len}-` } });
    expect(JSON.parse(e.body.toString('utf8'))).toMatchObject({ statusCode: 416, reason: 'Range Not Satisfiable' });
    expect(e.headers['cache-control']).toBe('no-store');
  });

  test('several ranges: 200 with the whole file, uncompressed, from both servers', async () => {
    for (const [name, url] of servers()) {
      const a = await rawRequest(url, path, { headers: { Range: 'bytes=0-9,20-29', 'Accept-Encoding': 'gzip, br, zstd' } });
      expect([name, a.status, a.headers['content-range'], a.headers['content-encoding']]).toEqual([name, 200, undefined, undefined]);
      expect(a.body.equals(bytes)).toBe(true);
    }
  });

  test("If-Range: the server's current ETag gives the range, any other the whole file; Accept-Ranges: bytes", async () => {
    for (const [name, url] of servers()) {
      const plain = await rawRequest(url, path, { headers: { 'Accept-Encoding': 'identity' } });
      expect([name, plain.status, plain.headers['accept-ranges']]).toEqual([name, 200, 'bytes']);
      const etag = String(plain.headers['etag']);
      const ok = await rawRequest(url, path, { headers: { Range: 'bytes=0-9', 'If-Range': etag } });
      expect([name, ok.status]).toEqual([name, 206]);
      expect(ok.body.equals(bytes.subarray(0, 10))).toBe(true);
      const stale = await rawRequest(url, path, { headers: { Range: 'bytes=0-9', 'If-Range': '"0-0"' } });
      expect([name, stale.status, stale.headers['content-encoding']]).toEqual([name, 200, undefined]);
      expect(stale.body.equals(bytes)).toBe(true);
    }
  });
});

test('a HEAD with a Range header gets the whole file\'s headers', async () => {
  for (const path of [BIG, parquet]) {
    const a = await rawRequest(endpoint.url, path, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect([a.status, a.headers['content-length'], a.headers['accept-ranges']]).toEqual([200, String(readFileSync(join(site, path)).length), 'bytes']);
  }
});

test('the APIs\' paths answer no ranges: the whole answer, as a live query would', async () => {
  for (const [name, url] of servers()) {
    const a = await rawRequest(url, '/radarnet/mirror/v3/radars', { headers: { Range: 'bytes=0-9' } });
    expect([name, a.status, a.headers['content-range'], a.headers['accept-ranges']]).toEqual([name, 200, undefined, undefined]);
    expect(JSON.parse(a.body.toString('utf8'))).toBeInstanceOf(Array);
  }
});

test('a compressed answer of a site file has no Accept-Ranges', async () => {
  const a = await rawRequest(endpoint.url, '/downloads/index.json', { headers: { 'Accept-Encoding': 'gzip' } });
  expect([a.status, a.gzipped, a.headers['accept-ranges']]).toEqual([200, true, undefined]);
  if (nginx) {
    const b = await rawRequest(nginx.url, '/downloads/index.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([b.status, b.gzipped, b.headers['accept-ranges']]).toEqual([200, true, undefined]);
  }
});
