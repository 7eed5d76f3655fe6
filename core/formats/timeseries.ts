/**
 * Every representation of the Timeseries Access API, one entry each: media type, the Content-Type it is answered
 * with, how a path names it, where it is produced, and its docs words. Negotiation (charts.ts), the path
 * extensions routes.ts reads, the endpoint's Content-Type and nginx's `types` are derived from it.
 */
import { contentTypeOf, type MediaType } from './media.ts';

/** Charts and reports, rendered by the chart renderer (server/timeseries-charts.ts). */
export type ChartRepresentation = 'png' | 'pdf';
/** Downloads of the values (server/timeseries-downloads.ts). */
export type DownloadRepresentation = 'csv' | 'zip';
export type Representation = 'json' | ChartRepresentation | DownloadRepresentation;

/** How a representation is answered on the data paths: the JSON document, a chart, a download. */
type AnswerOf<R extends Representation> = R extends 'json' ? 'document' : R extends ChartRepresentation ? 'chart' : 'download';

export interface TimeseriesFormat {
  media: MediaType;
  /** The Content-Type header of an answer (the JSON one spelled as 52°North's server writes it). */
  contentType: string;
  /**
   * How a path names it: `any` a `.ext` on any path's last segment (any case), `getData` only `getData.ext` on the
   * data paths (lower or upper case).
   */
  pathExtension: 'any' | 'getData';
  /** Produced only on the data paths (getData): charts, reports, downloads. */
  dataOnly: boolean;
  /** Files of the static tree have this extension (JSON documents, pre-rendered charts). */
  treeFile: boolean;
  docs: string;
}

export const TIMESERIES_FORMATS: { readonly [R in Representation]: TimeseriesFormat & { answer: AnswerOf<R> } } = {
  json: {
    answer: 'document',
    media: { type: 'application/json', utf8: false },
    // DECISIONS.md "Real clients": 52°North's spelling; the radar API keeps a bare application/json
    contentType: 'application/json; charset=UTF-8',
    pathExtension: 'any',
    dataOnly: false,
    treeFile: true,
    docs: 'JSON, the default on every path.',
  },
  png: {
    answer: 'chart',
    media: { type: 'image/png', utf8: false },
    contentType: 'image/png',
    pathExtension: 'any',
    dataOnly: true,
    treeFile: true,
    docs: 'A chart of the series (pre-rendered charts are PNG files of the tree).',
  },
  pdf: {
    answer: 'chart',
    media: { type: 'application/pdf', utf8: false },
    contentType: 'application/pdf',
    pathExtension: 'any',
    dataOnly: true,
    treeFile: false,
    docs: 'A report: the chart and a table of the values.',
  },
  csv: {
    answer: 'download',
    media: { type: 'text/csv', utf8: true },
    contentType: contentTypeOf({ type: 'text/csv', utf8: true }),
    pathExtension: 'getData',
    dataOnly: true,
    treeFile: false,
    docs: 'A CSV download of the values.',
  },
  zip: {
    answer: 'download',
    media: { type: 'application/zip', utf8: false },
    contentType: 'application/zip',
    pathExtension: 'getData',
    dataOnly: true,
    treeFile: false,
    docs: 'A ZIP of one CSV download per series.',
  },
};

export const REPRESENTATIONS = Object.keys(TIMESERIES_FORMATS) as Representation[];

/** What answers a representation on the data paths, typed so a handler's switch over it is exhaustive. */
export type DataAnswer = { kind: 'document' } | { kind: 'chart'; representation: ChartRepresentation } | { kind: 'download'; representation: DownloadRepresentation };

export function dataAnswer(r: Representation): DataAnswer {
  const f = TIMESERIES_FORMATS[r];
  switch (f.answer) {
    case 'document':
      return { kind: 'document' };
    case 'chart':
      return { kind: 'chart', representation: r as ChartRepresentation };
    case 'download':
      return { kind: 'download', representation: r as DownloadRepresentation };
  }
}
