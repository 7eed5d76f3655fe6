/**
 * The site's inputs and their key (docs/site-notes.md "Daily builds: what the site's pages read"): while Astro builds the pages, site/lib/data.ts
 * records every read of the build folder as a key (`build:<name>` a file beside build.json, `file:<rel>` a tree
 * file read whole, `has:<rel>` whether the tree holds a file, `bytes:<rel>` its size, `start:<max>:<rel>` its
 * first bytes, `files:<rel>` / `folders:<rel>` a folder's listing). The site's key is the SHA-256 of the code the
 * pages are made from and of each input's value in the build folder. `<build>/site-inputs.json` keeps the key,
 * the inputs and the site's files; a later build whose inputs have the same values has the same pages, byte for
 * byte, and keeps them instead of running Astro.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SITE_INPUTS } from '../../core/site-data/inputs.ts';
import type { TreeWriter } from './tree-writer.ts';

export const SITE_INPUTS_FILE = 'site-inputs.json';

/** `<build>/site-inputs.json`. */
export interface SiteInputsRecord {
  /** SHA-256 of the code and of the inputs' values (siteKey). */
  key: string;
  /** The inputs the pages read, sorted. */
  inputs: string[];
  /** The site's files, tree-relative, sorted (as site-files.json). */
  files: string[];
  /** Each file's digest as the build's writer knew it (TreeWriter.files), in `files`' order; absent for a site made without a writer (`npm run site`). */
  digests?: string[];
}

/**
 * The code the pages are made from: their sources, the shared core, the assets, the packages' versions (and
 * Node's, below). Nothing else of the repository reaches a page: test/unit/import-graph.test.ts keeps `site/`
 * from importing `lib/`, `build-scripts/` and `server/`.
 */
const CODE = ['site', 'public', 'core', 'astro.config.mjs', 'package-lock.json'];

const codeKeys = new Map<string, string>();

/** SHA-256 of the code under `root` that makes the pages (CODE, every file by path and bytes) and of Node's version; once per process. */
export function codeKey(root: string): string {
  let key = codeKeys.get(root);
  if (key) return key;
  const h = createHash('sha256').update(`node ${process.version}\n`);
  for (const top of CODE) {
    const abs = join(root, top);
    if (!existsSync(abs)) continue;
    const files = statSync(abs).isDirectory()
      ? readdirSync(abs, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
          .sort()
      : [top];
    for (const rel of files) h.update(`${rel}\0`).update(readFileSync(join(root, rel))).update('\n');
  }
  key = h.digest('hex');
  codeKeys.set(root, key);
  return key;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

function statOf(abs: string) {
  try {
    return statSync(abs);
  } catch {
    return undefined;
  }
}

/**
 * An input's value in the build folder now. A tree file this build wrote is known by its digest (the writer's);
 * else its bytes are read. Only the first bytes a page read of a file are hashed (a collection may be gigabytes).
 */
export function inputValue(folder: string, input: string, writer?: TreeWriter): string {
  const colon = input.indexOf(':');
  const kind = input.slice(0, colon);
  let rel = input.slice(colon + 1);
  const tree = (r: string) => join(folder, 'site', r);
  switch (kind) {
    case 'build': {
      const st = statOf(join(folder, rel));
      return st?.isFile() ? md5(readFileSync(join(folder, rel))) : 'none';
    }
    case 'file': {
      const known = writer?.files.get(rel);
      if (known) return `${known.bytes} ${known.md5}`;
      const st = statOf(tree(rel));
      return st?.isFile() ? `${st.size} ${md5(readFileSync(tree(rel)))}` : 'none';
    }
    case 'has':
      return statOf(tree(rel))?.isFile() ? 'file' : 'none';
    case 'bytes': {
      const st = statOf(tree(rel));
      return st ? String(st.size) : 'none';
    }
    case 'start': {
      const at = rel.indexOf(':');
      const max = Number(rel.slice(0, at));
      rel = rel.slice(at + 1);
      const st = statOf(tree(rel));
      if (!st?.isFile()) return 'none';
      const buf = Buffer.alloc(Math.min(max, st.size));
      const fd = openSync(tree(rel), 'r');
      try {
        const n = readSync(fd, buf, 0, buf.length, 0);
        return `${st.size} ${md5(buf.subarray(0, n))}`;
      } finally {
        closeSync(fd);
      }
    }
    case 'files':
    case 'folders': {
      const st = statOf(tree(rel));
      if (!st?.isDirectory()) return 'none';
      return readdirSync(tree(rel), { withFileTypes: true })
        .filter((e) => (kind === 'files' ? e.isFile() : e.isDirectory()))
        .map((e) => e.name)
        .sort()
        .join('/');
    }
    default:
      // an input this code does not know: never equal, so the site is made again
      return `unknown ${Math.random()}`;
  }
}

/** The site's key: its code's and each input's value (inputs in the order given: sorted). */
export function siteKey(root: string, folder: string, inputs: readonly string[], writer?: TreeWriter): string {
  const h = createHash('sha256').update(codeKey(root)).update('\n');
  for (const input of inputs) h.update(`${input}\0${inputValue(folder, input, writer)}\n`);
  return h.digest('hex');
}

/** Starts recording what the pages read (site/lib/data.ts adds to this set); returns the set. */
export function recordInputs(): Set<string> {
  const set = new Set<string>();
  (globalThis as { [SITE_INPUTS]?: Set<string> })[SITE_INPUTS] = set;
  return set;
}

export function stopRecording(): void {
  delete (globalThis as { [SITE_INPUTS]?: Set<string> })[SITE_INPUTS];
}

/** The record a build left in `folder`, if it is one this code can read. */
export function readSiteInputs(folder: string | undefined): SiteInputsRecord | undefined {
  if (!folder) return undefined;
  const path = join(folder, SITE_INPUTS_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as Partial<SiteInputsRecord>;
    const strings = (a: unknown): a is string[] => Array.isArray(a) && a.every((x) => typeof x === 'string');
    if (typeof r.key !== 'string' || !strings(r.inputs) || !strings(r.files) || r.inputs.length === 0) return undefined;
    const digests = strings(r.digests) && r.digests.length === r.files.length ? { digests: r.digests } : {};
    return { key: r.key, inputs: r.inputs, files: r.files, ...digests };
  } catch {
    return undefined;
  }
}
