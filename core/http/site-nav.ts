/**
 * The docs site's navigation: the menu of every site page (site/layouts/Page.astro) and of the radar API's own
 * HTML documentation pages (core/radar/html-doc.ts), so a reader moves between them with one menu.
 */
export const SITE_NAV: readonly { href: string; label: string }[] = [
  { href: '/', label: 'Home' },
  { href: '/docs/radar/', label: 'Radar API' },
  { href: '/docs/timeseries/', label: 'Timeseries API' },
  { href: '/docs/operators/', label: 'Operators' },
  { href: '/docs/snapshot/', label: 'Snapshot' },
  { href: '/docs/openapi/', label: 'OpenAPI' },
  { href: '/docs/downloads/', label: 'Downloads' },
  { href: '/query/', label: 'Query' },
  { href: '/browse/radars/', label: 'Radars' },
  { href: '/browse/availability/', label: 'Availability' },
  { href: '/browse/alarms/', label: 'Alarms' },
  { href: '/browse/files/', label: 'Files' },
  { href: '/browse/stations/', label: 'Stations' },
  { href: '/browse/timeseries/', label: 'Timeseries' },
  { href: '/search/', label: 'Search' },
];

/** The site's stylesheet (public/site.css). */
export const SITE_CSS = '/site.css';
