/**
 * Snapshot history and the change API over two consecutive demo snapshots (the second built over the first):
 * the change API lists exactly the difference computed here, independently, from the two snapshots' Parquet
 * files (a DuckDB query of its own), in JSON, CSV and the checksum report; the timeseries change set likewise;
 * `since` older than the kept history is 410; /snapshots.json is the tree's file byte for byte; the Atom feeds
 * parse as Atom, hold the entries the snapshots give (counted independently too), are linked from their pages
 * and are the same bytes after a rebuild of the same snapshot.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { writeDemoSnapshot } from '../../build-scripts/demo-snapshot.ts';
import { RADAR_TABLES } from '../../core/snapshot/radar-tables.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { BAS_PREFIX, RADAR_PREFIX } from '../../core/radar/routes.ts';
import { all, openDuckDB, sqlString } from '../../lib/duckdb.ts';
import { parseCsv } from '../helpers/csv.ts';
import { parseAtom, type AtomRead } from '../helpers/atom.ts';
import { closeSharedBrowser, describeProblems, DESKTOP, openPage, sharedBrowser } from '../helpers/browser.ts';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runTmp } from '../helpers/paths.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots-changes');

interface Entry {
  snapshot: string;
  taken_at: string;
  resource: string;
  id: number;
  change: string;
  fields?: string[];
  checksum?: string | null;
  filename?: string | null;
  radar_code?: string | null;
}

/** Snapshot columns of `files` that the API shows under other names (joined in), by the API field names they make. */
const FILE_COLUMN_FIELDS: Record<string, string[]> = { radar_id: ['radar_code', 'radar_short_code', 'radar_name'], file_type_id: ['file_type'] };

describe('snapshot history and the change API', () => {
  let work = '';
  let s1 = '';
  let s2 = '';
  let out = '';
  let served: Served;
  let day1 = '';
  let day2 = '';
  let expected: { id: number; change: string; fields: string[]; checksum: string | null; filename: string }[] = [];
  const duck = openDuckDB({ threads: 1 });

  beforeAll(async () => {
    work = runTmp(inject('demoSnapshot'), 'changes');
    s1 = join(work, 's1');
    s2 = join(work, 's2');
    out = join(work, 'dist');
    const m1 = await writeDemoSnapshot({ from: '2024-03-01', days: 2, seed: 7, out: s1, log: () => {} });
    const m2 = await writeDemoSnapshot({ from: '2024-03-01', days: 3, seed: 7, out: s2, log: () => {} });
    day1 = m1.name;
    day2 = m2.name;
    await build({ snapshot: s1, out, quiet: true, site: false, charts: false });
    // the second with its site: its pages link their feeds
    await build({ snapshot: s2, out, quiet: true, charts: false });
    served = await startEndpoint(out);
    // the difference of the two snapshots' `files`, by id: added, removed, changed with the API fields it touches
    const apiFields = new Set([...RESOURCES.files.simple, ...RESOURCES.files.expanded].map((f) => f.name));
    const columns = RADAR_TABLES.find((t) => t.name === 'files')!.columns.map((c) => c.name).filter((c) => c !== 'id');
    const fieldsOf = (c: string) => FILE_COLUMN_FIELDS[c] ?? (apiFields.has(c) ? [c] : []);
    const conn = await (await duck).connect();
    const rows = await all(
      conn,
      `SELECT coalesce(n.id, o.id) AS id, CASE WHEN o.id IS NULL THEN 'added' WHEN n.id IS NULL THEN 'removed' ELSE 'changed' END AS change,
         list_filter([${columns.map((c) => `CASE WHEN o.id IS NOT NULL AND n.id IS NOT NULL AND o."${c}" IS DISTINCT FROM n."${c}" THEN '${c}' END`).join(', ')}], x -> x IS NOT NULL) AS cols,
         coalesce(n.checksum, o.checksum) AS checksum, coalesce(n.filename, o.filename) AS filename
       FROM read_parquet(${sqlString(join(s2, 'files.parquet'))}) n FULL JOIN read_parquet(${sqlString(join(s1, 'files.parquet'))}) o ON o.id = n.id
       ORDER BY 1`,
    );
    conn.closeSync();
    expected = rows
      .map((r) => ({ id: Number(r['id']), change: r['change'] as string, fields: [...new Set((r['cols'] as string[]).flatMap(fieldsOf))].sort(), checksum: r['checksum'] as string | null, filename: r['filename'] as string }))
      .filter((r) => r.change !== 'changed' || r.fields.length > 0);
  }, 600_000);

  afterAll(async () => {
    await served?.close();
    (await duck).closeSync();
  });

  test('the two demo days differ: files added and changed', () => {
    expect(expected.filter((e) => e.change === 'added').length).toBeGreaterThan(100);
    expect(expected.filter((e) => e.change === 'changed').length).toBeGreaterThan(0);
  });

  test('snapshots.json: both snapshots, newest first, the second with its change set; the endpoint answers the tree file', async () => {
    const site = join(realpathSync(out), 'site');
    const tree = readFileSync(join(site, 'snapshots.json'));
    const live = await get(served.url, '/snapshots.json');
    expect(live.status).toBe(200);
    expect(live.type).toBe('application/json');
    expect(live.body.equals(tree)).toBe(true);
    const doc = JSON.parse(tree.toString()) as { keep: number; snapshots: { name: string; base: string | null; manifestSha256: string; changes: { radar: Record<string, { added: number; changed: number; removed: number }> } | null }[] };
    expect(doc.keep).toBe(30);
    expect(doc.snapshots.map((s) => s.name)).toEqual([day2, day1]);
    expect(doc.snapshots[0]!.base).toBe(day1);
    expect(doc.snapshots[1]!.changes).toBeNull();
    // the digest of the tree's manifest, which does not list snapshots.json (it names the manifest's digest)
    const manifest = readFileSync(join(site, 'manifest.sha256'));
    const { createHash } = await import('node:crypto');
    expect(doc.snapshots[0]!.manifestSha256).toBe(createHash('sha256').update(manifest).digest('hex'));
    expect(manifest.toString()).not.toContain('snapshots.json');
    const files = doc.snapshots[0]!.changes!.radar['files']!;
    expect(files).toEqual({ added: expected.filter((e) => e.change === 'added').length, changed: expected.filter((e) => e.change === 'changed').length, removed: expected.filter((e) => e.change === 'removed').length });
  });

  test('JSON: exactly the difference of the two snapshots\' files, each entry in the second snapshot', async () => {
    for (const prefix of [RADAR_PREFIX, BAS_PREFIX]) {
      const res = await get(served.url, `${prefix}/changes?since=${day1}&expanded=true`);
      expect(res.status).toBe(200);
      expect(res.type).toBe('application/json');
      const entries = (JSON.parse(res.text) as Entry[]).filter((e) => e.resource === 'files');
      expect(entries.map((e) => ({ id: e.id, change: e.change, fields: [...(e.fields ?? [])].sort(), checksum: e.checksum ?? null, filename: e.filename! }))).toEqual(expected);
      for (const e of entries) expect([e.snapshot, e.taken_at]).toEqual([day2, '2024-03-04T00:00:00.000Z']);
    }
    // since as a datetime: the same; after the newest snapshot: nothing
    const byTime = await get(served.url, `${RADAR_PREFIX}/changes?since=2024-03-03T00:00:00Z`);
    const byName = await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}`);
    expect(byTime.text).toBe(byName.text);
    expect((JSON.parse(byName.text) as Entry[]).every((e) => e.fields === undefined || e.change === 'changed')).toBe(true);
    expect((await get(served.url, `${RADAR_PREFIX}/changes?since=${day2}`)).text).toBe('[]');
  });

  test('radar_code and timespan select the files of a radar and of an interval', async () => {
    const all = JSON.parse((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&expanded=true`)).text) as (Entry & { start_time: string; end_time: string })[];
    const code = all.find((e) => e.resource === 'files')!.radar_code!;
    const one = JSON.parse((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&radar_code=${code.toUpperCase()}&expanded=true`)).text) as Entry[];
    expect(one.length).toBeGreaterThan(0);
    expect(one).toEqual(all.filter((e) => e.radar_code === code));
    const span = JSON.parse((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&timespan=2024-03-03/2024-03-03T06:00:00Z&expanded=true`)).text) as (Entry & { start_time: string; end_time: string })[];
    const [a, b] = [Date.parse('2024-03-03T00:00:00Z'), Date.parse('2024-03-03T06:00:00Z')];
    expect(span).toEqual(all.filter((e) => e.start_time !== null && Date.parse(e.start_time) <= b && Date.parse(e.end_time) >= a));
    expect(span.length).toBeGreaterThan(0);
    expect(span.length).toBeLessThan(all.length);
  });

  test('CSV and the checksum report hold the same entries', async () => {
    const csv = await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&contentType=csv`);
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual(['snapshot', 'taken_at', 'resource', 'id', 'change', 'fields']);
    const files = rows.filter((r) => r[2] === 'files').map((r) => ({ id: Number(r[3]), change: r[4], fields: r[5] === '' ? [] : (JSON.parse(r[5]!) as string[]).sort() }));
    expect(files).toEqual(expected.map((e) => ({ id: e.id, change: e.change, fields: e.fields })));
    const report = await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&contentType=checksumReport`);
    expect(report.status).toBe(200);
    expect(report.type).toBe('text/plain; charset=utf-8');
    const lines = expected.filter((e) => e.change !== 'removed' && e.checksum !== null).map((e) => `${e.checksum}  ${e.filename}\n`);
    expect(lines.length).toBeGreaterThan(100);
    expect(report.text).toBe(lines.join(''));
  });

  test('since older than the kept history is 410 with the oldest answerable snapshot; no since is 400; html is 406', async () => {
    for (const since of ['2024-03-02T23:59:59Z', 'demo-2024-03-01-1d-seed7']) {
      const res = await get(served.url, `${RADAR_PREFIX}/changes?since=${since}`);
      expect(res.status).toBe(410);
      const body = JSON.parse(res.text) as { statusCode: number; reason: string; userMessage: string; hints: string[] };
      expect(body.statusCode).toBe(410);
      expect(body.reason).toBe('Gone');
      expect(body.hints[0]).toContain(day1);
    }
    const missing = await get(served.url, `${RADAR_PREFIX}/changes`);
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).userMessage).toContain('since');
    expect((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&contentType=html`)).status).toBe(406);
    expect((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&radar_code=12`)).status).toBe(400);
  });

  test('timeseries: new observations per series as the snapshots give them', async () => {
    const conn = await (await duck).connect();
    const rows = await all(
      conn,
      `SELECT n.timeseries_id AS id, count(*) AS n FROM read_parquet(${sqlString(join(s2, 'observations.parquet'))}) n
       LEFT JOIN (SELECT timeseries_id, max("timestamp") AS last FROM read_parquet(${sqlString(join(s1, 'observations.parquet'))}) GROUP BY ALL) o USING (timeseries_id)
       WHERE o.last IS NULL OR n."timestamp" > o.last GROUP BY ALL ORDER BY 1`,
    );
    const recorded = await all(conn, `SELECT timeseries_id AS id, new_observations AS n FROM read_parquet(${sqlString(join(realpathSync(out), 'history', 'series-changes.parquet'))}) WHERE snapshot = ${sqlString(day2)} ORDER BY 1`);
    conn.closeSync();
    expect(recorded.length).toBeGreaterThan(100);
    expect(recorded.map((r) => [r['id'], Number(r['n'])])).toEqual(rows.map((r) => [r['id'], Number(r['n'])]));
  });

  /** A feed of the tree, read through the endpoint, parsed and checked as Atom. */
  async function feed(path: string): Promise<AtomRead> {
    const res = await get(served.url, path);
    expect(res.status, path).toBe(200);
    expect(res.type).toBe('application/atom+xml');
    return parseAtom(res.text);
  }

  test('radar feeds: one entry per radar and snapshot, with the count of new files, links that answer', async () => {
    const conn = await (await duck).connect();
    const perRadar = await all(
      conn,
      `SELECT r.radar_code AS code, count(*) AS n FROM read_parquet(${sqlString(join(s2, 'files.parquet'))}) f JOIN read_parquet(${sqlString(join(s2, 'radars.parquet'))}) r ON r.id = f.radar_id
       WHERE f.id NOT IN (SELECT id FROM read_parquet(${sqlString(join(s1, 'files.parquet'))})) GROUP BY ALL ORDER BY ALL`,
    );
    const codes = (await all(conn, `SELECT radar_code FROM read_parquet(${sqlString(join(s2, 'radars.parquet'))}) ORDER BY 1`)).map((r) => r['radar_code'] as string);
    conn.closeSync();
    expect(perRadar.length).toBeGreaterThan(5);
    const added = new Map(perRadar.map((r) => [r['code'] as string, Number(r['n'])]));
    for (const code of codes) {
      const f = await feed(`/feeds/radars/${code}.atom`);
      expect(f.id).toBe(`urn:snapcat:feed:radar:${code}`);
      expect(f.links).toContainEqual({ rel: 'self', type: 'application/atom+xml', href: `/feeds/radars/${code}.atom` });
      expect(f.links).toContainEqual({ rel: 'alternate', type: 'text/html', href: `/browse/radars/${code}/` });
      const n = added.get(code);
      if (n === undefined) {
        // no new file: at most an entry for changed ones
        for (const e of f.entries) expect(e.title).toMatch(/^\w+: 0 new files/);
        continue;
      }
      expect(f.entries.map((e) => e.id)).toEqual([`urn:snapcat:radar:${code}:${day2}`]);
      const [e] = f.entries;
      expect(e!.updated).toBe('2024-03-04T00:00:00.000Z');
      expect(f.updated).toBe(e!.updated);
      expect(e!.title).toMatch(new RegExp(`^${code}: ${n} new files?`));
      const alternate = e!.links.find((l) => l.rel === 'alternate')!;
      const entries = JSON.parse((await get(served.url, alternate.href)).text) as Entry[];
      expect(entries.filter((x) => x.resource === 'files' && x.change === 'added').length).toBe(n);
      expect(entries.every((x) => x.radar_code === code)).toBe(true);
      for (const l of e!.links) expect((await get(served.url, l.href)).status, l.href).toBe(200);
    }
  });

  test('the alarms feed: one entry per new alarm instance, as the two snapshots\' transfer instances give them', async () => {
    const conn = await (await duck).connect();
    const ti = (dir: string) => `read_parquet(${sqlString(join(dir, 'transfer_instances.parquet'))})`;
    const rows = await all(
      conn,
      `SELECT n.file_id, n.transfer_id FROM ${ti(s2)} n WHERE n.status_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM ${ti(s1)} o WHERE o.file_id = n.file_id AND o.transfer_id = n.transfer_id AND o.status_id = n.status_id) ORDER BY 1, 2`,
    );
    conn.closeSync();
    expect(rows.length).toBeGreaterThan(0);
    const f = await feed('/feeds/alarms.atom');
    expect(f.links).toContainEqual({ rel: 'alternate', type: 'text/html', href: '/browse/alarms/' });
    expect(f.entries.map((e) => e.id.split(':').slice(3, 5).map(Number))).toEqual(rows.map((r) => [Number(r['file_id']), Number(r['transfer_id'])]));
    expect(new Set(f.entries.map((e) => e.id)).size).toBe(f.entries.length);
    for (const e of f.entries.slice(0, 5)) {
      expect(e.updated).toBe('2024-03-04T00:00:00.000Z');
      for (const l of e.links) expect((await get(served.url, l.href)).status, l.href).toBe(200);
    }
  });

  test('status feeds per timeseries and per station: the recorded status changes, each entered or left level with time and value', async () => {
    const conn = await (await duck).connect();
    const recorded = await all(conn, `SELECT timeseries_id AS id, station_id AS station, "timestamp" AS t, "value" AS v, to_level FROM read_parquet(${sqlString(join(realpathSync(out), 'history', 'status-changes.parquet'))}) ORDER BY t DESC, id`);
    conn.closeSync();
    expect(recorded.length).toBeGreaterThan(0);
    const id = recorded[0]!['id'] as string;
    const mine = recorded.filter((r) => r['id'] === id);
    const f = await feed(`/feeds/timeseries/${id}.atom`);
    expect(f.entries.map((e) => e.id)).toEqual(mine.map((r) => `urn:snapcat:status:${id}:${encodeURIComponent(new Date(Number(r['t'])).toISOString())}`));
    for (const [i, e] of f.entries.entries()) {
      expect(e.updated).toBe(new Date(Number(mine[i]!['t'])).toISOString());
      expect(e.title).toContain(mine[i]!['to_level'] === null ? 'left' : `entered ${mine[i]!['to_level'] as string}`);
      expect(e.title).toContain(String(Number(mine[i]!['v'])));
      for (const l of e.links) expect((await get(served.url, l.href)).status, l.href).toBe(200);
    }
    const station = recorded[0]!['station'] as string;
    const sf = await feed(`/feeds/stations/${station}.atom`);
    expect(sf.entries.length).toBe(recorded.filter((r) => r['station'] === station).length);
  });

  test('the pages link their feeds in the head', async () => {
    const code = (JSON.parse((await get(served.url, `${RADAR_PREFIX}/radars?expanded=true`)).text) as { radar_code: string }[])[0]!.radar_code;
    const series = (JSON.parse((await get(served.url, '/api/v1/timeseries')).text) as { id: string }[])[0]!.id;
    for (const [page, href] of [
      [`/browse/radars/${code}/`, `/feeds/radars/${code}.atom`],
      ['/browse/alarms/', '/feeds/alarms.atom'],
      [`/browse/timeseries/${series}/`, `/feeds/timeseries/${series}.atom`],
    ] as const) {
      const html = (await get(served.url, page)).text;
      expect(html, page).toMatch(new RegExp(`<link rel="alternate" type="application/atom\\+xml" title="[^"]+" href="${href.replaceAll('.', '\\.')}"`));
    }
  });

  test('the snapshots page: a citable line per snapshot (name, taken_at, manifest digest, URL) that the button copies', async () => {
    const { browser } = await sharedBrowser();
    const context = await browser.newContext({ ...DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      const { page, problems } = await openPage(context, `${served.url}/snapshots/`);
      await page.waitForSelector('#cite-1');
      expect(describeProblems(problems)).toEqual([]);
      const doc = JSON.parse(readFileSync(join(realpathSync(out), 'site', 'snapshots.json'), 'utf8')) as { snapshots: { name: string; taken_at: string; manifestSha256: string }[] };
      for (const [i, s] of doc.snapshots.entries()) {
        const line = await page.textContent(`#cite-${i}`);
        expect(line).toBe(`${s.name}, taken at ${s.taken_at}; manifest SHA-256 ${s.manifestSha256}; ${served.url}/ (verify: ${served.url}/manifest.sha256, list: ${served.url}/snapshots.json)`);
      }
      await page.getByRole('button', { name: `Copy the citable line of ${day2}` }).click();
      await page.waitForFunction(() => document.querySelector('.cite-row button')?.textContent === 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.textContent('#cite-0'));
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'snapshots.png'), fullPage: true });
    } finally {
      await context.close();
      await closeSharedBrowser();
    }
  });

  test('a rebuild of the same snapshot writes the same feeds and history', async () => {
    const site = () => join(realpathSync(out), 'site');
    // a radar with new files on the second day
    const code = (JSON.parse((await get(served.url, `${RADAR_PREFIX}/changes?since=${day1}&expanded=true`)).text) as Entry[]).find((e) => e.resource === 'files')!.radar_code!;
    const paths = ['/feeds/alarms.atom', `/feeds/radars/${code}.atom`, '/snapshots.json'];
    const before = paths.map((p) => readFileSync(join(site(), p)).toString());
    await build({ snapshot: s2, out, quiet: true, site: false, charts: false });
    const after = paths.map((p) => readFileSync(join(site(), p)).toString());
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    // snapshots.json: the same history; only the manifest digest may differ (this rebuild has no site)
    const strip = (t: string) => ({ ...JSON.parse(t), snapshots: (JSON.parse(t) as { snapshots: Record<string, unknown>[] }).snapshots.map(({ manifestSha256: _m, ...rest }) => rest) });
    expect(strip(after[2]!)).toEqual(strip(before[2]!));
  }, 300_000);
});
