/**
 * Where the static tree holds the answers of parameter-free requests (same naming idea as the radar tree):
 * an API path P has `P.json` (the bare request) and `P.expanded.json` (`expanded=true`); the index `/api/v1/`
 * is `api/v1/index.json`. Paths: the index, every collection, every resource (`api/v1/stations/sta_x.json`;
 * its `.expanded.json` is the same file, a hard link), and every timeseries' data for the default timespan
 * (`api/v1/timeseries/ts_x/getData.json`, and `getData.expanded.json` with reference values).
 * Labels are the default (English) ones: a request with `locale` is answered live.
 */
import { COLLECTIONS, type Catalogue } from './catalogue.ts';
import { TIMESERIES_PREFIX } from './routes.ts';
import { treeFile } from '../tree-file.ts';

/** The file of an API path's bare or expanded answer (core/tree-file.ts). */
export function staticFile(apiPath: string, expanded: boolean): string {
  return treeFile(apiPath, expanded ? '.expanded.json' : '.json');
}

export type StaticEntry =
  | { kind: 'index'; apiPath: string }
  | { kind: 'collection'; apiPath: string; collection: (typeof COLLECTIONS)[number] }
  | { kind: 'item'; apiPath: string; collection: (typeof COLLECTIONS)[number]; index: number }
  | { kind: 'getData'; apiPath: string; index: number };

/** Every path of the static tree (each in both variants), in writing order. */
export function* staticEntries(cat: Catalogue): Generator<StaticEntry> {
  yield { kind: 'index', apiPath: `${TIMESERIES_PREFIX}/` };
  for (const c of COLLECTIONS) yield { kind: 'collection', apiPath: `${TIMESERIES_PREFIX}/${c}`, collection: c };
  for (const c of COLLECTIONS) {
    const recs = cat[c];
    for (let i = 0; i < recs.length; i++) yield { kind: 'item', apiPath: `${TIMESERIES_PREFIX}/${c}/${recs[i]!.id}`, collection: c, index: i };
  }
  for (let i = 0; i < cat.timeseries.length; i++) yield { kind: 'getData', apiPath: `${TIMESERIES_PREFIX}/timeseries/${cat.timeseries[i]!.id}/getData`, index: i };
}

/** Number of files the tree holds (two per path). */
export function staticFileCount(cat: Catalogue): number {
  return 2 * (1 + COLLECTIONS.length + COLLECTIONS.reduce((n, c) => n + cat[c].length, 0) + cat.timeseries.length);
}
