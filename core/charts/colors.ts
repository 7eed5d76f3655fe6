/**
 * Series colours. A colour the request gives is kept. A colour that only comes from rendering hints
 * (`colorHinted`, e.g. the phenomenon's style) is kept while no other series of the chart has it; series
 * whose hinted colours collide, and series without a colour, get a colour of PALETTE (Okabe & Ito's
 * colour-blind-safe set, its yellow left out as too pale on white).
 *
 * A palette colour is derived from the series id (FNV-1a hash modulo the palette), so a series has the same
 * colour in every chart where it does not collide. Inside one chart, in the chart's series order, a series
 * whose colour is taken (by a kept colour or an earlier series) takes the next free palette colour; when all
 * are taken (more than seven series) its own colour is repeated.
 */
import { isHexColor, type ChartSeries } from './spec.ts';
import { hash } from './svg.ts';

/** Okabe & Ito (2008), without yellow: blue, vermillion, bluish green, reddish purple, orange, sky blue, black. */
export const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'] as const;

/** The palette index a series prefers, from its id. */
export function paletteIndex(id: string): number {
  return parseInt(hash(id), 16) % PALETTE.length;
}

function ownColor(s: ChartSeries): string | undefined {
  const c = s.style?.properties?.color;
  return isHexColor(c) ? c.toLowerCase() : undefined;
}

/** The colour of each series, in order (see the module comment). */
export function seriesColors(series: readonly ChartSeries[]): string[] {
  const own = series.map(ownColor);
  const uses = new Map<string, number>();
  for (const c of own) if (c !== undefined) uses.set(c, (uses.get(c) ?? 0) + 1);
  const out: (string | undefined)[] = series.map((_, i) => {
    const c = own[i];
    if (c === undefined) return undefined;
    return !series[i]!.colorHinted || uses.get(c) === 1 ? c : undefined;
  });
  const taken = new Set(out.filter((c): c is string => c !== undefined));
  return series.map((s, i) => {
    const kept = out[i];
    if (kept !== undefined) return kept;
    const first = paletteIndex(s.id);
    let pick: string = PALETTE[first]!;
    for (let k = 0; k < PALETTE.length; k++) {
      const c = PALETTE[(first + k) % PALETTE.length]!;
      if (!taken.has(c)) {
        pick = c;
        break;
      }
    }
    taken.add(pick);
    return pick;
  });
}
