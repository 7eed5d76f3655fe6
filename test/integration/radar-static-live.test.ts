/**
 * The static tree and the live endpoint agree to the byte, for every file of the tree; checksum reports
 * pass `sha1sum -c`; CSV parses back to the JSON records.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { demoFileContent } from '../../build-scripts/demo/radar/file-content.ts';
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { VARIANTS } from '../../core/radar/static-tree.ts';
import { parseCsv } from '../helpers/csv.ts';
import { runTmp, walkFiles } from '../helpers/paths.ts';
import { get, inParallel, startTreeAndLive, type Served } from '../helpers/servers.ts';

let live: Served;
let fromTree: Served;
let site: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ live, fromTree, site, close } = await startTreeAndLive(inject('demoBuild')));
});
afterAll(() => close());

/** The request a static file answers: its API path and the parameters of its variant. */
function requestOf(file: string): string {
  const rel = `/${relative(site, file)}`;
  const v = [...VARIANTS].sort((a, b) => b.suffix.length - a.suffix.length).find((x) => rel.endsWith(x.suffix))!;
  let path = rel.slice(0, -v.suffix.length);
  if (path.endsWith('/index')) path = path.slice(0, -'index'.length);
  const contentType = { json: 'json', csv: 'csv', checksum: 'checksumReport', html: 'html' }[v.format];
  return `${path}?contentType=${contentType}${v.expanded ? '&expanded=true' : ''}`;
}

describe('static tree equals live endpoint', () => {
  test('every file of the tree, byte for byte', async () => {
    const files = walkFiles(join(site, 'radarnet'));
    expect(files.length).toBeGreaterThan(1000);
    const mismatches: string[] = [];
    await inParallel(files, 8, async (file) => {
      const request = requestOf(file);
      const r = await get(live.url, request);
      if (r.status !== 200 || !r.body.equals(readFileSync(file))) mismatches.push(`${request}: live ${r.status} ${r.text.slice(0, 120)}`);
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
  }, 420_000);

  test('a parameter-free request answers the static file', async () => {
    for (const path of ['/files', '/transferred/files/alarm', '/radars/1', '/metadata/transfer/logs']) {
      const r = await get(fromTree.url, `${RADAR_PREFIX}${path}`, { 'Accept-Encoding': 'identity' });
      expect(r.body.equals(readFileSync(join(site, `radarnet/mirror/v3${path}.json`)))).toBe(true);
      expect(r.headers.get('content-length')).toBe(String(r.body.length));
    }
  });
});

describe('checksum reports', () => {
  test('sha1sum -c accepts the report for files that exist', async () => {
    const dir = runTmp(inject('demoSnapshot'), 'sha1sum-check');
    mkdirSync(dir, { recursive: true });
    const r = await get(fromTree.url, `${RADAR_PREFIX}/files?contentType=checksumReport&radar_code=sas`);
    const lines = r.text.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const name = line.slice(42);
      writeFileSync(join(dir, name), demoFileContent(name));
    }
    writeFileSync(join(dir, 'report.sha1'), r.body);
    const out = execFileSync('sha1sum', ['-c', 'report.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(out.trim().split('\n')).toHaveLength(lines.length);
    expect(out).not.toContain('FAILED');
  });

  test('sha1sum -c accepts the radar report against the real hardware files', async () => {
    const r = await get(fromTree.url, `${RADAR_PREFIX}/radars?contentType=checksumReport`);
    const out = execFileSync('sha1sum', ['-c', '-'], { cwd: join(import.meta.dirname, '../../build-scripts/demo/data/superdarn/hdw'), input: r.body, encoding: 'utf8' });
    expect(out.trim().split('\n')).toHaveLength(49);
  });
});

describe('CSV parses back to the JSON records', () => {
  test.each([['/files'], ['/files?expanded=true'], ['/transferred/files/alarm?expanded=true'], ['/radars?expanded=true'], ['/transfers'], ['/coverage/temporal'], ['/metadata/transfer/logs']])(
    '%s',
    async (path) => {
      const sep = path.includes('?') ? '&' : '?';
      const records = JSON.parse((await get(fromTree.url, `${RADAR_PREFIX}${path}`)).text) as Record<string, unknown>[];
      for (const delimiter of [',', ';']) {
        const csv = await get(fromTree.url, `${RADAR_PREFIX}${path}${sep}contentType=csv&delimiter=${encodeURIComponent(delimiter)}`);
        const [header, ...rows] = parseCsv(csv.text, delimiter);
        expect(header).toEqual(Object.keys(records[0]!));
        expect(rows.length).toBe(records.length);
        rows.forEach((row, i) => {
          const rec = records[i]!;
          header!.forEach((name, j) => {
            const v = rec[name];
            if (v !== null && typeof v === 'object') expect(JSON.parse(row[j]!)).toEqual(v);
            else expect(row[j]).toBe(v === null ? '' : String(v));
          });
        });
      }
    },
  );
});
