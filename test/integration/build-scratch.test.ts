/**
 * A build's and a validation's scratch folders (`<tmp>/snapcat-build-<pid>-…`, where DuckDB spills;
 * lib/scratch.ts) do not outlive them: a failed build leaves none, a build stopped by SIGTERM
 * leaves none, and one killed outright leaves one that the next build removes.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { runTmp } from '../helpers/paths.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The scratch folders of `kind` of process `pid` in the temporary folder. */
function scratchOf(kind: string, pid: number): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith(`snapcat-${kind}-${pid}-`));
}

async function waitFor(what: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('build scratch folders', () => {
  const work = () => runTmp(inject('tsSnapshot'), 'build-scratch');

  test('a build that fails (in validation, and after it) leaves no scratch folder', async () => {
    // a broken manifest: fails in validation
    const broken = join(work(), 'broken');
    cpSync(inject('tsSnapshot'), broken, { recursive: true });
    writeFileSync(join(broken, 'snapshot.json'), '{"name": 1}');
    await expect(build({ snapshot: broken, out: join(work(), 'dist-broken'), quiet: true, charts: false, site: false })).rejects.toThrow();
    expect(scratchOf('build', process.pid)).toEqual([]);
    // a valid snapshot whose build fails after validation: an unknown timeseries profile is refused before any
    // work, so take a snapshot whose configuration names a series it lacks (timeseries/config-files.ts)
    const badConfig = join(work(), 'bad-config');
    cpSync(inject('tsSnapshot'), badConfig, { recursive: true });
    const prerender = join(badConfig, 'config', 'web_config-task-prerendering.json');
    expect(existsSync(prerender)).toBe(true);
    writeFileSync(prerender, readFileSync(prerender, 'utf8').replace('"id": "ts_koeln_rhein_water_level"', '"id": "ts_no_such_series"'));
    await expect(build({ snapshot: badConfig, out: join(work(), 'dist-bad-config'), quiet: true, charts: false, site: false })).rejects.toThrow(/ts_no_such_series/);
    expect(scratchOf('build', process.pid)).toEqual([]);
  }, 300_000);

  test('npm run build stopped by SIGTERM exits 143 and leaves no scratch folder', async () => {
    const child = spawn(process.execPath, ['build-scripts/build.ts', '--snapshot', inject('tsSnapshot'), '--out', join(work(), 'dist-term'), '--quiet', '--no-site', '--no-charts'], { cwd: ROOT, stdio: 'ignore' });
    await waitFor(() => scratchOf('build', child.pid!).length > 0);
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(143);
    expect(scratchOf('build', child.pid!)).toEqual([]);
  }, 300_000);

  test('a build killed outright leaves its scratch folder, which the next build removes', async () => {
    const out = join(work(), 'dist-killed');
    const child = spawn(process.execPath, ['build-scripts/build.ts', '--snapshot', inject('tsSnapshot'), '--out', out, '--quiet', '--no-site', '--no-charts'], { cwd: ROOT, stdio: 'ignore' });
    await waitFor(() => scratchOf('build', child.pid!).length > 0);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(scratchOf('build', child.pid!).length).toBe(1);
    await build({ snapshot: inject('tsSnapshot'), out, quiet: true, charts: false, site: false });
    expect(scratchOf('build', child.pid!)).toEqual([]);
    expect(scratchOf('build', process.pid)).toEqual([]);
  }, 300_000);

  test('npm run validate leaves no scratch folder', async () => {
    const running = promisify(execFile)(process.execPath, ['build-scripts/snapshot/validate-cli.ts', inject('tsSnapshot')], { cwd: ROOT });
    const { stdout } = await running;
    expect(stdout).toContain('valid');
    expect(scratchOf('validate', running.child.pid!)).toEqual([]);
  }, 120_000);
});
