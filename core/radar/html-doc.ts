/**
 * The `text/html` representation of a radar catalogue path: a small documentation page of that route,
 * made from the same route, resource and parameter tables the endpoint runs on.
 */
import { MEDIA_TYPES, PARAM_DOCS } from './params.ts';
import { RESOURCES, viewFields } from './resources.ts';
import { RADAR_PREFIX, routeFormats, type RadarPrefix, type RadarRoute } from './routes.ts';

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The page of a route, its links under the prefix the request came in on. */
export function routeDocPage(route: RadarRoute, prefix: RadarPrefix = RADAR_PREFIX): string {
  const path = `${prefix}${route.path}`;
  const r = route.resource && RESOURCES[route.resource];
  const fieldRows = (expanded: boolean) =>
    r ? viewFields(r, expanded).map((f) => `<tr><td><code>${esc(f.name)}</code></td><td>${f.kind}</td></tr>`).join('') : '';
  const example = route.path.endsWith('/:id') ? path.replace(':id', '1') : path;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>GET ${esc(path)} · Radar Data Mirror Catalogue API v3</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code{background:#f1f3f5;padding:0 .2em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}</style>
</head><body>
<p><a href="${prefix}/">${prefix}/</a></p>
<h1><code>GET ${esc(path)}</code></h1>
<p>${esc(route.description)}${r ? ` ${esc(r.meaning)}` : ''}</p>
<p>Example: <a href="${esc(example)}"><code>${esc(example)}</code></a></p>
<h2>Representations</h2>
<ul>${routeFormats(route).map((f) => `<li><code>${MEDIA_TYPES[f]}</code></li>`).join('')}</ul>
${r ? `<h2>Fields (simple view)</h2><table><tr><th>field</th><th>type</th></tr>${fieldRows(false)}</table>` : ''}
${r && r.expanded.length > 0 ? `<h2>Fields (expanded=true)</h2><table><tr><th>field</th><th>type</th></tr>${fieldRows(true)}</table>` : ''}
${route.shape === 'index' ? '' : `<h2>Query parameters</h2><table><tr><th>name</th><th>type</th><th>default</th><th>meaning</th></tr>${PARAM_DOCS.map((p) => `<tr><td><code>${p.name}</code></td><td>${esc(p.type)}</td><td>${esc(p.default)}</td><td>${esc(p.meaning)}</td></tr>`).join('')}</table>`}
</body></html>
`;
}
