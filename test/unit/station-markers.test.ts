/**
 * The station map's markers made as strings (site/lib/station-markers.ts) are the bytes Astro renders for the
 * same element: its attribute and text escaping, compared with Astro's own functions on awkward values.
 */
import { addAttribute, escapeHTML } from 'astro/runtime/server/index.js';
import { expect, test } from 'vitest';
import { attribute, escapeText, otherMarkers } from '../../site/lib/station-markers.ts';
import type { MapGeometry, MapMarker } from '../../site/lib/stations.ts';

const AWKWARD = ['Aachen', 'Müller & Söhne', 'say "hi"', "O'Brien <b>", 'a&amp;b', '', '  spaced  ', '&#39;'];

test('attributes as Astro writes them: & and " escaped, an empty value bare, none for undefined and null', () => {
  for (const v of AWKWARD) expect(attribute('aria-label', v)).toBe(String(addAttribute(v, 'aria-label')));
  expect(attribute('data-status', undefined)).toBe(String(addAttribute(undefined, 'data-status')));
  expect(attribute('data-status', null)).toBe('');
});

test('text as Astro escapes it', () => {
  for (const v of AWKWARD) expect(escapeText(v)).toBe(String(escapeHTML(v)));
});

test('the markers are made once per map and status, and joined without the current one', () => {
  const m = (id: string): MapMarker => ({ station: { id, label: id } as MapMarker['station'], x: 0, y: 0, kind: 0 });
  const map = { markers: [m('a'), m('b'), m('c')] } as unknown as MapGeometry;
  let calls = 0;
  const render = (x: MapMarker) => (calls++, `<${x.station.id}>`);
  expect(otherMarkers(map, undefined, undefined, render)).toBe('<a><b><c>');
  expect(otherMarkers(map, undefined, map.markers[1], render)).toBe('<a><c>');
  expect(calls).toBe(3);
  const status = new Map();
  expect(otherMarkers(map, status, map.markers[0], render)).toBe('<b><c>');
  expect(calls).toBe(6);
});
