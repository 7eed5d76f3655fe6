/**
 * The smaller points of issue 18: errors node's parser refuses carry the security headers, CONNECT is answered,
 * an id not in plain decimal names no record, a refused hot swap is reported once per build.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { errorBodySchema } from '../../core/http/errors.ts';
import { SECURITY_HEADERS } from '../../server/http-cache.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

/** Sends raw bytes, returns everything the server writes until it closes the connection. */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (got += d));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => reject(new Error(`no answer, got so far: ${JSON.stringify(got)}`)));
  });
}

function parse(answer: string): { status: number; headers: Map<string, string>; body: string } {
  const [head, body = ''] = answer.split('\r\n\r\n', 2);
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

function expectSecured(headers: Map<string, string>): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(headers.get(k.toLowerCase())).toBe(v);
  expect(headers.get('access-control-allow-origin')).toBe('*');
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('content-type')).toBe('application/json');
}

let s: Served;
beforeAll(async () => {
  s = await startEndpoint(inject('demoBuild'));
});
afterAll(async () => {
  await s.close();
});

describe('answers written outside the request handler', () => {
  test.each([
    ['a bad request line', 'GARBAGE\r\n\r\n', 400],
    ['headers over 16 KB', `GET /radarnet/mirror/v3/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('%s: %i with the JSON error body and the security headers', async (_what, bytes, status) => {
    const r = parse(await raw(s.url, bytes));
    expect(r.status).toBe(status);
    expectSecured(r.headers);
    expect(errorBodySchema.parse(JSON.parse(r.body)).statusCode).toBe(status);
  });

  test('CONNECT: 405 with Allow, the JSON error body and the security headers, then the connection is closed', async () => {
    const r = parse(await raw(s.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expectSecured(r.headers);
    expect(JSON.parse(r.body)).toMatchObject({ statusCode: 405, reason: 'Method Not Allowed', userMessage: 'Method CONNECT is not allowed here' });
    // the endpoint still answers
    expect((await get(s.url, '/radarnet/mirror/v3/files/1')).status).toBe(200);
  });
});

describe('an id not in plain decimal names no record (as on a static host and behind nginx)', () => {
  test.each(['0000000000000000000001', '01', '-0', '+1'])('/files/%s', async (id) => {
    const r = await get(s.url, `/radarnet/mirror/v3/files/${id}`);
    if (id === '+1') {
      expect(r.status).toBe(400);
      return;
    }
    expect(r.status).toBe(404);
    const body = errorBodySchema.parse(JSON.parse(r.text));
    expect(body.hints?.[0]).toBe(`Ids are written in plain decimal: /radarnet/mirror/v3/files/${BigInt(id)}`);
  });

  test('live queries too, and the plain form answers', async () => {
    expect((await get(s.url, '/radarnet/mirror/v3/files/0001?contentType=csv&includeHeaders=false')).status).toBe(404);
    expect((await get(s.url, '/superdarn/mirror/v3/transferred/files/001')).status).toBe(404);
    expect((await get(s.url, '/radarnet/mirror/v3/files/1')).status).toBe(200);
    expect((await get(s.url, '/radarnet/mirror/v3/files/%31')).status).toBe(200);
  });
});

test('a build that cannot be opened is reported once, not at every look (every 2 s) while it is linked', async () => {
  const dir = mkdtempSync(join(TEST_TMP, 'swap-refused-'));
  try {
    const link = join(dir, 'dist');
    symlinkSync(realpathSync(inject('demoBuild')), link);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const e = await startEndpoint(link, { watchMs: 30 });
    try {
      const relink = (to: string) => {
        symlinkSync(to, `${link}.new`);
        renameSync(`${link}.new`, link);
      };
      const bad = (name: string) => {
        const b = join(dir, name);
        mkdirSync(join(b, 'data'), { recursive: true });
        writeFileSync(join(b, 'build.json'), '{"not": "a build"');
        return b;
      };
      relink(bad('bad-1'));
      await new Promise((r) => setTimeout(r, 600));
      const refusals = () => errors.mock.calls.filter((c) => String(c[0]).includes('could not be opened')).length;
      expect(refusals()).toBe(1);
      relink(bad('bad-2'));
      await new Promise((r) => setTimeout(r, 600));
      expect(refusals()).toBe(2);
      expect(errors.mock.calls.filter((c) => String(c[0]).includes('could not be opened')).every((c) => !String(c[0]).includes('\n'))).toBe(true);
      // still serving the good build
      expect((await get(e.url, '/radarnet/mirror/v3/files/1')).status).toBe(200);
    } finally {
      await e.close();
      errors.mockRestore();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
