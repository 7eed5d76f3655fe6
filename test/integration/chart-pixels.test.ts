/**
 * Issue 20's chart cases (test/helpers/chart-cases.ts) through the real renderer (headless Chromium): each
 * is written to test/artifacts/charts/<case>.png to be looked at, and the pixels are checked: no pixel of a
 * series' colour inside a gap wider than the gap limit; seven series give seven distinct colours.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderChartSvg, seriesColors, type ChartSpec } from '../../core/charts/index.ts';
import { chartPageHtml } from '../../core/charts/page.ts';
import { layout } from '../../core/charts/scales.ts';
import { ChartRenderer } from '../../lib/chart-renderer.ts';
import { CASES, GAP, gapSpec, sevenSpec } from '../helpers/chart-cases.ts';
import { decodePng, isColour, type Image } from '../helpers/png.ts';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'charts');
let renderer: ChartRenderer;

beforeAll(async () => {
  renderer = new ChartRenderer({ pages: 1 });
  await mkdir(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await renderer.close();
});

async function png(spec: ChartSpec, name: string): Promise<Image> {
  const buf = await renderer.render({ kind: 'png', html: chartPageHtml(renderChartSvg(spec)), width: spec.width!, height: spec.height! });
  await writeFile(join(ARTIFACTS, `${name}.png`), buf);
  return decodePng(buf);
}

/** Pixels of `hex` (within `tol` per channel) inside the rectangle. */
function count(img: Image, hex: string, x0: number, x1: number, y0: number, y1: number, tol = 24): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(img.height, Math.ceil(y1)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(img.width, Math.ceil(x1)); x++) if (isColour(img, x, y, hex, tol)) n++;
  }
  return n;
}

describe('charts on the real renderer', () => {
  test('a gap wider than the limit holds no pixel of the series colour; the line is drawn on both sides', async () => {
    const spec = gapSpec();
    const img = await png(spec, 'gap');
    const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, 1);
    const { top, bottom } = l.plot;
    const [a, b] = [l.x(GAP.from), l.x(GAP.to)];
    expect(b - a).toBeGreaterThan(100);
    expect(count(img, '#0072b2', a + 3, b - 3, top, bottom)).toBe(0);
    expect(count(img, '#0072b2', l.plot.left, a, top, bottom)).toBeGreaterThan(200);
    expect(count(img, '#0072b2', b, l.plot.right, top, bottom)).toBeGreaterThan(50);
  });

  test('seven air-temperature series hinted red: seven distinct colours, each drawn', async () => {
    const spec = sevenSpec();
    const img = await png(spec, 'seven');
    const l = layout(spec.width!, spec.height!, spec.series, spec.timespan, spec.series.length);
    const colors = seriesColors(spec.series);
    expect(new Set(colors).size).toBe(7);
    for (const c of colors) expect(count(img, c, l.plot.left, l.plot.right, l.plot.top, l.plot.bottom, 8), c).toBeGreaterThan(100);
    expect(count(img, '#ff0000', 0, img.width, 0, img.height, 8)).toBe(0);
  });

  test('every case renders (written to test/artifacts/charts/)', async () => {
    for (const [name, spec] of Object.entries(CASES)) {
      const img = await png(spec(), name);
      expect([img.width, img.height]).toEqual([spec().width, spec().height]);
    }
  });

  test('every golden SVG renders (test/artifacts/charts/golden-<name>.png, to look at before accepting it)', async () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'unit', '__golden__');
    for (const f of (await readdir(dir)).filter((n) => n.endsWith('.svg'))) {
      const svg = await readFile(join(dir, f), 'utf8');
      const [, w, h] = /width="(\d+)" height="(\d+)"/.exec(svg)!;
      const buf = await renderer.render({ kind: 'png', html: chartPageHtml(svg), width: Number(w), height: Number(h) });
      await writeFile(join(ARTIFACTS, `golden-${f.replace(/\.svg$/, '.png')}`), buf);
      expect(decodePng(buf).width).toBe(Number(w));
    }
  });
});
