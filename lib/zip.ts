/**
 * A ZIP archive in memory (PKWARE APPNOTE 6.3: local file headers, central directory, end record), each entry
 * deflated with node:zlib and checked by zlib's CRC-32. Small and exact rather than general: no ZIP64 (an
 * archive over 4 GiB is refused; a data download is bounded far below by the maximum timespan and the 100
 * series of a POST), no encryption, names in ASCII. Deterministic: every entry carries the same given
 * modification time, so the same entries give the same bytes.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The entry's name, ASCII (a path inside the archive uses `/`). */
  name: string;
  data: Uint8Array;
}

const MAX = 0xffffffff;

/** MS-DOS date and time of an instant (UTC), two-second resolution, 1980 to 2107. */
export function dosDateTime(ms: number): { date: number; time: number } {
  const d = new Date(Math.min(Math.max(ms, Date.UTC(1980, 0, 1)), Date.UTC(2107, 11, 31, 23, 59, 58)));
  return {
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
  };
}

interface SharedFields {
  time: number;
  date: number;
  crc: number;
  packedSize: number;
  size: number;
  nameLength: number;
}

/**
 * The 26 bytes a local file header (at 4) and its central directory header (at 6) share: version needed to extract,
 * flags, method, time, date, CRC-32, the compressed and uncompressed sizes, the name's length.
 */
function writeSharedFields(b: Buffer, at: number, f: SharedFields): void {
  b.writeUInt16LE(20, at); // version needed to extract: 2.0 (deflate)
  b.writeUInt16LE(0, at + 2); // flags
  b.writeUInt16LE(8, at + 4); // method: deflate
  b.writeUInt16LE(f.time, at + 6);
  b.writeUInt16LE(f.date, at + 8);
  b.writeUInt32LE(f.crc, at + 10);
  b.writeUInt32LE(f.packedSize, at + 14);
  b.writeUInt32LE(f.size, at + 18);
  b.writeUInt16LE(f.nameLength, at + 22);
}

/** The archive of `entries`, in their order, each modified at `modified` (ms since the epoch). */
export function zipArchive(entries: ZipEntry[], modified: number): Buffer {
  const { date, time } = dosDateTime(modified);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    if (!/^[\x20-\x7e]+$/.test(e.name) || e.name.length > 0xffff) throw new Error(`zip entry name must be printable ASCII: ${JSON.stringify(e.name)}`);
    const name = Buffer.from(e.name, 'ascii');
    const packed = deflateRawSync(e.data);
    const crc = crc32(e.data);
    if (e.data.length > MAX || packed.length > MAX || offset > MAX) throw new Error('zip archive over 4 GiB (ZIP64 is not written)');
    const fields = { time, date, crc, packedSize: packed.length, size: e.data.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); // local file header signature
    writeSharedFields(local, 4, fields);
    local.writeUInt16LE(0, 28); // extra field length
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0); // central directory header signature
    dir.writeUInt16LE(20, 4); // version made by: 2.0, MS-DOS attributes
    writeSharedFields(dir, 6, fields);
    // extra field, comment, disk number, internal and external attributes: 0
    dir.writeUInt32LE(offset, 42); // offset of the local header
    parts.push(local, name, packed);
    central.push(dir, name);
    offset += local.length + name.length + packed.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  if (offset + size > MAX || entries.length > 0xffff) throw new Error('zip archive too large (ZIP64 is not written)');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); // end of central directory signature
  end.writeUInt16LE(0, 4); // number of this disk
  end.writeUInt16LE(0, 6); // disk where the central directory starts
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20); // comment length
  return Buffer.concat([...parts, ...central, end]);
}
