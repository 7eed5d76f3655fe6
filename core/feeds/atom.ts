/**
 * Atom 1.0 feeds (RFC 4287) of the snapshot history (docs/changes.md), written as static files by each build
 * (build-scripts/lib/feeds.ts) and linked from the site's pages: where they are, and their XML. Pure.
 *
 * Every id and `updated` is derived from what the entry reports (a snapshot's name and taken_at, an
 * observation's series and time), never from the build's clock, so a rebuild writes the same bytes.
 */

/** A name that may stand in a feed's file name as it is (else the resource has no feed). */
const SAFE = /^[A-Za-z0-9_.-]+$/;

export const FEEDS_ROOT = '/feeds';
export const ALARMS_FEED = `${FEEDS_ROOT}/alarms.atom`;
export const ATOM_TYPE = 'application/atom+xml';

export function radarFeedPath(code: string): string | undefined {
  return /^[a-z]{3}$/.test(code) ? `${FEEDS_ROOT}/radars/${code}.atom` : undefined;
}
export function timeseriesFeedPath(id: string): string | undefined {
  return SAFE.test(id) && !id.startsWith('.') ? `${FEEDS_ROOT}/timeseries/${id}.atom` : undefined;
}
export function stationFeedPath(id: string): string | undefined {
  return SAFE.test(id) && !id.startsWith('.') ? `${FEEDS_ROOT}/stations/${id}.atom` : undefined;
}

export function xmlEscape(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** A URN of snapcat's own: `urn:snapcat:<part>:<part>…`, each part percent-encoded. */
export function urn(...parts: string[]): string {
  return `urn:snapcat:${parts.map((p) => encodeURIComponent(p)).join(':')}`;
}

export interface AtomLink {
  href: string;
  rel?: 'alternate' | 'related' | 'self';
  type?: string;
  title?: string;
}

export interface AtomEntry {
  id: string;
  title: string;
  /** ISO 8601 with zone. */
  updated: string;
  links: AtomLink[];
  /** Plain text. */
  summary: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle: string;
  /** Its own path. */
  self: string;
  /** The page it belongs to. */
  page?: string;
  /** When no entry gives one (an empty feed): the newest snapshot's taken_at. */
  updated: string;
  entries: AtomEntry[];
}

function link(l: AtomLink, indent: string): string {
  const attrs = [`rel="${l.rel ?? 'alternate'}"`, ...(l.type ? [`type="${xmlEscape(l.type)}"`] : []), `href="${xmlEscape(l.href)}"`, ...(l.title ? [`title="${xmlEscape(l.title)}"`] : [])];
  return `${indent}<link ${attrs.join(' ')}/>\n`;
}

/** The feed's XML: entries newest first (as given), `updated` the newest entry's, else the feed's own. */
export function atomXml(feed: AtomFeed): string {
  const updated = feed.entries.map((e) => e.updated).sort().at(-1) ?? feed.updated;
  let out = '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n';
  out += `  <id>${xmlEscape(feed.id)}</id>\n  <title>${xmlEscape(feed.title)}</title>\n  <subtitle>${xmlEscape(feed.subtitle)}</subtitle>\n  <updated>${updated}</updated>\n`;
  out += link({ rel: 'self', type: ATOM_TYPE, href: feed.self }, '  ');
  if (feed.page) out += link({ rel: 'alternate', type: 'text/html', href: feed.page }, '  ');
  out += '  <author><name>snapcat</name></author>\n  <generator>snapcat</generator>\n';
  for (const e of feed.entries) {
    out += `  <entry>\n    <id>${xmlEscape(e.id)}</id>\n    <title>${xmlEscape(e.title)}</title>\n    <updated>${e.updated}</updated>\n`;
    for (const l of e.links) out += link(l, '    ');
    out += `    <summary>${xmlEscape(e.summary)}</summary>\n  </entry>\n`;
  }
  return out + '</feed>\n';
}
