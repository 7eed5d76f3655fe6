/**
 * The one admission primitive (lib/admission.ts): a per-job wait deadline (what is left of a request's time
 * limit), refusals made once and reused, and CoDel: a standing queue (its shortest wait above the target for an
 * interval) makes new arrivals wait at most the target; a queue that drains never trips it.
 */
import { describe, expect, test } from 'vitest';
import { AdmissionGate, AdmissionRefused } from '../../lib/admission.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('AdmissionGate', () => {
  test('a job waits at most its own deadline; at 0 it is refused at once', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 10, maxWaitMs: 10_000 });
    const held = await gate.acquire(1);
    const t0 = performance.now();
    await expect(gate.acquire(1, { maxWaitMs: 40 })).rejects.toMatchObject({ why: 'deadline' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
    await expect(gate.acquire(1, { maxWaitMs: 0 })).rejects.toBeInstanceOf(AdmissionRefused);
    expect(gate.waiting).toBe(0);
    held.release();
    (await gate.acquire(1, { maxWaitMs: 0 })).release();
  });

  test('refusals of one kind and Retry-After are one object (no stack trace made per refusal)', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 0, maxWaitMs: 1000, initialHoldMs: 100 });
    const held = await gate.acquire(1);
    const a = await gate.acquire(1).catch((e: unknown) => e);
    const b = await gate.acquire(1).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(AdmissionRefused);
    expect(a).toBe(b);
    expect((a as AdmissionRefused).retryAfterS).toBe(1);
    held.release();
  });

  test('CoDel: a standing queue sheds new arrivals after the target, not the whole deadline; a drained one stops', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 100, maxWaitMs: 5_000, targetMs: 20, intervalMs: 50 });
    expect(gate.standing).toBe(false);
    // one slot held 30 ms per job, four clients asking again and again: a queue that never drains
    let running = true;
    let refused = 0;
    const client = async () => {
      while (running) {
        try {
          const a = await gate.acquire(1);
          await sleep(30);
          a.release();
        } catch (e) {
          expect(e).toBeInstanceOf(AdmissionRefused);
          refused++;
        }
      }
    };
    const clients = [client(), client(), client(), client()];
    const t0 = performance.now();
    while (!gate.standing && performance.now() - t0 < 3000) await sleep(10);
    expect(gate.standing).toBe(true);
    // a job arriving now, behind the standing queue, is refused after about the target, not the 5 s deadline
    const t1 = performance.now();
    await expect(gate.acquire(1)).rejects.toMatchObject({ why: 'deadline' });
    const waited = performance.now() - t1;
    expect(waited).toBeGreaterThanOrEqual(15);
    expect(waited).toBeLessThan(1000);
    running = false;
    await Promise.all(clients);
    expect(refused).toBeGreaterThan(0);
    // jobs going straight in (a drained queue) end it at the next interval
    for (let i = 0; i < 4; i++) {
      (await gate.acquire(1)).release();
      await sleep(30);
    }
    expect(gate.standing).toBe(false);
  });

  test('without a target the gate never sheds by time', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 100, maxWaitMs: 5_000 });
    const held = await gate.acquire(1);
    const late = gate.acquire(1);
    await sleep(100);
    expect(gate.standing).toBe(false);
    held.release();
    (await late).release();
  });
});
