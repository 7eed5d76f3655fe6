/**
 * renderReportHtml: the HTML document Chromium prints to a PDF report of timeseries charts. Page 1 holds
 * the title, the timespan and the chart SVG, drawn to fill the page (reportChartHeight); each series follows
 * on a new page with a metadata table, its reference values and status intervals (named, with their
 * values and colours) and its values in three CSS columns (the table header repeats on every page and column). Pure (no DOM, no
 * I/O) and deterministic: the same spec gives the same bytes. Also paperFor (A4 or Letter by locale) and
 * REPORT_STRINGS (the visible words in en, de, nl).
 */
import { isLanguage, numberLocale, timeLocale, type Language } from './locale.ts';
import { pointCount, valueAt, type ChartPoints } from './spec.ts';
import { esc } from './svg.ts';
import { typesetUnit } from '../units.ts';

export interface ReportValue { t: number; v: number }

export interface ReportSeries {
  id: string;
  /** "<feature> (<phenomenon> [<uom>])" */
  name: string;
  station: string;
  phenomenon: string;
  procedure: string;
  uom: string;
  /** The series' first and last value (metadata, not limited to the timespan). */
  first: ReportValue | undefined;
  last: ReportValue | undefined;
  /** The values in the report's timespan, in time order; NaN or null is no value. */
  values: ChartPoints;
  /** When `values` are only the first of the timespan's values: how many there are, and where to get them all. */
  more?: { total: number; href: string };
  /** The series' reference values: name, the value in force at the timespan's end (NaN: none), colour. */
  referenceValues?: { name: string; value: number; color?: string }[];
  /** The series' status intervals (52°North's extension), bounds as configured. */
  statusIntervals?: { name: string; lower: string; upper?: string; color: string }[];
}

export interface ReportSpec {
  title: string;
  language: Language;
  paper: 'A4' | 'Letter';
  timespan: { start: number; end: number };
  /** A complete <svg> from renderChartSvg (with a viewBox); embedded as is, not escaped. */
  chartSvg: string;
  series: ReportSeries[];
}

export interface ReportStrings {
  timespan: string;
  station: string;
  phenomenon: string;
  procedure: string;
  unit: string;
  firstValue: string;
  lastValue: string;
  time: string;
  value: string;
  noValues: string;
  /** After a cut values table: `{shown}` and `{total}` are replaced by the counts, the link follows. */
  moreValues: string;
  /** d3 UTC format of a date and time (24 h); " UTC" is appended where no header says so. */
  dateTime: string;
  referenceValues: string;
  statusIntervals: string;
  name: string;
  /** Heading of a reference value's value column: the value at the timespan's end. */
  valueAtEnd: string;
  from: string;
  to: string;
  colour: string;
}

export const REPORT_STRINGS: Readonly<Record<Language, ReportStrings>> = {
  en: {
    timespan: 'Timespan', station: 'Station', phenomenon: 'Phenomenon', procedure: 'Procedure', unit: 'Unit',
    firstValue: 'First value', lastValue: 'Last value', time: 'Time (UTC)', value: 'Value',
    noValues: 'No values in this timespan', moreValues: 'The first {shown} of {total} values in this timespan. All values as CSV:',
    dateTime: '%Y-%m-%d %H:%M',
    referenceValues: 'Reference values', statusIntervals: 'Status intervals', name: 'Name',
    valueAtEnd: 'Value at the end of the timespan', from: 'From', to: 'To', colour: 'Colour',
  },
  de: {
    timespan: 'Zeitraum', station: 'Station', phenomenon: 'Phänomen', procedure: 'Verfahren', unit: 'Einheit',
    firstValue: 'Erster Wert', lastValue: 'Letzter Wert', time: 'Zeit (UTC)', value: 'Wert',
    noValues: 'Keine Werte in diesem Zeitraum', moreValues: 'Die ersten {shown} von {total} Werten in diesem Zeitraum. Alle Werte als CSV:',
    dateTime: '%d.%m.%Y %H:%M',
    referenceValues: 'Referenzwerte', statusIntervals: 'Statusintervalle', name: 'Name',
    valueAtEnd: 'Wert am Ende des Zeitraums', from: 'Von', to: 'Bis', colour: 'Farbe',
  },
  nl: {
    timespan: 'Periode', station: 'Station', phenomenon: 'Fenomeen', procedure: 'Procedure', unit: 'Eenheid',
    firstValue: 'Eerste waarde', lastValue: 'Laatste waarde', time: 'Tijd (UTC)', value: 'Waarde',
    noValues: 'Geen waarden in deze periode', moreValues: 'De eerste {shown} van {total} waarden in deze periode. Alle waarden als CSV:',
    dateTime: '%d-%m-%Y %H:%M',
    referenceValues: 'Referentiewaarden', statusIntervals: 'Statusintervallen', name: 'Naam',
    valueAtEnd: 'Waarde aan het einde van de periode', from: 'Van', to: 'Tot', colour: 'Kleur',
  },
};

/** The printable area of a page (mm), inside the report's margins (15 mm top and bottom, 12 mm left and right). */
const CONTENT_MM: Readonly<Record<'A4' | 'Letter', { width: number; height: number }>> = {
  A4: { width: 210 - 24, height: 297 - 30 },
  Letter: { width: 215.9 - 24, height: 279.4 - 30 },
};

/**
 * The height (px) of a report's chart `width` px wide that fills the first page below the title and the
 * timespan: the title is estimated at 55 characters a line (16 pt), 8 mm each, the timespan line and gaps
 * 14 mm; 3 % are left spare so the chart never spills onto a second page. At least half the width.
 */
export function reportChartHeight(paper: 'A4' | 'Letter', width: number, title: string): number {
  const page = CONTENT_MM[paper];
  const lines = Math.max(1, Math.ceil(title.length / 55));
  const free = page.height - 14 - 8 * lines;
  return Math.max(Math.round(width / 2), Math.floor((width * free * 0.97) / page.width));
}

/** Regions that print on US Letter; everything else gets A4. */
const LETTER_REGIONS: ReadonlySet<string> = new Set(['US', 'CA', 'MX', 'PH', 'CL', 'CO', 'VE']);

/** 'Letter' for a locale (en_US, en-US, es_MX, en_US.UTF-8) in a Letter region, else 'A4'. */
export function paperFor(locale: string | undefined): 'A4' | 'Letter' {
  if (locale === undefined) return 'A4';
  const subtags = locale.split(/[.@]/)[0]!.split(/[-_]/).slice(1);
  const region = subtags.find((s) => /^[A-Za-z]{2}$/.test(s));
  return region !== undefined && LETTER_REGIONS.has(region.toUpperCase()) ? 'Letter' : 'A4';
}

interface Formats {
  s: ReportStrings;
  date: (t: number) => string;
  number: (v: number) => string;
  count: (n: number) => string;
}

function formats(lang: Language): Formats {
  const s = REPORT_STRINGS[lang];
  const d = timeLocale(lang).utcFormat(s.dateTime);
  const n = numberLocale(lang);
  // Up to 10 significant digits without an exponent; very large or small magnitudes in exponent notation.
  const plain = n.format(',.10~r'), exp = n.format('.6~e');
  return {
    s,
    date: (t) => (Number.isFinite(t) ? d(new Date(t)) : '\u2014'),
    count: n.format(','),
    number: (v) => (!Number.isFinite(v) ? '\u2014' : v !== 0 && (Math.abs(v) >= 1e10 || Math.abs(v) < 1e-6) ? exp(v) : plain(v)),
  };
}

const withUnit = (label: string, uom: string) => (uom === '' ? label : `${label} ${typesetUnit(uom)}`);
/** `" [m³/s]"` after a column's name, or nothing for a series without a unit. */
const bracketUnit = (uom: string) => (uom === '' ? '' : ` [${typesetUnit(uom)}]`);

function reportValue(rv: ReportValue | undefined, uom: string, f: Formats): string {
  if (rv === undefined || !Number.isFinite(rv.v)) return '\u2014';
  return esc(`${withUnit(f.number(rv.v), uom)} (${f.date(rv.t)} UTC)`);
}

function metaTable(s: ReportSeries, f: Formats): string {
  const rows: [string, string][] = [
    [f.s.station, esc(s.station)],
    [f.s.phenomenon, esc(s.phenomenon)],
    [f.s.procedure, esc(s.procedure)],
    [f.s.unit, esc(typesetUnit(s.uom))],
    [f.s.firstValue, reportValue(s.first, s.uom, f)],
    [f.s.lastValue, reportValue(s.last, s.uom, f)],
  ];
  return `<table class="meta">\n${rows.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>`).join('\n')}\n</table>`;
}

const swatch = (color: string | undefined) =>
  color !== undefined && /^#[0-9a-fA-F]{6}$/.test(color)
    ? `<span class="swatch" style="background:${color.toLowerCase()}"></span>${esc(color.toLowerCase())}`
    : '\u2014';

/** The reference values and the status intervals of a series, each a small named table; nothing when it has none. */
function levelTables(s: ReportSeries, f: Formats): string {
  const out: string[] = [];
  const refs = s.referenceValues ?? [];
  if (refs.length > 0) {
    const head = `<tr><th scope="col">${esc(f.s.name)}</th><th scope="col">${esc(f.s.valueAtEnd + bracketUnit(s.uom))}</th><th scope="col">${esc(f.s.colour)}</th></tr>`;
    const rows = refs.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(f.number(r.value))}</td><td>${swatch(r.color)}</td></tr>`);
    out.push(`<h3>${esc(f.s.referenceValues)}</h3>\n<table class="levels references">\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`);
  }
  const intervals = s.statusIntervals ?? [];
  if (intervals.length > 0) {
    const bound = (b: string | undefined) => (b === undefined || b === '' ? '\u2014' : Number.isFinite(Number(b)) ? f.number(Number(b)) : b);
    const unit = bracketUnit(s.uom);
    const head = `<tr><th scope="col">${esc(f.s.name)}</th><th scope="col">${esc(f.s.from + unit)}</th><th scope="col">${esc(f.s.to + unit)}</th><th scope="col">${esc(f.s.colour)}</th></tr>`;
    const rows = intervals.map((i) => `<tr><td>${esc(i.name)}</td><td>${esc(bound(i.lower))}</td><td>${esc(bound(i.upper))}</td><td>${swatch(i.color)}</td></tr>`);
    out.push(`<h3>${esc(f.s.statusIntervals)}</h3>\n<table class="levels status-intervals">\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`);
  }
  return out.join('\n');
}

function valuesTable(s: ReportSeries, f: Formats): string {
  const n = pointCount(s.values);
  if (n === 0) return `<p class="no-values">${esc(f.s.noValues)}</p>`;
  const valueHead = f.s.value + bracketUnit(s.uom);
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    rows.push(`<tr><td>${esc(f.date(Number(s.values.t[i])))}</td><td>${esc(f.number(valueAt(s.values, i)))}</td></tr>`);
  }
  const table = '<div class="columns">\n<table class="values">\n'
    + `<thead><tr><th scope="col">${esc(f.s.time)}</th><th scope="col">${esc(valueHead)}</th></tr></thead>\n`
    + `<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n</div>`;
  if (s.more === undefined || s.more.total <= n) return table;
  const text = f.s.moreValues.replace('{shown}', f.count(n)).replace('{total}', f.count(s.more.total));
  return `${table}\n<p class="more-values">${esc(text)} <span class="href">${esc(s.more.href)}</span></p>`;
}

function style(paper: 'A4' | 'Letter'): string {
  return `@page { size: ${paper}; margin: 15mm 12mm; }
html { font-family: sans-serif; font-size: 10pt; color: #000; background: #fff; }
body { margin: 0; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 13pt; margin: 0 0 4mm; }
p.timespan { margin: 0 0 6mm; color: #333; }
div.chart { break-inside: avoid; }
div.chart svg { display: block; width: 100%; height: auto; }
h3 { font-size: 11pt; margin: 0 0 2mm; }
table.levels { margin: 0 0 5mm; }
table.levels th { text-align: left; border-bottom: 0.6pt solid #000; padding: 0.4mm 4mm 0.4mm 0; }
table.levels td { padding: 0.4mm 4mm 0.4mm 0; border-bottom: 0.3pt solid #ccc; }
span.swatch { display: inline-block; width: 3mm; height: 3mm; margin-right: 1.5mm; vertical-align: -0.4mm; border: 0.3pt solid #555; }
section.series { break-before: page; }
table { border-collapse: collapse; }
table.meta { margin: 0 0 6mm; }
table.meta th { text-align: left; font-weight: bold; padding: 0.6mm 6mm 0.6mm 0; vertical-align: top; }
table.meta td { padding: 0.6mm 0; }
div.columns { column-count: 3; column-gap: 8mm; font-size: 8pt; }
table.values { width: 100%; }
table.values thead { display: table-header-group; }
table.values th { text-align: left; border-bottom: 0.6pt solid #000; padding: 0.4mm 1mm; }
table.values td { border-bottom: 0.3pt solid #ccc; padding: 0.2mm 1mm; white-space: nowrap; }
table.values th:last-child, table.values td:last-child { text-align: right; font-variant-numeric: tabular-nums; }
table.values tr { break-inside: avoid; }
p.no-values { font-style: italic; color: #555; }
p.more-values { font-size: 8pt; margin: 3mm 0 0; }
p.more-values span.href { word-break: break-all; }`;
}

/** The report as a complete HTML document (inline CSS only, no scripts, no external resources). */
export function renderReportHtml(spec: ReportSpec): string {
  const lang: Language = isLanguage(spec.language) ? spec.language : 'en';
  const f = formats(lang);
  const { start, end } = spec.timespan;
  const sections = spec.series.map((s) =>
    `<section class="series" data-series="${esc(s.id)}">\n<h2>${esc(s.name)}</h2>\n${metaTable(s, f)}\n${[levelTables(s, f), valuesTable(s, f)].filter(Boolean).join('\n')}\n</section>`);
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<title>${esc(spec.title)}</title>`,
    `<style>\n${style(spec.paper === 'Letter' ? 'Letter' : 'A4')}\n</style>`,
    '</head>',
    '<body>',
    `<h1>${esc(spec.title)}</h1>`,
    `<p class="timespan">${esc(`${f.s.timespan}: ${f.date(start)} \u2013 ${f.date(end)} UTC`)}</p>`,
    `<div class="chart">\n${spec.chartSvg.trim()}\n</div>`,
    ...sections,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
