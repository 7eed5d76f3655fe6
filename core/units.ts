/**
 * Units as a reader writes them: the catalogue's ASCII units (`m3/s`, `ug/m3`, `m s-1`) typeset for the page
 * (`m³/s`, `µg/m³`, `m s⁻¹`). A power is the digits (with a minus) right after a letter; `u` as a prefix before
 * g, m, s, l or mol is micro (`µ`). Anything else (`°C`, `%`, `cm`, `mm`, `hPa`) is left as it is. Typesetting
 * a typeset unit changes nothing. Pure and free of Node: the site's pages, the series page's script and every
 * chart text (core/charts/: axis titles, series names, reference labels, the PDF's tables) share it. The API's
 * JSON and CSV keep the catalogue's own `uom` (the contract).
 */
const SUPER: Record<string, string> = { '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻' };

export function typesetUnit(uom: string): string {
  return uom
    .replace(/(^|[\s/*·(])u(?=(g|m|s|l|L|mol)\b|(g|m|s|l|L|mol)[\d/\s*·)-]|(g|m|s|l|L|mol)$)/g, '$1µ')
    .replace(/(?<=[A-Za-zµ°)])(-?\d+)(?![\d.])/g, (p) => [...p].map((c) => SUPER[c] ?? c).join(''));
}
