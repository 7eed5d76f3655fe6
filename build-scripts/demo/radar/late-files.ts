/**
 * Late files: a few radars re-send (or send for the first time) a short batch of files that
 * are over two (up to five) months old during the last days before the snapshot, which the mirror flags
 * `old` (older than the two-month threshold when they arrive).
 *
 * A batch inside the generated range re-transfers files that are already there; a batch before
 * the range (always the case for short ranges) brings files the range itself does not hold, so
 * those slots are generated as extra files: the only files outside [from, from + days).
 */
import { pick, unit } from './random.ts';
import { DAY_SECONDS, SLOTS_PER_DAY, SLOT_SECONDS, type RadarProfile } from './radar-profiles.ts';

export interface LateSlot {
  radarId: number;
  slot: number;
  /** When the batch is sent (a transfer after this instant brings it), seconds. */
  sendS: number;
}

export function lateSlots(profiles: RadarProfile[], seed: number, fromS: number, toS: number): LateSlot[] {
  const out = new Map<string, LateSlot>();
  const takenDay = Math.floor(toS / DAY_SECONDS);
  const window = Math.min(3 * DAY_SECONDS, (toS - fromS) / 2);
  for (const p of profiles) {
    const radar = p.radar;
    if (radar.code === 'tst' || unit(seed, 4000 + radar.stid, 0) >= 0.12) continue;
    const firstDay = Math.ceil(radar.firstS / DAY_SECONDS);
    const lastDay = Math.floor((radar.endS ?? toS) / DAY_SECONDS) - 1;
    const lo = Math.max(firstDay, takenDay - 150);
    const hi = Math.min(lastDay, takenDay - 68);
    if (hi < lo) continue;
    const batches = 1 + pick(2, seed, 4000 + radar.stid, 1);
    for (let b = 0; b < batches; b++) {
      const day = lo + pick(hi - lo + 1, seed, 4000 + radar.stid, 10 + b);
      const first = day * SLOTS_PER_DAY + pick(SLOTS_PER_DAY, seed, 4000 + radar.stid, 20 + b);
      const length = 1 + pick(3, seed, 4000 + radar.stid, 30 + b);
      const sendS = toS - 6 * 3600 - Math.floor(unit(seed, 4000 + radar.stid, 40 + b) * window);
      for (let s = first; s < first + length && (s + 1) * SLOT_SECONDS <= (radar.endS ?? toS); s++) {
        const key = `${radar.id}:${s}`;
        if (!out.has(key)) out.set(key, { radarId: radar.id, slot: s, sendS });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.radarId - b.radarId || a.slot - b.slot);
}
