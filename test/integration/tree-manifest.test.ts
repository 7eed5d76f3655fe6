/**
 * manifest.sha256: every file of the published tree with its SHA-256, in `sha256sum -c` format. A copy of the
 * tree checks with the real `sha256sum -c` (exit 0), and a changed byte is reported FAILED; names with a
 * backslash or a newline are escaped as GNU writes them and check too. (That an incremental build's manifest is
 * the full build's, hashing only the files it wrote: incremental-build.test.ts.) The manifest written as a stream
 * (bounded memory) is byte for byte the one written before it streamed, and so is the state it saves.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { SNAPSHOTS_FILE } from '../../build-scripts/lib/snapshot-history.ts';
import { MANIFEST_FILE, manifestLine, remakeTreeManifest, TREE_SHA256_FILE, writeTreeManifest } from '../../build-scripts/lib/tree-manifest.ts';
import { TreeWriter } from '../../build-scripts/lib/tree-writer.ts';
import { Progress } from '../../build-scripts/lib/progress.ts';
import { all, openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { manifestBefore } from '../helpers/manifest-before.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

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
    const folder = runTmp(inject('demoSnapshot'), 'manifest-names');
    rmSync(folder, { recursive: true, force: true });
    const site = join(folder, 'site');
    mkdirSync(site, { recursive: true });
    const db = await openDuckDB();
    const conn = await db.connect();
    const recorder = await db.connect();
    try {
      const writer = new TreeWriter(site, new Progress(process.stderr, true));
      const names = ['plain.txt', 'back\\slash.txt', 'new\nline.txt', 'dir/sp ace.json', 'dir/ü.json'];
      for (const [i, n] of names.entries()) writer.write(n, `file ${i}\n`);
      const rows = [...writer.files].map(([p, f]) => `(${sqlString(p)}, ${sqlString(f.md5)})`).join(', ');
      const result = await writeTreeManifest(conn, recorder, writer, site, `SELECT * FROM (VALUES ${rows}) v(path, digest)`, folder, undefined);
      expect([result.hashed, result.reused]).toEqual([names.length, 0]);
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
      const again = await writeTreeManifest(conn, recorder, writer, site, `SELECT * FROM (VALUES ${rows}) v(path, digest)`, folder, folder);
      expect([again.hashed, again.reused]).toEqual([0, names.length]);
      expect(again.sha256).toBe(result.sha256);
    } finally {
      recorder.closeSync();
      conn.closeSync();
      db.closeSync();
      rmSync(folder, { recursive: true, force: true });
    }
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
  test('is byte for byte the manifest written before it streamed, with the same saved rows, into an empty folder and over a base', async () => {
    const folder = runTmp(inject('demoSnapshot'), 'manifest-streamed');
    rmSync(folder, { recursive: true, force: true });
    const site = join(folder, 'site');
    mkdirSync(site, { recursive: true });
    const db = await openDuckDB();
    const conn = await db.connect();
    const recorder = await db.connect();
    try {
      // more files than one DuckDB chunk (2,048 rows), in folders, with names GNU escapes, and a leading slash
      const writer = new TreeWriter(site, new Progress(process.stderr, true));
      const names = ['/openapi.json', 'back\\slash.txt', 'new\nline.txt', 'dir/ü.json'];
      for (let i = 0; i < 5000; i++) names.push(`d${i % 7}/f${i}.json`);
      for (const [i, n] of names.entries()) writer.write(n, `file ${i}\n`);
      const filesSql = () => `SELECT * FROM (VALUES ${[...writer.files].map(([p, f]) => `(${sqlString(p)}, ${sqlString(f.md5)})`).join(', ')}) v(path, digest)`;
      const rowsOf = async (file: string) => (await all(conn, `SELECT path, digest, sha256 FROM read_parquet(${sqlString(file)}) ORDER BY path`)).map((r) => `${r['sha256']} ${r['digest']} ${r['path']}`);
      const compare = async (baseFolder: string | undefined) => {
        const before = await manifestBefore(conn, recorder, site, filesSql(), baseFolder && join(baseFolder, TREE_SHA256_FILE), join(folder, 'before.parquet'));
        const now = await writeTreeManifest(conn, recorder, writer, site, filesSql(), folder, baseFolder);
        const manifest = readFileSync(join(site, MANIFEST_FILE));
        expect(manifest.equals(before.manifest)).toBe(true);
        expect(now.sha256).toBe(sha256(before.manifest));
        expect(now.hashed).toBe(before.hashed);
        expect(await rowsOf(join(folder, TREE_SHA256_FILE))).toEqual(await rowsOf(join(folder, 'before.parquet')));
        return now;
      };
      const first = await compare(undefined);
      expect([first.hashed, first.reused]).toEqual([names.length, 0]);
      // the next build: a few files changed, one added (their digests differ from the base's), the rest reused
      writer.write('d3/f3.json', 'changed\n');
      writer.write('new\nline.txt', 'changed too\n');
      writer.write('d0/added.json', 'added\n');
      const second = await compare(folder);
      expect([second.hashed, second.reused]).toEqual([3, names.length - 2]);
      expect(sha256sumCheck(site).status).toBe(0);
    } finally {
      recorder.closeSync();
      conn.closeSync();
      db.closeSync();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);
});
