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
import { asciiFileName } from '../http/download.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { negotiate } from '../http/media-types.ts';
import type { PrerenderInterval } from '../snapshot/timeseries-config.ts';
import type { PathExtension } from './routes.ts';

import { REPRESENTATIONS, TIMESERIES_FORMATS, type Representation } from '../formats/timeseries.ts';

export type { Representation };

/** The JSON media type, as `Accept` and the docs name it. */
const JSON_MEDIA = TIMESERIES_FORMATS.json.media.type;
/**
 * The Content-Type of every JSON answer of the Timeseries API (static files, live answers and errors alike),
 * as 52°North's server writes it (DECISIONS.md "Real clients"). The radar API keeps a bare `application/json`.
 */
export const JSON_TYPE = TIMESERIES_FORMATS.json.contentType;
export const PNG_TYPE = TIMESERIES_FORMATS.png.media.type;
export const PDF_TYPE = TIMESERIES_FORMATS.pdf.media.type;
/** Downloads of the data paths (data-csv.ts): CSV, and a ZIP of one CSV per series. */
export const CSV_TYPE = TIMESERIES_FORMATS.csv.media.type;
export const ZIP_TYPE = TIMESERIES_FORMATS.zip.media.type;

const BY_TYPE: Record<string, Representation> = Object.fromEntries(REPRESENTATIONS.map((r) => [TIMESERIES_FORMATS[r].media.type, r]));
/** The Content-Type each representation is answered with (TIMESERIES_FORMATS). */
export const MEDIA_TYPE = Object.fromEntries(REPRESENTATIONS.map((r) => [r, TIMESERIES_FORMATS[r].contentType])) as Record<Representation, string>;
/** Media types a path produces: every representation on the data paths, else those not only there (JSON). */
const PRODUCIBLE = { data: REPRESENTATIONS.map((r) => TIMESERIES_FORMATS[r].media.type), other: REPRESENTATIONS.filter((r) => !TIMESERIES_FORMATS[r].dataOnly).map((r) => TIMESERIES_FORMATS[r].media.type) };

function chartsOnlyOnData(): HttpError {
  return new HttpError(406, 'Charts (image/png, application/pdf) are rendered only from data paths', {
    hints: [
      'A chart of one timeseries: GET /api/v1/timeseries/{id}/getData.png (or .pdf for a report)',
      'A chart of several: POST /api/v1/timeseries/getData with Accept: image/png',
      `This path produces: ${JSON_MEDIA}`,
    ],
  });
}

/** The representation of a request; `charts` says whether the path renders charts. Throws 406. */
export function chooseRepresentation(accept: string | undefined, extension: PathExtension | undefined, charts: boolean): Representation {
  if (extension !== undefined) {
    if (extension !== 'json' && !charts) throw chartsOnlyOnData();
    return extension;
  }
  const producible = charts ? PRODUCIBLE.data : PRODUCIBLE.other;
  try {
    return BY_TYPE[negotiate(accept, producible)]!;
  } catch (e) {
    if (!charts && accept !== undefined && /(^|[,\s])(image\/png|application\/pdf)\b/i.test(accept)) throw chartsOnlyOnData();
    throw e;
  }
}

/** An instant for a file name: ISO 8601 basic format to the second, UTC (`20240108T000000Z`). */
function instantName(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** Series named in a chart's file name; more are counted (`ts_a_ts_b_ts_c_and_7_more`). */
const NAMED_SERIES = 3;

/**
 * The file name of a chart rendered on demand: the series ids (the first three, then how many more) and the
 * timespan, `ts_koeln_rhein_water_level_20240101T000000Z_20240108T000000Z.png`.
 */
export function chartFileName(ids: readonly string[], span: { start: number; end: number }, kind: 'png' | 'pdf'): string {
  const named = ids.slice(0, NAMED_SERIES).join('_') + (ids.length > NAMED_SERIES ? `_and_${ids.length - NAMED_SERIES}_more` : '');
  return asciiFileName(`${named}_${instantName(span.start)}_${instantName(span.end)}.${kind}`, 'runs');
}

/** The file name of a pre-rendered chart: the series id and the chart's name, `ts_x_lastWeek.png`, `ts_x_lastWeek_with_legend.png`. */
export function prerenderedFileName(id: string, interval: PrerenderInterval, qualifier?: string): string {
  return asciiFileName(`${id}_${interval}${qualifier ? `_${qualifier}` : ''}.png`, 'runs');
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
