/**
 * Raw data downloads, pure: the CSV text of each dialect, the separators by locale, file names, reading the
 * download parameters, and the ZIP container read back entry by entry (headers, CRC-32, sizes, directory).
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { Points } from '../../core/timeseries/data-body.ts';
import { asciiFileName as safeName, attachment } from '../../core/http/download.ts';
import { csvDialect, csvText, downloadName, readDownload } from '../../core/timeseries/data-csv.ts';
import { dosDateTime, zipArchive } from '../../lib/zip.ts';

const pts = (t: number[], v: number[]): Points => ({ t: Float64Array.from(t), v: Float64Array.from(v) });
const T0 = Date.UTC(2024, 0, 8);
const a = { id: 'ts_a', points: pts([T0, T0 + 600_000, T0 + 1_200_000], [4.25, NaN, -1200]), refs: [] };
const b = { id: 'ts_b', points: pts([T0 + 1], [1e-7]), refs: [] };

describe('CSV text', () => {
  test('one series: timestamp,value; ISO UTC times with milliseconds; a null is an empty field; CRLF', () => {
    expect(csvText([a], { dialect: csvDialect(undefined), bom: false, withId: false })).toBe(
      'timestamp,value\r\n2024-01-08T00:00:00.000Z,4.25\r\n2024-01-08T00:10:00.000Z,\r\n2024-01-08T00:20:00.000Z,-1200\r\n',
    );
  });

  test('locale=de: ; and decimal comma; bom=true: a UTF-8 byte order mark first', () => {
    const de = csvText([a, b], { dialect: csvDialect('de'), bom: true, withId: false });
    expect(de).toBe('\uFEFFtimestamp;value\r\n2024-01-08T00:00:00.000Z;4,25\r\n2024-01-08T00:10:00.000Z;\r\n2024-01-08T00:20:00.000Z;-1200\r\n2024-01-08T00:00:00.001Z;1e-7\r\n');
    expect(Buffer.from(de, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  test('several series (POST): a timeseries column, the series in the order given; an empty series is the header only', () => {
    expect(csvText([b, a], { dialect: csvDialect('nl'), bom: false, withId: true })).toBe(
      'timeseries;timestamp;value\r\nts_b;2024-01-08T00:00:00.001Z;1e-7\r\nts_a;2024-01-08T00:00:00.000Z;4,25\r\nts_a;2024-01-08T00:10:00.000Z;\r\nts_a;2024-01-08T00:20:00.000Z;-1200\r\n',
    );
    expect(csvText([{ id: 'ts_x', points: pts([], []), refs: [] }], { dialect: csvDialect(undefined), bom: false, withId: false })).toBe('timestamp,value\r\n');
  });

  test.each([
    [undefined, ',', '.'],
    ['en', ',', '.'],
    ['en_US', ',', '.'],
    ['de', ';', ','],
    ['de_AT', ';', ','],
    ['de_CH', ',', '.'],
    ['nl', ';', ','],
    ['fr', ';', ','],
    ['ja', ',', '.'],
    ['xx', ',', '.'],
  ])('locale %s: delimiter %s, decimal %s', (locale, delimiter, decimal) => {
    expect(csvDialect(locale)).toEqual({ delimiter, decimal });
  });

  test('download parameters: zip=true makes a ZIP of a CSV; bom; locale; bad values are 400 naming the parameter', () => {
    expect(readDownload(new URLSearchParams(''), 'csv')).toEqual({ kind: 'csv', dialect: { delimiter: ',', decimal: '.' }, bom: false });
    expect(readDownload(new URLSearchParams('zip=true&bom=true&locale=de&generalize=false'), 'csv')).toEqual({ kind: 'zip', dialect: { delimiter: ';', decimal: ',' }, bom: true });
    expect(readDownload(new URLSearchParams('zip=false'), 'zip').kind).toBe('zip');
    for (const [q, name] of [['bom=yes', 'bom'], ['zip=1x', 'zip'], ['locale=1234', 'locale']]) {
      expect(() => readDownload(new URLSearchParams(q), 'csv'), q).toThrow(expect.objectContaining({ status: 400, userMessage: expect.stringContaining(`'${name}'`) }));
    }
  });

  test('file names: id and timespan in ISO 8601 basic format, ASCII only', () => {
    const span = { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 8, 12, 30, 5, 250) };
    expect(downloadName(['ts_koeln_rhein_water_level'], span, 'csv')).toBe('ts_koeln_rhein_water_level_20240101T000000Z_20240108T123005250Z.csv');
    expect(downloadName(['ts_a', 'ts_b'], span, 'zip')).toBe('timeseries_20240101T000000Z_20240108T123005250Z.zip');
    expect(safeName('ts_Köln "x"/..\\y')).toBe('ts_K_ln__x__.._y');
    expect(attachment('ts_ä.csv')).toBe('attachment; filename="ts__.csv"');
  });
});

/** Reads a ZIP back by its central directory, checking each local header against it. */
function readZip(zip: Buffer): { name: string; data: Buffer; date: number; time: number }[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  expect(zip.readUInt16LE(end + 8)).toBe(count);
  const size = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  expect(at + size).toBe(end);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const [method, time, date, crc, packed, plain, nameLength] = [zip.readUInt16LE(at + 10), zip.readUInt16LE(at + 12), zip.readUInt16LE(at + 14), zip.readUInt32LE(at + 16), zip.readUInt32LE(at + 20), zip.readUInt32LE(at + 24), zip.readUInt16LE(at + 28)];
    const name = zip.toString('ascii', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect([zip.readUInt16LE(local + 8), zip.readUInt32LE(local + 14), zip.readUInt32LE(local + 18), zip.readUInt32LE(local + 22), zip.toString('ascii', local + 30, local + 30 + nameLength)]).toEqual([method, crc, packed, plain, name]);
    expect(method).toBe(8);
    const start = local + 30 + nameLength + zip.readUInt16LE(local + 28);
    const data = inflateRawSync(zip.subarray(start, start + packed));
    expect(data.length).toBe(plain);
    expect(crc32(data)).toBe(crc);
    out.push({ name, data, date, time });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

describe('ZIP', () => {
  test('entries come back whole, in order, with their CRC-32, sizes and the given time', () => {
    const big = Buffer.from('timestamp,value\r\n'.repeat(5000));
    const entries = [
      { name: 'ts_a.csv', data: Buffer.from(csvText([a], { dialect: csvDialect(undefined), bom: true, withId: false })) },
      { name: 'empty.csv', data: Buffer.alloc(0) },
      { name: 'dir/big.csv', data: big },
    ];
    const zip = zipArchive(entries, Date.UTC(2024, 0, 9, 13, 45, 31));
    const back = readZip(zip);
    expect(back.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    back.forEach((e, i) => expect(e.data.equals(entries[i]!.data)).toBe(true));
    expect(zip.length).toBeLessThan(big.length / 10);
    expect(back[0]!.date).toBe(((2024 - 1980) << 9) | (1 << 5) | 9);
    expect(back[0]!.time).toBe((13 << 11) | (45 << 5) | 15);
    // the same entries, the same bytes
    expect(zipArchive(entries, Date.UTC(2024, 0, 9, 13, 45, 31)).equals(zip)).toBe(true);
    expect(readZip(zipArchive([], 0))).toEqual([]);
  });

  test('DOS times are clamped to 1980..2107; names must be printable ASCII', () => {
    expect(dosDateTime(0)).toEqual({ date: (0 << 9) | (1 << 5) | 1, time: 0 });
    expect(dosDateTime(Date.UTC(2200, 0, 1)).date >> 9).toBe(127);
    expect(() => zipArchive([{ name: 'Köln.csv', data: Buffer.alloc(1) }], 0)).toThrow(/printable ASCII/);
    expect(() => zipArchive([{ name: 'a\nb', data: Buffer.alloc(1) }], 0)).toThrow(/printable ASCII/);
  });
});
