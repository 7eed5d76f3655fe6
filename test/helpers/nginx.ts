/**
 * A real nginx for tests: found (`/usr/sbin/nginx` or on the PATH) or installed from Debian's packages
 * (`apt-get install nginx-light`, else `nginx`; as root), started in the foreground on a free loopback port with
 * everything it writes (pid, logs, temp files) under a prefix folder, and stopped by its own pid.
 */
import { aptInstall, whyNoApt } from '../../bench/lib/debian.ts';
import { BROTLI_MODULE_DEBIAN } from '../../build-scripts/nginx-config.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface NginxBinary {
  path: string;
  /** `nginx/1.22.1` */
  version: string;
  /** How it came to be there: `found` or the apt-get command that installed it. */
  how: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findNginx(): string | undefined {
  const candidates = ['/usr/sbin/nginx', ...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'nginx'))];
  return candidates.find((p) => existsSync(p) && executable(p));
}

function versionOf(path: string): string {
  const r = spawnSync(path, ['-v'], { encoding: 'utf8' });
  return /nginx\/[\w.]+/.exec(`${r.stderr}${r.stdout}`)?.[0] ?? 'nginx (unknown version)';
}

/**
 * nginx, installed when missing. Returns a reason to skip only when installing is impossible here (not root,
 * or no apt-get); an install that could run but fails throws, so a machine that should have nginx never
 * passes silently without it.
 */
export function ensureNginx(): NginxBinary | { skip: string } {
  const found = findNginx();
  if (found) return { path: found, version: versionOf(found), how: 'found' };
  const cannot = whyNoApt('nginx', 'nginx-light');
  if (cannot) return { skip: cannot };
  const { path, how } = aptInstall('nginx', [['nginx-light'], ['nginx']], findNginx, 240_000);
  return { path, version: versionOf(path), how };
}

/**
 * nginx's brotli filter module (`libnginx-mod-http-brotli-filter`, Debian's, matching its nginx), installed when
 * missing; a reason when it cannot be (not root, no apt-get, or Debian has none for this nginx: then the
 * configuration is tested with gzip alone).
 */
export function ensureBrotliModule(): { path: string; how: string } | { skip: string } {
  const find = () => (existsSync(BROTLI_MODULE_DEBIAN) ? BROTLI_MODULE_DEBIAN : undefined);
  if (find()) return { path: BROTLI_MODULE_DEBIAN, how: 'found' };
  const cannot = whyNoApt('the nginx brotli module', 'libnginx-mod-http-brotli-filter');
  if (cannot) return { skip: cannot };
  try {
    return aptInstall('the nginx brotli module', [['libnginx-mod-http-brotli-filter']], find, 240_000);
  } catch (e) {
    return { skip: (e as Error).message.split('\n')[0]! };
  }
}

/** A port free on loopback just now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  port: number;
  url: string;
  prefix: string;
  process: ChildProcess;
  /** Graceful stop (SIGQUIT to its own pid), then SIGTERM (fast stop) if it lingers. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts nginx in the foreground (`daemon off`) with the configuration `configFor(port)` written to
 * `<prefix>/nginx.conf`, on a free loopback port; resolves when it answers.
 */
export async function startNginx(bin: string, prefix: string, configFor: (listen: string) => string): Promise<RunningNginx> {
  await mkdir(prefix, { recursive: true, mode: 0o755 });
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const conf = join(prefix, 'nginx.conf');
    await writeFile(conf, configFor(`127.0.0.1:${port}`));
    const test = spawnSync(bin, ['-t', '-q', '-p', prefix, '-c', conf, '-e', 'stderr'], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t rejected the configuration:\n${test.stderr}`);
    const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', 'stderr', '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.exitCode === null) {
      const up = await new Promise<boolean>((resolve) => {
        const req = request(`${url}/`, { method: 'HEAD' }, (res) => {
          res.resume();
          resolve(res.headers['server'] === 'nginx');
        });
        req.on('error', () => resolve(false));
        req.end();
      });
      if (up) {
        // never left running by a test process that dies: TERM makes the master stop its workers too
        const orphanGuard = () => void child.kill('SIGTERM');
        process.once('exit', orphanGuard);
        child.once('exit', () => process.off('exit', orphanGuard));
        return {
          port,
          url,
          prefix,
          process: child,
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill('SIGQUIT');
            const t = setTimeout(() => child.kill('SIGTERM'), 5000);
            await exited(child);
            clearTimeout(t);
          },
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await exited(child);
    lastError = stderr;
    if (!/Address already in use/.test(stderr)) break;
  }
  throw new Error(`nginx did not start:\n${lastError}`);
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decompressed when it came gzip-encoded. */
  body: Buffer;
  gzipped: boolean;
}

/**
 * One request with the target sent exactly as given (no normalisation of `..`, `//` or percent-encoding, as a
 * fetch would do), asking for gzip; the body decompressed.
 */
export function rawRequest(base: string, target: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: target, method: opts.method ?? 'GET', headers: { 'Accept-Encoding': 'gzip', ...opts.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const gzipped = res.headers['content-encoding'] === 'gzip';
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: gzipped && raw.length > 0 ? gunzipSync(raw) : raw, gzipped });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
