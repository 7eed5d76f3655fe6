/**
 * Streamed answers of several chunks (each chunk's texts joined as bytes, lib/text-bytes.ts), many at once and
 * read at different paces, are byte for byte the tree's files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startTreeAndLive, type Served } from '../helpers/servers.ts';

let live: Served;
let site: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ live, site, close } = await startTreeAndLive(inject('demoBuild')));
});
afterAll(() => close());

/** Reads a body in pieces, pausing `pauseMs` after each. */
async function slowBody(url: string, pauseMs: number): Promise<Buffer> {
  const r = await fetch(url);
  expect(r.status).toBe(200);
  const parts: Buffer[] = [];
  const reader = r.body!.getReader();
  for (let c = await reader.read(); !c.done; c = await reader.read()) {
    parts.push(Buffer.from(c.value));
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return Buffer.concat(parts);
}

describe('streamed answers', () => {
  test('answers of several chunks, 12 at once at different paces, are the tree files to the byte', async () => {
    const base = `${live.url}/radarnet/mirror/v3/transferred/files`;
    const asks = [
      { query: '?timespan=1990/2100', file: 'transferred/files.json' },
      { query: '?timespan=1990/2100&expanded=true&contentType=csv', file: 'transferred/files.expanded.csv' },
      { query: '?timespan=1990/2100&contentType=checksumReport', file: 'transferred/files.sha1' },
    ];
    const expected = asks.map((a) => readFileSync(join(site, 'radarnet/mirror/v3', a.file)));
    // more than one DuckDB chunk (2,048 records)
    expect(expected[0]!.toString().split('"id"').length - 1).toBeGreaterThan(2048);
    const bodies = await Promise.all(Array.from({ length: 12 }, (_, i) => slowBody(`${base}${asks[i % 3]!.query}`, i % 4)));
    bodies.forEach((b, i) => expect(b.equals(expected[i % 3]!), asks[i % 3]!.query).toBe(true));
  });
});
