/**
 * Blacklisted files from the real SuperDARN blocklist (`blocklist_all.txt`: one name per line,
 * optionally followed by a sha1, which the demo ignores: its checksums are those of its own
 * stand-in contents).
 *
 * Real names whose date falls in the generated range, for a radar operating then, are used as
 * they are. When the range holds fewer than one per day (or 3), more are made from real names'
 * shapes (odd ones included: `..rawacf`, `.HH..`, upper-case `.dat` channels) re-dated into the
 * range for radars operating in it: the dat shapes before 2006, the rawacf shapes after.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Radar } from './radars.ts';
import { pick } from './random.ts';
import { RAWACF_ERA_S, SLOT_SECONDS, type RadarProfile } from './radar-profiles.ts';
import { FT_DAT, FT_RAWACF } from './vocabularies.ts';

const RAW_SHAPE = /^(\d{4})(\d{2})(\d{2})\.(\d{2})(\d{2})?\.(\d{2})?\.([a-z]{3})(\..*rawacf\.bz2)$/;
const DAT_SHAPE = /^(\d{4})(\d{2})(\d{2})(\d{2})([a-z])([A-Z]?)\.dat\.bz2$/;

export interface BlockedFile {
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

/** The blacklisted files of the range [fromS, toS), sorted by start, radar and name. */
export function blockedFiles(names: string[], profiles: RadarProfile[], seed: number, fromS: number, toS: number): BlockedFile[] {
  const active = profiles.filter((p) => p.slotHi > p.slotLo);
  // Names are read against all radars (their shapes serve for re-dating); only active ones count as they are.
  const byCode = new Map(profiles.map((p) => [p.radar.code, p.radar]));
  const byLetter = new Map(profiles.filter((p) => p.radar.letter).map((p) => [p.radar.letter!, p.radar]));
  const profileOf = new Map(active.map((p) => [p.radar.id, p]));
  const parsed = names.map((n) => parseName(n, byCode, byLetter)).filter((p): p is Parsed => p !== null);
  const inRange = (radar: Radar, t: number): boolean => {
    const p = profileOf.get(radar.id);
    return !!p && t >= Math.max(fromS, p.slotLo * SLOT_SECONDS) && t < Math.min(toS, p.slotHi * SLOT_SECONDS);
  };
  const out = new Map<string, BlockedFile>();
  const add = (radar: Radar, name: string, dat: boolean, startS: number): void => {
    if (!out.has(name)) out.set(name, { radarId: radar.id, filename: name, fileTypeId: dat ? FT_DAT : FT_RAWACF, startS });
  };
  for (const p of parsed) if (inRange(p.radar, p.startS)) add(p.radar, p.name, p.dat, p.startS);

  const wanted = Math.max(3, Math.round((toS - fromS) / 86_400));
  const datShapes = parsed.filter((p) => p.dat);
  const rawShapes = parsed.filter((p) => !p.dat);
  for (let i = 0; out.size < wanted && i < wanted * 4 && active.length > 0; i++) {
    const p = active[pick(active.length, seed, 3001, i)]!;
    const slot = p.slotLo + pick(p.slotHi - p.slotLo, seed, 3002, i);
    const startS = slot * SLOT_SECONDS + pick(3, seed, 3003, i) * 60 + pick(20, seed, 3004, i);
    const dat = startS < RAWACF_ERA_S;
    if (dat && !p.radar.letter) continue;
    const shapes = dat ? datShapes : rawShapes;
    if (shapes.length === 0) continue;
    add(p.radar, redate(shapes[pick(shapes.length, seed, 3005, i)]!, p.radar, startS), dat, startS);
  }
  return [...out.values()].sort((a, b) => a.startS - b.startS || a.radarId - b.radarId || (a.filename < b.filename ? -1 : 1));
}
