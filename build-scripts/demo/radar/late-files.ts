/**
 * Late files: now and then a radar's institute re-sends (or sends for the first time) a short
 * batch of files that are over two (up to five) months old, which the mirror flags `old` (older
 * than the two-month threshold when they arrive).
 *
 * Batches are events in time: a third of the radars re-send sometimes, each day with a small
 * probability, at an instant of that day; the batch holds 1 to 3 slots of one day 68 to 150 days
 * before. Everything about a batch is a function of (seed, radar, day), so a snapshot of one
 * more day holds the same batches plus that day's; batches sent on the snapshot's last day
 * arrive with a transfer after it when that transfer has not finished yet.
 *
 * A batch inside the generated range re-transfers files that are already there; a batch before
 * the range (the rule for ranges shorter than five months) brings files the range itself does
 * not hold, so those slots are generated as extra files: the only files outside [from, to).
 */
import { pick, unit } from './random.ts';
import { DAY_SECONDS, SLOTS_PER_DAY, SLOT_SECONDS, type RadarProfile } from './radar-profiles.ts';

/** Share of the radars that sometimes re-send old files, and their daily probability of a batch. */
export const LATE_RADAR_SHARE = 1 / 3;
export const LATE_BATCH_PER_DAY = 0.06;
/** A batch holds files of a day this many days before the send day. */
const MIN_AGE_DAYS = 68;
const MAX_AGE_DAYS = 150;

export interface LateSlot {
  radarId: number;
  slot: number;
  /** When the batch is sent (a transfer after this instant brings it), seconds. */
  sendS: number;
}

/**
 * The late slots of batches sent on the days of [fromS, toS) (UTC midnights), one per (radar,
 * slot): a slot in two batches keeps the earlier one. Sorted by radar and slot.
 */
export function lateSlots(profiles: RadarProfile[], seed: number, fromS: number, toS: number): LateSlot[] {
  const out: LateSlot[] = [];
  for (const p of profiles) {
    const radar = p.radar;
    const tag = 4000 + radar.stid;
    if (radar.code === 'tst' || unit(seed, tag, 0) >= LATE_RADAR_SHARE) continue;
    const firstDay = Math.ceil(radar.firstS / DAY_SECONDS);
    const lastDay = radar.endS === null ? Infinity : Math.floor(radar.endS / DAY_SECONDS) - 1;
    const seen = new Set<number>();
    const batches: LateSlot[] = [];
    const lo = Math.max(Math.ceil(fromS / DAY_SECONDS), firstDay + MIN_AGE_DAYS);
    const hi = Math.min(Math.floor(toS / DAY_SECONDS) - 1, lastDay + MAX_AGE_DAYS);
    for (let day = lo; day <= hi; day++) {
      if (unit(seed, tag, 1, day) >= LATE_BATCH_PER_DAY) continue;
      const fileDay = day - MIN_AGE_DAYS - pick(MAX_AGE_DAYS - MIN_AGE_DAYS + 1, seed, tag, 2, day);
      if (fileDay < firstDay || fileDay > lastDay) continue;
      const first = fileDay * SLOTS_PER_DAY + pick(SLOTS_PER_DAY, seed, tag, 3, day);
      const length = 1 + pick(3, seed, tag, 4, day);
      const sendS = day * DAY_SECONDS + Math.floor(unit(seed, tag, 5, day) * DAY_SECONDS);
      for (let s = first; s < first + length && (s + 1) * SLOT_SECONDS <= (radar.endS ?? Infinity); s++) {
        // Days ascend, so the first batch of a slot is the earliest.
        if (seen.has(s)) continue;
        seen.add(s);
        batches.push({ radarId: radar.id, slot: s, sendS });
      }
    }
    out.push(...batches.sort((a, b) => a.slot - b.slot));
  }
  return out.sort((a, b) => a.radarId - b.radarId || a.slot - b.slot);
}
