/**
 * Per-language chart strings and d3 time/number locales (en, de, nl), defined inline so rendering never
 * depends on the host's locale data.
 */
import { formatLocale, type FormatLocaleDefinition, type FormatLocaleObject } from 'd3-format';
import { timeFormatLocale, type TimeLocaleDefinition, type TimeLocaleObject } from 'd3-time-format';

export type Language = 'en' | 'de' | 'nl';
export const LANGUAGES: readonly Language[] = ['en', 'de', 'nl'];

export interface ChartStrings {
  timeAxis: string;
  noData: string;
  chart: string;
}

export const CHART_STRINGS: Readonly<Record<Language, ChartStrings>> = {
  en: { timeAxis: 'Time (UTC)', noData: 'No data', chart: 'Chart' },
  de: { timeAxis: 'Zeit (UTC)', noData: 'Keine Daten', chart: 'Diagramm' },
  nl: { timeAxis: 'Tijd (UTC)', noData: 'Geen gegevens', chart: 'Grafiek' },
};

export const TIME_LOCALES: Readonly<Record<Language, TimeLocaleDefinition>> = {
  en: {
    dateTime: '%x, %X', date: '%-m/%-d/%Y', time: '%-I:%M:%S %p', periods: ['AM', 'PM'],
    days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    shortDays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
  de: {
    dateTime: '%A, der %e. %B %Y, %X', date: '%d.%m.%Y', time: '%H:%M:%S', periods: ['AM', 'PM'],
    days: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
    shortDays: ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa'],
    months: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
    shortMonths: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
  },
  nl: {
    dateTime: '%a %e %B %Y %X', date: '%d-%m-%Y', time: '%H:%M:%S', periods: ['AM', 'PM'],
    days: ['zondag', 'maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag'],
    shortDays: ['zo', 'ma', 'di', 'wo', 'do', 'vr', 'za'],
    months: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
    shortMonths: ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
  },
};

export const NUMBER_LOCALES: Readonly<Record<Language, FormatLocaleDefinition>> = {
  en: { decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''], minus: '-' },
  de: { decimal: ',', thousands: '.', grouping: [3], currency: ['', '\u00a0€'], minus: '-' },
  nl: { decimal: ',', thousands: '.', grouping: [3], currency: ['€\u00a0', ''], minus: '-' },
};

export function isLanguage(s: unknown): s is Language {
  return typeof s === 'string' && (LANGUAGES as readonly string[]).includes(s);
}

const timeLocales = new Map<Language, TimeLocaleObject>();
const numberLocales = new Map<Language, FormatLocaleObject>();

export function timeLocale(lang: Language): TimeLocaleObject {
  let l = timeLocales.get(lang);
  if (l === undefined) timeLocales.set(lang, (l = timeFormatLocale(TIME_LOCALES[lang])));
  return l;
}

export function numberLocale(lang: Language): FormatLocaleObject {
  let l = numberLocales.get(lang);
  if (l === undefined) numberLocales.set(lang, (l = formatLocale(NUMBER_LOCALES[lang])));
  return l;
}
