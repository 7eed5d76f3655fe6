/** The documents Chromium renders: a chart page (screenshot at the chart's size) or a report (printed). */

export type ChartDocument =
  | { kind: 'png'; html: string; width: number; height: number }
  | { kind: 'pdf'; html: string; paper: 'A4' | 'Letter' };

/** A page holding only the chart's SVG at its top left corner, on white, with nothing to fetch. */
export function chartPageHtml(svg: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    '<style>html,body{margin:0;padding:0;background:#fff;overflow:hidden}svg{display:block}</style>' +
    `</head><body>${svg}</body></html>`
  );
}
