/**
 * npm run site -- --build dist [--quiet]
 *
 * Builds the documentation site (Astro, `site/pages/`) of a finished build and places its pages into the
 * build's static tree, `<build>/site/`, beside the API files: `/` (index.html), `/docs/…`, `/browse/…` and
 * the assets of `public/`. First the data each page family shows is written into `<build>/site-data/`
 * (site-data.ts: the tree's collections, the radar browse summary, the timeseries database); the pages read
 * those documents, `<build>/build.json` and small JSON files of the tree (SNAPCAT_BUILD), no database;
 * Astro writes into a scratch folder `.astro-out/<random>/` of the repository (SNAPCAT_SITE_OUT), whose files
 * then move into the tree. (Astro 7 bundles the pages into `<outDir>/.prerender/` only when outDir lies in
 * the working directory, else into `<cwd>/.astro/`, where they could not import their packages and where two
 * builds would meet: so the scratch folder is in the repository and the build runs from there.) A page whose name is already a file of the API tree fails the build, nothing moved. Rebuilding
 * replaces the pages of the last site build (listed in `<build>/site-files.json`). Telemetry is off and
 * nothing is fetched from the network.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { commandLine, type CliOption, type CliSpec } from '../lib/cli.ts';
import { writeSiteData } from './site-data.ts';
import { placeSiteFiles, placeSiteFilesWith, SITE_FILES_MANIFEST } from './lib/site-files.ts';
import { forgetTreeState } from './lib/tree-state.ts';
import { remakeTreeManifest } from './lib/tree-manifest.ts';
import type { TreeWriter } from './lib/tree-writer.ts';

/** The repository root: where astro.config.mjs, site/ and public/ are. */
const ROOT = resolve(dirname(import.meta.dirname));

export interface SiteResult {
  /** HTML pages placed. */
  pages: number;
  seconds: number;
}

const ENV_KEYS = ['SNAPCAT_BUILD', 'SNAPCAT_SITE_OUT', 'ASTRO_TELEMETRY_DISABLED', 'NODE_ENV'] as const;

/**
 * `writer`: the writer of a build in progress, which places the pages (and compares them with its base tree);
 * without one (`npm run site` on a finished build), the pages replace those of the last site build.
 */
export async function buildSite(opts: { buildFolder: string; quiet?: boolean; writer?: TreeWriter }): Promise<SiteResult> {
  const t0 = performance.now();
  const folder = await realpath(resolve(opts.buildFolder)).catch(() => {
    throw new Error(`no build folder at ${opts.buildFolder}: run npm run build first`);
  });
  if (!existsSync(join(folder, 'build.json'))) throw new Error(`${opts.buildFolder} is no build: it has no build.json`);
  const siteDir = join(folder, 'site');
  if (!existsSync(siteDir)) throw new Error(`${opts.buildFolder} has no static tree (site/): a --db-only build has none to add pages to`);

  await mkdir(join(ROOT, '.astro-out'), { recursive: true });
  const scratch = await mkdtemp(join(ROOT, '.astro-out', 'site-'));
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  const cwd = process.cwd();
  if (cwd !== ROOT) process.chdir(ROOT);
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  process.env.SNAPCAT_BUILD = folder;
  process.env.SNAPCAT_SITE_OUT = scratch;
  try {
    // the data each page family shows, computed before Astro runs: the pages only read it (site-data.ts)
    await writeSiteData(folder);
    // imported here: loading Astro costs a second the API build should not pay when it makes no site
    const { build } = await import('astro');
    await build({ root: ROOT, configFile: 'astro.config.mjs' /* joined to root by Astro 7, even when absolute */, outDir: scratch, mode: 'production', logLevel: opts.quiet ? 'error' : 'info' });
    const manifest = join(folder, SITE_FILES_MANIFEST);
    if (!opts.writer) forgetTreeState(folder);
    const files = opts.writer ? await placeSiteFilesWith(opts.writer, scratch, manifest) : await placeSiteFiles(scratch, siteDir, manifest);
    // pages changed in a finished tree: its manifest is made again from the files (tree-manifest.ts)
    if (!opts.writer) remakeTreeManifest(folder);
    const pages = files.filter((f) => f.endsWith('.html')).length;
    const seconds = (performance.now() - t0) / 1000;
    if (!opts.quiet) process.stderr.write(`site: ${pages} pages (${files.length} files) in ${seconds.toFixed(1)} s -> ${siteDir}\n`);
    return { pages, seconds };
  } finally {
    if (process.cwd() !== cwd) process.chdir(cwd);
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `npm run site`'s command line (lib/cli.ts). */
export const SITE_CLI = {
  command: 'npm run site --',
  usage: '[--build dist] [--quiet]',
  summary: `Rebuilds the documentation and browsing site (Astro) of a finished build into its static tree, replacing the
pages of the last site build, and makes the tree's manifest again. A --db-only build has no tree to add pages to.`,
  options: {
    build: { type: 'string', value: 'DIR', default: 'dist', describe: 'the build' },
    quiet: { type: 'boolean', default: false, describe: "only errors, not Astro's log" },
  },
  examples: ['npm run site -- --build dist'],
} as const satisfies CliSpec<Record<string, CliOption>>;

if (import.meta.main) {
  const { values } = commandLine(SITE_CLI);
  try {
    await buildSite({ buildFolder: values.build, quiet: values.quiet });
  } catch (e) {
    console.error(`\nsite build failed: ${(e as Error).message}`);
    process.exit(1);
  }
}
