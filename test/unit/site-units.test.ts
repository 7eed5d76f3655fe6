/** Units typeset for the site's pages (site/lib/units.ts). */
import { expect, test } from 'vitest';
import { typesetUnit } from '../../site/lib/units.ts';

test.each([
  ['m3/s', 'm³/s'],
  ['ug/m3', 'µg/m³'],
  ['m s-1', 'm s⁻¹'],
  ['W/m2', 'W/m²'],
  ['umol/l', 'µmol/l'],
  ['°C', '°C'],
  ['%', '%'],
  ['cm', 'cm'],
  ['mm', 'mm'],
  ['hPa', 'hPa'],
  ['unit', 'unit'],
  ['1/s', '1/s'],
  ['', ''],
])('%s → %s', (raw, shown) => expect(typesetUnit(raw)).toBe(shown));
