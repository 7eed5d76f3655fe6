/** Small statistics and process probes for the benchmark scripts. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** The children of a process (of all its threads), from /proc; none once it has gone. */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** CPU ms (user and system) a process and its children have used, from /proc (clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const ticks = (p: number) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    } catch {
      return 0;
    }
  };
  return (ticks(pid) + childrenOf(pid).reduce((s, c) => s + ticks(c), 0)) * 10;
}

/** Resident set size and its peak of a process, in MB, from /proc. */
export function rssOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * Resident set of an endpoint in MB: its supervisor and the supervisor's children, the endpoint processes
 * (server/main.ts runs every endpoint under a supervisor), not their headless browsers. `peakMb` sums their peaks.
 */
export function endpointRss(pid: number): { rssMb: number; peakMb: number } {
  let rssMb = 0;
  let peakMb = 0;
  const add = (p: number) => {
    try {
      const r = rssOf(p);
      rssMb += r.rssMb;
      peakMb += r.peakMb;
    } catch {
      /* gone meanwhile */
    }
  };
  add(pid);
  for (const c of childrenOf(pid)) add(c);
  return { rssMb, peakMb };
}

/** Resident set of a process and its descendants, in MB (0 once it has gone). */
export function treeRssMb(pid: number): { rssMb: number; hwmMb: number } {
  let rssMb = 0;
  let hwmMb = 0;
  const visit = (p: number) => {
    try {
      const r = rssOf(p);
      rssMb += r.rssMb;
      hwmMb = Math.max(hwmMb, r.peakMb);
      for (const c of childrenOf(p)) visit(c);
    } catch {
      /* gone meanwhile */
    }
  };
  visit(pid);
  return { rssMb, hwmMb };
}

/**
 * Runs `node args` in `cwd` and samples the resident set of it and its children every 50 ms (and the root's
 * high-water mark, which catches a peak between two samples). Fails when the process does.
 */
export async function runSampled(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ seconds: number; peakRssMb: number; stderr: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + String(d)).slice(-20_000)));
  let peak = 0;
  const sample = () => {
    const r = treeRssMb(child.pid!);
    peak = Math.max(peak, r.rssMb, r.hwmMb);
  };
  const sampler = setInterval(sample, 50);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  return { seconds: (performance.now() - t0) / 1000, peakRssMb: peak, stderr };
}
