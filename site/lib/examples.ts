/** An example request of the docs pages and, when the static tree holds its answer, that answer's excerpt. */
import { jsonExcerpt } from './json-excerpt.ts';
import { readTreeStart, treeFileBytes, treeHas, treeHref } from './data.ts';
import type { CurlRequest } from './curl.ts';

export interface FileLink {
  label: string;
  href: string;
}

export interface Example {
  /** `GET /radarnet/mirror/v3/radars/1` */
  request: string;
  /** A POST body, shown under the request. */
  body?: string;
  /** The request as a `curl` line (site/lib/curl.ts). */
  curl: CurlRequest;
  /** The tree file that holds the answer, when one does. */
  file?: FileLink;
  /** Other files of the tree for the same path (CSV, expanded, checksum report). */
  variants: FileLink[];
  /** The answer, pretty-printed and cut to some 40 lines. */
  response?: string;
  truncated: boolean;
  /** Size of the whole answer. */
  bytes: number;
  /** Why there is no answer shown (live only, nothing in this snapshot). */
  note?: string;
}

export const EXCERPT_LINES = 40;

/** An example answered by a JSON file of the tree; `variants` lists other representations that exist. */
export function fileExample(request: string, rel: string, variants: { label: string; rel: string }[] = []): Example {
  const { text, whole } = readTreeStart(rel);
  const ex = jsonExcerpt(text, EXCERPT_LINES, whole);
  return {
    request,
    curl: curlOf(request),
    file: { label: rel.split('/').at(-1)!, href: treeHref(rel) },
    variants: variants.filter((v) => treeHas(v.rel)).map((v) => ({ label: v.label, href: treeHref(v.rel) })),
    response: ex.text,
    truncated: ex.truncated,
    bytes: treeFileBytes(rel),
  };
}

/** An example the static tree has no answer for. */
export function liveExample(request: string, note: string, body?: string): Example {
  return { request, curl: curlOf(request, body), ...(body === undefined ? {} : { body }), variants: [], truncated: false, bytes: 0, note };
}

/** The curl request of `GET /path` or `POST /path` (a POST with a JSON body). */
export function curlOf(request: string, body?: string): CurlRequest {
  const m = /^(GET|POST) (\S+)$/.exec(request);
  if (!m) throw new Error(`not a request line: ${request}`);
  const method = m[1] as 'GET' | 'POST';
  return {
    method,
    target: m[2]!,
    // the body as one line: a shell line breaks at no newline
    ...(body === undefined ? {} : { headers: [['Content-Type', 'application/json']] as [string, string][], body: JSON.stringify(JSON.parse(body)) }),
  };
}

/** The first `"id":` value of a collection file (its first record's id), read from the file's start. */
export function firstId(rel: string): string | undefined {
  if (!treeHas(rel)) return undefined;
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(readTreeStart(rel, 16 * 1024).text);
  return m ? String(JSON.parse(m[1]!)) : undefined;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
