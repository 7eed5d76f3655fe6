/**
 * Installing a missing server from Debian's packages (nginx for the tests and benchmarks, PostgreSQL for the
 * benchmarks): as root, non-interactively, with RUNLEVEL=1 (and Docker's policy-rc.d where present) so the
 * package does not start a system service, retrying once after `apt-get update`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Why apt-get cannot install `packages` here (not root, no apt-get), or undefined when it can. */
export function whyNoApt(what: string, packages: string): string | undefined {
  if (process.getuid?.() !== 0) return `${what} is not installed, and installing it (apt-get install ${packages}) needs root`;
  if (!existsSync('/usr/bin/apt-get')) return `${what} is not installed, and this machine has no apt-get to install it from Debian packages`;
  return undefined;
}

/**
 * Installs the first package set of `candidates` after which `find()` finds the program; returns its path and
 * the command that installed it. Throws with apt-get's output when none does.
 */
export function aptInstall(what: string, candidates: string[][], find: () => string | undefined, timeoutMs: number): { path: string; how: string } {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
  const apt = (args: string[]) => spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=180', ...args], { encoding: 'utf8', env, timeout: timeoutMs });
  const log: string[] = [];
  for (const packages of candidates) {
    for (const update of [false, true]) {
      if (update) {
        const u = apt(['update', '-qq']);
        log.push(`apt-get update: exit ${u.status}\n${u.stderr.slice(-1000)}`);
      }
      const cmd = ['install', '-y', '--no-install-recommends', ...packages];
      const r = apt(cmd);
      log.push(`apt-get ${cmd.join(' ')}: exit ${r.status}\n${r.stderr.slice(-1000)}`);
      const path = find();
      if (r.status === 0 && path) return { path, how: `apt-get ${cmd.join(' ')}` };
    }
  }
  throw new Error(`${what} is missing and could not be installed from Debian packages:\n${log.join('\n')}`);
}
