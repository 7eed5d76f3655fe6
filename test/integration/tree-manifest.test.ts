/**
 * manifest.sha256: every file of the published tree with its SHA-256, in `sha256sum -c` format. A copy of the
 * tree checks with the real `sha256sum -c` (exit 0), and a changed byte is reported FAILED; names with a
 * backslash or a newline are escaped as GNU writes them and check too. (That an incremental build's manifest is
 * the full build's, hashing only the files it wrote: incremental-build.test.ts.) The manifest written as a stream
 * (bounded memory) is byte for byte the one written before it streamed, and so is the state it saves. The SHA-256
 * of every file the writer writes is taken as it writes it: the manifest reads back only the files the writer did
 * not see whole, and a file changed on disk behind the writer's back is reported FAILED by sha256sum -c.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { SNAPSHOTS_FILE } from '../../build-scripts/lib/snapshot-history.ts';
import { MANIFEST_FILE, manifestLine, remakeTreeManifest, TREE_SHA256_FILE, writeTreeManifest, WrittenSha256 } from '../../build-scripts/lib/tree-manifest.ts';
import { TreeWriter } from '../../build-scripts/lib/tree-writer.ts';
import { Progress } from '../../build-scripts/lib/progress.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { manifestBefore } from '../helpers/manifest-before.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface ManifestFixture {
  folder: string;
  site: string;
  conn: DuckDBConnection;
  recorder: DuckDBConnection;
  /** Tree-relative paths the manifest read, in order. */
  reads: string[];
  /** A writer of `site`; with `sha256`, handing its SHA-256s to a new WrittenSha256; over `base`'s files. */
  writer(opts?: { sha256?: boolean; base?: TreeWriter }): Promise<TreeWriter>;
  /** writeTreeManifest of the files `rows` lists (`[path, digest]`), reading through the fixture (`reads`). */
  manifest(writer: TreeWriter, rows: Iterable<readonly [string, string]>, baseFolder?: string): ReturnType<typeof writeTreeManifest>;
}

/** The `[path, digest]` rows of the files a writer recorded (the tree state's `file` rows). */
function writerRows(writer: TreeWriter): [string, string][] {
  return [...writer.files].map(([p, f]) => [p, f.md5]);
}

function rowsSql(rows: Iterable<readonly [string, string]>): string {
  return `SELECT * FROM (VALUES ${[...rows].map(([p, d]) => `(${sqlString(p)}, ${sqlString(d)})`).join(', ')}) v(path, digest)`;
}

/** A scratch folder with `site/`, a DuckDB with two connections (the build's and its appenders'), writers and a counted reader. */
async function withManifestFixture(name: string, f: (x: ManifestFixture) => Promise<void>): Promise<void> {
  const folder = runTmp(inject('demoSnapshot'), name);
  rmSync(folder, { recursive: true, force: true });
  const site = join(folder, 'site');
  mkdirSync(site, { recursive: true });
  const db = await openDuckDB();
  const conn = await db.connect();
  const recorder = await db.connect();
  const reads: string[] = [];
  const read = (abs: string) => {
    reads.push(relative(site, abs));
    return readFileSync(abs);
  };
  try {
    await f({
      folder,
      site,
      conn,
      recorder,
      reads,
      writer: async (opts = {}) => {
        const sha256 = opts.sha256 ? await WrittenSha256.open(conn, recorder) : undefined;
        const base = opts.base ? new Map(writerRows(opts.base)) : undefined;
        return new TreeWriter(site, new Progress(process.stderr, true), { ...(base ? { base, overBase: true } : {}), ...(sha256 ? { sha256 } : {}) });
      },
      manifest: (writer, rows, baseFolder) => writeTreeManifest(conn, recorder, writer, site, rowsSql(rows), folder, baseFolder, { read }),
    });
  } finally {
    recorder.closeSync();
    conn.closeSync();
    db.closeSync();
    rmSync(folder, { recursive: true, force: true });
  }
}

function sha256sumCheck(folder: string): { status: number; out: string } {
  // --quiet: only what does not check is printed
  const r = spawnSync('sha256sum', ['-c', '--quiet', MANIFEST_FILE], { cwd: folder, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe('manifest.sha256 of a build', () => {
  test('lists every other file of the tree, sorted, with its SHA-256; build.json names its digest', () => {
    const build = realpathSync(inject('demoBuild'));
    const site = join(build, 'site');
    const manifest = readFileSync(join(site, MANIFEST_FILE));
    const lines = manifest.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    const listed = lines.map((l) => {
      const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(l);
      if (!m) throw new Error(`not a sha256sum line: ${l}`);
      return [m[2]!, m[1]!] as const;
    });
    // snapshots.json holds the manifest's own digest, so it is the one other file the manifest leaves out (docs/tree-manifest.md)
    const files = walkFiles(site).map((abs) => relative(site, abs)).filter((p) => p !== MANIFEST_FILE && p !== SNAPSHOTS_FILE);
    expect(listed.map(([p]) => p)).toEqual([...files].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const [path, hex] of listed) expect(hex, path).toBe(sha256(readFileSync(join(site, path))));
    const info = JSON.parse(readFileSync(join(build, 'build.json'), 'utf8')) as { manifestSha256: string };
    expect(info.manifestSha256).toBe(sha256(manifest));
  });

  test('a copy of the tree checks with sha256sum -c; a changed byte is reported FAILED', () => {
    const copy = runTmp(inject('demoSnapshot'), 'manifest-copy');
    rmSync(copy, { recursive: true, force: true });
    cpSync(join(realpathSync(inject('demoBuild')), 'site'), copy, { recursive: true, dereference: true });
    try {
      const ok = sha256sumCheck(copy);
      expect(ok.out).toBe('');
      expect(ok.status).toBe(0);
      const victim = 'radarnet/mirror/v3/radars.json';
      const bytes = readFileSync(join(copy, victim));
      bytes[0] = bytes[0]! ^ 1;
      writeFileSync(join(copy, victim), bytes);
      const bad = sha256sumCheck(copy);
      expect(bad.status).toBe(1);
      expect(bad.out.split('\n').filter((l) => l.includes('FAILED'))).toEqual([`${victim}: FAILED`]);
      expect(bad.out).toMatch(/WARNING: 1 computed checksum did NOT match/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('manifest names', () => {
  test('a backslash or a newline in a name is escaped as GNU sha256sum writes it, and the copy checks', async () => {
    await withManifestFixture('manifest-names', async ({ folder, site, conn, reads, writer: newWriter, manifest }) => {
      // a writer without a SHA-256 sink: every file is read back and hashed
      const writer = await newWriter();
      const names = ['plain.txt', 'back\\slash.txt', 'new\nline.txt', 'dir/sp ace.json', 'dir/ü.json'];
      for (const [i, n] of names.entries()) writer.write(n, `file ${i}\n`);
      const result = await manifest(writer, writerRows(writer), undefined);
      expect([result.hashed, result.written, result.reused]).toEqual([names.length, 0, 0]);
      expect([...reads].sort()).toEqual([...names].sort());
      const text = readFileSync(join(site, MANIFEST_FILE), 'utf8');
      expect(text).toContain(`\\${sha256(Buffer.from('file 1\n'))}  back\\\\slash.txt\n`);
      expect(text).toContain(`\\${sha256(Buffer.from('file 2\n'))}  new\\nline.txt\n`);
      expect(text.split('\n')).toHaveLength(names.length + 1);
      // the lines a manifest made again outside a build writes (remakeTreeManifest) are the same
      const sorted = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect(sorted.map((n) => manifestLine(sha256(readFileSync(join(site, n))), n)).join('')).toBe(text);
      const check = sha256sumCheck(site);
      expect(check.status, check.out).toBe(0);
      // the next build's state: each file's SHA-256 by path and digest
      const saved = await all(conn, `SELECT count(*) AS n FROM read_parquet(${sqlString(join(folder, TREE_SHA256_FILE))})`);
      expect(Number(saved[0]!['n'])).toBe(names.length);
      // over that base, nothing is read again: the same manifest from the saved digests
      reads.length = 0;
      const again = await manifest(writer, writerRows(writer), folder);
      expect([again.hashed, again.written, again.reused]).toEqual([0, 0, names.length]);
      expect(reads).toEqual([]);
      expect(again.sha256).toBe(result.sha256);
    });
  }, 240_000);
});

describe('a tree changed outside a build (npm run site)', () => {
  test('its manifest is made again from every file, and build.json names the new digest', () => {
    const folder = runTmp(inject('demoSnapshot'), 'manifest-remade');
    rmSync(folder, { recursive: true, force: true });
    const build = realpathSync(inject('demoBuild'));
    cpSync(join(build, 'site'), join(folder, 'site'), { recursive: true, dereference: true });
    cpSync(join(build, 'build.json'), join(folder, 'build.json'));
    try {
      mkdirSync(join(folder, 'site', 'docs', 'extra'), { recursive: true });
      writeFileSync(join(folder, 'site', 'docs', 'extra', 'index.html'), '<p>a page added by npm run site</p>\n');
      const digest = remakeTreeManifest(folder);
      const manifest = readFileSync(join(folder, 'site', MANIFEST_FILE));
      expect(digest).toBe(sha256(manifest));
      expect(manifest.toString()).toContain('  docs/extra/index.html\n');
      expect((JSON.parse(readFileSync(join(folder, 'build.json'), 'utf8')) as { manifestSha256: string }).manifestSha256).toBe(digest);
      const check = sha256sumCheck(join(folder, 'site'));
      expect(check.status, check.out).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('the streamed manifest', () => {
  test.each([
    ['read back (a writer without a SHA-256 sink)', false],
    ['taken as written (WrittenSha256)', true],
  ])('is byte for byte the manifest written before it streamed, with the same saved rows, into an empty folder and over a base: %s', async (_, withSha256) => {
    await withManifestFixture(`manifest-streamed-${withSha256}`, async ({ folder, site, conn, recorder, reads, writer: newWriter, manifest }) => {
      // more files than one DuckDB chunk (2,048 rows), in folders, with names GNU escapes, and a leading slash
      const writer = await newWriter({ sha256: withSha256 });
      const names = ['/openapi.json', 'back\\slash.txt', 'new\nline.txt', 'dir/ü.json'];
      for (let i = 0; i < 5000; i++) names.push(`d${i % 7}/f${i}.json`);
      for (const [i, n] of names.entries()) writer.write(n, `file ${i}\n`);
      const rowsOf = async (file: string) => (await all(conn, `SELECT path, digest, sha256 FROM read_parquet(${sqlString(file)}) ORDER BY path`)).map((r) => `${r['sha256']} ${r['digest']} ${r['path']}`);
      const compare = async (w: TreeWriter, baseFolder: string | undefined) => {
        const before = await manifestBefore(conn, recorder, site, rowsSql(writerRows(w)), baseFolder && join(baseFolder, TREE_SHA256_FILE), join(folder, 'before.parquet'));
        reads.length = 0;
        const now = await manifest(w, writerRows(w), baseFolder);
        const bytes = readFileSync(join(site, MANIFEST_FILE));
        expect(bytes.equals(before.manifest)).toBe(true);
        expect(now.sha256).toBe(sha256(before.manifest));
        // the files the former writer read and hashed: read back now, or hashed as written
        expect(now.hashed + now.written).toBe(before.hashed);
        expect(reads).toHaveLength(now.hashed);
        expect(await rowsOf(join(folder, TREE_SHA256_FILE))).toEqual(await rowsOf(join(folder, 'before.parquet')));
        return now;
      };
      const first = await compare(writer, undefined);
      expect([first.hashed + first.written, first.reused]).toEqual([names.length, 0]);
      expect(first.hashed).toBe(withSha256 ? 0 : names.length);
      // the next build over it: the same files, a few changed, one added (their digests differ from the base's),
      // the rest kept and their SHA-256s reused
      const next = await newWriter({ sha256: withSha256, base: writer });
      for (const [i, n] of names.entries()) next.write(n, `file ${i}\n`);
      next.write('d3/f3.json', 'changed\n');
      next.write('new\nline.txt', 'changed too\n');
      next.write('d0/added.json', 'added\n');
      const second = await compare(next, folder);
      expect([second.hashed + second.written, second.reused]).toEqual([3, names.length - 2]);
      expect(second.hashed).toBe(withSha256 ? 0 : 3);
      expect(sha256sumCheck(site).status).toBe(0);
    });
  }, 240_000);
});

describe('SHA-256s taken as the writer writes', () => {
  test('every way into the tree is hashed as written; only a continued collection and a link to a kept file are read back', async () => {
    await withManifestFixture('manifest-written', async ({ folder, site, reads, writer: newWriter, manifest }) => {
      const outside = join(folder, 'outside');
      mkdirSync(outside, { recursive: true });
      const writer = await newWriter({ sha256: true });
      const decided: [string, string][] = [];
      writer.write('a.json', '{"a":1}\n');
      writer.link('a.json', 'a-link.json');
      // a collection written piece by piece, in three pieces
      const col = writer.open('col.json');
      col.append('[1');
      col.mark();
      col.append(',2');
      col.mark();
      col.append(',3]');
      const colState = col.close();
      const col2 = writer.open('col2.json');
      col2.append('[7');
      col2.mark();
      col2.append(',8]');
      const col2State = col2.close();
      // id files, decided elsewhere and written by the worker thread, and a link to one
      writer.startBackground();
      for (let i = 0; i < 3; i++) writer.writeDecided(`id/${i}.json`, `{"id":${i}}`);
      writer.linkDecided('id/1.json', 'id/1-expanded.json');
      await writer.finishBackground();
      decided.push(...[0, 1, 2].map((i) => [`id/${i}.json`, `d${i}`] as [string, string]), ['id/1-expanded.json', 'd1']);
      writeFileSync(join(outside, 'chart.png'), 'a chart');
      writer.linkFrom(join(outside, 'chart.png'), 'chart.png', 7);
      writeFileSync(join(outside, 'page.html'), '<p>a page</p>');
      writer.moveIn(join(outside, 'page.html'), 'docs/page.html');
      const first = await manifest(writer, [...writerRows(writer), ...decided], undefined);
      expect(reads).toEqual([]);
      expect([first.hashed, first.written, first.reused]).toEqual([0, 10, 0]);
      expect(sha256sumCheck(site)).toEqual({ status: 0, out: '' });

      // over that tree: the collection continued after its first piece (bytes the writer keeps unread), a new
      // collection made of a piece of the base's (read as it is copied), and a new link to a file kept from the base
      const next = await newWriter({ sha256: true, base: writer });
      next.write('a.json', '{"a":1}\n');
      next.link('a.json', 'a-link.json');
      next.link('a.json', 'a-link-2.json');
      const continued = next.continueBase('col.json', colState.pieces.slice(0, 1));
      continued.append(',4]');
      continued.close();
      const copied = next.continueBase('col2.json', [], { copy: true });
      copied.appendBasePiece(0, 2, col2State.pieces[0]![1]);
      copied.mark();
      copied.append(']');
      copied.close();
      next.write('chart.png', 'another chart');
      const second = await manifest(next, [...writerRows(next), ...decided, ['docs/page.html', writer.files.get('docs/page.html')!.md5]], folder);
      expect([...reads].sort()).toEqual(['a-link-2.json', 'col.json']);
      expect([second.hashed, second.written, second.reused]).toEqual([2, 2, 7]);
      expect(readFileSync(join(site, 'col.json'), 'utf8')).toBe('[1,4]');
      expect(readFileSync(join(site, 'col2.json'), 'utf8')).toBe('[7]');
      expect(sha256sumCheck(site)).toEqual({ status: 0, out: '' });
    });
  }, 240_000);

  test('a file changed on disk after the writer wrote it keeps the SHA-256 of what was written: sha256sum -c reports it FAILED', async () => {
    await withManifestFixture('manifest-changed-behind', async ({ site, reads, writer: newWriter, manifest }) => {
      const writer = await newWriter({ sha256: true });
      writer.write('kept.json', 'as written\n');
      writer.write('changed.json', 'as written\n');
      // something outside the build changes a file between its write and the manifest
      writeFileSync(join(site, 'changed.json'), 'changed behind the writer\n');
      const result = await manifest(writer, writerRows(writer), undefined);
      expect(reads).toEqual([]);
      expect(result.written).toBe(2);
      expect(readFileSync(join(site, MANIFEST_FILE), 'utf8')).toContain(`${sha256(Buffer.from('as written\n'))}  changed.json\n`);
      const check = sha256sumCheck(site);
      expect(check.status).toBe(1);
      expect(check.out.split('\n').filter((l) => l.includes('FAILED'))).toEqual(['changed.json: FAILED']);
    });
  }, 240_000);
});
