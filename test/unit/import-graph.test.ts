/**
 * The layers' import graph (issue 17 parts 4 and 6): `core/` is pure (it imports neither `lib/` nor `server/` nor
 * `build-scripts/`); `server/` and `build-scripts/` share I/O through `lib/` and never import each other; `site/`
 * imports only `core/` (and packages): the data its pages show is written by the build (build-scripts/site-data.ts)
 * and read as documents, so the site runs no query. Every
 * `.ts` (and `.astro`) file under the layers is read and its imports resolved: static `import … from`,
 * `export … from`, side-effect `import '…'`, and dynamic `import('…')`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LAYERS = ['server', 'build-scripts', 'core', 'lib', 'site'] as const;
type Layer = (typeof LAYERS)[number];

/** Import edges a layer must not have. */
const FORBIDDEN: Record<Layer, readonly string[]> = {
  core: ['lib', 'server', 'build-scripts'],
  server: ['build-scripts'],
  'build-scripts': ['server'],
  lib: [],
  // the site is glue: it reads the documents the build wrote (core/site-data/) and renders them (issue 17 part 6)
  site: ['lib', 'build-scripts', 'server'],
};

/** The module specifiers a source text imports. */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!);
  return specs;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|astro)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

interface Edge {
  from: string;
  to: string;
  fromLayer: Layer;
  toLayer: string;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const layer of LAYERS) {
    for (const file of sourcesUnder(layer)) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(ROOT, resolve(dirname(file), spec));
        out.push({ from: relative(ROOT, file), to: target, fromLayer: layer, toLayer: target.split(sep)[0]! });
      }
    }
  }
  return out;
}

describe('import graph', () => {
  test('the parser finds every form of import', () => {
    const text = [
      "import { a } from '../lib/a.ts';",
      'import type {\n  B,\n  C,\n} from "../server/b.ts";',
      "export { d } from './d.ts';",
      "export * from '../core/e.ts';",
      "import '../site/side-effect.ts';",
      "const { f } = await import('../build-scripts/f.ts');",
      "import g from 'node:fs';",
      "// from './not-an-import.ts' in a comment is not an import",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['../build-scripts/f.ts', '../core/e.ts', '../lib/a.ts', '../server/b.ts', '../site/side-effect.ts', './d.ts', 'node:fs'].sort());
  });

  test('no layer imports a layer it must not: core is pure, server and build-scripts meet only in lib', () => {
    const all = edges();
    // the graph is real: every layer's files were read and their imports resolved
    for (const layer of LAYERS) expect(all.filter((e) => e.fromLayer === layer).length, layer).toBeGreaterThan(5);
    expect(all.some((e) => e.fromLayer === 'server' && e.toLayer === 'lib')).toBe(true);
    expect(all.some((e) => e.fromLayer === 'build-scripts' && e.toLayer === 'lib')).toBe(true);
    const crossings = all.filter((e) => FORBIDDEN[e.fromLayer].includes(e.toLayer)).map((e) => `${e.from} -> ${e.to}`);
    expect(crossings).toEqual([]);
  });
});

/** Files of the site that hold SQL text, each for a reason that runs none at build time. */
const SQL_TEXT_ALLOWED: Record<string, string> = {
  'site/lib/query-examples.ts': 'example queries shown on /query/, run by DuckDB-WASM in the reader\'s browser',
  'site/pages/docs/downloads.astro': 'example queries shown to the reader (DuckDB, pandas)',
  'site/scripts/duckdb-query.ts': 'the /query/ page\'s browser script (DuckDB-WASM)',
};

const SQL_TEXT = /\b(?:SELECT\b[\s\S]{0,300}?\bFROM|INSERT\s+INTO|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\s+)?(?:TABLE|VIEW)|ATTACH\s+['"])\b/;

describe('the site runs no query', () => {
  const files = readdirSync(join(ROOT, 'site'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|astro|mjs|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'));

  test('the SQL pattern finds SQL and not prose', () => {
    expect(SQL_TEXT.test("all(conn, 'SELECT resource_id, locale, label FROM labels ORDER BY resource_id')")).toBe(true);
    expect(SQL_TEXT.test('CREATE OR REPLACE VIEW files AS SELECT 1')).toBe(true);
    expect(SQL_TEXT.test("ATTACH 'x.duckdb'")).toBe(true);
    expect(SQL_TEXT.test('Select a radar from the list')).toBe(false);
  });

  test('no site file imports a DuckDB for Node; DuckDB-WASM only in the browser scripts', () => {
    expect(files.length).toBeGreaterThan(50);
    const bad: string[] = [];
    for (const f of files) {
      for (const spec of importsOf(readFileSync(join(ROOT, f), 'utf8'))) {
        if (!spec.startsWith('@duckdb/')) continue;
        if (spec === '@duckdb/duckdb-wasm' && f.startsWith('site/scripts/')) continue;
        bad.push(`${f} -> ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test('no site file holds SQL, but the examples shown to readers', () => {
    const withSql = files.filter((f) => SQL_TEXT.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(withSql.filter((f) => !(f in SQL_TEXT_ALLOWED))).toEqual([]);
    // the allowed list is kept exact: a file that no longer holds SQL leaves it
    expect(Object.keys(SQL_TEXT_ALLOWED).filter((f) => !withSql.includes(f))).toEqual([]);
  });
});
