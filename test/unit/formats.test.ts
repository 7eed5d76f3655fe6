/** core/formats: every table the endpoint, the tree and nginx use is derived from the one entry per format. */
import { describe, expect, test } from 'vitest';
import { FILE_TYPES } from '../../core/formats/files.ts';
import { contentTypeOf } from '../../core/formats/media.ts';
import { CONTENT_TYPES, CONTENT_TYPE_VALUES, FORMATS, isRecordFormat, MEDIA_TYPES, RADAR_FORMATS, TREE_FILE_EXTENSIONS } from '../../core/formats/radar.ts';
import { dataAnswer, REPRESENTATIONS, TIMESERIES_FORMATS } from '../../core/formats/timeseries.ts';
import { bodyFrame } from '../../core/radar/bodies.ts';
import { DOWNLOAD_EXTENSIONS } from '../../core/radar/download-name.ts';
import { VARIANTS, variantFor } from '../../core/radar/static-tree.ts';
import { chooseRepresentation, MEDIA_TYPE } from '../../core/timeseries/charts.ts';

describe('radar formats', () => {
  test('Content-Type, negotiation and contentType values as the API has always sent and read them', () => {
    expect(CONTENT_TYPES).toEqual({ json: 'application/json', csv: 'text/csv; charset=utf-8', checksum: 'text/plain; charset=utf-8', html: 'text/html; charset=utf-8' });
    expect(MEDIA_TYPES).toEqual({ json: 'application/json', csv: 'text/csv', checksum: 'text/plain', html: 'text/html' });
    expect(Object.keys(CONTENT_TYPE_VALUES)).toEqual(['application/json', 'json', 'text/csv', 'csv', 'text/plain', 'checksumReport', 'text/html', 'html']);
  });

  test('static-tree variants, tree file extensions and download extensions follow the entries', () => {
    expect(VARIANTS.map((v) => v.suffix)).toEqual(['.json', '.expanded.json', '.csv', '.expanded.csv', '.sha1', '.html']);
    expect(TREE_FILE_EXTENSIONS).toEqual(['json', 'csv', 'sha1', 'html']);
    expect(DOWNLOAD_EXTENSIONS).toEqual({ csv: '.csv', checksum: '.sha1' });
    expect(variantFor('checksum', true).suffix).toBe('.sha1');
    expect(variantFor('csv', true).suffix).toBe('.expanded.csv');
  });

  test.each(FORMATS)('%s: a record format has a renderer and a frame; its tree files are served with its Content-Type', (f) => {
    const e = RADAR_FORMATS[f];
    if (isRecordFormat(f)) {
      expect(typeof RADAR_FORMATS[f].record).toBe('function');
      expect(bodyFrame(f, 'collection', undefined)).toEqual(RADAR_FORMATS[f].frame('collection', undefined));
    } else expect(e.kind).toBe('page');
    expect(FILE_TYPES[e.ext]).toEqual(e.media);
  });

  test('frames: JSON array or object, CSV with its header and CRLF, checksum lines with LF', () => {
    expect(bodyFrame('json', 'one', undefined)).toEqual({ open: '', separator: '', terminator: '', close: '' });
    expect(bodyFrame('json', 'collection', undefined)).toEqual({ open: '[', separator: ',', terminator: '', close: ']' });
    expect(bodyFrame('csv', 'collection', 'a,b')).toEqual({ open: 'a,b\r\n', separator: '', terminator: '\r\n', close: '' });
    expect(bodyFrame('checksum', 'collection', undefined)).toEqual({ open: '', separator: '', terminator: '\n', close: '' });
  });
});

describe('timeseries formats', () => {
  test('Content-Types as the endpoint has always sent them', () => {
    expect(MEDIA_TYPE).toEqual({ json: 'application/json; charset=UTF-8', png: 'image/png', pdf: 'application/pdf', csv: 'text/csv; charset=utf-8', zip: 'application/zip' });
  });

  test.each(REPRESENTATIONS)('%s: negotiated by its media type where it is produced', (r) => {
    expect(chooseRepresentation(TIMESERIES_FORMATS[r].media.type, undefined, true)).toBe(r);
    if (TIMESERIES_FORMATS[r].dataOnly) expect(() => chooseRepresentation(TIMESERIES_FORMATS[r].media.type, undefined, false)).toThrow();
    else expect(chooseRepresentation(TIMESERIES_FORMATS[r].media.type, undefined, false)).toBe(r);
  });

  test('on the data paths: JSON is the document, PNG and PDF charts, CSV and ZIP downloads', () => {
    expect(REPRESENTATIONS.map((r) => [r, dataAnswer(r).kind])).toEqual([['json', 'document'], ['png', 'chart'], ['pdf', 'chart'], ['csv', 'download'], ['zip', 'download']]);
    expect(dataAnswer('zip')).toEqual({ kind: 'download', representation: 'zip' });
  });

  test('tree files of both APIs have a file type', () => {
    for (const r of REPRESENTATIONS.filter((x) => TIMESERIES_FORMATS[x].treeFile)) expect(FILE_TYPES[r]?.type).toBe(TIMESERIES_FORMATS[r].media.type);
    expect(contentTypeOf(FILE_TYPES['css']!)).toBe('text/css; charset=utf-8');
  });
});
