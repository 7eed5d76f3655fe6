/**
 * The demo sensor network: two services (river gauges, weather and air quality), their
 * categories, offerings, procedures, phenomena, stations, features, timeseries and reference
 * values, with labels in English (the default), German and, for services, categories and
 * phenomena, Dutch. Pure and deterministic: the same places give the same network; the seed only
 * drives the values (series.ts), and ids never depend on it.
 */
import { GAUGES, RIVERS, WEATHER_SITES, type Gauge, type WeatherSite } from './places.ts';
import { PHENOMENA, type PhenomenonKey } from './phenomena.ts';
import { fnv1a, slug } from './keys.ts';
import { floodRange } from './series.ts';

export type Labels = { en: string; de: string; nl?: string };

export interface Resource {
  id: string;
  labels: Labels;
  serviceId: string;
}
export interface Service {
  id: string;
  labels: Labels;
  serviceUrl: string;
  version: string;
  type: string;
  supportsFirstLatest: boolean;
}
export interface Station extends Resource {
  lon: number;
  lat: number;
  /** Hash key of the station, for the pseudo-random streams. */
  key: number;
}

/** Where a timeseries is measured: a river gauge or a weather site, with its place data. */
export type Site = { kind: 'gauge'; gauge: Gauge; station: Station } | { kind: 'weather'; site: WeatherSite; station: Station };

export interface SeriesDef {
  id: string;
  labels: Labels;
  serviceId: string;
  categoryId: string;
  offeringId: string;
  featureId: string;
  procedureId: string;
  phenomenon: PhenomenonKey;
  stationId: string;
  uom: string;
  /** Minutes between values: 10 or 60. */
  stepMinutes: number;
  /** Hash key of the series. */
  key: number;
  site: Site;
  /**
   * Days from the start of the data (`from`) to the first value: a sensor commissioned later; default 0.
   * A fixed time after `from`, not a share of the period, so a snapshot of one more day holds the same values.
   */
  activeFromDays?: number;
  /** Days from the start of the data to the end of the values: a sensor taken out of service; default never. */
  activeToDays?: number;
  /** The series has no observations at all (announced, not yet delivering). */
  empty?: boolean;
}

export interface RefValueDef {
  id: string;
  labels: Labels;
  timeseriesId: string;
  /** Warning level 1..3. */
  level: number;
  /** The value before any revision, cm. */
  base: number;
}

export interface Network {
  services: Service[];
  categories: Resource[];
  offerings: Resource[];
  features: Resource[];
  procedures: Resource[];
  phenomena: Resource[];
  stations: Station[];
  series: SeriesDef[];
  refValues: RefValueDef[];
}

export const SRV_RIVERS = 'srv_rivers';
export const SRV_WEATHER = 'srv_weather';

const SERVICES: Service[] = [
  {
    id: SRV_RIVERS,
    labels: { en: 'River gauges (demo)', de: 'Flusspegel (Demo)', nl: 'Rivierpeilen (demo)' },
    serviceUrl: 'https://sensors.example.org/rivers/sos',
    version: '2.0.0',
    type: 'SOS',
    supportsFirstLatest: true,
  },
  {
    id: SRV_WEATHER,
    labels: { en: 'Weather and air quality (demo)', de: 'Wetter und Luftqualität (Demo)', nl: 'Weer en luchtkwaliteit (demo)' },
    serviceUrl: 'https://sensors.example.org/weather/sos',
    version: '1.0.0',
    type: 'SOS',
    supportsFirstLatest: false,
  },
];

const CATEGORIES: Resource[] = [
  { id: 'cat_hydrology', serviceId: SRV_RIVERS, labels: { en: 'Hydrology', de: 'Hydrologie', nl: 'Hydrologie' } },
  { id: 'cat_water_quality', serviceId: SRV_RIVERS, labels: { en: 'Water quality', de: 'Gewässergüte', nl: 'Waterkwaliteit' } },
  { id: 'cat_meteorology', serviceId: SRV_WEATHER, labels: { en: 'Meteorology', de: 'Meteorologie', nl: 'Meteorologie' } },
  { id: 'cat_air_quality', serviceId: SRV_WEATHER, labels: { en: 'Air quality', de: 'Luftqualität', nl: 'Luchtkwaliteit' } },
];

const PROCEDURES: Resource[] = [
  { id: 'pro_radar_gauge', serviceId: SRV_RIVERS, labels: { en: 'Radar level gauge', de: 'Radarpegel' } },
  { id: 'pro_pressure_gauge', serviceId: SRV_RIVERS, labels: { en: 'Pressure probe gauge', de: 'Drucksondenpegel' } },
  { id: 'pro_float_gauge', serviceId: SRV_RIVERS, labels: { en: 'Float gauge', de: 'Schwimmerpegel' } },
  { id: 'pro_rating_curve', serviceId: SRV_RIVERS, labels: { en: 'Stage-discharge rating curve', de: 'Abflusskurve (W-Q-Beziehung)' } },
  { id: 'pro_water_thermometer', serviceId: SRV_RIVERS, labels: { en: 'PT100 water thermometer', de: 'PT100-Wassertemperaturfühler' } },
  { id: 'pro_air_thermometer', serviceId: SRV_WEATHER, labels: { en: 'PT100 thermometer in a screen', de: 'PT100-Thermometer in der Wetterhütte' } },
  { id: 'pro_hygrometer', serviceId: SRV_WEATHER, labels: { en: 'Capacitive hygrometer', de: 'Kapazitives Hygrometer' } },
  { id: 'pro_tipping_bucket', serviceId: SRV_WEATHER, labels: { en: 'Tipping-bucket rain gauge', de: 'Kippwaagen-Niederschlagsmesser' } },
  { id: 'pro_weighing_rain_gauge', serviceId: SRV_WEATHER, labels: { en: 'Weighing rain gauge', de: 'Wägender Niederschlagsmesser' } },
  { id: 'pro_beta_attenuation', serviceId: SRV_WEATHER, labels: { en: 'Beta attenuation monitor', de: 'Beta-Absorptionsmessgerät' } },
  { id: 'pro_optical_particle_counter', serviceId: SRV_WEATHER, labels: { en: 'Optical particle counter', de: 'Optischer Partikelzähler' } },
];

/** Which procedure measures a phenomenon at a station: fixed, or one of several by the station's hash. */
function procedureFor(phenomenon: PhenomenonKey, stationKey: number): string {
  const pick = (ids: string[]) => ids[stationKey % ids.length]!;
  switch (phenomenon) {
    case 'water_level': return pick(['pro_radar_gauge', 'pro_pressure_gauge', 'pro_float_gauge']);
    case 'discharge': return 'pro_rating_curve';
    case 'water_temperature': return 'pro_water_thermometer';
    case 'air_temperature': return 'pro_air_thermometer';
    case 'relative_humidity': return 'pro_hygrometer';
    case 'precipitation': return pick(['pro_tipping_bucket', 'pro_weighing_rain_gauge']);
    case 'pm10': return pick(['pro_beta_attenuation', 'pro_optical_particle_counter']);
  }
}

/** Series with a special life: commissioned late, taken out of service, or without data yet. */
export const LIFECYCLE: Record<string, Pick<SeriesDef, 'activeFromDays' | 'activeToDays' | 'empty'>> = {
  ts_eindhoven_pm10: { activeFromDays: 3.2 },
  ts_wittenberg_elbe_water_temperature: { activeToDays: 5.6 },
  ts_brocken_relative_humidity: { empty: true },
};

/** Largest network factor: 100 copies of the network (27,600 series). */
export const MAX_NETWORK_FACTOR = 100;

/**
 * Copy `copy` (2, 3, ...) of a place: the same river or climate, moved by up to ±0.2° in each direction (a
 * hash of its id, so the same every run) and, for a gauge, by up to ±15 river kilometres (floods reach it a
 * little earlier or later).
 */
function moved<T extends { lon: number; lat: number }>(place: T, id: string): T {
  const h = fnv1a(`copy_${id}`);
  const r = (shift: number) => (((h >>> shift) & 0x3ff) / 0x3ff - 0.5) * 0.4;
  return { ...place, lon: Math.round((place.lon + r(0)) * 1000) / 1000, lat: Math.round((place.lat + r(10)) * 1000) / 1000 };
}

/**
 * The demo network, `factor` times over (default 1: the 103 stations of places.ts). Copy 1 is the network
 * itself, unchanged; copies 2 to `factor` add a station beside every station of it (`sta_koeln_rhein_2`,
 * "Cologne 2 (Rhine)"), moved a little (`moved`), with its own noise, outages and warning levels, so a
 * national-scale network has the same mix of phenomena. Gauges of even copies report every 15 minutes
 * instead of 10 (both are common in real hydrological networks); weather stays 10-minute, precipitation and
 * PM10 hourly. The ids of copy 1 never change, so a scaled snapshot holds the plain one's series too.
 */
export function buildNetwork(factor = 1): Network {
  if (!Number.isInteger(factor) || factor < 1 || factor > MAX_NETWORK_FACTOR) throw new Error(`the network factor must be a whole number from 1 to ${MAX_NETWORK_FACTOR}, not ${factor}`);
  const stations: Station[] = [];
  const features: Resource[] = [];
  const series: SeriesDef[] = [];
  const refValues: RefValueDef[] = [];

  const addSeries = (site: Site, phenomenon: PhenomenonKey, stepMinutes?: number) => {
    const st = site.station;
    const p = PHENOMENA[phenomenon];
    const id = `ts_${st.id.slice(4)}_${phenomenon}`;
    series.push({
      id,
      labels: { en: `${p.labels.en}@${st.labels.en}`, de: `${p.labels.de}@${st.labels.de}` },
      serviceId: p.serviceId,
      categoryId: p.categoryId,
      offeringId: p.offering.id,
      featureId: `foi_${st.id.slice(4)}`,
      procedureId: procedureFor(phenomenon, st.key),
      phenomenon,
      stationId: st.id,
      uom: p.uom,
      stepMinutes: stepMinutes ?? p.stepMinutes,
      key: fnv1a(id),
      site,
      ...(LIFECYCLE[id] ?? {}),
    });
    return id;
  };

  for (let copy = 1; copy <= factor; copy++) {
    const suffix = copy === 1 ? '' : `_${copy}`;
    const nth = copy === 1 ? '' : ` ${copy}`;
    for (const place of GAUGES) {
      const river = RIVERS[place.river];
      const name = slug(`${place.de}_${place.river}`) + suffix;
      const g = copy === 1 ? place : { ...moved(place, name), km: place.km + ((fnv1a(`km_${name}`) % 31) - 15) };
      const gaugeStep = copy % 2 === 0 ? 15 : undefined;
      const station: Station = {
        id: `sta_${name}`,
        serviceId: SRV_RIVERS,
        labels: { en: `${g.en ?? g.de}${nth} (${river.en})`, de: `${g.de}${nth} (${river.de})` },
        lon: g.lon,
        lat: g.lat,
        key: fnv1a(`sta_${name}`),
      };
      stations.push(station);
      features.push({ id: `foi_${name}`, serviceId: SRV_RIVERS, labels: { en: `${g.en ?? g.de}${nth} gauge, ${river.en}`, de: `Pegel ${g.de}${nth}, ${river.de}` } });
      const site: Site = { kind: 'gauge', gauge: g, station };
      const levelId = addSeries(site, 'water_level', gaugeStep);
      if (g.mq !== undefined) addSeries(site, 'discharge', gaugeStep);
      if (g.temp) addSeries(site, 'water_temperature', gaugeStep);
      for (const level of [1, 2, 3]) {
        refValues.push({
          id: `ref_${name}_ms${level}`,
          labels: { en: `Warning level ${level}`, de: `Meldestufe ${level}` },
          timeseriesId: levelId,
          level,
          base: warningLevel(g, level),
        });
      }
    }

    for (const place of WEATHER_SITES) {
      const name = slug(place.de) + suffix;
      const w = copy === 1 ? place : moved(place, name);
      const station: Station = {
        id: `sta_${name}`,
        serviceId: SRV_WEATHER,
        labels: { en: `${w.en ?? w.de}${nth}`, de: `${w.de}${nth}` },
        lon: w.lon,
        lat: w.lat,
        key: fnv1a(`sta_${name}`),
      };
      stations.push(station);
      features.push({ id: `foi_${name}`, serviceId: SRV_WEATHER, labels: { en: `${w.en ?? w.de}${nth} monitoring site`, de: `Messstelle ${w.de}${nth}` } });
      const site: Site = { kind: 'weather', site: w, station };
      addSeries(site, 'air_temperature');
      if (w.has.includes('H')) addSeries(site, 'relative_humidity');
      if (w.has.includes('P')) addSeries(site, 'precipitation');
      if (w.has.includes('M')) addSeries(site, 'pm10');
    }
  }

  const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const phenomena: Resource[] = Object.entries(PHENOMENA).map(([k, p]) => ({ id: `phe_${k}`, serviceId: p.serviceId, labels: p.labels }));
  const offerings: Resource[] = Object.values(PHENOMENA).map((p) => ({ id: p.offering.id, serviceId: p.serviceId, labels: p.offering.labels }));
  return {
    services: [...SERVICES].sort(byId),
    categories: [...CATEGORIES].sort(byId),
    offerings: offerings.sort(byId),
    features: features.sort(byId),
    procedures: [...PROCEDURES].sort(byId),
    phenomena: phenomena.sort(byId),
    stations: stations.sort(byId),
    series: series.sort(byId),
    refValues: refValues.sort(byId),
  };
}

/** Warning level (Meldestufe) 1..3 of a gauge, cm: MW + 0.6, 0.8, 1.0 times the river's flood range, to 10 cm. */
export function warningLevel(g: Gauge, level: number): number {
  return Math.round((g.mw + (0.4 + 0.2 * level) * floodRange(g)) / 10) * 10;
}

/** Days of a period of `days` days that a series has values in (its active life within the period). */
export function activeDays(s: SeriesDef, days: number): number {
  if (s.empty) return 0;
  return Math.max(0, Math.min(days, s.activeToDays ?? Infinity) - Math.min(days, s.activeFromDays ?? 0));
}

/**
 * Values per day of the network before gaps over a period of `days` days: each series' values per day times
 * the share of the period it is active. Without `days`, the long-run rate (series commissioned late count in
 * full, series taken out of service not at all).
 */
export function valuesPerDay(n: Network, days?: number): number {
  return n.series.reduce((sum, s) => {
    const share = days === undefined ? (s.empty || s.activeToDays !== undefined ? 0 : 1) : activeDays(s, days) / days;
    return sum + ((24 * 60) / s.stepMinutes) * share;
  }, 0);
}
