/**
 * Charts through a real endpoint and a real Chromium: PNGs decode at the requested size with the requested
 * colours where the data is, bars sum the values, PDF reports parse with the expected pages and text, bad
 * input gives the JSON error body, a killed browser is replaced, a render past its limit is 503, and the
 * build's pre-rendered charts are served and cached.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { build } from '../../build-scripts/build.ts';
import { ChartRenderer } from '../../lib/chart-renderer.ts';
import { TEST_TMP } from '../helpers/paths.ts';
import { decodePng, isPng, pixelsOf, type Image } from '../helpers/png.ts';
import { readPdf } from '../helpers/pdf.ts';
import { get, startEndpoint, type Served } from '../helpers/servers.ts';

let s: Served;
const P = '/api/v1';
const LEVEL = 'ts_koeln_rhein_water_level';
const RAIN = 'ts_koeln_precipitation';
type Value = { timestamp: number; value: number | null };

beforeAll(async () => {
  s = await startEndpoint(inject('tsBuild'));
});
afterAll(async () => {
  await s.close();
});

async function values(id: string, timespan: string): Promise<Value[]> {
  const r = await get(s.url, `${P}/timeseries/${id}/getData?timespan=${encodeURIComponent(timespan)}`);
  expect(r.status).toBe(200);
  return (JSON.parse(r.text) as { values: Value[] }).values;
}

async function png(path: string, headers: Record<string, string> = {}): Promise<Image> {
  const r = await get(s.url, path, headers);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.type).toBe('image/png');
  return decodePng(r.body);
}

function post(body: unknown, accept: string, base = s.url) {
  return fetch(`${base}${P}/timeseries/getData`, { method: 'POST', headers: { Accept: accept, 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const styleParam = (style: unknown) => `style=${encodeURIComponent(JSON.stringify(style))}`;

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((x, y) => x + y, 0) / n, mb = b.reduce((x, y) => x + y, 0) / n;
  let num = 0, da = 0, db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

describe('PNG on demand', () => {
  test('the requested size, and the line in the requested colour follows the values', async () => {
    const timespan = '2024-01-03T00:00:00Z/2024-01-07T00:00:00Z';
    const img = await png(`${P}/timeseries/${LEVEL}/getData.png?timespan=${timespan}&width=640&height=400&grid=false&${styleParam({ chartType: 'line', properties: { color: '#ff00ff', width: 3 } })}`);
    expect([img.width, img.height]).toEqual([640, 400]);
    const magenta = pixelsOf(img, '#ff00ff', 8);
    expect(magenta.length).toBeGreaterThan(1000);
    // The line spans the plot from the first to the last value; map values to columns and compare heights.
    const xs = magenta.map(([x]) => x);
    const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
    const data = (await values(LEVEL, timespan)).filter((v) => v.value !== null);
    const t0 = data[0]!.timestamp, t1 = data.at(-1)!.timestamp;
    const byColumn = new Map<number, number[]>();
    for (const [x, y] of magenta) byColumn.set(x, [...(byColumn.get(x) ?? []), y]);
    const vals: number[] = [], heights: number[] = [];
    for (let i = 0; i < data.length; i += 12) {
      const x = Math.round(x0 + ((data[i]!.timestamp - t0) / (t1 - t0)) * (x1 - x0));
      const ys = byColumn.get(x);
      if (!ys) continue;
      vals.push(data[i]!.value!);
      heights.push(-ys.reduce((a, b) => a + b, 0) / ys.length);
    }
    expect(vals.length).toBeGreaterThan(30);
    expect(pearson(vals, heights)).toBeGreaterThan(0.95);
  });

  test('a hole in the data longer than the gap limit holds no pixel of the line (demo data, real DuckDB and Chromium)', async () => {
    const timespan = '2024-01-01T00:00:00Z/2024-01-08T23:59:59Z';
    const data = (await values(LEVEL, timespan)).filter((v) => v.value !== null);
    // the longest step between consecutive values: the demo's outage
    let at = 1;
    for (let i = 1; i < data.length; i++) if (data[i]!.timestamp - data[i - 1]!.timestamp > data[at]!.timestamp - data[at - 1]!.timestamp) at = i;
    const [from, to] = [data[at - 1]!.timestamp, data[at]!.timestamp];
    expect(to - from).toBeGreaterThan(7 * 600_000); // over the limit: (noDataGapThreshold 5 + 1) × 10 min
    const img = await png(`${P}/timeseries/${LEVEL}/getData.png?timespan=${timespan}&grid=false&${styleParam({ chartType: 'line', properties: { color: '#ff00ff', width: 2 } })}`);
    const magenta = pixelsOf(img, '#ff00ff', 40);
    const xs = magenta.map(([x]) => x);
    // the plot spans the timespan: map the hole's ends to columns with the plot's x range from the pixels' extent
    const [start, end] = timespan.split('/').map((d) => Date.parse(d)) as [number, number];
    const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
    const [t0, t1] = [data[0]!.timestamp, data.at(-1)!.timestamp];
    const col = (t: number) => x0 + ((t - t0) / (t1 - t0)) * (x1 - x0);
    expect(end - start).toBeGreaterThan(t1 - t0 - 1);
    const inside = magenta.filter(([x]) => x > col(from) + 2 && x < col(to) - 2);
    expect(col(to) - col(from)).toBeGreaterThan(6);
    expect(inside).toEqual([]);
    expect(magenta.filter(([x]) => x < col(from)).length).toBeGreaterThan(100);
    expect(magenta.filter(([x]) => x > col(to)).length).toBeGreaterThan(100);
  });

  test('Accept: image/png selects the chart; base64=true gives the same image base64-encoded', async () => {
    const a = await get(s.url, `${P}/timeseries/${LEVEL}/getData?width=300&height=200&timespan=2024-01-02TZ/P1D`, { Accept: 'image/png' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-disposition')).toBe(`attachment; filename="${LEVEL}_20240102T000000Z_20240103T000000Z.png"`);
    expect(isPng(a.body)).toBe(true);
    const b = await get(s.url, `${P}/timeseries/${LEVEL}/getData.png?width=300&height=200&base64=true`);
    expect(b.status).toBe(200);
    expect(b.type).toBe('image/png');
    const decoded = Buffer.from(b.text, 'base64');
    expect(isPng(decoded)).toBe(true);
    expect(decodePng(decoded).width).toBe(300);
  });

  test('bars show the sum of the values per UTC day', async () => {
    const timespan = '2024-01-01T00:00:00Z/2024-01-08T23:59:59Z';
    const img = await png(`${P}/timeseries/${RAIN}/getData.png?timespan=${timespan}&grid=false&${styleParam({ chartType: 'bar', properties: { interval: 'byDay', color: '#00aa00', width: 0.6 } })}`);
    const sums = new Map<string, number>();
    for (const v of await values(RAIN, timespan)) if (v.value !== null) sums.set(new Date(v.timestamp).toISOString().slice(0, 10), (sums.get(new Date(v.timestamp).toISOString().slice(0, 10)) ?? 0) + v.value);
    const expected = [...sums.values()].filter((x) => x > 0);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    // Bars: runs of columns holding green; a bar's height is its green pixels in its middle column.
    const green = pixelsOf(img, '#00aa00', 4);
    const columns = [...new Set(green.map(([x]) => x))].sort((a, b) => a - b);
    const runs: number[][] = [];
    for (const x of columns) {
      const last = runs.at(-1);
      if (last && x === last.at(-1)! + 1) last.push(x);
      else runs.push([x]);
    }
    const heights = runs.map((r) => green.filter(([x]) => x === r[Math.floor(r.length / 2)]).length);
    expect(heights.length).toBe(expected.length);
    const max = Math.max(...expected), hmax = Math.max(...heights);
    heights.forEach((h, i) => expect(Math.abs(h - (expected[i]! / max) * hmax)).toBeLessThanOrEqual(2));
  });
});

describe('PDF report', () => {
  test('POST with Accept application/pdf: the chart page, then each series with its table and values', async () => {
    const timespan = '2024-01-04T00:00:00Z/2024-01-04T23:59:59Z';
    const res = await post({ timespan, language: 'de', styleOptions: { [LEVEL]: { chartType: 'line', properties: { color: '#0000ff' } }, [RAIN]: { chartType: 'bar', properties: { interval: 'byHour' } } } }, 'application/pdf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${LEVEL}_${RAIN}_20240104T000000Z_20240104T235959Z.pdf"`);
    const pdf = await readPdf(Buffer.from(await res.arrayBuffer()));
    // the water level: its reference value and status interval tables and 144 ten-minute values take two
    // pages (the values table's header repeated); the hourly rain one
    expect(pdf.pages).toBe(4);
    expect(Math.round(pdf.size.width)).toBe(595); // A4 for de
    const stations = await (await get(s.url, `${P}/stations?locale=de`)).text;
    expect(stations).toContain('Köln');
    expect(pdf.text[0]).toContain('Zeit (UTC)');
    expect(pdf.text[1]).toContain('Station');
    expect(pdf.text[1]).toContain('Köln');
    expect(pdf.text[1]).toContain('Wasserstand');
    expect(pdf.text[1]).toContain('Referenzwerte');
    expect(pdf.text[1]).toMatch(/Meldestufe 1 [\d.,]+ /);
    expect(pdf.text[1]).toContain('Statusintervalle');
    expect(pdf.text[2]).toContain('Zeit (UTC) Wert [cm]');
    expect(pdf.text[3]).toContain('Niederschlag');
    expect(pdf.text[3]).not.toContain('Referenzwerte');
    // every timestamp of the day is in the values table of the first series
    const level = (await values(LEVEL, timespan)).filter((v) => v.value !== null);
    expect(level.length).toBeGreaterThan(100);
    for (const v of level.slice(0, 20)) {
      const d = new Date(v.timestamp);
      const time = `04.01.2024 ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
      expect(pdf.text[1]).toContain(`${time} ${String(v.value).replace('.', ',')}`);
    }
  });

  test('GET getData.pdf with locale en_US prints on US Letter', async () => {
    const r = await get(s.url, `${P}/timeseries/${LEVEL}/getData.pdf?locale=en_US&timespan=PT12H/2024-01-05TZ`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${LEVEL}_20240104T120000Z_20240105T000000Z.pdf"`);
    const pdf = await readPdf(r.body);
    expect([Math.round(pdf.size.width), Math.round(pdf.size.height)]).toEqual([612, 792]);
    expect(pdf.text[0]).toContain('Time (UTC)');
  });
});

describe('bad input: status and the JSON error body', () => {
  async function error(path: string, status: number, init?: RequestInit) {
    const res = await fetch(`${s.url}${path}`, init);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    return (await res.json()) as { statusCode: number; userMessage: string; hints?: string[] };
  }

  test.each([
    ['style=notjson', /'style' is not JSON/],
    [`${styleParam({ chartType: 'pie' })}`, /'style' is not a valid style/],
    [`${styleParam({ chartType: 'line', properties: { color: 'red' } })}`, /'style' is not a valid style at properties.color/],
    ['width=10', /'width'/],
    ['legend=maybe', /'legend'/],
  ])('GET getData.png?%s is 400', async (query, message) => {
    const b = await error(`${P}/timeseries/${LEVEL}/getData.png?${query}`, 400);
    expect(b.userMessage).toMatch(message);
    expect(b.hints?.[0]).toMatch(/^A valid example/);
  });

  test('an unknown id, an unknown interval, a series without a pre-rendered chart: 404', async () => {
    expect((await error(`${P}/timeseries/ts_nope/getData.png`, 404)).userMessage).toMatch(/ts_nope/);
    expect((await error(`${P}/timeseries/ts_nope/lastWeek`, 404)).userMessage).toMatch(/ts_nope/);
    expect((await error(`${P}/timeseries/${LEVEL}/lastYear`, 404)).userMessage).toMatch(/No chart interval 'lastYear'/);
    const series = JSON.parse((await get(s.url, `${P}/timeseries`)).text) as { id: string }[];
    const unconfigured = series.map((x) => x.id).find((id) => /pm10/.test(id) && !/muenchen/.test(id))!;
    expect((await error(`${P}/timeseries/${unconfigured}/lastWeek`, 404)).userMessage).toBe(`No pre-rendered chart found for timeseries '${unconfigured}'`);
    expect((await fetch(`${s.url}${P}/timeseries/${unconfigured}/lastWeek`)).headers.get('content-disposition')).toBeNull();
  });

  test('POST render requests: bad JSON, no series, a bad style, an unknown id', async () => {
    const init = (body: string) => ({ method: 'POST', headers: { Accept: 'image/png' }, body });
    expect((await error(`${P}/timeseries/getData`, 400, init('{'))).userMessage).toMatch(/not JSON/);
    expect((await error(`${P}/timeseries/getData`, 400, init('{}'))).userMessage).toMatch(/'styleOptions'/);
    expect((await error(`${P}/timeseries/getData`, 400, init(JSON.stringify({ styleOptions: { [LEVEL]: { chartType: 'line', properties: { lineType: 'wavy' } } } })))).userMessage).toMatch(/styleOptions.ts_koeln_rhein_water_level/);
    expect((await error(`${P}/timeseries/getData`, 404, init(JSON.stringify({ styleOptions: { ts_nope: { chartType: 'line' } } })))).userMessage).toMatch(/ts_nope/);
  });

  test('a chart type on a path without charts is 406', async () => {
    expect((await error(`${P}/stations`, 406, { headers: { Accept: 'image/png' } })).userMessage).toMatch(/only from data paths/);
  });
});

describe('the browser', () => {
  test('killed between requests, or during one: the next answer is still a chart', async () => {
    await png(`${P}/timeseries/${LEVEL}/getData.png?width=200&height=100`);
    const launches = s.renderer.launches;
    process.kill((await s.renderer.browserPid())!, 'SIGKILL');
    await png(`${P}/timeseries/${LEVEL}/getData.png?width=200&height=100`);
    expect(s.renderer.launches).toBe(launches + 1);
    // during a request
    const pid = (await s.renderer.browserPid())!;
    const pending = get(s.url, `${P}/timeseries/${LEVEL}/getData.pdf?timespan=P7D/2024-01-09TZ`);
    await new Promise((r) => setTimeout(r, 30));
    process.kill(pid, 'SIGKILL');
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('a render past its time limit is 503 with the JSON error body, and the endpoint goes on', async () => {
    const renderer = new ChartRenderer({ timeoutMs: 1 });
    const slow = await startEndpoint(inject('tsBuild'), { renderer });
    try {
      const r = await get(slow.url, `${P}/timeseries/${LEVEL}/getData.png`);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(r.text).userMessage).toMatch(/longer than 1 ms/);
      expect((await get(slow.url, `${P}/timeseries/${LEVEL}/getData`)).status).toBe(200);
    } finally {
      await slow.close();
      await renderer.close();
    }
  });
});

describe('one time limit per render', () => {
  test('a render that ran out of time is not tried again on a new browser: its slot is free when the 503 naming the limit is sent', async () => {
    const renderer = new ChartRenderer({ timeoutMs: 1 });
    const slow = await startEndpoint(inject('tsBuild'), { renderer });
    try {
      await renderer.warm();
      const launches = renderer.launches;
      const r = await get(slow.url, `${P}/timeseries/${LEVEL}/getData.pdf?timespan=P7D/2024-01-09TZ`);
      expect(r.status).toBe(503);
      expect(JSON.parse(r.text).userMessage).toBe('Rendering the chart took longer than 1 ms');
      // no retry: no second browser was started for it, and nothing holds a render slot or waits
      expect(renderer.launches).toBe(launches);
      expect([renderer.gate.inUse, renderer.gate.waiting]).toEqual([0, 0]);
    } finally {
      await slow.close();
      await renderer.close();
    }
  });
});

describe('bounded rendering queue', () => {
  test('renders beyond the waiting limit are 503 at once with Retry-After, the others are charts', async () => {
    const renderer = new ChartRenderer({ pages: 1, maxWaiting: 1 });
    const busy = await startEndpoint(inject('tsBuild'), { renderer });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(busy.url, `${P}/timeseries/${LEVEL}/getData.png?width=${300 + i}&height=200`)));
      const refused = answers.filter((r) => r.status === 503);
      expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const r of refused) {
        // the seconds the charts ahead would take at the mean time a chart held its place (lib/admission.ts)
        expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
        expect(JSON.parse(r.text).userMessage).toMatch(/Too many charts/);
      }
    } finally {
      await busy.close();
      await renderer.close();
    }
  });
});

describe('pre-rendered charts', () => {
  test('served from the static tree, with and without .png and a chart qualifier', async () => {
    for (const name of ['lastDay', 'lastWeek.png', 'lastMonth', 'lastWeek_with_legend']) {
      const img = await png(`${P}/timeseries/${LEVEL}/${name}`);
      expect([img.width, img.height]).toEqual([800, 500]);
      const head = await fetch(`${s.url}${P}/timeseries/${LEVEL}/${name}`, { method: 'HEAD' });
      expect(head.headers.get('content-disposition')).toBe(`attachment; filename="${LEVEL}_${name.replace('.png', '')}.png"`);
      expect(pixelsOf(img, '#1e90ff', 8).length).toBeGreaterThan(500);
    }
    const r = await get(s.url, `${P}/timeseries/${LEVEL}/lastWeek.pdf`);
    expect(r.status).toBe(406);
  });

  test('a second build of the same snapshot renders nothing again', async () => {
    const dir = await mkdtemp(join(TEST_TMP, 'charts-cache-'));
    try {
      const out = join(dir, 'dist');
      const first = await build({ snapshot: inject('tsSnapshot'), out, quiet: true });
      expect(first.stats['timeseries charts rendered']).toBeGreaterThan(10);
      expect(first.stats['timeseries charts from cache']).toBe(0);
      const second = await build({ snapshot: inject('tsSnapshot'), out, quiet: true });
      expect(second.stats['timeseries charts rendered']).toBe(0);
      expect(second.stats['timeseries charts from cache']).toBe(first.stats['timeseries charts rendered']);
      expect((await readdir(join(`${out}.cache`, 'charts'))).length).toBe(first.stats['timeseries charts rendered']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000); // two builds with charts: 46 s each seen at load 3, more on a loaded CI machine
});
