/**
 * Incremental builds: a build over an earlier build's tree writes only the files whose bytes change, removes
 * those the new snapshot lacks, never writes into the files of the build being served, and gives the same
 * bytes as a build into an empty folder. Both ways of starting from an earlier tree are covered: `linked`
 * (the served build's tree, hard-linked) and `recycled` (the build before it, moved).
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { build, type BuildResult } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { all, openDuckDB, run, sqlString } from '../../lib/duckdb.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';

interface TreeFile {
  md5: string;
  ino: number;
}

/** Every file of a build's static tree: its bytes' MD5 and inode, by tree-relative path. */
function readTree(folder: string): Map<string, TreeFile> {
  const site = join(folder, 'site');
  const files = new Map<string, TreeFile>();
  for (const abs of walkFiles(site)) {
    files.set(relative(site, abs), { md5: createHash('md5').update(readFileSync(abs)).digest('hex'), ino: statSync(abs).ino });
  }
  return files;
}

function sameBytes(a: Map<string, TreeFile>, b: Map<string, TreeFile>): void {
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  const differing = [...a].filter(([path, f]) => b.get(path)?.md5 !== f.md5).map(([path]) => path);
  expect(differing).toEqual([]);
}

describe('incremental builds', () => {
  let work = '';
  let day2 = '';
  let day3 = '';
  const out = () => join(work, 'dist');
  let first: { result: BuildResult; tree: Map<string, TreeFile> };
  let second: { result: BuildResult; tree: Map<string, TreeFile> };
  let full: { result: BuildResult; tree: Map<string, TreeFile> };
  let firstAfter: Map<string, TreeFile>;

  beforeAll(async () => {
    work = runTmp(inject('demoSnapshot'), 'incremental');
    rmSync(work, { recursive: true, force: true });
    day2 = join(work, 'snapshot-2d');
    day3 = join(work, 'snapshot-3d');
    // history: false everywhere here: these builds compare trees of one snapshot built with different pasts (into
    // another output, over an older or newer day), and snapshots.json and the feeds record the past (docs/changes.md;
    // test/integration/changes.test.ts checks them, and that a rebuild of a snapshot gives the same)
    // one more day of the same network: the snapshot an operator publishes the next day
    await writeDemoSnapshot({ from: '2024-03-01', days: 2, seed: 5, out: day2, log: () => {} });
    await writeDemoSnapshot({ from: '2024-03-01', days: 3, seed: 5, out: day3, log: () => {} });
    const r1 = await build({ snapshot: day2, out: out(), quiet: true, history: false });
    first = { result: r1, tree: readTree(r1.folder) };
    const r2 = await build({ snapshot: day3, out: out(), quiet: true, history: false });
    second = { result: r2, tree: readTree(r2.folder) };
    firstAfter = readTree(r1.folder);
    const r3 = await build({ snapshot: day3, out: join(work, 'full'), quiet: true, full: true, history: false });
    full = { result: r3, tree: readTree(r3.folder) };
  }, 600_000);

  test('the first build starts from an empty folder; the next one from the served tree, hard-linked', () => {
    expect(first.result.base).toBeUndefined();
    expect(first.result.stats['tree files written']).toBe(first.tree.size);
    expect(second.result.base?.how).toBe('linked');
    expect(resolve(dirname(second.result.folder), second.result.base!.from)).toBe(first.result.folder);
    expect(resolve(dirname(out()), readlinkSync(out()))).toBe(second.result.folder);
  });

  test('the tree is byte for byte the one a build into an empty folder gives, and so is build.json', () => {
    expect(full.result.base).toBeUndefined();
    sameBytes(second.tree, full.tree);
    expect(readFileSync(join(second.result.folder, 'build.json'), 'utf8')).toBe(readFileSync(join(full.result.folder, 'build.json'), 'utf8'));
  });

  test('only the files whose bytes changed were written; the others are the earlier files themselves', () => {
    const rewritten: string[] = [];
    const keptChanged: string[] = [];
    for (const [path, f] of second.tree) {
      const before = first.tree.get(path);
      if (!before) continue;
      const kept = before.ino === f.ino;
      if (kept && before.md5 !== f.md5) keptChanged.push(path);
      if (!kept && before.md5 === f.md5) rewritten.push(path);
    }
    expect(keptChanged).toEqual([]);
    expect(rewritten).toEqual([]);
    const unchanged = [...second.tree].filter(([path, f]) => first.tree.get(path)?.md5 === f.md5).length;
    const removed = [...first.tree.keys()].filter((path) => !second.tree.has(path)).length;
    expect(second.result.stats['tree files kept']).toBe(unchanged);
    expect(second.result.stats['tree files written']).toBe(second.tree.size - unchanged);
    expect(second.result.stats['tree files removed']).toBe(removed);
    // one more day leaves most of a catalogue as it was
    expect(unchanged).toBeGreaterThan(second.tree.size / 2);
  });

  test('the manifest is the full build\'s, and the incremental build hashed only the files it wrote, as it wrote them', () => {
    const manifest = (r: BuildResult) => readFileSync(join(r.folder, 'site', 'manifest.sha256'));
    expect(manifest(second.result).equals(manifest(full.result))).toBe(true);
    const digest = (r: BuildResult) => (JSON.parse(readFileSync(join(r.folder, 'build.json'), 'utf8')) as { manifestSha256: string }).manifestSha256;
    expect(digest(second.result)).toBe(createHash('sha256').update(manifest(second.result)).digest('hex'));
    // every file but the manifest is listed; the first build hashed them all as it wrote them (none read back),
    // the second only those it wrote
    expect(first.result.stats['manifest files hashed when written']).toBe(first.tree.size - 1);
    expect(first.result.stats['manifest files hashed']).toBe(0);
    expect(first.result.stats['manifest files reused']).toBe(0);
    const written = second.result.stats['tree files written']! - 1;
    expect(written).toBeGreaterThan(0);
    expect(second.result.stats['manifest files hashed when written']! + second.result.stats['manifest files hashed']!).toBe(written);
    expect(second.result.stats['manifest files reused']).toBe(second.tree.size - 1 - written);
    // read back: only the collections continued after bytes of the base the writer kept unread (tree-writer.ts continueBase)
    expect(second.result.stats['manifest files hashed']).toBeLessThanOrEqual(second.result.stats['manifest files hashed when written']! / 100);
  });

  test('the files of the served build were not written to', () => {
    sameBytes(firstAfter, first.tree);
  });

  test('with the served build old enough, the build before it is recycled in place', async () => {
    // dist -> day 3 now; the day-2 folder is the one before it. Building day 2 again recycles that folder:
    // nothing differs, so nothing is written.
    const again = await build({ snapshot: day2, out: out(), quiet: true, recycleAfterMs: 0, history: false });
    expect(again.base?.how).toBe('recycled');
    expect(again.stats['tree files written']).toBe(0);
    expect(again.stats['manifest files hashed']).toBe(0);
    sameBytes(readTree(again.folder), first.tree);
    // and back to day 3 over the day-3 folder, recycled too, against the build into an empty folder
    const third = await build({ snapshot: day3, out: out(), quiet: true, recycleAfterMs: 0, history: false });
    expect(third.base?.how).toBe('recycled');
    expect(third.stats['tree files written']).toBe(0);
    sameBytes(readTree(third.folder), full.tree);
  }, 300_000);

  test('a record changed far back, and one removed, are rewritten where they appear: id files and collections', async () => {
    // day 3 with an old file's checksum corrected and another file (with its transfer instances) withdrawn: the
    // build hashes only the files of changed keys and cuts the collections at the lowest one (tree-state.ts)
    const edited = join(work, 'snapshot-3d-edited');
    cpSync(day3, edited, { recursive: true });
    const db = await openDuckDB();
    const conn = await db.connect();
    try {
      const read = (t: string) => `read_parquet(${sqlString(join(day3, `${t}.parquet`))})`;
      const [ids] = await all(conn, `SELECT CAST(quantile_disc(id, 0.2) AS BIGINT) AS changed, CAST(quantile_disc(id, 0.4) AS BIGINT) AS removed FROM ${read('files')}`);
      const [changed, removed] = [Number(ids!['changed']), Number(ids!['removed'])];
      const write = (t: string, sql: string) => run(conn, `COPY (${sql}) TO ${sqlString(join(edited, `${t}.parquet`))} (FORMAT parquet)`);
      await write('files', `SELECT * REPLACE (CASE WHEN id = ${changed} THEN repeat('0', 40) ELSE checksum END AS checksum) FROM ${read('files')} WHERE id <> ${removed}`);
      await write('transfer_instances', `SELECT * FROM ${read('transfer_instances')} WHERE file_id <> ${removed}`);
      // built over the served tree, hard-linked: its files, shared, must not be written to
      const served = resolve(dirname(out()), readlinkSync(out()));
      const servedTree = readTree(served);
      const over = await build({ snapshot: edited, out: out(), quiet: true, history: false });
      expect(over.base?.how).toBe('linked');
      sameBytes(readTree(served), servedTree);
      const fullEdited = await build({ snapshot: edited, out: join(work, 'full-edited'), quiet: true, full: true, history: false });
      const tree = readTree(over.folder);
      sameBytes(tree, readTree(fullEdited.folder));
      const before = readTree(full.result.folder);
      expect(tree.get(`radarnet/mirror/v3/files/${changed}.json`)?.md5).not.toBe(before.get(`radarnet/mirror/v3/files/${changed}.json`)?.md5);
      expect(tree.has(`radarnet/mirror/v3/files/${removed}.json`)).toBe(false);
      expect(before.has(`radarnet/mirror/v3/files/${removed}.json`)).toBe(true);
      expect(over.stats['tree files removed']).toBeGreaterThan(0);
      // a few id files and the collections that hold them, not the catalogue
      expect(over.stats['tree files written']).toBeLessThan(tree.size / 10);
      // the same snapshot over the recycled day-3 folder: collections rewritten since the served build's first
      // are continued in place (same inode, new bytes), and the served build's files are not touched
      const servedBefore = readTree(over.folder);
      const older = readdirSync(`${out()}.builds`).map((e) => join(`${out()}.builds`, e)).find((f) => f !== over.folder)!;
      const collection = 'radarnet/mirror/v3/files.json';
      const olderFile = readTree(older).get(collection)!;
      const recycled = await build({ snapshot: edited, out: out(), quiet: true, recycleAfterMs: 0, history: false });
      expect(recycled.base?.how).toBe('recycled');
      const recycledTree = readTree(recycled.folder);
      sameBytes(recycledTree, readTree(fullEdited.folder));
      expect(recycledTree.get(collection)!.ino).toBe(olderFile.ino);
      expect(recycledTree.get(collection)!.md5).not.toBe(olderFile.md5);
      sameBytes(readTree(over.folder), servedBefore);
      // a collection the state says is intact is kept unread: one changed outside a build (another stamp) is not
      // trusted, but made again
      const next = readdirSync(`${out()}.builds`).map((e) => join(`${out()}.builds`, e)).find((f) => f !== recycled.folder)!;
      const tampered = join(next, 'site', collection);
      const bytes = readFileSync(tampered);
      bytes[1] = bytes[1] === 0x7b ? 0x20 : 0x7b;
      writeFileSync(tampered, bytes);
      const again = await build({ snapshot: edited, out: out(), quiet: true, recycleAfterMs: 0, history: false });
      expect(again.base?.how).toBe('recycled');
      sameBytes(readTree(again.folder), readTree(fullEdited.folder));
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }, 300_000);

  test('a record changed in the first block of a collection keeps the blocks after it, copied as they were', async () => {
    // blocks of 1,024 keys (tree-state.ts KEYS_PER_CUT): a change below key 1,024 of some 3,000 files leaves the
    // second block as it was; the file is a copy of the base's with the first block made again. Over the
    // recycled folder of the last test's snapshot, which this one differs from by that one record.
    const base = join(work, 'snapshot-3d-edited');
    const edited = join(work, 'snapshot-3d-first-block');
    cpSync(base, edited, { recursive: true });
    const db = await openDuckDB();
    const conn = await db.connect();
    try {
      const read = (t: string) => `read_parquet(${sqlString(join(base, `${t}.parquet`))})`;
      const [row] = await all(conn, `SELECT CAST(quantile_disc(id, 0.1) AS BIGINT) AS changed, max(id) AS last FROM ${read('files')}`);
      const changed = Number(row!['changed']);
      expect(changed).toBeLessThan(1024);
      expect(Number(row!['last'])).toBeGreaterThan(2048);
      await run(conn, `COPY (SELECT * REPLACE (CASE WHEN id = ${changed} THEN file_size + 12345 ELSE file_size END AS file_size) FROM ${read('files')}) TO ${sqlString(join(edited, 'files.parquet'))} (FORMAT parquet)`);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    const over = await build({ snapshot: edited, out: out(), quiet: true, recycleAfterMs: 0, history: false });
    expect(over.base?.how).toBe('recycled');
    const fullEdited = await build({ snapshot: edited, out: join(work, 'full-first-block'), quiet: true, full: true, history: false });
    sameBytes(readTree(over.folder), readTree(fullEdited.folder));
  }, 300_000);

  test('a base whose tree state numbers its tags by position (version 3, before tags were named) is no base: a full build', async () => {
    // every build kept beside the served one gets the state an older snapcat wrote: its tags by position in the route table
    const builds = `${out()}.builds`;
    for (const entry of readdirSync(builds)) {
      const file = join(builds, entry, 'tree-state.json');
      const meta = JSON.parse(readFileSync(file, 'utf8')) as { version: number; tags: Record<string, unknown> };
      expect(meta.version).toBe(4);
      expect(Object.keys(meta.tags)).toContain('/files/:id.json');
      const old = { ...meta, version: 3, tags: Object.fromEntries(Object.values(meta.tags).map((t, i) => [String(i), t])) };
      writeFileSync(file, JSON.stringify(old) + '\n');
    }
    const snapshot = join(work, 'snapshot-3d-first-block');
    const again = await build({ snapshot, out: out(), quiet: true, recycleAfterMs: 0, history: false });
    expect(again.base).toBeUndefined();
    const tree = readTree(again.folder);
    expect(again.stats['tree files written']).toBe(tree.size);
    sameBytes(tree, readTree(join(work, 'full-first-block')));
    // and its own state is the new one: the next build starts from it
    expect((JSON.parse(readFileSync(join(again.folder, 'tree-state.json'), 'utf8')) as { version: number }).version).toBe(4);
    const next = await build({ snapshot, out: out(), quiet: true, history: false });
    expect(next.base?.how).toBe('linked');
    expect(next.stats['tree files written']).toBe(0);
  }, 300_000);
});
