/**
 * Builds are atomic: a snapshot that fails validation, or a build that fails, leaves the last good tree
 * (and the link to it) untouched and exits non-zero with a message naming what is wrong.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, readlinkSync, rmSync, truncateSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { runTmp } from '../helpers/paths.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
let out = '';

async function buildCli(snapshot: string): Promise<{ code: number; stderr: string }> {
  try {
    const r = await run(process.execPath, ['build-scripts/build.ts', '--snapshot', snapshot, '--out', out], { cwd: ROOT });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

describe('atomic builds', () => {
  let good: string;
  let goodIndex: Buffer;

  beforeAll(async () => {
    out = runTmp(inject('demoSnapshot'), 'atomic-dist');
    rmSync(out, { force: true });
    rmSync(`${out}.builds`, { recursive: true, force: true });
    const r = await buildCli(inject('demoSnapshot'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/built demo-.*files\/s/);
    good = readlinkSync(out);
    goodIndex = readFileSync(join(out, 'site/radarnet/mirror/v3/files.json'));
  }, 300_000);

  const broken: [string, (dir: string) => void, RegExp][] = [
    ['a truncated Parquet file', (d) => truncateSync(join(d, 'files.parquet'), Math.floor(statSync(join(d, 'files.parquet')).size / 2)), /files\.parquet/],
    ['a missing table', (d) => rmSync(join(d, 'transfers.parquet')), /transfers\.parquet/],
    ['a manifest that is not JSON', (d) => writeFileSync(join(d, 'snapshot.json'), '{"name": '), /snapshot\.json/],
  ];

  test.each(broken)('%s: exit 1, message names the file, last good tree still served', async (_what, breakIt, message) => {
    const copy = runTmp(inject('demoSnapshot'), 'broken-snapshot');
    rmSync(copy, { recursive: true, force: true });
    cpSync(inject('demoSnapshot'), copy, { recursive: true });
    breakIt(copy);
    const r = await buildCli(copy);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('the last good build is untouched');
    expect(readlinkSync(out)).toBe(good);
    expect(readFileSync(join(out, 'site/radarnet/mirror/v3/files.json')).equals(goodIndex)).toBe(true);
    expect(existsSync(`${out}.builds`)).toBe(true);
  }, 120_000);

  test('two builds of one snapshot give identical trees', async () => {
    const r = await buildCli(inject('demoSnapshot'));
    expect(r.code, r.stderr).toBe(0);
    const second = readlinkSync(out);
    expect(second).not.toBe(good);
    const a = await run('diff', ['-r', '-q', join(out, '..', good, 'site'), join(out, '..', second, 'site')]);
    expect(a.stdout).toBe('');
  }, 300_000);
});
