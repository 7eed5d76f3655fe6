/**
 * The tags of the radar id files in the tree state (core/tree/tags.ts): named by route path and variant, so adding
 * a route leaves every other tag, its number and its paths as they were, and the next build still compares their
 * files with the base's.
 */
import { describe, expect, test } from 'vitest';
import { RADAR_ROUTES, type RadarRoute } from '../../core/radar/routes.ts';
import { idFileTags, tagId } from '../../core/tree/tags.ts';

const byTag = (routes: readonly RadarRoute[]) => new Map(idFileTags(routes).map((t) => [t.tag, { id: tagId(t.tag), prefix: t.prefix, suffix: t.suffix }]));

describe('id file tags', () => {
  test('a tag is its route path and variant; its files are prefix, id, suffix', () => {
    const tags = idFileTags(RADAR_ROUTES);
    const files = tags.find((t) => t.tag === '/files/:id.json')!;
    expect(files).toMatchObject({ prefix: 'radarnet/mirror/v3/files/', suffix: '.json' });
    expect(tags.find((t) => t.tag === '/files/:id.expanded.csv')).toMatchObject({ prefix: 'radarnet/mirror/v3/files/', suffix: '.expanded.csv' });
    // only the `/:id` routes have id files, and no HTML ones
    expect(tags.every((t) => t.route.path.endsWith('/:id') && !t.tag.endsWith('.html'))).toBe(true);
  });

  test('every tag has a name and a number of its own: non-negative 32-bit integers', () => {
    const tags = idFileTags(RADAR_ROUTES);
    expect(tags.length).toBeGreaterThan(20);
    expect(new Set(tags.map((t) => t.tag)).size).toBe(tags.length);
    const ids = tags.map((t) => tagId(t.tag));
    expect(new Set(ids).size).toBe(tags.length);
    for (const id of ids) expect(Number.isInteger(id) && id >= 0 && id < 2 ** 31).toBe(true);
  });

  test('a route inserted before others (or removed) leaves every other tag, its number and paths as they were', () => {
    const at = RADAR_ROUTES.findIndex((r) => r.path === '/files/:id') + 1;
    const added: RadarRoute[] = [
      { path: '/files/recent', shape: 'collection', resource: 'files', description: 'Recent files.' },
      { path: '/files/recent/:id', shape: 'one', resource: 'files', description: 'One of: recent files.' },
    ];
    const before = byTag(RADAR_ROUTES);
    const after = byTag([...RADAR_ROUTES.slice(0, at), ...added, ...RADAR_ROUTES.slice(at)]);
    expect([...after.keys()].filter((t) => !before.has(t)).every((t) => t.startsWith('/files/recent/:id.'))).toBe(true);
    for (const [tag, files] of before) expect(after.get(tag)).toEqual(files);
    const removed = byTag(RADAR_ROUTES.filter((r) => r.path !== '/files/:id'));
    for (const [tag, files] of removed) expect(before.get(tag)).toEqual(files);
  });

  test('a tag number is a function of the name alone (FNV-1a, 31 bits)', () => {
    expect(tagId('/files/:id.json')).toBe(tagId('/files/:id.json'));
    expect(tagId('/files/:id.json')).not.toBe(tagId('/files/:id.csv'));
    // FNV-1a 32 of "a" is 0xe40c292c
    expect(tagId('a')).toBe(0xe40c292c >>> 1);
  });
});
