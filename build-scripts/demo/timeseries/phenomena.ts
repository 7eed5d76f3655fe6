/**
 * The phenomena of the demo network with their service, category, offering, unit and cadence.
 * River data and air temperature and humidity come every 10 minutes (instantaneous values at the
 * timestamp); precipitation and PM10 every hour (the sum, or mean, of the hour ending at the
 * timestamp).
 */
import type { Labels } from './network.ts';

export type PhenomenonKey = 'water_level' | 'discharge' | 'water_temperature' | 'air_temperature' | 'relative_humidity' | 'precipitation' | 'pm10';

export interface Phenomenon {
  labels: Labels;
  serviceId: string;
  categoryId: string;
  offering: { id: string; labels: Labels };
  uom: string;
  stepMinutes: number;
}

export const PHENOMENA: Record<PhenomenonKey, Phenomenon> = {
  water_level: {
    labels: { en: 'Water level', de: 'Wasserstand', nl: 'Waterstand' },
    serviceId: 'srv_rivers',
    categoryId: 'cat_hydrology',
    offering: { id: 'off_water_level_raw', labels: { en: 'WATER_LEVEL_RAW', de: 'WASSERSTAND_ROHDATEN' } },
    uom: 'cm',
    stepMinutes: 10,
  },
  discharge: {
    labels: { en: 'Discharge', de: 'Abfluss', nl: 'Afvoer' },
    serviceId: 'srv_rivers',
    categoryId: 'cat_hydrology',
    offering: { id: 'off_discharge_raw', labels: { en: 'DISCHARGE_RAW', de: 'ABFLUSS_ROHDATEN' } },
    uom: 'm3/s',
    stepMinutes: 10,
  },
  water_temperature: {
    labels: { en: 'Water temperature', de: 'Wassertemperatur', nl: 'Watertemperatuur' },
    serviceId: 'srv_rivers',
    categoryId: 'cat_water_quality',
    offering: { id: 'off_water_temperature_raw', labels: { en: 'WATER_TEMPERATURE_RAW', de: 'WASSERTEMPERATUR_ROHDATEN' } },
    uom: '°C',
    stepMinutes: 10,
  },
  air_temperature: {
    labels: { en: 'Air temperature', de: 'Lufttemperatur', nl: 'Luchttemperatuur' },
    serviceId: 'srv_weather',
    categoryId: 'cat_meteorology',
    offering: { id: 'off_air_temperature_10min', labels: { en: 'AIR_TEMPERATURE_10MIN', de: 'LUFTTEMPERATUR_10MIN' } },
    uom: '°C',
    stepMinutes: 10,
  },
  relative_humidity: {
    labels: { en: 'Relative humidity', de: 'Relative Luftfeuchte', nl: 'Relatieve luchtvochtigheid' },
    serviceId: 'srv_weather',
    categoryId: 'cat_meteorology',
    offering: { id: 'off_relative_humidity_10min', labels: { en: 'RELATIVE_HUMIDITY_10MIN', de: 'RELATIVE_FEUCHTE_10MIN' } },
    uom: '%',
    stepMinutes: 10,
  },
  precipitation: {
    labels: { en: 'Precipitation', de: 'Niederschlag', nl: 'Neerslag' },
    serviceId: 'srv_weather',
    categoryId: 'cat_meteorology',
    offering: { id: 'off_precipitation_hourly', labels: { en: 'PRECIPITATION_HOURLY', de: 'NIEDERSCHLAG_STUENDLICH' } },
    uom: 'mm',
    stepMinutes: 60,
  },
  pm10: {
    labels: { en: 'PM10', de: 'Feinstaub PM10', nl: 'Fijnstof PM10' },
    serviceId: 'srv_weather',
    categoryId: 'cat_air_quality',
    offering: { id: 'off_pm10_hourly', labels: { en: 'PM10_HOURLY', de: 'PM10_STUENDLICH' } },
    uom: 'ug/m3',
    stepMinutes: 60,
  },
};
