/**
 * The demo network as rows of the contract's tables (all but observations), and the values of
 * the reference values over time.
 *
 * Reference values are the flood warning levels (Meldestufen) 1 to 3 of every water level
 * series, stored as change points (see the contract): one row at the first instant of the data,
 * and, for a third of the gauges (chosen by hash), a revision at UTC midnight REVISION_DAYS
 * after the first instant (in the snapshots that reach it: a fixed time, so one more day never
 * moves it) that moves all three levels of the gauge by +20 or -10 cm.
 */
import { TIMESERIES_TABLES } from '../../../core/snapshot/timeseries-tables.ts';
import type { TableSpec } from '../../../core/snapshot/table-schema.ts';
import type { Labels, Network, RefValueDef, Resource } from './network.ts';
import { fnv1a } from './keys.ts';
import type { Row } from './write.ts';

export interface Step {
  timestamp: number;
  value: number;
}

/** Days from the first instant of the data to the revision of the revised warning levels. */
export const REVISION_DAYS = 4;

/** The change points of a reference value within a period of `days` days. */
export function refValueSteps(r: RefValueDef, fromMs: number, days: number): Step[] {
  const h = fnv1a(r.timeseriesId);
  const steps: Step[] = [{ timestamp: fromMs, value: r.base }];
  if (h % 3 === 0 && REVISION_DAYS < days) steps.push({ timestamp: fromMs + REVISION_DAYS * 86_400_000, value: r.base + ((h >>> 4) % 2 ? 20 : -10) });
  return steps;
}

export function spec(name: string): TableSpec {
  const s = TIMESERIES_TABLES.find((t) => t.name === name);
  if (!s) throw new Error(`no table ${name} in the timeseries contract`);
  return s;
}

const collection = (r: Resource): Row => ({ id: r.id, label: r.labels.en, service_id: r.serviceId });

/** Every table but observations, as rows keyed by column name. */
export function tableRows(n: Network, fromMs: number, days: number): Record<string, Row[]> {
  const labelled: { id: string; labels: Labels }[] = [
    ...n.services,
    ...n.categories,
    ...n.offerings,
    ...n.features,
    ...n.procedures,
    ...n.phenomena,
    ...n.stations,
    ...n.series,
    ...n.refValues,
  ];
  const labels: Row[] = [];
  for (const r of labelled) {
    for (const [locale, label] of Object.entries(r.labels)) if (label !== undefined) labels.push({ resource_id: r.id, locale, label });
  }
  return {
    services: n.services.map((s) => ({
      id: s.id,
      label: s.labels.en,
      service_url: s.serviceUrl,
      version: s.version,
      type: s.type,
      supports_first_latest: s.supportsFirstLatest,
    })),
    categories: n.categories.map(collection),
    offerings: n.offerings.map(collection),
    features: n.features.map(collection),
    procedures: n.procedures.map(collection),
    phenomena: n.phenomena.map(collection),
    stations: n.stations.map((s) => ({ id: s.id, label: s.labels.en, longitude: s.lon, latitude: s.lat, service_id: s.serviceId })),
    timeseries: n.series.map((s) => ({
      id: s.id,
      label: s.labels.en,
      service_id: s.serviceId,
      category_id: s.categoryId,
      offering_id: s.offeringId,
      feature_id: s.featureId,
      procedure_id: s.procedureId,
      phenomenon_id: `phe_${s.phenomenon}`,
      station_id: s.stationId,
      uom: s.uom,
    })),
    reference_values: n.refValues.map((r) => ({ id: r.id, label: r.labels.en, timeseries_id: r.timeseriesId })),
    reference_value_observations: n.refValues.flatMap((r) =>
      refValueSteps(r, fromMs, days).map((st) => ({ reference_value_id: r.id, timestamp: st.timestamp, value: st.value })),
    ),
    labels,
  };
}
