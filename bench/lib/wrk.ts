/**
 * wrk (Debian's package, installed when missing) as the benches' load tool: C, one event loop per thread, so on
 * this machine it outruns what it measures (autocannon, in node, saturated near 12k req/s and measured itself,
 * issue 18). Each run also reports wrk's own CPU time (bash's `times` after it), so a figure shows whether the
 * tool had headroom: a thread near 100% busy is a tool at its limit.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { aptInstall, whyNoApt } from './debian.ts';

function findOn(name: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : undefined;
}

/** wrk's path, installing Debian's package when missing (as root). */
export function ensureWrk(): string {
  const found = findOn('wrk');
  if (found) return found;
  const cannot = whyNoApt('wrk', 'wrk');
  if (cannot) throw new Error(cannot);
  return aptInstall('wrk', [['wrk']], () => findOn('wrk'), 240_000).path;
}

export function wrkVersion(bin: string): string {
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return /wrk [^\s]+/.exec(`${v.stdout}${v.stderr}`)?.[0] ?? 'wrk';
}

/**
 * A wrk script that sends `paths` in turn (each thread from its own place in the list), GET with `headers`.
 * Written to `file`; returns it.
 */
export function rotationScript(file: string, paths: string[], headers: Record<string, string> = {}): string {
  const lua = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  writeFileSync(
    file,
    `local paths = {${paths.map(lua).join(', ')}}
local headers = {${Object.entries(headers).map(([k, v]) => `[${lua(k)}] = ${lua(v)}`).join(', ')}}
local n = 0
local counter = 0
setup = function(thread)
  counter = counter + 1
  thread:set("start", counter * 7)
end
init = function(args)
  n = tonumber(start) or 0
end
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1], headers)
end
`,
  );
  return file;
}

export interface WrkRun {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency percentiles from wrk's `--latency` distribution, ms. */
  p50Ms: number;
  p99Ms: number;
  /** Transfer/sec as wrk reports it, in MB/s (10^6 bytes). */
  mbps: number;
  /** Non-2xx/3xx answers and socket errors (connect, read, write, timeout). */
  failures: number;
  /** wrk's own CPU (user + system) over the run's wall time, per wrk thread: 1 is a thread busy all the time. */
  toolBusy: number;
}

const MS = { us: 1e-3, ms: 1, s: 1000, m: 60_000 } as const;

function latency(out: string, pct: string): number {
  const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  return m ? Number(m[1]) * MS[m[2] as keyof typeof MS] : NaN;
}

/** One wrk run: `threads`, `connections`, `seconds` against `base` with `script` (rotationScript). */
export function runWrk(bin: string, opts: { base: string; script: string; threads: number; connections: number; seconds: number }): WrkRun {
  // wrk's own timeout (2 s) would leave slower answers out of the latency distribution, as socket errors
  const args = ['-t', String(opts.threads), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--timeout', '30s', '--latency', '-s', opts.script, opts.base];
  // bash's `times` prints its own and its children's user and system times: the second line is wrk's
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', '"$@"; times', 'wrk', bin, ...args], { encoding: 'utf8', timeout: (opts.seconds + 60) * 1000 });
  const wall = (performance.now() - t0) / 1000;
  const out = r.stdout;
  const requests = Number(/(\d+) requests in ([\d.]+)(\w+)/.exec(out)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const tr = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(out);
  if (!Number.isFinite(rps) || !tr) throw new Error(`wrk ${args.join(' ')}:\n${out}\n${r.stderr}`);
  const unit = { B: 1e-6, KB: 1024 / 1e6, MB: (1024 * 1024) / 1e6, GB: 1024 ** 3 / 1e6 }[tr[2]!] ?? NaN;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  const times = out.trim().split('\n').slice(-1)[0]!.trim().split(/\s+/);
  const sec = (t: string | undefined) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t ?? '');
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const cpu = sec(times[0]) + sec(times[1]);
  return {
    requests,
    seconds: opts.seconds,
    rps,
    p50Ms: latency(out, '50'),
    p99Ms: latency(out, '99'),
    mbps: Number(tr[1]) * unit,
    failures: non2xx + socketErrors,
    toolBusy: cpu / wall / opts.threads,
  };
}
