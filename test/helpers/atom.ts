/**
 * Reads an Atom 1.0 document with a strict XML parser (sax, strict mode with namespaces: malformed XML throws)
 * and checks what RFC 4287 requires of a feed and its entries: an id (an absolute IRI), a title and an
 * `updated` date-time with a zone; an author on the feed; every link an href; every entry an alternate link or
 * content. Returns the parts the tests compare.
 */
import { createRequire } from 'node:module';

interface SaxTag {
  name: string;
  uri: string;
  local: string;
  attributes: Record<string, { value: string }>;
}
interface SaxParser {
  onopentag: (t: SaxTag) => void;
  onclosetag: () => void;
  ontext: (t: string) => void;
  onerror: (e: Error) => void;
  write(s: string): SaxParser;
  close(): void;
}
const sax = createRequire(import.meta.url)('sax') as { parser(strict: boolean, opts: { xmlns: boolean }): SaxParser };

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface AtomLinkRead {
  rel: string;
  href: string;
  type?: string;
}
export interface AtomEntryRead {
  id: string;
  title: string;
  updated: string;
  summary: string;
  links: AtomLinkRead[];
}
export interface AtomRead extends Omit<AtomEntryRead, 'summary'> {
  author: string;
  entries: AtomEntryRead[];
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function parseAtom(xml: string): AtomRead {
  const p = sax.parser(true, { xmlns: true });
  const stack: string[] = [];
  let text = '';
  const feed: AtomRead = { id: '', title: '', updated: '', author: '', links: [], entries: [] };
  let entry: AtomEntryRead | undefined;
  p.onerror = (e) => {
    throw e;
  };
  p.onopentag = (t) => {
    if (t.uri !== ATOM_NS) throw new Error(`element ${t.name} is not in the Atom namespace`);
    if (stack.length === 0 && t.local !== 'feed') throw new Error(`root element ${t.local}, not feed`);
    stack.push(t.local);
    text = '';
    if (t.local === 'entry') entry = { id: '', title: '', updated: '', summary: '', links: [] };
    if (t.local === 'link') {
      const a = (n: string) => t.attributes[n]?.value;
      if (!a('href')) throw new Error('a link without href');
      (entry ?? feed).links.push({ rel: a('rel') ?? 'alternate', href: a('href')!, ...(a('type') ? { type: a('type')! } : {}) });
    }
  };
  p.ontext = (s) => {
    text += s;
  };
  p.onclosetag = () => {
    const name = stack.pop()!;
    const parent = stack.at(-1);
    const target = parent === 'entry' ? entry! : parent === 'feed' ? feed : undefined;
    if (target && (name === 'id' || name === 'title' || name === 'updated')) target[name] = text;
    if (parent === 'entry' && name === 'summary') entry!.summary = text;
    if (parent === 'author' && name === 'name' && stack.at(-2) === 'feed') feed.author = text;
    if (name === 'entry') feed.entries.push(entry!), (entry = undefined);
  };
  p.write(xml).close();
  for (const x of [feed, ...feed.entries]) {
    if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(x.id)) throw new Error(`id '${x.id}' is no absolute IRI`);
    if (x.title === '') throw new Error(`no title: ${x.id}`);
    if (!DATE_TIME.test(x.updated) || Number.isNaN(Date.parse(x.updated))) throw new Error(`updated '${x.updated}' is no RFC 3339 date-time: ${x.id}`);
  }
  if (feed.author === '') throw new Error('the feed has no author');
  for (const e of feed.entries) if (!e.links.some((l) => l.rel === 'alternate')) throw new Error(`entry ${e.id} has neither content nor an alternate link`);
  return feed;
}
