/**
 * Every representation of the Timeseries Access API, one entry each: media type, the Content-Type it is answered
 * with, how a path names it, where it is produced, and its docs words. Negotiation (charts.ts), the path
 * extensions routes.ts reads, the endpoint's Content-Type and nginx's `types` are derived from it.
 */
import { contentTypeOf, type MediaType } from './media.ts';

export type Representation = 'json' | 'png' | 'pdf' | 'csv' | 'zip';

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

export const TIMESERIES_FORMATS: { readonly [R in Representation]: TimeseriesFormat } = {
  json: {
    media: { type: 'application/json', utf8: false },
    // DECISIONS.md "Real clients": 52°North's spelling; the radar API keeps a bare application/json
    contentType: 'application/json; charset=UTF-8',
    pathExtension: 'any',
    dataOnly: false,
    treeFile: true,
    docs: 'JSON, the default on every path.',
  },
  png: {
    media: { type: 'image/png', utf8: false },
    contentType: 'image/png',
    pathExtension: 'any',
    dataOnly: true,
    treeFile: true,
    docs: 'A chart of the series (pre-rendered charts are PNG files of the tree).',
  },
  pdf: {
    media: { type: 'application/pdf', utf8: false },
    contentType: 'application/pdf',
    pathExtension: 'any',
    dataOnly: true,
    treeFile: false,
    docs: 'A report: the chart and a table of the values.',
  },
  csv: {
    media: { type: 'text/csv', utf8: true },
    contentType: contentTypeOf({ type: 'text/csv', utf8: true }),
    pathExtension: 'getData',
    dataOnly: true,
    treeFile: false,
    docs: 'A CSV download of the values.',
  },
  zip: {
    media: { type: 'application/zip', utf8: false },
    contentType: 'application/zip',
    pathExtension: 'getData',
    dataOnly: true,
    treeFile: false,
    docs: 'A ZIP of one CSV download per series.',
  },
};

export const REPRESENTATIONS = Object.keys(TIMESERIES_FORMATS) as Representation[];
