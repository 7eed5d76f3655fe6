/**
 * Issue 18, crash mix 3: renders that run out of time get their browser discarded (asked to close, killed after
 * 2 s) while more renders arrive and start a new one. The discarded browser used to take the endpoint process with
 * it: puppeteer drops its 'error' listeners from the CDP pipes when it closes its connection, and a browser that
 * then exits with the endpoint's messages unread in its pipe made node emit `read ECONNRESET` on the pipe with
 * nobody listening (lib/chart-renderer.ts guardBrowserProcess). Here, through the real renderer and Chromium, the
 * same sequence: heavy reports and 4000×4000 images, a 1.5 s limit, the mixes of the overload bench back to back.
 * Every render ends in an image, a timeout, a failure or a refusal (each a 503 for the endpoint), and this process
 * sees no uncaught exception (before the fix it died within the first round, three runs of three).
 */
import { afterAll, expect, test } from 'vitest';
import { ChartRenderer, RenderFailed, RendererBusy } from '../../lib/chart-renderer.ts';

const uncaught: unknown[] = [];
const record = (e: unknown) => void uncaught.push(e);
process.on('uncaughtException', record);
afterAll(() => void process.off('uncaughtException', record));

// A report whose print keeps Chromium busy for seconds, and a large image: the renders run out of their 1.5 s.
const rows = Array.from({ length: 40_000 }, (_, i) => `<tr><td>${i}</td><td>${(i * 0.37) % 1}</td><td>2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z</td></tr>`).join('');
const REPORT = `<!doctype html><html><body><table>${rows}</table></body></html>`;
const circles = Array.from({ length: 20_000 }, (_, i) => `<circle cx="${i % 4000}" cy="${(i * 7) % 4000}" r="3"/>`).join('');
const IMAGE = `<!doctype html><html><body style="margin:0"><svg width="4000" height="4000">${circles}</svg></body></html>`;

test('renders running out of time while more arrive: every render ends in an image or a 503 reason, the process lives on, and a later render draws', async () => {
  const renderer = new ChartRenderer({ timeoutMs: 1500 });
  try {
    await renderer.warm();
    const pdf = { kind: 'pdf', html: REPORT, paper: 'A4' } as const;
    const png = { kind: 'png', html: IMAGE, width: 4000, height: 4000 } as const;
    const outcomes: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (const mix of [[pdf, pdf, png, png], [pdf, pdf, pdf, pdf, png, png]]) {
        const ends = await Promise.all(
          mix.map((job) =>
            renderer.render(job).then(
              () => 'drawn',
              (e: unknown) => (e instanceof RendererBusy ? 'busy' : e instanceof RenderFailed ? e.name : `other: ${String(e)}`),
            ),
          ),
        );
        outcomes.push(...ends);
      }
    }
    for (const o of outcomes) expect(['drawn', 'busy', 'RenderTimeout', 'RenderFailed']).toContain(o);
    // the path under test was taken: renders ran out of time and their browsers were replaced
    expect(outcomes).toContain('RenderTimeout');
    expect(renderer.launches).toBeGreaterThan(1);
    // and the renderer draws again afterwards
    const small = await renderer.render({ kind: 'png', html: '<!doctype html><html><body>ok</body></html>', width: 100, height: 50 });
    expect(small.subarray(1, 4).toString('latin1')).toBe('PNG');
    // give a browser killed last its moment to reset its pipe
    await new Promise((r) => setTimeout(r, 3000));
    expect(uncaught).toEqual([]);
  } finally {
    await renderer.close();
  }
}, 180_000);
