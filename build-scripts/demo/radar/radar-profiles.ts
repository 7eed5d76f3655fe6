/**
 * How each radar behaves in the demo: outage rates, channels, file-size scale and how its
 * files reach the mirror (transfer cadence, tool, link speed, forwarding mirror node).
 * Drawn once per radar from the seed; loaded into DuckDB as table `radar_params`.
 */
import { MIRROR_NODE_INSTITUTES, type Radar, type ReferenceData } from './radars.ts';
import { pick, unit } from './random.ts';
import type { Cell, SqlType } from './sql-session.ts';

export const SLOT_SECONDS = 7200;
export const SLOTS_PER_DAY = 12;
export const DAY_SECONDS = 86_400;
/** 2006-01-01T00:00:00Z: from here on files are rawacf/fitacf, before it `.dat`. */
export const RAWACF_ERA_S = 1_136_073_600;

/** Radars that ran more than one channel (stereo / multi-channel modes), with their channel count. */
const MULTI_CHANNEL: Record<string, number> = { kod: 4, tig: 3, ksr: 2, han: 2, pyk: 2, ker: 2, unw: 2, wal: 2, sas: 2, bks: 2 };

export interface RadarProfile {
  radar: Radar;
  /** Slots [slotLo, slotHi) of the generated range within the radar's operating period. */
  slotLo: number;
  slotHi: number;
  /** Probability of a multi-hour outage starting on a given day. */
  pShort: number;
  /** Probability of a multi-day outage (1-15 days) in a 32-day epoch. */
  pMulti: number;
  /** Probability of a long gap in a 365-day epoch, and its length range in days. */
  pGap: number;
  gapMinDays: number;
  gapMaxDays: number;
  maxChannels: number;
  /** Probability that a 16-day block runs all channels (else only channel a). */
  pMultiBlock: number;
  sizeFactor: number;
  /** Transfers: every `transferEvery` seconds from `transferPhase`, up to `transferJitter` seconds late. */
  transferEvery: number;
  transferPhase: number;
  transferJitter: number;
  methodId: number;
  /** Link speed relative to a well-connected site (Antarctic satellite links are slow). */
  linkFactor: number;
  instituteId: number;
  /** The mirror node that forwards this radar's data when it does not come directly. */
  relayInstituteId: number;
  pRelay: number;
}

export function radarProfiles(ref: ReferenceData, seed: number, fromS: number, toS: number): RadarProfile[] {
  const usask = ref.instituteId.get(MIRROR_NODE_INSTITUTES[0])!;
  const bas = ref.instituteId.get(MIRROR_NODE_INSTITUTES[1])!;
  return ref.radars.map((radar) => {
    const r = (tag: number): number => unit(seed, 1000 + radar.stid, tag);
    // The test radar never produced data; others from their first day to their end day.
    const hasFiles = radar.code !== 'tst';
    const lo = Math.max(fromS, radar.firstS);
    const hi = Math.min(toS, radar.endS ?? toS);
    const offline = radar.rstStatus === 0;
    const flaky = !offline && r(1) < 0.15;
    const every = [2, 3, 4, 6][pick(4, seed, 1000 + radar.stid, 2)]! * 3600;
    const instituteId = ref.instituteId.get(radar.institute)!;
    return {
      radar,
      slotLo: Math.ceil(lo / SLOT_SECONDS),
      slotHi: hasFiles && hi > lo ? Math.floor(hi / SLOT_SECONDS) : Math.ceil(lo / SLOT_SECONDS),
      pShort: 0.03 + 0.09 * r(3),
      pMulti: 0.06 + 0.22 * r(4),
      pGap: offline ? 0.7 : flaky ? 0.35 : 0.04,
      gapMinDays: offline ? 20 : flaky ? 15 : 7,
      gapMaxDays: offline ? 250 : flaky ? 150 : 60,
      maxChannels: MULTI_CHANNEL[radar.code] ?? 1,
      pMultiBlock: 0.4 + 0.4 * r(5),
      sizeFactor: (0.75 + 0.5 * r(6)) * Math.sqrt(radar.hdw.maxBeams / 16),
      transferEvery: every,
      transferPhase: Math.floor(r(7) * every),
      transferJitter: Math.min(1200, every / 4),
      methodId: r(8) < 0.7 ? 1 : r(8) < 0.9 ? 2 : 3,
      linkFactor: radar.latitude < -60 ? 0.06 + 0.06 * r(9) : 0.6 + 0.8 * r(9),
      instituteId,
      relayInstituteId: instituteId === usask ? bas : usask,
      pRelay: instituteId === usask || instituteId === bas ? 0.05 : 0.05 + 0.4 * r(10),
    };
  });
}

export const PROFILE_COLUMNS: [string, SqlType][] = [
  ['r', 'BIGINT'], ['code', 'VARCHAR'], ['letter', 'VARCHAR'], ['slot_lo', 'BIGINT'], ['slot_hi', 'BIGINT'],
  ['p_short', 'DOUBLE'], ['p_multi', 'DOUBLE'], ['p_gap', 'DOUBLE'], ['gap_lmin', 'BIGINT'], ['gap_lmax', 'BIGINT'],
  ['max_ch', 'BIGINT'], ['p_multi_block', 'DOUBLE'], ['size_factor', 'DOUBLE'],
  ['t_every', 'BIGINT'], ['t_phase', 'BIGINT'], ['t_jitter', 'BIGINT'], ['method_id', 'BIGINT'], ['link_factor', 'DOUBLE'],
  ['institute_id', 'BIGINT'], ['relay_institute_id', 'BIGINT'], ['p_relay', 'DOUBLE'],
];

export function profileRow(p: RadarProfile): Cell[] {
  return [
    p.radar.id, p.radar.code, p.radar.letter, p.slotLo, p.slotHi,
    p.pShort, p.pMulti, p.pGap, p.gapMinDays * SLOTS_PER_DAY, p.gapMaxDays * SLOTS_PER_DAY,
    p.maxChannels, p.pMultiBlock, p.sizeFactor,
    p.transferEvery, p.transferPhase, p.transferJitter, p.methodId, p.linkFactor,
    p.instituteId, p.relayInstituteId, p.pRelay,
  ];
}
