/**
 * /healthz and /metrics: health of the build served (503 while none is open), and the Prometheus metrics:
 * requests by route family and status, latency histograms, admission waits and refusals of the DuckDB pool and
 * the chart renderer, the render queue, build age and the process's resident memory.
 */
import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, inject, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { EndpointMetrics } from '../../server/metrics.ts';
import { ConnectionPool } from '../../lib/duckdb-pool.ts';
import { RADAR_DB_FILE } from '../../lib/radar-catalogue.ts';
import { ChartRenderer } from '../../lib/chart-renderer.ts';
import { get, startEndpoint } from '../helpers/servers.ts';
import { sampleValue } from '../helpers/prometheus.ts';
import { ALERT_RULES } from '../../site/lib/operators-prometheus.ts';

const R = '/radarnet/mirror/v3';
const LEVEL = 'ts_koeln_rhein_water_level';

describe('/healthz', () => {
  test('200 with the build served, never cached, not revalidated', async () => {
    const s = await startEndpoint(inject('demoBuild'));
    try {
      const info = JSON.parse(JSON.stringify(s.build.manifest)) as { name: string; taken_at: string };
      const r = await get(s.url, '/healthz');
      expect(r.status).toBe(200);
      expect(r.type).toBe('application/json');
      expect(JSON.parse(r.text)).toEqual({ status: 'ok', name: info.name, taken_at: info.taken_at });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('etag')).toBeNull();
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect((await get(s.url, '/healthz', { 'If-None-Match': '*' })).status).toBe(200);
      const head = await fetch(`${s.url}/healthz`, { method: 'HEAD' });
      expect([head.status, (await head.arrayBuffer()).byteLength]).toEqual([200, 0]);
      const post = await fetch(`${s.url}/healthz`, { method: 'POST', body: 'x' });
      expect(post.status).toBe(405);
      expect(await post.json()).toMatchObject({ statusCode: 405, reason: 'Method Not Allowed' });
      // OPTIONS (the CORS preflight) is answered as on any other path of the site
      const preflight = (path: string) => fetch(`${s.url}${path}`, { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' } });
      const [health, docs] = await Promise.all([preflight('/healthz'), preflight('/docs/')]);
      expect(health.status).toBe(docs.status);
      expect(health.headers.get('allow')).toBe(docs.headers.get('allow'));
    } finally {
      await s.close();
    }
  });

  test('503 with the JSON error body while no build is open; every other path too, /metrics answers', async () => {
    const renderer = new ChartRenderer();
    const server = createApp(() => undefined, { renderer });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/healthz', `${R}/radars`, '/api/v1/', '/']) {
        const r = await get(url, path);
        expect(r.status, path).toBe(503);
        expect(r.headers.get('retry-after'), path).toBe('5');
        expect(r.headers.get('cache-control'), path).toBe('no-store');
        expect(JSON.parse(r.text), path).toMatchObject({ statusCode: 503, reason: 'Service Unavailable', userMessage: 'The endpoint is opening its build and answers nothing yet' });
      }
      const m = await get(url, '/metrics');
      expect(m.status).toBe(200);
      expect(sampleValue(m.text, 'snapcat_http_requests_total', { family: 'health', status: '503' })).toBe(1);
      expect(sampleValue(m.text, 'snapcat_http_requests_total', { family: 'radar', status: '503' })).toBe(1);
      expect(sampleValue(m.text, 'snapcat_snapshot_age_seconds')).toBeNaN();
      expect(sampleValue(m.text, 'snapcat_build_age_seconds')).toBeNaN();
      expect(m.text).not.toMatch(/^snapcat_build_info\{/m);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await renderer.close();
    }
  });
});

describe('/metrics', () => {
  test('requests by route family and status, latency, build age and info, resident memory', async () => {
    const build = realpathSync(inject('demoBuild'));
    const s = await startEndpoint(build);
    try {
      const asked: [string, number][] = [
        [`${R}/radars`, 200],
        [`${R}/files?timespan=2024-01-01/2024-01-02`, 200],
        [`${R}/files?timespan=2024-01-01/2024-01-02&radar_code=sas`, 200],
        [`${R}/files?timespan=yesterday`, 400],
        [`${R}/no-such-thing`, 404],
        ['/docs/', 200],
        ['/no/such/page', 404],
        ['/no/such/other/page', 404],
      ];
      for (const [path, status] of asked) expect((await get(s.url, path)).status, path).toBe(status);
      // asked again: answered from the answers held in memory (answer-cache.ts), the one hit
      expect((await get(s.url, `${R}/radars`)).status).toBe(200);
      const r = await get(s.url, '/metrics');
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      const t = r.text;
      const count = (family: string, status: string) => sampleValue(t, 'snapcat_http_requests_total', { family, status });
      expect(count('radar', '200')).toBe(4);
      expect(sampleValue(t, 'snapcat_answer_cache_hits_total')).toBe(1);
      expect(sampleValue(t, 'snapcat_answer_cache_misses_total')).toBe(asked.length);
      // the four answers of 200 held (a long one once packed on the thread pool), and their bytes
      expect(sampleValue(t, 'snapcat_answer_cache_answers')).toBeGreaterThanOrEqual(3);
      expect(sampleValue(t, 'snapcat_answer_cache_bytes')).toBeGreaterThan(0);
      expect(sampleValue(t, 'snapcat_answer_cache_packed_answers')).toBeGreaterThanOrEqual(0);
      // node's zstd handle passed its self-test: no frame was unpacked the slow way
      expect(sampleValue(t, 'snapcat_answer_cache_unpack_fallbacks_total')).toBe(0);
      expect(count('radar', '400')).toBe(1);
      expect(count('radar', '404')).toBe(1);
      expect(count('site', '200')).toBe(1);
      expect(count('site', '404')).toBe(2);
      // no raw path in any label: the families are all there is
      expect(t).not.toMatch(/no-such|no\/such/);
      expect(sampleValue(t, 'snapcat_http_request_duration_seconds_count', { family: 'radar' })).toBe(6);
      expect(sampleValue(t, 'snapcat_http_request_duration_seconds_bucket', { family: 'radar', le: '+Inf' })).toBe(6);
      expect(sampleValue(t, 'snapcat_http_request_duration_seconds_sum', { family: 'site' })).toBeGreaterThan(0);
      // the two live file queries borrowed a DuckDB connection each (at least: the build's own reads are not requests)
      expect(sampleValue(t, 'snapcat_admission_wait_seconds_count', { gate: 'duckdb' })).toBeGreaterThanOrEqual(2);
      for (const gate of ['duckdb', 'bulk', 'render']) {
        expect(sampleValue(t, 'snapcat_admission_refused_total', { gate }), gate).toBe(0);
        expect(sampleValue(t, 'snapcat_admission_waiting', { gate }), gate).toBe(0);
      }
      const { name, taken_at } = s.build.manifest;
      expect(sampleValue(t, 'snapcat_build_info', { name, taken_at })).toBe(1);
      const now = Date.now();
      expect(Math.abs(sampleValue(t, 'snapcat_snapshot_age_seconds')! - (now - Date.parse(taken_at)) / 1000)).toBeLessThan(5);
      expect(Math.abs(sampleValue(t, 'snapcat_build_age_seconds')! - (now - statSync(join(build, 'build.json')).mtimeMs) / 1000)).toBeLessThan(5);
      expect(sampleValue(t, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
      expect(sampleValue(t, 'snapcat_endpoint_processes')).toBe(1);
      // the operators page's alert rules name only metrics /metrics has
      const named = new Set(ALERT_RULES.match(/\bsnapcat_\w+/g));
      expect(named.size).toBe(3);
      for (const name of named) expect(t, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
    } finally {
      await s.close();
    }
  });

  test('DuckDB pool: waits and refusals counted, the waiting line measured', async () => {
    const renderer = new ChartRenderer();
    const metrics = new EndpointMetrics({ getBuild: () => undefined, renderer });
    const pool = await ConnectionPool.open(join(realpathSync(inject('demoBuild')), 'data', RADAR_DB_FILE), 1, { maxWaiting: 1 });
    try {
      let release!: () => void;
      const holding = pool.with(() => new Promise<void>((r) => (release = r)));
      const waiting = pool.with(async () => 'second');
      await expect(pool.with(async () => 'third')).rejects.toMatchObject({ status: 503 });
      expect(pool.load).toEqual({ busy: 1, waiting: 1 });
      await new Promise((r) => setTimeout(r, 30));
      release();
      await holding;
      await waiting;
      const t = await metrics.text();
      expect(sampleValue(t, 'snapcat_admission_refused_total', { gate: 'duckdb' })).toBe(1);
      expect(sampleValue(t, 'snapcat_admission_queued_total', { gate: 'duckdb' })).toBe(1);
      expect(sampleValue(t, 'snapcat_admission_wait_seconds_count', { gate: 'duckdb' })).toBe(2);
      // the second waited at least the 30 ms the first held its connection
      expect(sampleValue(t, 'snapcat_admission_wait_seconds_sum', { gate: 'duckdb' })).toBeGreaterThanOrEqual(0.025);
      expect(sampleValue(t, 'snapcat_admission_wait_seconds_bucket', { gate: 'duckdb', le: '0.01' })).toBe(1);
    } finally {
      metrics.close();
      pool.close();
      await renderer.close();
    }
  });

  test('chart renderer: the render queue, its waits and its 503s as the answers had them', async () => {
    const renderer = new ChartRenderer({ pages: 1, maxWaiting: 1 });
    const s = await startEndpoint(inject('tsBuild'), { renderer });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(s.url, `/api/v1/timeseries/${LEVEL}/getData.png?width=${300 + i}&height=200`)));
      const ok = answers.filter((r) => r.status === 200).length;
      const refused = answers.filter((r) => r.status === 503).length;
      expect(ok + refused).toBe(6);
      expect(refused).toBeGreaterThanOrEqual(1);
      const t = (await get(s.url, '/metrics')).text;
      expect(sampleValue(t, 'snapcat_http_requests_total', { family: 'charts', status: '200' })).toBe(ok);
      expect(sampleValue(t, 'snapcat_http_requests_total', { family: 'charts', status: '503' })).toBe(refused);
      expect(sampleValue(t, 'snapcat_admission_refused_total', { gate: 'render' })).toBe(refused);
      expect(sampleValue(t, 'snapcat_admission_wait_seconds_count', { gate: 'render' })).toBe(ok);
      expect(sampleValue(t, 'snapcat_admission_queued_total', { gate: 'render' })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(t, 'snapcat_admission_waiting', { gate: 'render' })).toBe(0);
      expect(sampleValue(t, 'snapcat_admission_busy', { gate: 'render' })).toBe(0);
    } finally {
      await s.close();
      await renderer.close();
    }
  });
});
