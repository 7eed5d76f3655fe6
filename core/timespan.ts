/** A span of time as both APIs select by it (radar `timespan`, timeseries `timespan`). */
export interface Timespan {
  /** Inclusive bounds, ms since the epoch. */
  start: number;
  end: number;
}
