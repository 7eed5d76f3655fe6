/** The `map` blocks of nginx.conf: which file of the tree answers a request (rules from core/nginx/static-rules.ts). */
import { ACCEPT_ANY, acceptExactly, BOOLEAN_VALUE, CLEAN_REQUEST_URI, escapeRegex, firstValueOf, queryOnlyOf, RADAR, TIMESERIES } from '../../core/nginx/static-rules.ts';
import { q } from './quote.ts';
import { SECURITY_HEADERS, QUERY_CSP } from '../../core/http/response-headers.ts';
import { QUERY_PAGE_PREFIX } from '../../core/site/query-page.ts';

function mapBlock(source: string, variable: string, entries: [string, string][], fallback: string): string {
  const lines = entries.map(([k, v]) => `    ${q(k)} ${q(v)};`);
  return `  map ${q(source)} $${variable} {\n${lines.join('\n')}\n    default ${q(fallback)};\n  }`;
}

/** The `map` blocks that turn a request into the file of the tree that answers it ("" when none does). */
export function maps(): string {
  const R = RADAR.prefix;
  const T = TIMESERIES.prefix;
  const ct = RADAR.contentTypeValues();
  const formats = Object.keys(ct);
  const fmt = `(${formats.join('|')})`;
  const C = `(${TIMESERIES.collections.map(escapeRegex).join('|')})`;
  const ID = `(${TIMESERIES.id})`;
  const suffix = '(\\.[a-z0-9.]+)';
  const tsBare = TIMESERIES.suffix(false);
  const expandedTokens = [`expanded=${BOOLEAN_VALUE.true}`, `expanded=${BOOLEAN_VALUE.false}`];
  // (nginx tries no regular expression on an empty value: each map names "" itself)
  const blocks = [
    '  # Candidates for a static answer: GET or HEAD of a clean target (no percent-encoding, dot or empty segments).',
    mapBlock('$request_method', 'snap_method', [['GET', '1'], ['HEAD', '1']], '0'),
    mapBlock('$request_uri', 'snap_clean', [[`~${CLEAN_REQUEST_URI}`, '1']], '0'),
    mapBlock('$snap_method$snap_clean', 'snap_ok', [['11', '1']], '0'),
    '  # expanded: the first value counts (0, 1, or x: not one the endpoint reads as a boolean here)',
    mapBlock('$args', 'snap_expanded_raw', [[`~${firstValueOf('expanded')}`, '=$1']], ''),
    mapBlock('$snap_expanded_raw', 'snap_expanded', [['', '0'], [`~^=${BOOLEAN_VALUE.true}$`, '1'], [`~^=${BOOLEAN_VALUE.false}$`, '0']], 'x'),
    '',
    `  # ${R}: the format is contentType (its first value), else Accept; the file is P + the variant's suffix.`,
    mapBlock('$args', 'snap_radar_query', [['', '1'], [`~${queryOnlyOf([...formats.map((f) => `contentType=${ct[f as 'json']}`), ...expandedTokens], RADAR.knownParams)}`, '1']], '0'),
    mapBlock('$args', 'snap_radar_ct_raw', [[`~${firstValueOf('contentType')}`, '=$1']], ''),
    mapBlock('$snap_radar_ct_raw', 'snap_radar_ct', [['', ''], ...formats.map((f): [string, string] => [`~^=${ct[f as 'json']}$`, f])], 'x'),
    mapBlock('$http_accept', 'snap_radar_accept', [['', 'json'], [`~${ACCEPT_ANY}`, 'json'], ...Object.entries(RADAR.acceptTypes).map(([f, t]): [string, string] => [`~*${acceptExactly(t)}`, f])], 'x'),
    mapBlock('$snap_radar_ct:$snap_radar_accept', 'snap_radar_format', [[`~^${fmt}:`, '$1'], [`~^:${fmt}$`, '$1']], 'x'),
    mapBlock('$snap_radar_format:$snap_expanded', 'snap_radar_suffix', RADAR.suffixes().map((s) => [`${s.format}:${s.expanded ? 1 : 0}`, s.suffix]), ''),
    mapBlock('$snap_ok:$snap_radar_query:$snap_radar_suffix:$uri', 'snap_radar_file', [
      // a file of the tree by its own name, whatever the query (radar-handler's sendTreeFile)
      [`~^1:[^:]*:[^:]*:(${escapeRegex(R)}/[A-Za-z0-9_.~/-]*\\.(?:${RADAR.treeFileSuffixes.join('|')}))$`, '$1'],
      [`~^1:1:${suffix}:${escapeRegex(R)}/$`, `${R}/index$1`],
      [`~^1:1:${suffix}:(${RADAR.apiPath})$`, '$2$1'],
      // the same files under an alias prefix, except those holding links (the index, HTML pages): the endpoint makes them
      ...RADAR.aliases.flatMap((A): [string, string][] => {
        const index = RADAR.indexFiles().map((f) => escapeRegex(f.slice(1))).join('|');
        const links = RADAR.linkSuffixes();
        const plain = RADAR.treeFileSuffixes.filter((x) => !links.includes(`.${x}`));
        return [
          [`~^1:[^:]*:[^:]*:${escapeRegex(A)}(/(?!(?:${index})$)[A-Za-z0-9_.~/-]*\\.(?:${plain.join('|')}))$`, `${R}$1`],
          [`~^1:1:(?!(?:${links.map(escapeRegex).join('|')}):)${suffix}:${escapeRegex(A)}((?:/[A-Za-z0-9_-]+)+)$`, `${R}$2$1`],
        ];
      }),
    ], ''),
    '  # a download (CSV, checksum report) from the tree is offered under its file\'s name (core/radar/download-name.ts)',
    mapBlock('$snap_radar_file', 'snap_radar_download', RADAR.downloadRules().map(([re, header]) => [`~${re}`, header]), ''),
    '',
    `  # ${T}: only expanded selects a file; a path extension .json wins over Accept; pre-rendered charts ignore both.`,
    '  # Accept-Language localizes the labels of collections and resources: only English (the tree\'s labels) is a file.',
    mapBlock('$http_accept_language', 'snap_ts_lang', [['', '1'], [`~*${TIMESERIES.defaultLanguages}`, '1']], '0'),
    mapBlock('$args', 'snap_ts_query', [['', '1'], [`~${queryOnlyOf(expandedTokens, TIMESERIES.knownParams)}`, '1']], '0'),
    mapBlock('$http_accept', 'snap_ts_accept', [['', 'json'], [`~${ACCEPT_ANY}`, 'json'], [`~*${acceptExactly(TIMESERIES.jsonType)}`, 'json']], 'x'),
    mapBlock('$snap_expanded', 'snap_ts_suffix', [['0', TIMESERIES.suffix(false)], ['1', TIMESERIES.suffix(true)]], ''),
    // the second field is $snap_ts_lang: 1 required where labels are served (collections, resources)
    mapBlock('$snap_ok:$snap_ts_lang:$snap_ts_query:$snap_ts_accept:$snap_ts_suffix:$uri', 'snap_ts_file', [
      [`~^1:[^:]*:[^:]*:[^:]*:[^:]*:(${escapeRegex(T)}/timeseries/${TIMESERIES.id})/(?!getData(?:\\.png)?/?$)(${TIMESERIES.chartName})(?:\\.png)?/?$`, '$1/$2.png'],
      [`~^1:[^:]*:1:json:${suffix}:${escapeRegex(T)}/$`, `${T}/index$1`],
      [`~^1:1:1:json:${suffix}:${escapeRegex(T)}/${C}/?$`, `${T}/$2$1`],
      [`~^1:1:1:[^:]*:${suffix}:${escapeRegex(T)}/${C}\\.json/?$`, `${T}/$2$1`],
      [`~^1:1:1:json:[^:]*:${escapeRegex(T)}/${C}/${ID}/?$`, `${T}/$1/$2${tsBare}`],
      [`~^1:1:1:[^:]*:[^:]*:${escapeRegex(T)}/${C}/${ID}\\.json/?$`, `${T}/$1/$2${tsBare}`],
      [`~^1:[^:]*:1:json:${suffix}:${escapeRegex(T)}/timeseries/${ID}/getData/?$`, `${T}/timeseries/$2/getData$1`],
      [`~^1:[^:]*:1:[^:]*:${suffix}:${escapeRegex(T)}/timeseries/${ID}/getData\\.json/?$`, `${T}/timeseries/$2/getData$1`],
    ], ''),
    '  # A pre-rendered chart is a download named after its series and chart (core/timeseries/charts.ts prerenderedFileName)',
    mapBlock('$snap_ts_file', 'snap_ts_disposition', [[`~^${escapeRegex(T)}/timeseries/(${TIMESERIES.id})/(${TIMESERIES.chartName})\\.png$`, TIMESERIES.chartDisposition('$1', '$2')]], ''),
    '',
    '  # The Content-Security-Policy: the query page and its DuckDB-WASM worker compile WebAssembly (server/http-cache.ts cspFor)',
    mapBlock('$uri', 'snap_csp', [[`~^${escapeRegex(QUERY_PAGE_PREFIX.slice(0, -1))}(/|$)`, QUERY_CSP]], SECURITY_HEADERS['Content-Security-Policy']!),
    '  # A GET with a Range header (answered by @site_range on the site\'s files)',
    mapBlock('$request_method:$http_range', 'snap_range', [['~^GET:.', '1']], ''),
    '  # The docs site: the path, else its index.html, else path.html (server/app.ts siteFile).',
    mapBlock('$uri', 'snap_site_file', [['~/$', '${uri}index.html']], '$uri'),
  ];
  return blocks.join('\n');
}
