/**
 * The benches' own tools (issue 18, tail latency): the keys of what bench/.work caches (bench/lib/bench-cache.ts)
 * and the endpoint's account of a load run read from two /metrics scrapes (bench/lib/endpoint-diagnosis.ts).
 */
import { describe, expect, test } from 'vitest';
import { cacheKey, codeVersion } from '../../bench/lib/bench-cache.ts';
import { diagnose, parseMetrics } from '../../bench/lib/endpoint-diagnosis.ts';

describe('bench cache keys', () => {
  test('the same inputs and code give the same key; other inputs or other code another', () => {
    const code = ['bench/pg-load.ts'];
    expect(cacheKey({ days: 365 }, code)).toBe(cacheKey({ days: 365 }, code));
    expect(cacheKey({ days: 365 }, code)).toMatch(/^[0-9a-f]{16}$/);
    expect(cacheKey({ days: 366 }, code)).not.toBe(cacheKey({ days: 365 }, code));
    expect(cacheKey({ days: 365 }, ['bench/lib/postgres.ts'])).not.toBe(cacheKey({ days: 365 }, code));
  });

  test("a folder's version covers every file in it: the folder's digest is not any one file's", () => {
    const folder = codeVersion(['bench/lib']);
    expect(folder).toBe(codeVersion(['bench/lib/']));
    expect(folder).not.toBe(codeVersion(['bench/lib/postgres.ts']));
    // the order the paths are named in does not matter, nor a file named twice
    expect(codeVersion(['bench/lib/wrk.ts', 'bench/lib/postgres.ts'])).toBe(codeVersion(['bench/lib/postgres.ts', 'bench/lib/wrk.ts', 'bench/lib/wrk.ts']));
    expect(() => codeVersion(['bench/no-such-file.ts'])).toThrow(/no bench\/no-such-file\.ts/);
  });
});

const scrapeText = (o: { requests: number; fast: number; gc: number; gcFast: number; gcS: number; hits: number; misses: number; queued: number; waits: number; waitsFast: number; lagMax: number; declined?: number }) => `# HELP x
snapcat_http_request_duration_seconds_bucket{le="0.001",family="radar"} ${o.fast}
snapcat_http_request_duration_seconds_bucket{le="0.01",family="radar"} ${o.requests - 1}
snapcat_http_request_duration_seconds_bucket{le="0.1",family="radar"} ${o.requests}
snapcat_http_request_duration_seconds_bucket{le="+Inf",family="radar"} ${o.requests}
snapcat_http_request_duration_seconds_count{family="radar"} ${o.requests}
snapcat_http_request_duration_seconds_count{family="metrics"} 0
nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} ${o.gcFast}
nodejs_gc_duration_seconds_count{kind="minor"} ${o.gc}
nodejs_gc_duration_seconds_sum{kind="minor"} ${o.gcS}
nodejs_eventloop_lag_max_seconds ${o.lagMax}
nodejs_eventloop_lag_p99_seconds 0.02
process_cpu_seconds_total 1.5
snapcat_answer_cache_hits_total ${o.hits}
snapcat_answer_cache_misses_total ${o.misses}
snapcat_answer_cache_declined_total ${o.declined ?? 0}
snapcat_admission_queued_total{gate="duckdb"} ${o.queued}
snapcat_admission_queued_total{gate="bulk"} 7
snapcat_admission_wait_seconds_bucket{le="0.01",gate="duckdb"} ${o.waitsFast}
snapcat_admission_wait_seconds_count{gate="duckdb"} ${o.waits}
`;

describe('endpoint diagnosis', () => {
  test("a run's differences: GC pauses past 10 ms, queueing, held answers, the endpoint's own p99 bucket", () => {
    const before = parseMetrics(scrapeText({ requests: 10, fast: 10, gc: 5, gcFast: 5, gcS: 0.002, hits: 3, misses: 7, queued: 1, waits: 7, waitsFast: 7, lagMax: 0.5 }));
    // 1000 more requests, 990 of them within 1 ms (so the p99 is that bucket's bound); one more within 0.01 s
    const after = parseMetrics(scrapeText({ requests: 1010, fast: 1000, gc: 25, gcFast: 21, gcS: 0.102, hits: 903, misses: 107, queued: 41, waits: 107, waitsFast: 97, lagMax: 0.04, declined: 80 }));
    const d = diagnose(before, after);
    expect(d.requests).toBe(1000);
    expect(d.serverP99Ms).toBe(1);
    expect(d.gcPauses).toBe(20);
    expect(d.gcOver10ms).toBe(4);
    expect(d.gcMs).toBeCloseTo(100, 6);
    expect([d.hits, d.misses, d.declined]).toEqual([900, 100, 80]);
    // the DuckDB gate only, not the bulk lane
    expect(d.queued).toBe(40);
    expect(d.waitedOver10ms).toBe(10);
    // the event loop's delay is the run's own (prom-client resets it at each scrape): the later scrape's
    expect(d.loopMaxMs).toBeCloseTo(40, 6);
    expect(d.cpuS).toBe(0);
  });

  test('p99 in a slower bucket when more than 1% of the requests are slower', () => {
    const before = parseMetrics(scrapeText({ requests: 0, fast: 0, gc: 0, gcFast: 0, gcS: 0, hits: 0, misses: 0, queued: 0, waits: 0, waitsFast: 0, lagMax: 0 }));
    const after = parseMetrics(scrapeText({ requests: 100, fast: 90, gc: 0, gcFast: 0, gcS: 0, hits: 0, misses: 0, queued: 0, waits: 0, waitsFast: 0, lagMax: 0 }));
    // 99 within 0.01 s, the last within 0.1 s: the 99th is within 10 ms
    expect(diagnose(before, after).serverP99Ms).toBe(10);
  });
});
