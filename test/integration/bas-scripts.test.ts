/**
 * What the British Antarctic Survey's client scripts do against the real catalogue (api.bas.ac.uk), pointed at a
 * snapcat endpoint instead: only the host of the base URL changes, the path stays `/superdarn/mirror/v3`. Plain
 * `fetch`, `JSON.parse`, SuperDARN file names parsed into their fields as the file types' patterns say
 * (`YYYYMMDD.HHMM.SS.<code>.<channel>.<type>.bz2`, `YYYYMMDDHH<letter>[<channel>].dat.bz2`), and a month's checksum
 * report checked by the real `sha1sum -c` against files holding the demo's contents (every demo checksum is the
 * sha1 of build-scripts/demo/radar/file-content.ts's text for the file name).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { demoFileContent } from '../../build-scripts/demo/radar/file-content.ts';
import { runTmp } from '../helpers/paths.ts';
import { startEndpoint, type Served } from '../helpers/servers.ts';

/** A file in the simple view. */
interface FileEntry {
  id: number;
  filename: string;
  checksum: string | null;
}

/** A file in the expanded view (no `filename`: the name ends `file_path`). */
interface FileRecord {
  id: number;
  checksum: string | null;
  file_path: string;
  file_start_datetime: string;
  file_end_datetime: string;
  status_flag: number;
  radar_code: string;
  radar_short_code: string | null;
  file_type: string;
}

/** The fields of a SuperDARN file name, or undefined for a name of no known shape. */
interface NameFields {
  /** `YYYY-MM-DDTHH:MM:SS` as far as the name tells (a dat name: to the hour). */
  start: string;
  /** The three-letter code, or the one-letter code of a dat name. */
  code: string;
  channel: string;
  format: 'rawacf' | 'fitacf' | 'dat';
}

const ACF_NAME = /^(\d{4})(\d{2})(\d{2})\.(\d{2})(\d{2})\.(\d{2})\.([a-z]{3})\.([a-z])\.(rawacf|fitacf)\.bz2$/;
const DAT_NAME = /^(\d{4})(\d{2})(\d{2})(\d{2})([a-z])([A-Z]?)\.dat\.bz2$/;

function parseName(name: string): NameFields | undefined {
  const a = ACF_NAME.exec(name);
  if (a) {
    const [, y, mo, d, h, mi, s, code, channel, format] = a as unknown as string[];
    return { start: `${y}-${mo}-${d}T${h}:${mi}:${s}`, code: code!, channel: channel!, format: format as 'rawacf' | 'fitacf' };
  }
  const b = DAT_NAME.exec(name);
  if (b) {
    const [, y, mo, d, h, letter, channel] = b as unknown as string[];
    return { start: `${y}-${mo}-${d}T${h}`, code: letter!, channel: channel!.toLowerCase(), format: 'dat' };
  }
  return undefined;
}

/** A name as `sha1sum` writes it on a report line (a leading `\` means escapes), read back. */
function reportName(line: string): { checksum: string; name: string } {
  const escaped = line.startsWith('\\');
  const body = escaped ? line.slice(1) : line;
  const checksum = body.slice(0, 40);
  const raw = body.slice(42);
  return { checksum, name: escaped ? raw.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', '\\': '\\' })[c] ?? c) : raw };
}

let endpoint: Served;
let base: string;

beforeAll(async () => {
  endpoint = await startEndpoint(inject('demoBuild'));
  // a script's base URL, `https://api.bas.ac.uk/superdarn/mirror/v3`, with only the host changed
  base = `${endpoint.url}/superdarn/mirror/v3`;
});
afterAll(() => endpoint?.close());

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
  return JSON.parse(await res.text()) as T;
}

describe('a BAS script pointed at snapcat', () => {
  test("a year's files: every name's date, time, radar and format agree with the record", async () => {
    const [simple, expanded] = await Promise.all([getJson<FileEntry[]>('/files?timespan=2024/2025'), getJson<FileRecord[]>('/files?timespan=2024/2025&expanded=true')]);
    expect(expanded.length).toBeGreaterThan(500);
    expect(simple.map((f) => [f.id, f.checksum])).toEqual(expanded.map((f) => [f.id, f.checksum]));
    const disagree: string[] = [];
    let parsed = 0;
    let oddBlacklisted = 0;
    for (const [i, f] of expanded.entries()) {
      const filename = simple[i]!.filename;
      if (!f.file_path.endsWith(`/${filename}`)) disagree.push(`${filename}: path ${f.file_path}`);
      const fields = parseName(filename);
      if (!fields) {
        // only the blocklist's real, odd shapes (`sas..rawacf`, `.HH..`) fall outside the patterns
        if (f.status_flag === 1) oddBlacklisted++;
        else disagree.push(`${filename}: no known shape`);
        continue;
      }
      parsed++;
      const code = fields.format === 'dat' ? f.radar_short_code : f.radar_code;
      if (fields.code !== code) disagree.push(`${filename}: radar ${fields.code}, record ${code}`);
      if (fields.format !== f.file_type) disagree.push(`${filename}: format ${fields.format}, record ${f.file_type}`);
      if (!f.file_start_datetime.startsWith(fields.start)) disagree.push(`${filename}: starts ${fields.start}, record ${f.file_start_datetime}`);
      if (f.file_end_datetime < f.file_start_datetime) disagree.push(`${filename}: ends before it starts`);
    }
    expect(disagree).toEqual([]);
    expect(parsed).toBeGreaterThan(expanded.length * 0.9);
    expect(parsed + oddBlacklisted).toBe(expanded.length);
    // the codes seen are radars of the catalogue
    const radars = await getJson<{ radar_code: string }[]>('/radars?expanded=true');
    const codes = new Set(radars.map((r) => r.radar_code));
    for (const f of expanded) expect(codes.has(f.radar_code), f.radar_code).toBe(true);
  });

  test("a month's checksum report: sha1sum -c finds every file it lists intact", async () => {
    const res = await fetch(`${base}/files?timespan=2024-03/2024-04&contentType=checksumReport`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="files-2024-03-01_2024-04-01.sha1"');
    const report = await res.text();
    const lines = report.split('\n');
    expect(lines.pop()).toBe('');
    const records = await getJson<FileEntry[]>('/files?timespan=2024-03/2024-04');
    expect(lines.map(reportName)).toEqual(records.filter((f) => f.checksum !== null).map((f) => ({ checksum: f.checksum, name: f.filename })));
    expect(lines.length).toBeGreaterThan(500);

    const dir = runTmp(inject('demoSnapshot'), 'bas-scripts-month');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const line of lines) {
      const { name } = reportName(line);
      writeFileSync(join(dir, name), demoFileContent(name));
    }
    writeFileSync(join(dir, 'files-2024-03.sha1'), report);
    const ok = spawnSync('sha1sum', ['-c', 'files-2024-03.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split('\n').filter((l) => l.endsWith(': OK'))).toHaveLength(lines.length);

    // and a file that is not what the catalogue says is caught
    const { name } = reportName(lines[0]!);
    writeFileSync(join(dir, name), 'not the file the catalogue lists\n');
    const bad = spawnSync('sha1sum', ['-c', '--quiet', 'files-2024-03.sha1'], { cwd: dir, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout.trim()).toBe(`${name}: FAILED`);
    rmSync(dir, { recursive: true, force: true });
  });
});
