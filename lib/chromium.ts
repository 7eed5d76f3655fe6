/**
 * Which Chromium to run, as DEVELOPERS.md orders it: `CHROMIUM_PATH`, else a system chromium or chrome on
 * the PATH, else the packed Chromium of the npm package `@sparticuz/chromium` (unpacked once into the temp
 * folder, so a fresh clone needs no browser download). Also the flags every launch uses.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';

export interface ChromiumExecutable {
  path: string;
  source: ChromiumSource;
  /** Flags for this executable, beyond BASE_ARGS. */
  args: string[];
}

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/**
 * Flags for a headless renderer on a machine without a network and possibly as root: no sandbox (root),
 * no GPU, and nothing that phones home (a closed network refuses those connections, many at a time).
 * `--font-render-hinting=none` gives the same glyph shapes on screen and in print.
 */
export const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--no-pings',
  '--mute-audio',
  '--hide-scrollbars',
  '--font-render-hinting=none',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of SYSTEM_NAMES on the PATH (or in /usr/bin), or undefined. */
export function systemChromium(pathVar = process.env['PATH'] ?? ''): string | undefined {
  const dirs = [...pathVar.split(delimiter).filter(Boolean), '/usr/bin'];
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      const p = join(dir, name);
      if (isExecutable(p)) return p;
    }
  }
  return undefined;
}

let packed: Promise<string> | undefined;

/** The packed Chromium's path, unpacking it on first use (about 2 s); once per process. */
function packedChromium(): Promise<string> {
  packed ??= import('@sparticuz/chromium').then((m) => m.default.executablePath());
  return packed;
}

export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumExecutable> {
  const fromEnv = env['CHROMIUM_PATH'];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file`);
    return { path: fromEnv, source: 'CHROMIUM_PATH', args: [] };
  }
  const system = systemChromium(env['PATH']);
  if (system) return { path: system, source: 'system', args: [] };
  // The packed build is a headless shell made for one process per browser; it needs its software GL.
  return { path: await packedChromium(), source: '@sparticuz/chromium', args: ['--use-gl=angle', '--use-angle=swiftshader', '--in-process-gpu'] };
}
