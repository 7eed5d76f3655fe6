/**
 * Golden SVGs of issue 20's cases (test/helpers/chart-cases.ts). `UPDATE_GOLDEN=1` rewrites them (never on
 * CI): do it on purpose only, after rendering them (test/integration/chart-pixels.test.ts writes the PNGs to
 * test/artifacts/charts/) and looking at each changed one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { renderChartSvg } from '../../core/charts/index.ts';
import { CASES } from '../helpers/chart-cases.ts';

test.each(Object.keys(CASES))('golden SVG: %s', (name) => {
  const file = fileURLToPath(new URL(`./__golden__/chart-${name}.svg`, import.meta.url));
  const svg = renderChartSvg(CASES[name]!());
  expect(renderChartSvg(CASES[name]!())).toBe(svg);
  if (process.env.UPDATE_GOLDEN === '1' && !process.env.CI) {
    writeFileSync(file, svg);
    return;
  }
  expect(existsSync(file), `${file} is missing: UPDATE_GOLDEN=1 writes it`).toBe(true);
  expect(svg).toBe(readFileSync(file, 'utf8'));
});
