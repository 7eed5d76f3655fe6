/**
 * The `text/html` representation of a radar catalogue path: a small documentation page of that route,
 * made from the same route, resource and parameter tables the endpoint runs on.
 */
import { MEDIA_TYPES, PARAM_DOCS } from './params.ts';
import { RESOURCES, viewFields } from './resources.ts';
import { RADAR_PREFIX, routeFormats, type RadarPrefix, type RadarRoute } from './routes.ts';
import { SITE_CSS, SITE_NAV } from '../http/site-nav.ts';

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A table that scrolls sideways inside its own box on a narrow screen, never the page. */
const table = (label: string, head: string, rows: string) =>
  `<div class="table-wrap" role="region" aria-label="${esc(label)}" tabindex="0"><table><caption>${esc(label)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;

/**
 * The page of a route, its links under the prefix the request came in on. It wears the docs site's frame: the
 * site's stylesheet and menu (core/http/site-nav.ts), a skip link and the main landmark, and fits a phone (wide
 * tables scroll in their own box). A few inline rules keep it readable where the tree has no site (--no-site).
 */
export function routeDocPage(route: RadarRoute, prefix: RadarPrefix = RADAR_PREFIX): string {
  const path = `${prefix}${route.path}`;
  const r = route.resource && RESOURCES[route.resource];
  const fieldRows = (expanded: boolean) =>
    r ? viewFields(r, expanded).map((f) => `<tr><td><code>${esc(f.name)}</code></td><td>${f.kind}</td></tr>`).join('') : '';
  const example = route.path.endsWith('/:id') ? path.replace(':id', '1') : path;
  const th = (names: string[]) => names.map((n) => `<th scope="col">${n}</th>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>GET ${esc(path)} · Radar Data Mirror Catalogue API v3</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0}header,main{max-width:60rem;margin:0 auto;padding:0 1rem}.table-wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}code{overflow-wrap:anywhere}</style>
<link rel="stylesheet" href="${SITE_CSS}">
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Site"><ul>${SITE_NAV.map((n) => `<li><a href="${n.href}">${esc(n.label)}</a></li>`).join('')}</ul></nav></header>
<main id="main" tabindex="-1">
<p><a href="${prefix}/">${prefix}/</a> · <a href="/docs/radar/">Radar API docs</a></p>
<h1><code>GET ${esc(path)}</code></h1>
<p>${esc(route.description)}${r ? ` ${esc(r.meaning)}` : ''}</p>
<p>Example: <a href="${esc(example)}"><code>${esc(example)}</code></a></p>
<h2>Representations</h2>
<ul>${routeFormats(route).map((f) => `<li><code>${MEDIA_TYPES[f]}</code></li>`).join('')}</ul>
${r ? `<h2>Fields (simple view)</h2>${table('Fields of the simple view', th(['field', 'type']), fieldRows(false))}` : ''}
${r && r.expanded.length > 0 ? `<h2>Fields (expanded=true)</h2>${table('Fields of the expanded view', th(['field', 'type']), fieldRows(true))}` : ''}
${route.shape === 'index' ? '' : `<h2>Query parameters</h2>${table('Query parameters', th(['name', 'type', 'default', 'meaning']), PARAM_DOCS.map((p) => `<tr><td><code>${p.name}</code></td><td>${esc(p.type)}</td><td>${esc(p.default)}</td><td>${esc(p.meaning)}</td></tr>`).join(''))}`}
</main>
</body></html>
`;
}
