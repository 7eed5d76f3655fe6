/**
 * `--workers N`: N endpoint processes on one port, each answering; a worker that dies is replaced; stopping
 * the supervisor stops them all.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { get as httpGet } from 'node:http';
import { describe, expect, inject, test } from 'vitest';
import { startEndpointProcess } from '../../bench/radar.ts';
import { freePort } from '../helpers/nginx.ts';
import { sampleValue } from '../helpers/prometheus.ts';
import { ENDPOINT_NODE_ENV, ENDPOINT_NODE_FLAGS } from '../../server/node-flags.ts';

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

describe('a worker killed before it listens', () => {
  test('is replaced (kill -9 or the OOM killer while it opens the build), not taken for a worker that cannot start', async () => {
    const port = await freePort();
    const primary = spawn(process.execPath, [...ENDPOINT_NODE_FLAGS, 'server/main.ts', '--build', inject('demoBuild'), '--port', String(port), '--workers', '2'], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ...ENDPOINT_NODE_ENV },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    primary.stderr!.on('data', (d: Buffer) => (log += String(d)));
    try {
      // the first worker, killed as soon as it exists: it opens the build for hundreds of milliseconds first
      await until('a worker', () => childrenOf(primary.pid!).length > 0, 20_000);
      const [first] = childrenOf(primary.pid!);
      expect(log).not.toContain('serving');
      process.kill(first!, 'SIGKILL');
      await until('a replacement', () => {
        const now = childrenOf(primary.pid!);
        return now.length === 2 && !now.includes(first!);
      });
      await until('the endpoint serving', () => log.includes('serving'));
      expect(primary.exitCode).toBe(null);
      expect((await fetch(`http://127.0.0.1:${port}/radarnet/mirror/v3/radars`)).status).toBe(200);
      expect(log).toContain('was killed by SIGKILL');
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
      for (const pid of childrenOf(primary.pid!)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);
});

/** One GET on a connection of its own (node:cluster hands each new connection to the next worker in turn). */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** Until both workers listen and answer the supervisor (its /metrics counts two processes). */
async function untilBothAnswer(base: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const m = await getOnNewConnection(`${base}/metrics`);
    if (m.status === 200 && sampleValue(m.body, 'snapcat_endpoint_processes') === 2) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/metrics over several endpoint processes', () => {
  test('whichever worker answers, the scrape is every worker\'s metrics summed', async () => {
    const port = await freePort();
    const primary = await startEndpointProcess(inject('demoBuild'), port, 2);
    try {
      await until('two workers', () => childrenOf(primary.pid!).length === 2);
      const base = `http://127.0.0.1:${port}`;
      await untilBothAnswer(base);
      const n = 40;
      for (let i = 0; i < n; i++) expect((await getOnNewConnection(`${base}/radarnet/mirror/v3/radars?radar_code=sas`)).status).toBe(200);
      for (let i = 0; i < 4; i++) {
        const m = await getOnNewConnection(`${base}/metrics`);
        expect(m.status).toBe(200);
        // 40 on new connections went to both workers in turn: only the sum says 40
        expect(sampleValue(m.body, 'snapcat_http_requests_total', { family: 'radar', status: '200' })).toBe(n);
        expect(sampleValue(m.body, 'snapcat_endpoint_processes')).toBe(2);
        expect(sampleValue(m.body, 'snapcat_http_request_duration_seconds_count', { family: 'radar' })).toBe(n);
        expect(sampleValue(m.body, 'process_resident_memory_bytes')).toBeGreaterThan(20 * 1024 * 1024);
        const info = m.body.split('\n').filter((l) => l.startsWith('snapcat_build_info{'));
        expect(info).toHaveLength(1);
        expect(info[0]).toMatch(/ 2$/);
      }
    } finally {
      primary.kill('SIGTERM');
      await new Promise((r) => primary.once('exit', r));
    }
  }, 120_000);
});

describe('answers shared between endpoint processes', () => {
  test('an answer one worker made is sent by the other from the shared folder, not made again; the folder goes with the supervisor', async () => {
    const port = await freePort();
    const primary = await startEndpointProcess(inject('demoBuild'), port, 2);
    const folder = `/dev/shm/snapcat-answers-${primary.pid}`;
    try {
      await until('two workers', () => childrenOf(primary.pid!).length === 2);
      const base = `http://127.0.0.1:${port}`;
      await untilBothAnswer(base);
      expect(existsSync(folder)).toBe(true);
      // a live query (short) and a long one (over 64 KB: shared as its packed frames)
      for (const [i, path] of ['/radarnet/mirror/v3/files?timespan=2024-03-01T06:00:00Z/2024-03-01T18:00:00Z', '/radarnet/mirror/v3/files?timespan=2024-03-01/2024-03-03&expanded=true'].entries()) {
        const before = await getOnNewConnection(`${base}/metrics`);
        const first = await getOnNewConnection(`${base}${path}`);
        expect(first.status).toBe(200);
        // shared once held (a long answer once packed)
        await until('the answer shared', () => readdirSync(folder).filter((f) => !f.endsWith('.tmp')).length > i, 5000);
        // new connections go to the workers in turn: the other worker answers at least one of these
        const again = await Promise.all(Array.from({ length: 4 }, () => getOnNewConnection(`${base}${path}`)));
        for (const r of again) expect(r.body).toBe(first.body);
        const after = await getOnNewConnection(`${base}/metrics`);
        const delta = (name: string) => (sampleValue(after.body, name) ?? 0) - (sampleValue(before.body, name) ?? 0);
        expect(delta('snapcat_answer_cache_misses_total'), path).toBe(1);
        expect(delta('snapcat_answer_cache_shared_hits_total'), path).toBe(1);
      }
    } finally {
      primary.kill('SIGTERM');
      await new Promise((r) => primary.once('exit', r));
    }
    expect(existsSync(folder)).toBe(false);
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
