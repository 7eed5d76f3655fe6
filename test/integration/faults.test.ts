/**
 * Faults during builds and serving: a full disk during a build (a small tmpfs) and a build killed half-way
 * each leave the last good build in place and serving, and say what went wrong; an endpoint killed with
 * SIGKILL starts again cleanly on the same port.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { startEndpointProcess } from '../../bench/radar.ts';
import { build } from '../../build-scripts/build.ts';
import { TEST_TMP } from '../helpers/paths.ts';

const dir = join(TEST_TMP, `faults-${process.pid}`);
mkdirSync(dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = join(import.meta.dirname, '..', '..');

function canMount(): boolean {
  const probe = join(dir, 'probe');
  mkdirSync(probe, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk during a build', () => {
  // Mounting needs root (CI and these machines run as root); elsewhere this test cannot run.
  test.skipIf(!canMount())('fails with the reason, leaves the last good build serving and frees its partial output', async () => {
    const disk = join(dir, 'disk');
    mkdirSync(disk, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', disk]);
    try {
      const out = join(disk, 'dist');
      await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
      const good = readlinkSync(out);
      const before = readFileSync(join(out, 'site/api/v1/stations.json'));
      // a second build of the same size (into an empty folder, not over the first's tree) does not fit beside the first
      await expect(build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false, full: true })).rejects.toThrow(/ENOSPC|no space|disk full/i);
      expect(readlinkSync(out)).toBe(good);
      expect(readFileSync(join(out, 'site/api/v1/stations.json')).equals(before)).toBe(true);
      expect(readdirSync(`${out}.builds`).filter((e) => e.endsWith('.partial'))).toEqual([]);
    } finally {
      execFileSync('umount', [disk]);
    }
  }, 180_000);
});

describe('a killed build', () => {
  test('leaves the last good build; the next build succeeds and removes the remains', async () => {
    const out = join(dir, 'killed', 'dist');
    await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
    const good = readlinkSync(out);
    const child = spawn(process.execPath, ['build-scripts/build.ts', '--snapshot', inject('tsSnapshot'), '--out', out, '--quiet'], { cwd: ROOT, stdio: 'ignore' });
    // kill it once its partial folder exists, half-way through
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !readdirSync(`${out}.builds`).some((e) => e.endsWith('.partial'))) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(readlinkSync(out)).toBe(good);
    expect(existsSync(join(out, 'site/api/v1/stations.json'))).toBe(true);
    await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
    expect(readlinkSync(out)).not.toBe(good);
    expect(readdirSync(`${out}.builds`).filter((e) => e.endsWith('.partial'))).toEqual([]);
  }, 180_000);
});

describe('a killed endpoint', () => {
  test('starts again cleanly on the same port', async () => {
    const port = 20000 + (process.pid % 1000);
    const first = await startEndpointProcess(inject('tsBuild'), port);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/stations?locale=de`)).status).toBe(200);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = await startEndpointProcess(inject('tsBuild'), port);
    try {
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/stations?locale=de`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/timeseries/ts_koeln_rhein_water_level/getData?timespan=P1D/2024-01-08TZ`)).status).toBe(200);
    } finally {
      second.kill('SIGTERM');
    }
  }, 60_000);
});
