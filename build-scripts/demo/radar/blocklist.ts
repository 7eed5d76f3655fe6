/**
 * Blacklisted files from the real SuperDARN blocklist (`blocklist_all.txt`: one name per line,
 * optionally followed by a sha1, which the demo ignores: its checksums are those of its own
 * stand-in contents).
 *
 * Real names whose date falls in the generated range, for a radar operating then, are used as
 * they are. Every day of the range without such a name gets one name made from a real name's
 * shape (odd ones included: `..rawacf`, `.HH..`, upper-case `.dat` channels) re-dated into that
 * day for a radar operating all of it: the dat shapes before 2006, the rawacf shapes after.
 * Everything about a day (whether it has real names, the radar, instant and shape of its made-up
 * name) depends on the seed and the day only, so one more day adds that day's names and changes
 * no other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Radar } from './radars.ts';
import { pick, stringPart } from './random.ts';
import { DAY_SECONDS, RAWACF_ERA_S, SLOTS_PER_DAY, SLOT_SECONDS, type RadarProfile } from './radar-profiles.ts';
import { FT_DAT, FT_RAWACF } from './vocabularies.ts';

const RAW_SHAPE = /^(\d{4})(\d{2})(\d{2})\.(\d{2})(\d{2})?\.(\d{2})?\.([a-z]{3})(\..*rawacf\.bz2)$/;
const DAT_SHAPE = /^(\d{4})(\d{2})(\d{2})(\d{2})([a-z])([A-Z]?)\.dat\.bz2$/;

export interface BlockedFile {
  /** A stable number of the name (48 bits, unique among the blocked files), for the file's identity and random draws. */
  key: number;
  radarId: number;
  filename: string;
  fileTypeId: number;
  startS: number;
}

interface Parsed {
  name: string;
  dat: boolean;
  radar: Radar;
  startS: number;
  m: RegExpExecArray;
}

function utc(y: string, mo: string, d: string, h = '00', mi = '00', s = '00'): number {
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
  const back = new Date(t * 1000);
  // Reject impossible dates such as 2006-02-30 instead of rolling them over.
  return back.getUTCDate() === Number(d) && back.getUTCMonth() === Number(mo) - 1 ? t : NaN;
}

function parseName(name: string, byCode: Map<string, Radar>, byLetter: Map<string, Radar>): Parsed | null {
  let m = RAW_SHAPE.exec(name);
  if (m) {
    const radar = byCode.get(m[7]!);
    const hasMinutes = m[5] !== undefined;
    const startS = utc(m[1]!, m[2]!, m[3]!, m[4]!, hasMinutes ? m[5]! : (m[6] ?? '00'), hasMinutes ? (m[6] ?? '00') : '00');
    return radar && Number.isFinite(startS) ? { name, dat: false, radar, startS, m } : null;
  }
  m = DAT_SHAPE.exec(name);
  if (m) {
    const radar = byLetter.get(m[5]!);
    const startS = utc(m[1]!, m[2]!, m[3]!, m[4]!);
    return radar && Number.isFinite(startS) ? { name, dat: true, radar, startS, m } : null;
  }
  return null;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** A real name's shape with another radar and start time. */
function redate(p: Parsed, radar: Radar, startS: number): string {
  const d = new Date(startS * 1000);
  const date = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
  const [hh, mi, ss] = [two(d.getUTCHours()), two(d.getUTCMinutes()), two(d.getUTCSeconds())];
  if (p.dat) return `${date}${hh}${radar.letter}${p.m[6]}.dat.bz2`;
  const hasMinutes = p.m[5] !== undefined;
  const second = p.m[6] === undefined ? '' : hasMinutes ? ss : mi;
  return `${date}.${hh}${hasMinutes ? mi : ''}.${second}.${radar.code}${p.m[8]}`;
}

export function readBlocklist(dir: string): string[] {
  return readFileSync(join(dir, 'blocklist_all.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((n) => n !== '');
}

/** A 48-bit number of a file name (two 32-bit string hashes), 1 or more. */
export function nameKey(name: string): number {
  return stringPart(name) * 65536 + (stringPart(`${name.length}:${[...name].reverse().join('')}`) & 0xffff) + 1;
}

/**
 * The blacklisted files of the range [fromS, toS) (UTC midnights), sorted by start, radar and name.
 * Radars count from their profile's first slot (`slotLo`) to their end: a radar operating past `toS`
 * is taken as operating, so that `toS` only cuts the range.
 */
export function blockedFiles(names: string[], profiles: RadarProfile[], seed: number, fromS: number, toS: number): BlockedFile[] {
  // Names are read against all radars (their shapes serve for re-dating); only radars with data count as they are.
  const byCode = new Map(profiles.map((p) => [p.radar.code, p.radar]));
  const byLetter = new Map(profiles.filter((p) => p.radar.letter).map((p) => [p.radar.letter!, p.radar]));
  const hasData = profiles.filter((p) => p.radar.code !== 'tst');
  const profileOf = new Map(hasData.map((p) => [p.radar.id, p]));
  const parsed = names.map((n) => parseName(n, byCode, byLetter)).filter((p): p is Parsed => p !== null);
  const operating = (p: RadarProfile, lo: number, hi: number): boolean =>
    lo >= Math.max(fromS, p.slotLo * SLOT_SECONDS, p.radar.firstS) && hi <= (p.radar.endS ?? Infinity);
  const out = new Map<string, BlockedFile>();
  const add = (radar: Radar, name: string, dat: boolean, startS: number): void => {
    if (!out.has(name)) out.set(name, { key: nameKey(name), radarId: radar.id, filename: name, fileTypeId: dat ? FT_DAT : FT_RAWACF, startS });
  };
  const realDays = new Set<number>();
  for (const p of parsed) {
    const prof = profileOf.get(p.radar.id);
    if (!prof || p.startS >= toS || !operating(prof, p.startS, p.startS + 1)) continue;
    add(p.radar, p.name, p.dat, p.startS);
    realDays.add(Math.floor(p.startS / DAY_SECONDS));
  }

  const datShapes = parsed.filter((p) => p.dat);
  const rawShapes = parsed.filter((p) => !p.dat);
  for (let day = Math.ceil(fromS / DAY_SECONDS); (day + 1) * DAY_SECONDS <= toS; day++) {
    if (realDays.has(day)) continue;
    const dayS = day * DAY_SECONDS;
    const dat = dayS < RAWACF_ERA_S;
    const shapes = dat ? datShapes : rawShapes;
    const candidates = hasData.filter((p) => operating(p, dayS, dayS + DAY_SECONDS) && (!dat || p.radar.letter));
    if (shapes.length === 0 || candidates.length === 0) continue;
    const radar = candidates[pick(candidates.length, seed, 3001, day)]!.radar;
    const startS = dayS + pick(SLOTS_PER_DAY, seed, 3002, day) * SLOT_SECONDS + pick(3, seed, 3003, day) * 60 + pick(20, seed, 3004, day);
    add(radar, redate(shapes[pick(shapes.length, seed, 3005, day)]!, radar, startS), dat, startS);
  }
  const files = [...out.values()].sort((a, b) => a.startS - b.startS || a.radarId - b.radarId || (a.filename < b.filename ? -1 : 1));
  const keys = new Set(files.map((f) => f.key));
  if (keys.size !== files.length) throw new Error('radar demo: two blocklisted names share a name key');
  return files;
}
