/**
 * The npm scripts' command lines, run as a user runs them (`node <script> …`, what `npm run X --` runs; one
 * through npm itself): `--help` lists every option with its default and an example, exit 0; a bad option is one
 * line on stderr naming it with a hint to `--help`, exit code 2, no stack trace (lib/cli.ts).
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { BUILD_CLI } from '../../build-scripts/build.ts';
import { DEMO_SNAPSHOT_CLI } from '../../build-scripts/demo-snapshot.ts';
import { DOCS_CLI } from '../../build-scripts/docs.ts';
import { NGINX_CONFIG_CLI } from '../../build-scripts/nginx-config.ts';
import { SITE_CLI } from '../../build-scripts/site.ts';
import { PARTITION_CLI } from '../../build-scripts/snapshot/partition.ts';
import type { CliOption, CliSpec } from '../../lib/cli.ts';
import { SERVE_CLI } from '../../server/main.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function runNode(args: string[], file = process.execPath): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every npm-script entry point with its spec (start's and validate's specs are read from their help: importing them runs them). */
const SCRIPTS: { script: string; command: string; options: string[] }[] = [
  ...(
    [
      ['build-scripts/build.ts', BUILD_CLI],
      ['build-scripts/demo-snapshot.ts', DEMO_SNAPSHOT_CLI],
      ['server/main.ts', SERVE_CLI],
      ['build-scripts/docs.ts', DOCS_CLI],
      ['build-scripts/site.ts', SITE_CLI],
      ['build-scripts/snapshot/partition.ts', PARTITION_CLI],
      ['build-scripts/nginx-config.ts', NGINX_CONFIG_CLI],
    ] as [string, CliSpec<Record<string, CliOption>>][]
  ).map(([script, spec]) => ({ script, command: spec.command, options: Object.keys(spec.options) })),
  { script: 'build-scripts/start.ts', command: 'npm start --', options: ['snapshot', 'out', 'port', 'host'] },
  { script: 'build-scripts/snapshot/validate-cli.ts', command: 'npm run validate --', options: [] },
  { script: 'bench/run.ts', command: 'npm run bench --', options: ['scale', 'only', 'queries', 'scenarios', 'baseline', 'seconds'] },
];

/** One line on stderr, naming `what`, with the hint to --help; no stack trace. */
function expectUsageLine(r: Ran, command: string, what: string): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n');
  expect(lines, r.stderr).toHaveLength(2);
  expect(lines[1]).toBe('');
  expect(lines[0]).toContain(what);
  expect(lines[0]).toContain(`(see: ${command} --help)`);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('every npm script: --help and a bad option', () => {
  for (const { script, command, options } of SCRIPTS) {
    test(`${script}`, async () => {
      const help = await runNode([script, '--help']);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout.split('\n')[0]).toMatch(new RegExp(`^usage: ${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      for (const o of options) expect(help.stdout).toMatch(new RegExp(`^ {2}--${o}\\b.*\\((default: .+|required)\\)$`, 'm'));
      expect(help.stdout).toMatch(/^ {2}-h, --help +this help$/m);
      expect(help.stdout).toMatch(/^Examples?:\n {2}(npm|PORT=)/m);
      // -h too, and --help wins over a bad option beside it
      expect((await runNode([script, '-h', '--no-such-option'])).stdout).toBe(help.stdout);
      expectUsageLine(await runNode([script, '--no-such-option']), command, "unknown option '--no-such-option'");
    }, 120_000);
  }
});

describe('bad values and missing options name the option', () => {
  test.each([
    [['build-scripts/build.ts'], 'npm run build --', "option '--snapshot' is required"],
    [['build-scripts/build.ts', '--snapshot'], 'npm run build --', "option '--snapshot' needs a value"],
    [['build-scripts/build.ts', '--snapshot', 'x', '--full=yes'], 'npm run build --', "option '--full' is a switch and takes no value"],
    [['build-scripts/demo-snapshot.ts', '--days', 'ten'], 'npm run demo-snapshot --', "option '--days': must be a whole number from 1 to 20000, not 'ten'"],
    [['build-scripts/demo-snapshot.ts', '--from', '2024-13-40'], 'npm run demo-snapshot --', "option '--from': must be a date like 2024-01-01"],
    [['build-scripts/demo-snapshot.ts', '--apis', 'radar'], 'npm run demo-snapshot --', "option '--apis'"],
    [['server/main.ts', '--workers', '0'], 'npm run serve --', "option '--workers': must be a whole number from 1 to 64"],
    [['server/main.ts', '--port', '99999'], 'npm run serve --', "option '--port'"],
    [['build-scripts/snapshot/validate-cli.ts'], 'npm run validate --', 'missing SNAPSHOT_DIR'],
    [['build-scripts/snapshot/validate-cli.ts', 'a', 'b'], 'npm run validate --', "unexpected argument 'b'"],
    [['bench/run.ts', '--only', 'postgress'], 'npm run bench --', "option '--only': no such section postgress"],
    [['bench/run.ts', '--scale', 'huge'], 'npm run bench --', "option '--scale': must be small or full"],
  ])('%j', async (args, command, what) => {
    expectUsageLine(await runNode(args), command, what);
  }, 60_000);

  test('through npm itself: npm run build -- --fulll exits 2 with the one line', async () => {
    const r = await new Promise<Ran>((resolve) =>
      execFile('npm', ['run', '--silent', 'build', '--', '--fulll'], { cwd: ROOT, timeout: 60_000, env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH']}` } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      ),
    );
    expectUsageLine(r, 'npm run build --', "unknown option '--fulll'");
  }, 60_000);
});
