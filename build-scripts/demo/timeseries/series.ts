/**
 * The value models of the demo timeseries, as DuckDB SQL expressions over one row's time.
 *
 * Row columns available to a model: `t` (BIGINT, ms since epoch), `h` (hours since epoch),
 * `yr` (season angle: 0 at 1 January, 2π a year later) and `hod` (hour of day, UTC). A model
 * adds its own columns in layers (each layer may use the columns before it) and ends with the
 * value expression, already rounded to the resolution the instrument reports.
 *
 * Randomness comes from the macros in noise.ts, keyed by the seed and by stable keys: the series,
 * the station, the river (floods travel down a river) and two large-scale weather fields (north
 * and south; weather moves west to east, so a station sees them with a lag that grows with its
 * longitude). Every model is a sum of: a seasonal cycle, a daily cycle, slow autocorrelated
 * wander (value noise with knots hours or days apart), events, and white sensor noise.
 */
import { GAUGES, RIVERS, type Gauge } from './places.ts';
import { fnv1a } from './keys.ts';
import { FIELD, STREAM, num } from './noise.ts';
import type { SeriesDef, Site } from './network.ts';

export interface Model {
  /** Column layers: each maps a column name to an expression over earlier columns. */
  layers: Record<string, string>[];
  /** The value, rounded; may refer to every layer's columns. */
  value: string;
}

const TAU = 2 * Math.PI;
/** The season angle of a day of the year (0 = 1 January). */
const day = (d: number) => num((TAU * d) / 365.2422);
const clamp01 = (x: string) => `greatest(0.0, least(1.0, ${x}))`;
/** White noise of a series: a standard normal per minute. */
const white = (seed: number, key: number) => `snd(${seed}, ${key}, ${STREAM.white}, t // 60000)`;
/** Daily cosine peaking at solar hour `peak` (solar time = UTC + longitude / 15). */
const daily = (lon: number, peak: number) => `cos(${num(TAU / 24)} * (hod + ${num(lon / 15 - peak)}))`;

/**
 * A large-scale weather field as one station sees it: the north and south fields mixed by
 * latitude and delayed by longitude (fronts travel east at about 40 km/h).
 */
function field(seed: number, lon: number, lat: number, stream: number, knotHours: number): string {
  const north = Math.min(1, Math.max(0, (lat - 47.5) / 6));
  const lag = (lon - 2.5) * 1.75;
  const x = `(h - ${num(lag)}) / ${num(knotHours)}`;
  return `(${num(north)} * vnoise(${seed}, ${FIELD.north}, ${stream}, ${x}) + ${num(1 - north)} * vnoise(${seed}, ${FIELD.south}, ${stream}, ${x}))`;
}

/** Wetness of the weather at a station, about -1.3 (dry high pressure) to 1.3 (rainy). */
function wetness(seed: number, site: Extract<Site, { kind: 'weather' }>): string {
  const { lon, lat, key } = site.station;
  return `(${field(seed, lon, lat, STREAM.wetRegime, 30)} + 0.35 * vnoise(${seed}, ${key}, ${STREAM.wetLocal}, h / 6.0))`;
}

/** Flood range R of a gauge, cm: the river's factor times MW; tidal gauges feel river floods far less. */
export function floodRange(g: Gauge): number {
  return (g.tide ? 0.5 : RIVERS[g.river].floodRangeFactor) * g.mw;
}

/** Kilometres from the river's most upstream gauge in the network down to this gauge. */
export function downstreamKm(g: Gauge): number {
  const dir = RIVERS[g.river].kmDirection;
  const first = Math.min(...GAUGES.filter((x) => x.river === g.river).map((x) => dir * x.km));
  return dir * g.km - first;
}

/**
 * River level without sensor noise, cm (column `lv`), from a gauge's mean water level MW:
 * seasonal high water (±22 % MW), river-wide wander (±18 % MW, knots 5 days apart), local wander
 * (±5 % MW, 1 day), and flood waves. Floods are river-wide events: the time axis is cut into
 * 25-day slots, each slot has a flood with probability 0.35, at a random time, of a random size
 * (0.15 to 1.2 times the river's flood range, small ones far more often, larger in the high-water
 * season), rising in a Gaussian and falling exponentially. A gauge sees the river's floods and
 * wander delayed by its distance downstream at 5 km/h, so waves travel down the river.
 */
function riverLevel(seed: number, site: Extract<Site, { kind: 'gauge' }>): Record<string, string>[] {
  const g = site.gauge;
  const river = RIVERS[g.river];
  const riverKey = fnv1a(`river_${river.key}`);
  const lagHours = downstreamKm(g) / 5;
  const range = floodRange(g);
  const slotH = 600;
  const flood = [-1, 0, 1]
    .map((j) => {
      const k = `(floor(he / ${slotH}.0) + ${j})`;
      const size = `(0.15 + 1.05 * pow(rnd(${seed}, ${riverKey}, ${STREAM.floodSize}, ${k}), 2.5))`;
      const d = `(he - (${k} + rnd(${seed}, ${riverKey}, ${STREAM.floodTime}, ${k})) * ${slotH}.0)`;
      const shape = `CASE WHEN ${d} < 0 THEN exp(-(${d} / ${num(river.riseHours)}) * (${d} / ${num(river.riseHours)})) ELSE exp(-${d} / ${num(river.fallHours)}) END`;
      return `CASE WHEN rnd(${seed}, ${riverKey}, ${STREAM.floodOccurs}, ${k}) < 0.35 THEN ${size} * (${shape}) ELSE 0.0 END`;
    })
    .join(' + ');
  const season = `cos(yr - ${day(river.seasonPeakDay)})`;
  return [
    { he: `h - ${num(lagHours)}` },
    {
      lv: `greatest(${num(0.4 * g.mw)}, ${num(g.mw)}
        + ${num(0.22 * g.mw)} * ${season}
        + ${num(0.18 * g.mw)} * vnoise(${seed}, ${riverKey}, ${STREAM.levelBasin}, he / 120.0)
        + ${num(0.05 * g.mw)} * vnoise(${seed}, ${site.station.key}, ${STREAM.levelLocal}, h / 24.0)
        + ${num(range)} * (0.8 + 0.2 * ${season}) * (${flood}))`,
    },
  ];
}

/** Water level, cm, whole centimetres: the river level, the tide where there is one (M2, 12.42 h), and ±0.8 cm noise. */
function waterLevel(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'gauge' }>): Model {
  const tide = site.gauge.tide ? ` + ${num(site.gauge.tide)} * cos(${num(TAU / 12.4206012)} * h + 1.3)` : '';
  return { layers: riverLevel(seed, site), value: `round(lv${tide} + 0.8 * ${white(seed, s.key)})` };
}

/**
 * Discharge, m3/s, from the same river level through a rating curve Q = MQ ((W - W0) / (MW - W0))^1.5
 * with W0 = 0.3 MW, and 1.2 % noise; 0.1 m3/s below 100 m3/s, whole m3/s above.
 */
function discharge(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'gauge' }>): Model {
  const { mw, mq } = site.gauge;
  const q = `${num(mq!)} * pow(greatest(lv - ${num(0.3 * mw)}, ${num(0.05 * mw)}) / ${num(0.7 * mw)}, 1.5) * (1 + 0.012 * ${white(seed, s.key)})`;
  return { layers: [...riverLevel(seed, site), { q }], value: 'CASE WHEN q < 100 THEN round(q, 1) ELSE round(q) END' };
}

/**
 * Water temperature, °C, 0.1 °C: the river's mean, a seasonal cycle (±8.5 °C, warmest early
 * August), a small daily cycle (larger in summer), river-wide wander (±1.1 °C, a week) and local
 * wander; never below 0.2 °C.
 */
function waterTemperature(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'gauge' }>): Model {
  const river = RIVERS[site.gauge.river];
  const riverKey = fnv1a(`river_${river.key}`);
  const w = `${num(river.meanWaterTemp)} + 8.5 * cos(yr - ${day(212)})
    + 0.35 * (1 + 0.6 * cos(yr - ${day(190)})) * ${daily(site.station.lon, 17)}
    + 1.1 * vnoise(${seed}, ${riverKey}, ${STREAM.waterTempBasin}, h / 168.0)
    + 0.4 * vnoise(${seed}, ${site.station.key}, ${STREAM.waterTempLocal}, h / 36.0)
    + 0.03 * ${white(seed, s.key)}`;
  return { layers: [], value: `round(greatest(0.2, ${w}), 1)` };
}

/**
 * Air temperature, °C, 0.1 °C: annual mean by latitude and height (-0.55 °C per degree north,
 * -0.55 °C per 100 m), seasonal cycle (warmest 20 July, amplitude growing eastwards), daily cycle
 * (peak 14:30 solar time, ±5.3 °C in summer, ±1.7 °C in winter, damped on wet days and halved on
 * mountains), synoptic weather (±5 °C, knots 2.5 days) and warm or cold spells (±3 °C, knots 10
 * days), both moving west to east, local wander and 0.12 °C noise.
 */
function airTemperature(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'weather' }>): Model {
  const { lon, lat, alt } = site.site;
  const mean = 9.6 - 0.55 * (lat - 50) - 0.0055 * alt;
  const seasonal = 8.0 + 0.25 * (lon - 6);
  const mountain = alt > 1000 ? 0.5 : 1;
  const t = `${num(mean)} + ${num(seasonal)} * cos(yr - ${day(200)})
    + ${num(mountain)} * (3.5 + 1.8 * cos(yr - ${day(172)})) * (1 - 0.4 * ${clamp01('w')}) * ${daily(lon, 14.5)}
    + 5.0 * ${field(seed, lon, lat, STREAM.synoptic, 60)}
    + 3.0 * ${field(seed, lon, lat, STREAM.spell, 240)}
    + 1.0 * vnoise(${seed}, ${site.station.key}, ${STREAM.tempLocal}, h / 9.0)
    + 0.12 * ${white(seed, s.key)}`;
  return { layers: [{ w: wetness(seed, site) }], value: `round(${t}, 1)` };
}

/**
 * Relative humidity, %, whole percent, 15 to 100: higher in winter, the inverse of the daily
 * temperature cycle, higher in wet weather, local wander and noise.
 */
function relativeHumidity(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'weather' }>): Model {
  const { lon } = site.site;
  const rh = `77 + 8 * cos(yr - ${day(0)})
    - (9 + 5 * cos(yr - ${day(172)})) * (1 - 0.4 * ${clamp01('w')}) * ${daily(lon, 14.5)}
    + 11 * w + 4 * vnoise(${seed}, ${site.station.key}, ${STREAM.humidityLocal}, h / 8.0)
    + 1.0 * ${white(seed, s.key)}`;
  return { layers: [{ w: wetness(seed, site) }], value: `round(least(100.0, greatest(15.0, ${rh})))` };
}

/**
 * Precipitation, mm per hour (the hour ending at the timestamp), 0.1 mm: most hours are dry.
 * An hour is wet with a probability that grows with the wetness of the weather (about one hour
 * in ten over a year) plus summer-afternoon showers; the amount is exponential, its mean growing
 * with wetness and much larger for summer showers, half as much again on mountains.
 */
function precipitation(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'weather' }>): Model {
  const { lon, alt } = site.site;
  const key = s.key;
  const shower = `(greatest(0.0, cos(yr - ${day(200)})) * exp(-pow((hod + ${num(lon / 15)} - 16) / 3.0, 2)))`;
  const p = `greatest(0.0, least(0.7, 0.07 + 0.2 * w + 0.08 * w * abs(w) + 0.05 * ${shower}))`;
  const mean = `(0.5 + 0.8 * greatest(w, 0.0) + 3.0 * ${shower}) * ${num(alt > 800 ? 1.5 : 1)}`;
  return {
    layers: [{ w: wetness(seed, site) }],
    value: `CASE WHEN rnd(${seed}, ${key}, ${STREAM.rainOccurs}, t // 3600000) < ${p}
      THEN round(-ln(rnd(${seed}, ${key}, ${STREAM.rainAmount}, t // 3600000)) * ${mean}, 1) ELSE 0.0 END`,
  };
}

/**
 * PM10, µg/m3 (hourly mean), whole µg/m3: the site's urban background times a weekday factor
 * (Saturday 0.86, Sunday 0.74), rush hours on working days (08:00 and 18:30 CET), a winter high,
 * episodes of stagnant dry weather (large-scale field, knots 2 days, and dryness) and lognormal
 * noise, plus New Year fireworks in the first hours of 1 January (CET).
 */
function pm10(seed: number, s: SeriesDef, site: Extract<Site, { kind: 'weather' }>): Model {
  const { lon, lat, pm } = site.site;
  const v = `${num(pm ?? 18)}
    * CASE dow WHEN 5 THEN 0.86 WHEN 6 THEN 0.74 ELSE 1.0 END
    * (0.9 + CASE WHEN dow < 5 THEN 0.22 * exp(-pow((hl - 8) / 1.6, 2)) + 0.16 * exp(-pow((hl - 18.5) / 2.2, 2)) ELSE 0.06 * exp(-pow((hl - 12) / 4.0, 2)) END)
    * (1 + 0.25 * cos(yr - ${day(25)}))
    * exp(0.5 * ${field(seed, lon, lat, STREAM.pmEpisode, 50)} - 0.22 * w + 0.16 * snd(${seed}, ${s.key}, ${STREAM.pmNoise}, t // 60000))
    + CASE WHEN hl < 6 AND dayofyear(epoch_ms(t + 3600000)) = 1 THEN 180 * exp(-hl / 1.5) ELSE 0 END`;
  return {
    layers: [{ w: wetness(seed, site), hl: '(hod + 1) % 24', dow: '((t + 3600000) // 86400000 + 3) % 7' }],
    value: `round(greatest(2.0, ${v}))`,
  };
}

/** The model of a series. */
export function modelOf(seed: number, s: SeriesDef): Model {
  const site = s.site;
  if (site.kind === 'gauge') {
    if (s.phenomenon === 'water_level') return waterLevel(seed, s, site);
    if (s.phenomenon === 'discharge') return discharge(seed, s, site);
    if (s.phenomenon === 'water_temperature') return waterTemperature(seed, s, site);
  } else {
    if (s.phenomenon === 'air_temperature') return airTemperature(seed, s, site);
    if (s.phenomenon === 'relative_humidity') return relativeHumidity(seed, s, site);
    if (s.phenomenon === 'precipitation') return precipitation(seed, s, site);
    if (s.phenomenon === 'pm10') return pm10(seed, s, site);
  }
  throw new Error(`no value model for ${s.phenomenon} at a ${site.kind} site (${s.id})`);
}

/**
 * The cheap model of a series (`--fast-values`, for scale tests of 10^9 observations): per phenomenon a mean of
 * the right order for the site, a seasonal and a daily cosine, and uniform white noise, rounded as the full
 * model rounds. About ten times cheaper than modelOf (no value noise, floods or weather fields), so DuckDB
 * writes millions of rows a second; gaps, nulls and cadences stay those of the full model. The values are
 * plausible but not realistic: no floods, no weather, no correlation between sites.
 */
export function fastModelOf(seed: number, s: SeriesDef): Model {
  const site = s.site;
  const noise = `(rnd(${seed}, ${s.key}, ${STREAM.white}, t // 60000) - 0.5)`;
  const shape = (mean: number, season: number, dailyAmp: number, noiseAmp: number) =>
    `${num(mean)} + ${num(season)} * cos(yr - ${day(200)}) + ${num(dailyAmp)} * cos(${num(TAU / 24)} * (hod - 14.0)) + ${num(noiseAmp)} * ${noise}`;
  let value: string;
  if (site.kind === 'gauge') {
    const g = site.gauge;
    if (s.phenomenon === 'water_level') value = `round(${shape(g.mw, 0.22 * g.mw, 0, 0.1 * g.mw)})`;
    else if (s.phenomenon === 'discharge') value = `round(greatest(1.0, ${shape(g.mq ?? 100, 0.3 * (g.mq ?? 100), 0, 0.1 * (g.mq ?? 100))}), 1)`;
    else value = `round(greatest(0.2, ${shape(RIVERS[g.river].meanWaterTemp, 8.5, 0.35, 0.6)}), 1)`;
  } else if (s.phenomenon === 'air_temperature') value = `round(${shape(9.6 - 0.0055 * site.site.alt, 8, 3.5, 4)}, 1)`;
  else if (s.phenomenon === 'relative_humidity') value = `round(least(100.0, greatest(15.0, ${shape(77, 8, -9, 20)})))`;
  else if (s.phenomenon === 'precipitation') value = `round(greatest(0.0, ${shape(-0.5, 0.2, 0, 4)}), 1)`;
  else value = `round(greatest(2.0, ${shape(site.site.pm ?? 18, 4, 3, 12)}))`;
  return { layers: [], value };
}
