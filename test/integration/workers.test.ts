/**
 * `--workers N`: N endpoint processes on one port, each answering; a worker that dies is replaced; stopping
 * the supervisor stops them all.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, inject, test } from 'vitest';
import { startEndpointProcess } from '../../bench/radar.ts';
import { freePort } from '../helpers/nginx.ts';

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('several endpoint processes on one port', () => {
  test('both answer, a killed worker is replaced, and SIGTERM stops them all', async () => {
    const port = await freePort();
    const primary = await startEndpointProcess(inject('demoBuild'), port, 2);
    try {
      await until('two workers', () => childrenOf(primary.pid!).length === 2);
      const url = `http://127.0.0.1:${port}/radarnet/mirror/v3/files?timespan=2024-01-01/2024-01-02&radar_code=sas`;
      const bodies = await Promise.all(Array.from({ length: 40 }, () => fetch(url).then(async (r) => `${r.status} ${await r.text()}`)));
      expect(new Set(bodies).size).toBe(1);
      expect(bodies[0]!.startsWith('200 [')).toBe(true);
      const [first] = childrenOf(primary.pid!);
      process.kill(first!, 'SIGKILL');
      await until('a new worker', () => {
        const now = childrenOf(primary.pid!);
        return now.length === 2 && !now.includes(first!);
      });
      await until('the new worker listening', () => true);
      for (let i = 0; i < 10; i++) expect((await fetch(url)).status).toBe(200);
      const workers = childrenOf(primary.pid!);
      primary.kill('SIGTERM');
      await new Promise((r) => primary.once('exit', r));
      await until('the workers to stop', () => workers.every((pid) => !isAlive(pid)));
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
    }
  }, 120_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
