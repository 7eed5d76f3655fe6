/**
 * CHARTS ARE NOT IN THIS BUILD. This module is the one place that answers every chart request (PNG and PDF,
 * by `Accept`, by a `.png`/`.pdf` path extension, and the pre-rendered `/timeseries/{id}/{interval}`
 * images); the chart work replaces it. Until then:
 * - a request that selects `image/png` or `application/pdf`: 406 with the JSON error body and a hint that
 *   charts are not available in this build;
 * - a pre-rendered chart: 404 "No pre-rendered chart found for timeseries '<id>'" (DECISIONS.md), as no
 *   image has been rendered.
 */
import { HttpError, notFound } from '../http/errors.ts';
import { negotiate } from '../http/media-types.ts';
import type { PathExtension } from './routes.ts';

export const JSON_TYPE = 'application/json';
export const CHART_MEDIA_TYPES = ['image/png', 'application/pdf'] as const;

export function chartsNotAvailable(): HttpError {
  return new HttpError(406, 'Charts (image/png, application/pdf) are not available in this build', {
    hints: ['This build answers application/json only', `A valid example: Accept: ${JSON_TYPE}`],
  });
}

function namesChartType(accept: string): boolean {
  return /(^|[,\s])(image\/png|application\/pdf)\b/i.test(accept);
}

/**
 * The representation of a request: JSON, chosen by the path extension (which wins) or by `Accept`.
 * Throws 406 for anything else, with the charts hint when a chart type was asked for.
 */
export function chooseRepresentation(accept: string | undefined, extension: PathExtension | undefined): 'json' {
  if (extension === 'json') return 'json';
  if (extension === 'png' || extension === 'pdf') throw chartsNotAvailable();
  try {
    negotiate(accept, [JSON_TYPE]);
  } catch (e) {
    if (accept !== undefined && namesChartType(accept)) throw chartsNotAvailable();
    throw e;
  }
  return 'json';
}

/** `/timeseries/{id}/{lastDay|lastWeek|lastMonth}` of an existing series. */
export function prerenderedChart(id: string): never {
  throw notFound(`No pre-rendered chart found for timeseries '${id}'`, [`Raw data: /api/v1/timeseries/${id}/getData`]);
}
