/**
 * Which representation a Timeseries API request gets, and where pre-rendered charts live.
 *
 * - JSON everywhere; `image/png`, `application/pdf`, `text/csv` and `application/zip` on the data paths
 *   (`GET /timeseries/{id}/getData`, `POST /timeseries/getData`). A path extension (`.json`, `.png`, `.pdf`;
 *   `getData.csv`, `getData.zip`) wins over `Accept` (DECISIONS.md).
 *   Asking for a chart type elsewhere is 406 naming where charts are.
 * - Pre-rendered charts (`/timeseries/{id}/{interval}`, `interval` is `lastDay`, `lastWeek` or `lastMonth`,
 *   optionally followed by `_<chartQualifier>` as 52°North names them, and by `.png`): the static tree holds
 *   them as `api/v1/timeseries/<id>/<interval>[_<qualifier>].png`. None there: 404 "No pre-rendered chart
 *   found for timeseries '<id>'".
 */
import { HttpError, notFound } from '../http/errors.ts';
import { negotiate } from '../http/media-types.ts';
import type { PrerenderInterval } from '../snapshot/timeseries-config.ts';
import type { PathExtension } from './routes.ts';

export const JSON_TYPE = 'application/json';
export const PNG_TYPE = 'image/png';
export const PDF_TYPE = 'application/pdf';
/** Downloads of the data paths (data-csv.ts): CSV, and a ZIP of one CSV per series. */
export const CSV_TYPE = 'text/csv';
export const ZIP_TYPE = 'application/zip';
export type Representation = 'json' | 'png' | 'pdf' | 'csv' | 'zip';

const BY_TYPE: Record<string, Representation> = { [JSON_TYPE]: 'json', [PNG_TYPE]: 'png', [PDF_TYPE]: 'pdf', [CSV_TYPE]: 'csv', [ZIP_TYPE]: 'zip' };
export const MEDIA_TYPE: Record<Representation, string> = { json: JSON_TYPE, png: PNG_TYPE, pdf: PDF_TYPE, csv: CSV_TYPE, zip: ZIP_TYPE };

function chartsOnlyOnData(): HttpError {
  return new HttpError(406, 'Charts (image/png, application/pdf) are rendered only from data paths', {
    hints: [
      'A chart of one timeseries: GET /api/v1/timeseries/{id}/getData.png (or .pdf for a report)',
      'A chart of several: POST /api/v1/timeseries/getData with Accept: image/png',
      `This path produces: ${JSON_TYPE}`,
    ],
  });
}

/** The representation of a request; `charts` says whether the path renders charts. Throws 406. */
export function chooseRepresentation(accept: string | undefined, extension: PathExtension | undefined, charts: boolean): Representation {
  if (extension !== undefined) {
    if (extension !== 'json' && !charts) throw chartsOnlyOnData();
    return extension;
  }
  const producible = charts ? [JSON_TYPE, PNG_TYPE, PDF_TYPE, CSV_TYPE, ZIP_TYPE] : [JSON_TYPE];
  try {
    return BY_TYPE[negotiate(accept, producible)]!;
  } catch (e) {
    if (!charts && accept !== undefined && /(^|[,\s])(image\/png|application\/pdf)\b/i.test(accept)) throw chartsOnlyOnData();
    throw e;
  }
}

/** The static tree's file of a pre-rendered chart (relative to the site root). */
export function prerenderedFile(id: string, interval: PrerenderInterval, qualifier?: string): string {
  return `api/v1/timeseries/${encodeURIComponent(id)}/${interval}${qualifier ? `_${qualifier}` : ''}.png`;
}

export function noPrerenderedChart(id: string): HttpError {
  return notFound(`No pre-rendered chart found for timeseries '${id}'`, [
    `A chart rendered on demand: /api/v1/timeseries/${id}/getData.png`,
    `Pre-rendered charts are lastDay, lastWeek or lastMonth where the snapshot's configuration names them, e.g. /api/v1/timeseries/${id}/lastWeek`,
  ]);
}
