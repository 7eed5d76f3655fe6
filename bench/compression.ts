/**
 * Compression (`npm run bench -- --only compression`): bytes and time of two large answers over a 100 Mbit/s
 * link (`curl --limit-rate 12500000`, 12.5 MB/s) in each coding and without, and a one-day query's throughput
 * with gzip against without (`wrk`, from Debian's packages when missing). The endpoint runs in its own process
 * as `npm run serve` runs it.
 *
 * - a year of `/radarnet/mirror/v3/files?timespan=2023/2024` on the one-year database-only build the radar
 *   query bench uses (a live, streamed answer);
 * - `/api/v1/timeseries?expanded=true` on the timeseries bench build (the demo network's 276 series: a file of
 *   the tree, under 200 KB), and `/api/v1/stations?expanded=true` of a 10,000-station network (1.7 MB);
 * - `wrk` on one-day `/files` timespans (a different day each request, by a Lua script), 8 connections.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODINGS } from '../core/http/content-coding.ts';
import { LEVELS } from '../server/compression.ts';
import { freePort } from '../test/helpers/nginx.ts';
import { aptInstall, whyNoApt } from './lib/debian.ts';
import { timeseriesBuild } from './memory.ts';
import { radarDbBuild, radarSnapshot, startEndpointProcess, WORK } from './radar.ts';
import { childrenOf } from './stats.ts';
import { timeseriesBenchBuild } from './timeseries-api.ts';

/** 100 Mbit/s in bytes per second. */
const LINK_BYTES_PER_S = 12_500_000;

export interface Transfer {
  coding: string;
  bytes: number;
  /** Seconds over the limited link (median of three). */
  linkSeconds: number;
  /** Seconds on loopback without a limit (the endpoint's own pace; best of three). */
  freeSeconds: number;
  /**
   * Seconds a 100 Mbit/s link would take: the longer of the loopback time and the bytes at 12.5 MB/s (the
   * endpoint makes the answer while it is sent). curl's limit only sleeps once it has read more than the rate
   * allows, so an answer of a few hundred KB passes unthrottled, and it lets a long one run ~10% over the rate.
   */
  modelSeconds: number;
}

export interface CompressionBench {
  levels: typeof LEVELS;
  answers: { name: string; transfers: Transfer[] }[];
  oneDay: { runs: { coding: string; rps: number; mbps: number; cpuMsPerRequest: number }[]; connections: number; seconds: number; wrk: string };
}

function findOn(names: string[]): string | undefined {
  for (const n of names) {
    const r = spawnSync('sh', ['-c', `command -v ${n}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}

export function ensureWrk(): string {
  const found = findOn(['wrk']);
  if (found) return found;
  const cannot = whyNoApt('wrk', 'wrk');
  if (cannot) throw new Error(cannot);
  return aptInstall('wrk', [['wrk']], () => findOn(['wrk']), 240_000).path;
}

/** One download by curl: bytes received and seconds, optionally at the link's rate. */
function curl(url: string, coding: string | undefined, limited: boolean): { bytes: number; seconds: number } {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', ...(coding ? ['-H', `Accept-Encoding: ${coding}`] : []), ...(limited ? ['--limit-rate', String(LINK_BYTES_PER_S)] : []), url];
  const r = spawnSync('curl', args, { encoding: 'utf8', timeout: 600_000 });
  const [status, bytes, seconds] = r.stdout.trim().split(' ');
  if (status !== '200') throw new Error(`curl ${args.join(' ')}: status ${status} ${r.stderr}`);
  return { bytes: Number(bytes), seconds: Number(seconds) };
}

function transfers(url: string, log: (l: string) => void): Transfer[] {
  curl(url, 'gzip', false); // warm
  const out: Transfer[] = [];
  for (const coding of ['identity', ...CODINGS]) {
    const c = coding === 'identity' ? undefined : coding;
    const free = Math.min(...[0, 1, 2].map(() => curl(url, c, false).seconds));
    const links = [0, 1, 2].map(() => curl(url, c, true)).sort((a, b) => a.seconds - b.seconds);
    const link = links[1]!;
    out.push({ coding, bytes: link.bytes, linkSeconds: link.seconds, freeSeconds: free, modelSeconds: Math.max(free, link.bytes / LINK_BYTES_PER_S) });
    log(`  ${coding}: ${(link.bytes / 1e6).toFixed(2)} MB, ${link.seconds.toFixed(3)} s at 100 Mbit/s, ${free.toFixed(3)} s on loopback`);
  }
  return out;
}

/**
 * CPU seconds (user and system) an endpoint has used so far, from /proc: its supervisor and the supervisor's
 * children, the endpoint processes (server/main.ts runs every endpoint under a supervisor).
 */
function cpuSeconds(pid: number): number {
  const of = (p: number) => {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // after the command: state is field 3, utime 14 and stime 15 (1-based, of the whole line)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  // throws once the supervisor has gone (the bench fails); an endpoint process may go meanwhile
  let total = of(pid);
  for (const c of childrenOf(pid)) {
    try {
      total += of(c);
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

/** wrk on one-day timespans; requests per second and MB/s as wrk reports them, and the endpoint's CPU per request. */
function wrk(bin: string, base: string, coding: string | undefined, connections: number, seconds: number, endpointPid: number): { rps: number; mbps: number; cpuMsPerRequest: number } {
  const cpu0 = cpuSeconds(endpointPid);
  const script = join(WORK, 'compression-one-day.lua');
  // a different day of 2023 per request (the same sequence for every run)
  writeFileSync(
    script,
    `local n = 0
request = function()
  n = n + 1
  local t = os.time({year = 2023, month = 1, day = 1, hour = 12}) + ((n * 7919) % 364) * 86400
  local a = os.date("!%Y-%m-%d", t)
  local b = os.date("!%Y-%m-%d", t + 86400)
  return wrk.format("GET", "/radarnet/mirror/v3/files?timespan=" .. a .. "/" .. b)
end
`,
  );
  const args = ['-t', '2', '-c', String(connections), '-d', `${seconds}s`, '-s', script, ...(coding ? ['-H', `Accept-Encoding: ${coding}`] : []), base];
  const r = spawnSync(bin, args, { encoding: 'utf8', timeout: (seconds + 60) * 1000 });
  const cpu = cpuSeconds(endpointPid) - cpu0;
  const requests = Number(/(\d+) requests in/.exec(r.stdout)?.[1]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1];
  const tr = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(r.stdout);
  if (!rps || !tr || /Non-2xx/.test(r.stdout)) throw new Error(`wrk ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  const unit = { B: 1e-6, KB: 1024 / 1e6, MB: (1024 * 1024) / 1e6, GB: 1024 ** 3 / 1e6 }[tr[2]!] ?? NaN;
  return { rps: Number(rps), mbps: Number(tr[1]) * unit, cpuMsPerRequest: (cpu * 1000) / requests };
}

export async function runCompressionBench(log: (l: string) => void): Promise<CompressionBench> {
  const wrkBin = ensureWrk();
  const version = spawnSync(wrkBin, ['--version'], { encoding: 'utf8' });
  const wrkVersion = /wrk [^\s]+/.exec(`${version.stdout}${version.stderr}`)?.[0] ?? 'wrk';
  const radarBuild = await radarDbBuild(() => radarSnapshot('2023-01-01', 365), 365, log);
  const tsBuild = await timeseriesBuild(log);
  const stationsBuild = (await timeseriesBenchBuild({ stations: 10_000, dir: join(WORK, 'compression-timeseries'), reuse: true, log })).dist;
  const [radarPort, tsPort, stationsPort] = [await freePort(), await freePort(), await freePort()];
  const radar = await startEndpointProcess(radarBuild, radarPort);
  const ts = await startEndpointProcess(tsBuild, tsPort);
  const stations = await startEndpointProcess(stationsBuild, stationsPort);
  try {
    const answers: CompressionBench['answers'] = [];
    for (const [name, url] of [
      ['a year of /radarnet/mirror/v3/files?timespan=2023/2024 (live, streamed)', `http://127.0.0.1:${radarPort}/radarnet/mirror/v3/files?timespan=2023/2024`],
      ['/api/v1/timeseries?expanded=true (a file of the tree)', `http://127.0.0.1:${tsPort}/api/v1/timeseries?expanded=true`],
      ['/api/v1/stations?expanded=true of 10,000 stations (a file of the tree)', `http://127.0.0.1:${stationsPort}/api/v1/stations?expanded=true`],
    ] as const) {
      log(`compression: ${name}`);
      answers.push({ name, transfers: transfers(url, log) });
    }
    const connections = 8;
    const seconds = 10;
    const base = `http://127.0.0.1:${radarPort}`;
    log(`compression: one-day /files, wrk ${connections} connections, ${seconds} s, without and with each coding, twice (alternating)`);
    wrk(wrkBin, base, undefined, connections, 3, radar.pid!); // warm
    const codings = ['identity', ...CODINGS];
    const all: CompressionBench['oneDay']['runs'] = [];
    for (let round = 0; round < 2; round++) {
      for (const coding of codings) {
        const r = wrk(wrkBin, base, coding === 'identity' ? undefined : coding, connections, seconds, radar.pid!);
        log(`  ${coding}: ${r.rps.toFixed(0)} req/s, endpoint CPU ${r.cpuMsPerRequest.toFixed(2)} ms per request`);
        all.push({ coding, ...r });
      }
    }
    const runs = codings.map((coding) => all.filter((x) => x.coding === coding).reduce((a, b) => (b.rps > a.rps ? b : a)));
    return { levels: LEVELS, answers, oneDay: { runs, connections, seconds, wrk: wrkVersion } };
  } finally {
    for (const p of [radar, ts, stations]) p.kill('SIGTERM');
  }
}
