/**
 * The collection index `/api/v1/`: unexpanded, an object keyed by collection id, each `{id, label,
 * description}` (profile `52north`: an array of them, as 52°North's server answers); expanded, an array of the
 * same with `size`, the number of members (both profiles). Collections in the
 * spec's order. Labels and descriptions are the API's own (English), not provider data, so `locale` and the
 * filters do not apply to the index.
 */
import { COLLECTIONS, type Catalogue, type CollectionName } from './catalogue.ts';
import type { TimeseriesProfile } from './profile.ts';

export const COLLECTION_INFO: Record<CollectionName, { label: string; description: string }> = {
  services: { label: 'Service Provider', description: 'A service provider offers timeseries data.' },
  categories: { label: 'Category', description: 'A category groups available timeseries.' },
  offerings: { label: 'Offering', description: 'An organizing unit to filter resources.' },
  features: { label: 'Feature', description: 'An organizing unit to filter resources.' },
  procedures: { label: 'Procedure', description: 'An organizing unit to filter resources.' },
  phenomena: { label: 'Phenomenon', description: 'An organizing unit to filter resources.' },
  stations: { label: 'Station', description: 'A station is the place where measurement takes place.' },
  timeseries: { label: 'Timeseries', description: 'Represents a sequence of data values measured over time.' },
};

export function collectionIndex(cat: Catalogue, expanded: boolean, profile: TimeseriesProfile = 'spec'): unknown {
  if (expanded) return COLLECTIONS.map((id) => ({ id, ...COLLECTION_INFO[id], size: cat[id].length }));
  if (profile === '52north') return COLLECTIONS.map((id) => ({ id, ...COLLECTION_INFO[id] }));
  return Object.fromEntries(COLLECTIONS.map((id) => [id, { id, ...COLLECTION_INFO[id] }]));
}
